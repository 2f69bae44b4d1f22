import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ErrorObject, ValidateFunction } from "ajv";
import type { ErrorPayload } from "./api/envelope.js";
import { API_PREFIX, API_VERSION, operations, type Operation } from "./api/operations.js";
import type { JsonSchema } from "./api/schema.js";
import { strictValidator } from "./api/validators.js";
import { explain, pointerToPath, relevantErrors } from "./validation/explain.js";

/**
 * /mcp: the operation table offered as MCP tools over Streamable HTTP, stateless. A tool call is
 * answered by injecting the matching HTTP request into this same app, so validation, handlers,
 * rate limits and error messages are the HTTP ones, not a second copy of them.
 */

/** Documents about the API, not actions an agent takes. */
const DOCUMENTS = new Set(["getApiIndex", "getOpenApi"]);
/** Writes the store de-duplicates (same conversationId, same e-mail): repeating one adds nothing. */
const DEDUPLICATED = new Set(["submitLeadIntent", "joinWaitlist"]);
const PARTS = ["params", "query", "body"] as const;

/** The SDK (and zod under it) takes a fifth of a second to load: the first MCP request pays, not every start. */
let sdk: Promise<[typeof import("@modelcontextprotocol/sdk/server/index.js"), typeof import("@modelcontextprotocol/sdk/server/streamableHttp.js"), typeof import("@modelcontextprotocol/sdk/types.js")]> | undefined;
const loadSdk = () =>
  (sdk ??= Promise.all([import("@modelcontextprotocol/sdk/server/index.js"), import("@modelcontextprotocol/sdk/server/streamableHttp.js"), import("@modelcontextprotocol/sdk/types.js")]));

const propertiesOf = (schema?: JsonSchema) => (schema?.properties ?? {}) as Record<string, JsonSchema>;
const requiredOf = (schema?: JsonSchema) => (schema?.required ?? []) as string[];
const text = (value: unknown) => (typeof value === "object" ? JSON.stringify(value) : String(value));

export function registerMcp(app: FastifyInstance): void {
  const agentOperations = operations.filter((op) => !DOCUMENTS.has(op.operationId));
  const tools = agentOperations.map(toolOf);
  const byName = new Map(agentOperations.map((op) => [op.operationId, op]));
  const toolsByName = new Map(tools.map((tool) => [tool.name, tool]));

  // A stateless transport cannot be reused, so every POST gets its own server and transport.
  // What fastify refuses before the route runs (a body that is not JSON, too large or not JSON at
  // all) is answered as JSON-RPC, which is what an MCP client reads.
  const errorHandler = (error: { code?: string; statusCode?: number; message: string }, _request: FastifyRequest, reply: FastifyReply) => {
    const [status, code, message] = RPC_FAILURES[error.code ?? ""] ?? [error.statusCode && error.statusCode < 500 ? error.statusCode : 500, -32603, "Internal error: retry in a moment."];
    return reply.code(status).type("application/json; charset=utf-8").send(jsonRpcError(code, message));
  };

  app.post("/mcp", { errorHandler }, async (request, reply) => {
    const malformed = malformedToolCall(request.body);
    if (malformed) return reply.code(400).type("application/json; charset=utf-8").send(malformed);
    const [{ Server }, { StreamableHTTPServerTransport }, { CallToolRequestSchema, ListToolsRequestSchema }] = await loadSdk();
    const server = new Server({ name: "frontdesk", version: API_VERSION }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, ({ params }) => {
      const op = byName.get(params.name);
      // The SDK puts "MCP error -32602:" before an McpError's message, and the client adds its own.
      if (!op) throw Object.assign(new Error(`There is no tool "${params.name}": tools/list names every tool.`), { code: -32602 });
      return callTool(app, op, toolsByName.get(op.operationId)!, params.arguments ?? {}, request);
    });
    // No notifications are ever sent without a session, so a plain JSON answer replaces the SSE stream.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // Hooks do not run for a hijacked reply: hand the headers set so far (security, CORS,
    // request id, rate limits) to the raw response.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    reply.hijack();
    reply.raw.on("close", () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      // Hijacked: fastify's error handler no longer answers for this reply.
      request.log.error({ err: error }, "mcp request failed");
      if (!reply.raw.headersSent) reply.raw.writeHead(500, { "content-type": "application/json" }).end(jsonRpcError(-32603, "Internal error: retry in a moment."));
    }
  });

  // Without sessions there is no stream to open (GET) or session to end (DELETE).
  app.route({
    method: ["GET", "DELETE"],
    url: "/mcp",
    handler: (_request, reply: FastifyReply) =>
      reply.code(405).header("allow", "POST").type("application/json; charset=utf-8")
        .send(jsonRpcError(-32000, "Method not allowed: this MCP endpoint is stateless; POST JSON-RPC messages to /mcp.")),
  });
}

