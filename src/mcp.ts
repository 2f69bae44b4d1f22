import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ErrorPayload } from "./api/envelope.js";
import { API_VERSION, operations, type Operation } from "./api/operations.js";
import type { JsonSchema } from "./api/schema.js";

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

  // A stateless transport cannot be reused, so every POST gets its own server and transport.
  app.post("/mcp", async (request, reply) => {
    const [{ Server }, { StreamableHTTPServerTransport }, { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError }] = await loadSdk();
    const server = new Server({ name: "frontdesk", version: API_VERSION }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, ({ params }) => {
      const op = byName.get(params.name);
      if (!op) throw new McpError(ErrorCode.InvalidParams, `There is no tool "${params.name}": tools/list names every tool.`);
      return callTool(app, op, params.arguments ?? {}, request);
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

function jsonRpcError(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null });
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
    inputSchema: { type: "object", properties, ...(required.length ? { required } : {}) },
    outputSchema: op.data as Tool["outputSchema"],
    annotations: op.method === "GET"
      ? { readOnlyHint: true, idempotentHint: true, openWorldHint: false }
      : { readOnlyHint: false, destructiveHint: false, idempotentHint: DEDUPLICATED.has(op.operationId), openWorldHint: false },
  };
}

async function callTool(app: FastifyInstance, op: Operation, args: Record<string, unknown>, caller: FastifyRequest): Promise<CallToolResult> {
  let path = op.path;
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  // Arguments no schema declares are dropped, as the HTTP API ignores unknown fields.
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    if (name in propertiesOf(op.params)) path = path.replace(`{${name}}`, encodeURIComponent(text(value)));
    else if (name in propertiesOf(op.query)) query.append(name, text(value));
    else if (name in propertiesOf(op.body)) body[name] = value;
  }
  // An empty path segment would route to another endpoint, so a missing one is refused here.
  const missing = path.match(/\{(\w+)\}/)?.[1];
  if (missing) return failure(`${missing} is required: ${String(propertiesOf(op.params)[missing]?.description ?? "send it as an argument.")}`);

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
    return { structuredContent: envelope.data, content: [{ type: "text", text: JSON.stringify(envelope.data) }] };
  }
  const error = envelope.error ?? { code: "internal_error", message: `The API answered ${response.statusCode}.` };
  return failure([error.message, ...(error.details ?? []).map((d) => `- ${d.path}: ${d.message}`)].join("\n"));
}

const failure = (message: string): CallToolResult => ({ isError: true, content: [{ type: "text", text: message }] });
