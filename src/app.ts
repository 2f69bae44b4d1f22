import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { ApiError, errorBody, successBody, type ErrorPayload, type Serialized } from "./api/envelope.js";
import { registerResponseHeaders, setEveryAnswerHeaders } from "./api/headers.js";
import { API_PREFIX, LIMITS, operations, type Operation } from "./api/operations.js";
import { loggerOptions, registerObservability, requestIdOptions } from "./api/observability.js";
import { registerRateLimits } from "./api/rate-limit.js";
import { lazyValidators } from "./api/validators.js";
import { textDetails, validationDetails } from "./api/validation.js";
import type { CatalogLogger } from "./catalog/live.js";
import type { ServedCatalog } from "./catalog/served.js";
import { CONNECTION_LIMITS, type Config } from "./config.js";
import { registerDocs } from "./docs.js";
import { questionLog, type QuestionLog } from "./questions.js";
import { registerMcp } from "./mcp.js";
import { readHandlers } from "./routes/read.js";
import { writeHandlers } from "./routes/write.js";
import { STORAGE_RETRY_AFTER_SECONDS, StorageUnavailable, type Store } from "./store/store.js";

/**
 * Builds the HTTP application from its parts. No globals: a test creates an app in one line with
 * its own catalog, store and clock, and talks to it with `app.inject`.
 */
export interface CatalogSource {
  /** The catalog served; throws 503 not_ready while none has arrived (see LiveCatalog). */
  readonly current: ServedCatalog;
  /** The catalog served, if one has arrived. */
  readonly available: ServedCatalog | undefined;
  /** Why the last catalog offered was not taken, for /readyz. */
  readonly lastError?: string | undefined;
  /** Prepares what the catalog leaves for first use (see LiveCatalog.warm). */
  warm?(log: CatalogLogger): Promise<void>;
}

export interface AppOptions {
  catalog: CatalogSource;
  store: Store;
  clock?: () => Date;
  config: Pick<Config, "publicBaseUrl"> & Partial<Config>;
  /** How long a listening server waits for a first request before it warms up anyway (ms). */
  warmAfterMs?: number;
  /** Logging (pino options); a stream may be given to capture the log. */
  logger?: boolean | { level: string; stream?: NodeJS.WritableStream };
}

export interface RequestContext {
  catalog: ServedCatalog;
  store: Store;
  /** Where questions that found little are logged; absent unless FRONTDESK_QUERY_LOG is on. */
  questions?: QuestionLog;
  now: Date;
  request: FastifyRequest;
  query: Record<string, unknown>;
  params: Record<string, string>;
  body: Record<string, unknown>;
}

/** A handler answers with serialized data (catalog answers) or a value to serialize. */
export type Answer = { json: Serialized } | { data: unknown };
export type Handler = (ctx: RequestContext) => Answer | Promise<Answer>;

const WARM_AFTER_MS = 250;
// OPTIONS is left out: every path answers a CORS preflight.
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;

const fastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

