import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../src/api/operations.js";
import { inToolTerms } from "../src/mcp.js";
import { testApp, type TestApp } from "./helpers/app.js";

let t: TestApp;
let url: URL;
let client: Client;

beforeAll(async () => {
  t = await testApp();
  url = new URL("/mcp", await t.app.listen({ port: 0, host: "127.0.0.1" }));
  client = new Client({ name: "frontdesk-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url));
});
afterAll(async () => {
  await client.close();
  await t.close();
});

const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

/** An MCP client sees tools and arguments: no HTTP path, URL or query string in what it is told. */
const toolWorded = (message: string | undefined) => {
  expect(message).toBeTruthy();
  expect(message, message).not.toContain("/api/v1/");
  expect(message, message).not.toMatch(/query/i);
  return message!;
};
/** The text of an isError result, checked to be worded for tools. */
const errorText = (result: CallToolResult) => {
  expect(result.isError, textOf(result)).toBe(true);
  return toolWorded(textOf(result));
};

/** Valid arguments for every tool, checked against the fixture content; a new tool needs a row. */
const VALID: Record<string, Record<string, unknown>> = {
  getCapabilities: {},
  listServices: {},
  getService: { id: "web-apps" },
  listTechniques: {},
  getCoda: {},
  getTesla: {},
  getCodaSecure: {},
  recommend: { q: "our website is slow", limit: 2 },
  searchFaq: { q: "nda" },
  reviewQuote: { quoteText: "Scope\nWe build the shop.\n\nPrice\nTotal EUR 11,000" },
  requestQuote: { projectDescription: "Our website is slow", servicesInterested: ["web-apps"], requestedBy: "agent" },
  reviewTicket: { ticketText: "## Steps to reproduce\n1. Click Export\n## Expected\nA PDF.", clientId: "mcp-client-1" },
  getTicketUsage: { clientId: "mcp-client-1" },
  joinWaitlist: { name: "Ann", email: "ann@example.com", toolsInterested: ["quote-reviewer"] },
  listWaitlistTools: {},
  submitLeadIntent: { description: "Wants an AI agent for order intake", requestedBy: "claude", conversationId: "mcp-conv-1" },
  getGptAdvisorSetup: {},
  getContact: {},
};

describe("MCP over Streamable HTTP", () => {
  it("lists one tool per agent operation, with schemas and annotations from the table", async () => {
    const { tools } = await client.listTools();
    const expected = operations.map((op) => op.operationId).filter((id) => id !== "getApiIndex" && id !== "getOpenApi");
    expect(tools.map((tool) => tool.name)).toEqual(expected);
    expect(Object.keys(VALID).sort()).toEqual([...expected].sort());
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      expect(tool.description).toBeTruthy();
      expect(tool.annotations?.openWorldHint).toBe(false);
    }
    const service: Tool = byName.get("getService")!;
    expect(service.inputSchema.required).toEqual(["id"]);
    expect(service.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(byName.get("reviewTicket")!.inputSchema.required).toEqual(["ticketText"]);
    expect(Object.keys(byName.get("reviewTicket")!.inputSchema.properties!)).toContain("clientId");
    expect(byName.get("requestQuote")!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(byName.get("submitLeadIntent")!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    expect(byName.get("joinWaitlist")!.annotations).toMatchObject({ idempotentHint: true });
  });

  // The client itself checks structuredContent against each tool's outputSchema.
  it.each(Object.entries(VALID))("calls %s and gets structuredContent with the same JSON as text", async (name, args) => {
    const result = await call(name, args);
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toBeTypeOf("object");
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  });

  it("answers with the HTTP data: a service by id, recommendations, a ticket review counted for the clientId", async () => {
    expect((await call("getService", { id: "Web-Apps" })).structuredContent).toMatchObject({ id: "web-apps" });
    const recommended = (await call("recommend", { q: "our website is slow", limit: 1 })).structuredContent as { count: number; results: { id: string }[] };
    expect(recommended.count).toBe(1);
    const review = (await call("reviewTicket", { ticketText: "The export button does nothing.", clientId: "mcp-client-2", type: "bug" })).structuredContent;
    expect(review).toMatchObject({ type: "bug", usage: { clientId: "mcp-client-2", used: 1 } });
    expect((await call("getTicketUsage", { clientId: "mcp-client-2" })).structuredContent).toMatchObject({ used: 1, remaining: 4 });
  });

  it("returns bad arguments as isError results, worded for tools and their arguments", async () => {
    // The HTTP answer gives an example URL; the tool's answer gives the same example as arguments.
    const noQuery = errorText(await call("recommend", {}));
    expect(noQuery).toBe('Send the problem in plain words as q (or problem), e.g. the recommend tool with q: "our app is slow and crashes"\n- argument q: q (or problem) is required: describe the problem or project in up to 500 characters');
    const blank = errorText(await call("recommend", { q: "   ", problem: "" }));
    expect(blank).toContain("e.g. the recommend tool with q:");

    const unknown = errorText(await call("getService", { id: "nope" }));
    expect(unknown).toContain('No service has the id "nope": the listServices tool lists every service with its id.');

    const unknownIds = errorText(await call("requestQuote", { projectDescription: "A shop", servicesInterested: ["nope"] }));
    expect(unknownIds).toContain("servicesInterested names unknown ids (nope): use ids from the listServices tool.");

    const invalid = errorText(await call("submitLeadIntent", { email: "not-an-email" }));
    expect(invalid).toContain("- argument description is required: What the person needs, in a few sentences.");
    expect(invalid).toContain("- argument email must be an e-mail address");

    const noId = errorText(await call("getService", {}));
    expect(noId).toBe("The arguments of getService are not as its input schema says:\n- argument id is required: Service slug, e.g. ai-agents (see listServices).");
  });

  it("words example URLs, endpoints and request parts as tools and arguments", () => {
    expect(inToolTerms("e.g. /api/v1/recommend?q=our+app+is+slow")).toBe('e.g. the recommend tool with q: "our app is slow"');
    expect(inToolTerms("Ask GET /api/v1/faq/search?q=nda&limit=2, then GET /api/v1/recommend?q=... to find more.")).toBe('Ask the searchFaq tool with q: "nda", limit: "2", then the recommend tool with q to find more.');
    expect(inToolTerms("browse GET /api/v1/services (or /api/v1/contact).")).toBe("browse the listServices tool (or the getContact tool).");
    expect(inToolTerms("- query.q: required; send it in the query")).toBe("- argument q: required; send it as an argument");
    // What is no tool stays as it is rather than being guessed at.
    expect(inToolTerms("POST /api/v1/services")).toBe("POST /api/v1/services");
  });

  it("takes arguments as strictly as the HTTP API takes a body: no coercion, no unknown argument", async () => {
    const number = await call("recommend", { q: 5 });
    expect([number.isError, errorText(number)]).toEqual([true, "The arguments of recommend are not as its input schema says:\n- argument q must be text (got number 5)"]);
    const misspelt = await call("searchFaq", { qq: "nda" });
    expect(errorText(misspelt)).toContain('- unknown argument "qq": did you mean "q"?');
    const list = await call("joinWaitlist", { name: "Ann", email: "ann@example.com", toolsInterested: "quote-reviewer" });
    expect(errorText(list)).toContain("- argument toolsInterested must be a list (got text");
  });

  it("answers what is not a tool call in JSON-RPC terms: -32700, -32602 and -32600, each one sentence", async () => {
    const post = (body: string) =>
      fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body });
    const parse = await post("{not json");
    expect([parse.status, await parse.json()]).toEqual([400, { jsonrpc: "2.0", error: { code: -32700, message: "Parse error: the body is not valid JSON; send one JSON-RPC message as JSON." }, id: null }]);
    const stringArgs = await post('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"recommend","arguments":"q=slow site"}}');
    expect(await stringArgs.json()).toEqual({ jsonrpc: "2.0", error: { code: -32602, message: "Invalid params: arguments must be an object of named arguments (got string)." }, id: 7 });
    const large = await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "reviewQuote", arguments: { quoteText: "x".repeat(70_000) } } }));
    const tooLarge = (await large.json()) as { error: { code: number; message: string } };
    expect([large.status, tooLarge.error.code]).toEqual([413, -32600]);
    toolWorded(tooLarge.error.message);
  });

  it("refuses an unknown tool as a protocol error, with the message once", async () => {
    const error = await client.callTool({ name: "deleteEverything", arguments: {} }).then(() => undefined, (e: Error) => e);
    expect(error?.message).toBe('MCP error -32602: There is no tool "deleteEverything": tools/list names every tool.');
    toolWorded(error?.message);
  });

  it("answers GET and DELETE with 405 and a JSON-RPC error", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(url, { method });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      const answer = (await res.json()) as { error: { message: string } };
      expect(answer).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 }, id: null });
      toolWorded(answer.error.message);
    }
  });
});

describe("mcp answers", () => {
  it("carry the security headers and the request id like every other answer", async () => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });
});
