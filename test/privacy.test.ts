import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../src/api/operations.js";
import { testApp, type TestApp } from "./helpers/app.js";

/** No GET (and no read-only MCP tool) ever returns a personal field submitted through a POST. */
let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => {
  await t.close();
});

const SECRETS = ["zelda.quist@example.com", "Zelda Quist", "Quistcorp", "ZQ-budget-777", "ZQ-secret-plan"];
const person = { email: SECRETS[0], contactEmail: SECRETS[0], name: SECRETS[1], company: SECRETS[2], companyName: SECRETS[2], budget: SECRETS[3] };

const GET_URLS: Record<string, string> = {
  getService: "/api/v1/services/web-apps",
  recommend: "/api/v1/recommend?q=slow%20website",
  searchFaq: "/api/v1/faq/search?q=cost",
  getTicketUsage: "/api/v1/tickets/usage?clientId=zq-client",
};

describe("privacy", () => {
  it("never returns submitted personal data on a GET", async () => {
    const submissions: Record<string, Record<string, unknown>> = {
      reviewQuote: { quoteText: `Scope: ${SECRETS[4]}\nPrice: EUR 5,000`, companyName: person.companyName, contactEmail: person.contactEmail, context: SECRETS[4] },
      requestQuote: { projectDescription: SECRETS[4], companyName: person.companyName, contactEmail: person.contactEmail, budget: person.budget },
      reviewTicket: { ticketText: `## Steps to reproduce\n1. ${SECRETS[4]}`, clientId: "zq-client", contactEmail: person.contactEmail, title: SECRETS[4] },
      joinWaitlist: { name: person.name, email: person.email, company: person.company, role: SECRETS[4] },
      submitLeadIntent: { description: SECRETS[4], name: person.name, email: person.email, company: person.company, budget: person.budget, conversationId: "zq-conv" },
    };
    for (const op of operations.filter((o) => o.method === "POST")) {
      const res = await t.app.inject({ method: "POST", url: op.path, payload: submissions[op.operationId]! });
      expect(res.statusCode, op.operationId).toBe(200);
    }
    for (const op of operations.filter((o) => o.method === "GET")) {
      const res = await t.app.inject({ method: "GET", url: GET_URLS[op.operationId] ?? op.path });
      expect(res.statusCode, op.operationId).toBe(200);
      for (const secret of SECRETS) expect(res.body, `${op.operationId} leaks ${secret}`).not.toContain(secret);
    }
    for (const url of ["/llms.txt", "/llms-full.txt", "/healthz", "/readyz"]) {
      const res = await t.app.inject({ method: "GET", url });
      for (const secret of SECRETS) expect(res.body, `${url} leaks ${secret}`).not.toContain(secret);
    }

    // The read-only MCP tools neither.
    const client = new Client({ name: "privacy-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", await t.app.listen({ port: 0, host: "127.0.0.1" }))));
    const ARGS: Record<string, Record<string, unknown>> = { getService: { id: "web-apps" }, recommend: { q: "slow website" }, searchFaq: { q: "cost" }, getTicketUsage: { clientId: "zq-client" } };
    const { tools } = await client.listTools();
    const readOnly = tools.filter((tool) => tool.annotations?.readOnlyHint);
    expect(readOnly.length).toBe(operations.filter((o) => o.method === "GET").length - 2);
    for (const tool of readOnly) {
      const result = JSON.stringify(await client.callTool({ name: tool.name, arguments: ARGS[tool.name] ?? {} }));
      for (const secret of SECRETS) expect(result, `MCP ${tool.name} leaks ${secret}`).not.toContain(secret);
    }
    await client.close();
  });
});