export async function createApp(options: AppOptions): Promise<FastifyInstance> {
  const clock = options.clock ?? (() => new Date());
  // Validators are compiled on first use, and all of them once the server listens. Answers are
  // serialized by the handlers (catalog answers once per catalog), so no route has a response
  // schema: given both factories, fastify loads neither of its default compilers at start.
  const validators = lazyValidators();
  const limits = options.config.connections ?? CONNECTION_LIMITS;
  const app = Fastify({
    schemaController: { compilersFactory: { buildValidator: validators.factory, buildSerializer: () => () => (data) => JSON.stringify(data) } },
    logger: loggerOptions(options.logger),
    ...requestIdOptions,
    bodyLimit: LIMITS.bodyBytes,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Node looks for requests past their time every connectionsCheckingInterval (30 s by default).
    http: { headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs), connectionsCheckingInterval: Math.min(1000, limits.requestTimeoutMs) },
    trustProxy: trustedProxies(options.config.trustProxy ?? false),
    // Routes are matched case-sensitively; a trailing slash is forgiven. A path parameter may be
    // as long as the documented maximum; a longer one is answered by frameworkErrors.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: LIMITS.shortText },
    // What fastify rejects before routing (a broken percent-escape, an over-long path segment)
    // and what Node's parser rejects (headers too large) is answered in the envelope too.
    frameworkErrors: (error, request, reply) => {
      setEveryAnswerHeaders(request, reply);
      sendError(reply, toApiError(error, request));
    },
    clientErrorHandler: (error, socket) => writeClientError(error, socket, clock()),
  });

  app.server.maxConnections = limits.maxConnections;
  registerResponseHeaders(app);
  const questions = options.config.queryLog ? questionLog(options.store, clock, (message) => app.log.warn(message)) : undefined;

  // What is left for first use (validators, the FAQ, the search indexes) is prepared once the
  // first answer is out (an orchestrator's health check, usually) or after a moment without one:
  // it runs in steps of tens of milliseconds, and must never delay that first answer.
  app.addHook("onListen", (done) => {
    let started = false;
    const warm = () => {
      if (started) return;
      started = true;
      // Whatever fails here fails the requests that need it too; here it is only logged.
      void validators
        .compileAll()
        .then(() => options.catalog.warm?.(app.log))
        .catch((error: Error) => app.log.error(`warming up failed: ${error.message}`));
    };
    app.server.once("request", () => setImmediate(warm));
    setTimeout(warm, options.warmAfterMs ?? WARM_AFTER_MS).unref();
    done();
  });

  // Set before any route: a route keeps the handlers in place when it was registered.
  // A path that exists with other methods is 405 with the methods it has, not 404.
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0]!;
    const allowed = METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
    if (allowed.length > 0) {
      reply.header("allow", allowed.join(", "));
      return sendError(reply, new ApiError(405, "method_not_allowed", `${path} answers ${allowed.join(", ")}, not ${request.method}: GET /api/v1 lists every endpoint with its method.`));
    }
    sendError(reply, new ApiError(404, "not_found", `There is no endpoint ${request.method} ${path}: GET /api/v1 lists every endpoint.`));
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    sendError(reply, toApiError(error, request));
  });

  function sendError(reply: FastifyReply, error: ApiError) {
    for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
    reply
      .code(error.status)
      .type("application/json; charset=utf-8")
      .header("cache-control", "no-store")
      .send(errorBody({ code: error.code, message: error.message, ...(error.details.length ? { details: error.details } : {}) }, clock()));
  }

  await registerRateLimits(app, { readsPerMinute: options.config.readsPerMinute ?? 0, writesPerMinute: options.config.writesPerMinute ?? 0 });

  registerObservability(app, options.catalog, options.store, clock);

  // Bodies are JSON only: anything else is 415 with the fix, not a confusing validation error.
  app.removeContentTypeParser("text/plain");

  const handlers: Record<string, Handler> = { ...readHandlers, ...writeHandlers };
  for (const op of operations) {
    const handler = handlers[op.operationId];
    if (!handler) throw new Error(`no handler for operation ${op.operationId}`);
    app.route({
      method: op.method,
      url: fastifyPath(op.path),
      schema: {
        ...(op.params ? { params: op.params } : {}),
        ...(op.query ? { querystring: op.query } : {}),
        ...(op.body ? { body: op.body } : {}),
      },
      ...(op.body ? { preValidation: refuseBrokenText } : {}),
      handler: (request, reply) => answer(op, handler, request, reply),
    });
  }
  registerMcp(app);

  // Catalog answers are computed synchronously: only writes wait, so reads skip the promise
  // round-trips. (Nothing is returned once an answer is sent: fastify would await the reply.)
  // A catalog answer is validated (its handler runs) before If-None-Match is looked at: every
  // catalog URL shares the catalog's ETag, and a request that is wrong must get its error, not 304.
  function answer(op: Operation, handler: Handler, request: FastifyRequest, reply: FastifyReply): Promise<void> | void {
    const catalog = options.catalog.current;
    if (!op.catalog) reply.header("cache-control", "no-store");
    const now = clock();
    const result = handler({
      catalog,
      store: options.store,
      ...(questions ? { questions } : {}),
      now,
      request,
      query: (request.query ?? {}) as Record<string, unknown>,
      params: (request.params ?? {}) as Record<string, string>,
      body: (request.body ?? {}) as Record<string, unknown>,
    });
    if (result instanceof Promise) return result.then((settled) => send(op, settled, now, catalog, request, reply));
    send(op, result, now, catalog, request, reply);
  }

  function send(op: Operation, result: Answer, now: Date, catalog: ServedCatalog, request: FastifyRequest, reply: FastifyReply): void {
    if (op.catalog && notModified(request, reply, catalog)) return void reply.code(304).send();
    reply.type("application/json; charset=utf-8");
    if ("data" in result) reply.send(successBody(JSON.stringify(result.data), now, op.type));
    else if (op.raw) reply.send(result.json.bytes ?? result.json.text);
    else reply.send(successBody(result.json, now, op.type));
  }

  // llms.txt lives at the site root by convention (llmstxt.org), outside the versioned API.
  for (const [url, pick] of [["/llms.txt", (c: ServedCatalog) => c.llmsTxt], ["/llms-full.txt", (c: ServedCatalog) => c.llmsFullTxt]] as const) {
    app.get(url, (request, reply) => {
      const catalog = options.catalog.current;
      if (notModified(request, reply, catalog)) return void reply.code(304).send();
      reply.type("text/markdown; charset=utf-8").send(pick(catalog));
    });
  }
  await registerDocs(app);

  return app;
}