function jsonRpcError(code: number, message: string, id: unknown = null): string {
  return JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id });
}

/** fastify's refusals, as JSON-RPC: the HTTP status, the JSON-RPC code and one sentence. */
const RPC_FAILURES: Record<string, [number, number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, -32700, "Parse error: the body is not valid JSON; send one JSON-RPC message as JSON."],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, -32700, "Parse error: the body is empty; send one JSON-RPC message as JSON."],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, -32600, "Invalid request: the message is larger than 64 KiB; shorten the arguments."],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, -32600, "Invalid request: send the JSON-RPC message with Content-Type: application/json."],
};

/**
 * A tools/call whose `arguments` is not an object is refused before the SDK sees it (it would
 * answer -32603 with its schema library's dump) as invalid params, in one sentence.
 */
function malformedToolCall(message: unknown): string | undefined {
  const call = message as { method?: unknown; id?: unknown; params?: { arguments?: unknown } } | null;
  if (call?.method !== "tools/call") return undefined;
  const args = call.params?.arguments;
  if (args === undefined || (args !== null && typeof args === "object" && !Array.isArray(args))) return undefined;
  return jsonRpcError(-32602, `Invalid params: arguments must be an object of named arguments (got ${Array.isArray(args) ? "a list" : typeof args}).`, call.id ?? null);
}

/** One tool per operation: its path, query and body fields become one flat arguments object. */
function toolOf(op: Operation): Tool {
  const properties: Record<string, JsonSchema> = {};
  for (const part of PARTS) {
    for (const [name, schema] of Object.entries(propertiesOf(op[part]))) {
      if (name in properties) throw new Error(`${op.operationId}: "${name}" is in more than one of path, query and body, so it cannot be one tool argument`);
      properties[name] = schema;
    }
  }
  if (op.data.type !== "object") throw new Error(`${op.operationId}: an MCP output schema must be an object at the root`);
  const required = PARTS.flatMap((part) => requiredOf(op[part]));
  return {
    name: op.operationId,
    title: op.summary,
    description: op.action ? `${op.description} Use it when: ${op.action.when}` : op.description,
    inputSchema: { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false },
    outputSchema: op.data as Tool["outputSchema"],
    annotations: op.method === "GET"
      ? { readOnlyHint: true, idempotentHint: true, openWorldHint: false }
      : { readOnlyHint: false, destructiveHint: false, idempotentHint: DEDUPLICATED.has(op.operationId), openWorldHint: false },
  };
}

/** Each tool's arguments checked as its input schema says: no coercion, no unknown argument. */
const validators = new Map<string, ValidateFunction>();

