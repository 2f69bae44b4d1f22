import { randomUUID } from "node:crypto";
import { LogController, type FastifyInstance, type FastifyServerOptions } from "fastify";
import type { CatalogSource } from "../app.js";
import type { Store } from "../store/store.js";
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
} satisfies Partial<FastifyServerOptions>;

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
  app.get("/readyz", async (request, reply) => {
    reply.type(json).header("cache-control", "no-store");
    try {
      const hash = catalog.current.manifest.contentHash;
      await store.ticketUsage("readyz"); // any read proves the store answers
      return reply.send(successBody(JSON.stringify({ status: "ready", catalog: hash.slice(0, 12) }), clock()));
    } catch (error) {
      request.log.error({ err: error }, "not ready");
      const failure = new ApiError(503, "not_ready", "The store does not answer yet: retry shortly.");
      return reply.code(503).send(errorBody({ code: failure.code, message: failure.message }, clock()));
    }
  });
}