/** A hop count is trusted as fastify trusts one (the nearest hops), typed as the function it becomes. */
function trustedProxies(trust: Config["trustProxy"]): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === "number" ? (_address, hop) => hop < trust : trust;
}

async function refuseBrokenText(request: FastifyRequest): Promise<void> {
  const details = textDetails(request.body);
  if (details.length > 0) throw new ApiError(400, "validation_error", details.map((d) => d.message).join("; "), details);
}

function toApiError(error: FastifyError, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof StorageUnavailable) {
    // One line naming the store and the cause; no stack, nothing of the request's data.
    request.log.error({ store: error.store, cause: error.reason }, `storage unavailable: ${error.message}`);
    return new ApiError(503, "storage_unavailable", `Nothing was saved: the store cannot save right now. Send the same request again in ${STORAGE_RETRY_AFTER_SECONDS} seconds (with the same Idempotency-Key, if you sent one).`, [], { "retry-after": String(STORAGE_RETRY_AFTER_SECONDS) });
  }
  if (error.validation) {
    const details = validationDetails(error.validation, error.validationContext ?? "body", request);
    return new ApiError(400, "validation_error", details.map((d) => d.message).join("; "), details);
  }
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new ApiError(413, "payload_too_large", `The body is larger than ${LIMITS.bodyBytes / 1024} KiB: shorten the text fields (their limits are in the OpenAPI document).`);
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new ApiError(415, "unsupported_media_type", `Content-Type "${request.headers["content-type"] ?? ""}" is not accepted: send the body as JSON with Content-Type: application/json.`);
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return new ApiError(400, "validation_error", `The body is not valid JSON (${error.message}): send a JSON object.`, [{ path: "body", message: "not valid JSON" }]);
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new ApiError(400, "validation_error", "The body is empty: send a JSON object with the required fields.", [{ path: "body", message: "empty" }]);
    case "FST_ERR_BAD_URL":
      return new ApiError(400, "validation_error", "The path is not a valid URL: a % must start a percent-encoded UTF-8 byte (such as %20 for a space).", [{ path: "path", message: "malformed percent-encoding" }]);
    case "FST_ERR_MAX_PARAM_LENGTH":
      return new ApiError(404, "not_found", `No resource has an id longer than ${LIMITS.shortText} characters: GET ${API_PREFIX} lists every endpoint, and each list endpoint the ids it knows.`, [{ path: "path.id", message: `at most ${LIMITS.shortText} characters` }]);
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError(error.statusCode, "bad_request", error.message);
  }
  request.log.error({ err: error }, "request failed");
  return new ApiError(500, "internal_error", "Something went wrong on our side: retry in a moment; if it persists, write to the contact address from GET /api/v1/contact.");
}

/** Node's statuses for what its parser refuses, with the API's codes and fixes. */
const CLIENT_ERRORS: Record<string, [number, ErrorPayload]> = {
  HPE_HEADER_OVERFLOW: [431, { code: "headers_too_large", message: "The request headers are too large (16 KiB in all): send shorter headers." }],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, { code: "payload_too_large", message: "The chunk extensions of the body are too large: send the body without them." }],
  ERR_HTTP_REQUEST_TIMEOUT: [408, { code: "timeout", message: "The request took too long to arrive: send it again." }],
};
const NOT_HTTP: [number, ErrorPayload] = [400, { code: "bad_request", message: "The request is not valid HTTP/1.1: send a request line, headers and a body as HTTP/1.1 defines them." }];

/**
 * Answers what Node's HTTP parser refused (headers too large, not HTTP at all) and closes the
 * connection, as fastify does, but in the envelope. Written to the socket: there is no request.
 */
function writeClientError(error: NodeJS.ErrnoException, socket: Duplex & { _httpMessage?: { _headerSent?: boolean } }, now: Date): void {
  // A reset connection has nobody left to answer.
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, payload] = CLIENT_ERRORS[error.code ?? ""] ?? NOT_HTTP;
  const body = errorBody(payload, now);
  // As Node does: not in the middle of an answer already started on this connection.
  if (socket.writable && !socket._httpMessage?._headerSent) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
}

/** Sets the caching headers of a catalog answer; true when the client's copy is current (304). */
function notModified(request: FastifyRequest, reply: FastifyReply, catalog: ServedCatalog): boolean {
  reply.header("etag", catalog.etag).header("cache-control", "public, max-age=60");
  return matchesEtag(request.headers["if-none-match"], catalog.etag);
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === etag;
  });
}