/** What is wrong with a tool's arguments, each line naming the argument, or undefined when nothing is. */
function argumentProblems(tool: Tool, args: Record<string, unknown>): string | undefined {
  let validate = validators.get(tool.name);
  if (!validate) validators.set(tool.name, (validate = strictValidator(tool.inputSchema)));
  if (validate(args)) return undefined;
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
  const lines = relevantErrors(validate.errors as ErrorObject[]).map((error) => {
    const missing = (error.params as { missingProperty?: string }).missingProperty;
    if (missing) return `argument ${missing} is required: ${String(properties[missing]?.description ?? "send it")}`;
    const message = explain(error, pointerToPath(error.instancePath), args, "arguments");
    return message.startsWith("unknown field") ? message.replace("unknown field", "unknown argument") : `argument ${message}`;
  });
  return `The arguments of ${tool.name} are not as its input schema says:\n${lines.map((l) => `- ${l}`).join("\n")}`;
}

/** The operation that serves a method and path, by the table: to name it as a tool. */
const toolFor = new Map(operations.map((op) => [`${op.method} ${op.path}`, op.operationId]));

/**
 * An HTTP answer's wording in MCP terms: "GET /api/v1/services" is the listServices tool, an
 * example URL such as "/api/v1/recommend?q=slow+site" is that tool with its arguments
 * (`the recommend tool with q: "slow site"`), and a field of the query or body is an argument.
 */
export function inToolTerms(message: string): string {
  const prefix = API_PREFIX.replace(/\//g, "\\/");
  return message
    // A method is optional: a bare path is read as the GET that serves it. A sentence's closing
    // punctuation after a query string is not part of it; an ellipsis ("q=...") is.
    .replace(new RegExp(`(?:\\b(GET|POST) )?(${prefix}[\\w/{}-]*)(?:\\?(\\S*))?`, "g"), (whole, method: string | undefined, path: string, search = "") => {
      const tool = toolFor.get(`${method ?? "GET"} ${path}`);
      if (!tool) return whole;
      const after = /(?:[,;:)]|(?<!\.)\.)+$/.exec(search)?.[0] ?? "";
      const args = [...new URLSearchParams(search.slice(0, search.length - after.length))]
        .map(([name, value]) => (/^(?:\.{3}|…)?$/.test(value) ? name : `${name}: ${JSON.stringify(value)}`));
      return `the ${tool} tool${args.length ? ` with ${args.join(", ")}` : ""}${after}`;
    })
    .replace(/\b(?:query|body|path)\.(\w+)/g, "argument $1")
    .replace(/send it in the (?:query|body|path)/g, "send it as an argument");
}

async function callTool(app: FastifyInstance, op: Operation, tool: Tool, args: Record<string, unknown>, caller: FastifyRequest): Promise<CallToolResult> {
  const problems = argumentProblems(tool, args);
  if (problems) return failure(problems);
  let path = op.path;
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    if (name in propertiesOf(op.params)) path = path.replace(`{${name}}`, encodeURIComponent(text(value)));
    else if (name in propertiesOf(op.query)) query.append(name, text(value));
    else body[name] = value;
  }

  const search = query.size ? `?${query}` : "";
  const response = await app.inject({
    method: op.method,
    url: `${path}${search}`,
    ...(op.method === "POST" ? { payload: body } : {}),
    // The caller's address keeps their own rate limit and ticket allowance; their id joins the logs.
    remoteAddress: caller.ip,
    headers: { "x-request-id": caller.id },
  });
  const envelope = response.json() as { data?: Record<string, unknown>; error?: ErrorPayload };
  if (response.statusCode === 200 && envelope.data) {
    const data = typeof envelope.data.hint === "string" ? { ...envelope.data, hint: inToolTerms(envelope.data.hint) } : envelope.data;
    return { structuredContent: data, content: [{ type: "text", text: JSON.stringify(data) }] };
  }
  const error = envelope.error ?? { code: "internal_error", message: `The API answered ${response.statusCode}.` };
  return failure(inToolTerms([error.message, ...(error.details ?? []).map((d) => `- ${d.path}: ${d.message}`)].join("\n")));
}

const failure = (message: string): CallToolResult => ({ isError: true, content: [{ type: "text", text: message }] });
