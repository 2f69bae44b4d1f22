import { randomUUID } from "node:crypto";
import { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from "fastify";
import type { CatalogSource } from "../app.js";
import { StorageUnavailable, type Store } from "../store/store.js";
import { ApiError, errorBody, successBody } from "./envelope.js";

/**
 * Request ids, one honest log line per request, and the health endpoints an orchestrator polls.
 * Logs carry no personal data: paths are logged without their query string (a query can hold a
 * client id or a visitor's words), bodies are never logged, and personal fields are redacted
 * from what is logged beside a message (an error included).
 */
const PERSONAL_FIELDS = ["email", "contactEmail", "name", "company", "clientId", "description", "quoteText", "ticketText", "projectDescription"];

export function loggerOptions(logger: boolean | { level: string; stream?: NodeJS.WritableStream } | undefined): FastifyServerOptions["logger"] {
  if (!logger) return false;
  return {
    ...(typeof logger === "object" ? logger : {}),
    // Named paths only: the objects logged are the request line and `err`. A wildcard first
    // segment (`*.email`) would run the redactor over every request's child-logger bindings,
    // measured at a quarter of the read throughput.
    redact: { paths: PERSONAL_FIELDS.flatMap((f) => [f, `err.${f}`]), censor: "[redacted]" },
  };
}

const REQUEST_ID = /^[\w.-]{1,64}$/;

export const requestIdOptions = {
  // Off, so genReqId (which reads the header itself) always decides.
  requestIdHeader: false,
  // A caller's own id is kept when it is short and plain, so both sides' logs can be joined.
  genReqId: (request: { headers: Record<string, unknown> }) => {
    const given = request.headers["x-request-id"];
    return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
  },
  // Fastify's own two lines per request are replaced by the one line of registerObservability.
  logController: new LogController({ disableRequestLogging: true }),
  childLoggerFactory: (logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) => new RequestLogger(logger, bindings, options),
} satisfies Partial<FastifyServerOptions>;

type Log = (...args: unknown[]) => void;
type Bindings = Parameters<FastifyBaseLogger["child"]>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger["child"]>[1]>;

/**
 * A request's logger, bound to its id. Fastify makes one for every request, and pino's child
 * loggers cost more to make (measured: about 2 µs) than the rest of fastify's own work on a
 * cached answer; most requests never log (the request line is off above info), so pino's child
 * is made the first time a request does.
 */
class RequestLogger implements FastifyBaseLogger {
  #pino: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get pino(): FastifyBaseLogger {
    return (this.#pino ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.#pino?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.pino.level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.pino.child(bindings, options);
  }

  private write(level: "fatal" | "error" | "warn" | "info" | "debug" | "trace", args: unknown[]): void {
    (this.pino[level] as Log).apply(this.pino, args);
  }

  // One line per level: each hands its arguments, unchanged, to pino's child.
  fatal(...args: unknown[]): void { this.write("fatal", args); }
  error(...args: unknown[]): void { this.write("error", args); }
  warn(...args: unknown[]): void { this.write("warn", args); }
  info(...args: unknown[]): void { this.write("info", args); }
  debug(...args: unknown[]): void { this.write("debug", args); }
  trace(...args: unknown[]): void { this.write("trace", args); }
  silent(): void {}
}

export function registerObservability(app: FastifyInstance, catalog: CatalogSource, store: Store, clock: () => Date): void {
  // Registered only when the line is written (the logger is on, at info or below): a hook that
  // does nothing still costs every request.
  if (["trace", "debug", "info"].includes(app.log.level)) {
    app.addHook("onResponse", (request, reply, done) => {
      request.log.info({ method: request.method, path: request.url.split("?")[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, "request");
      done();
    });
  }

  const json = "application/json; charset=utf-8";
  app.get("/healthz", (_request, reply) => reply.type(json).header("cache-control", "no-store").send(successBody(JSON.stringify({ status: "ok" }), clock())));
  // Ready means every answer can be given at once: the catalog is warmed and the store loaded
  // (this waits for both), and the store takes writes (it retries one when the last failed, so
  // ready comes back by itself once the disk or database does).
  app.get("/readyz", async (request, reply) => {
    reply.type(json).header("cache-control", "no-store");
    const served = catalog.available;
    const hash = served?.manifest.contentHash.slice(0, 12);
    const lastError = catalog.lastError;
    let problem: string | undefined;
    if (!served) problem = `No catalog has arrived yet${lastError ? ` (${lastError})` : ""}: retry shortly.`;
    else {
      try {
        await served.warm();
      } catch (error) {
        problem = `The catalog ${hash} is broken (${(error as Error).message}): publish a fixed build.`;
      }
    }
    if (problem === undefined) {
      try {
        await store.checkWritable();
      } catch (error) {
        if (error instanceof StorageUnavailable) {
          request.log.error({ store: error.store, cause: error.reason }, `not ready: ${error.message}`);
          problem = `${error.message[0]!.toUpperCase()}${error.message.slice(1)}: writes fail until it can; retry shortly.`;
        } else {
          request.log.error({ err: error }, "not ready");
          problem = "The store does not answer yet: retry shortly.";
        }
      }
    }
    // The last catalog that was offered and not taken is named even while an older one serves.
    if (problem === undefined) return reply.send(successBody(JSON.stringify({ status: "ready", catalog: hash, ...(lastError ? { lastCatalogError: lastError } : {}) }), clock()));
    const failure = new ApiError(503, "not_ready", problem);
    return reply.code(503).send(errorBody({ code: failure.code, message: failure.message }, clock()));
  });
}
