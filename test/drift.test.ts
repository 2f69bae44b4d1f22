import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";
import { operations } from "../src/api/operations.js";
import { StorageUnavailable, type Store } from "../src/store/store.js";
import { testApp, type TestApp } from "./helpers/app.js";

/**
 * Spec and reality cannot drift: every operation is called for its success and each documented
 * error, and every actual answer is validated against the schema the served openapi.json gives
 * for that status. A response status the document does not list fails too.
 */
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
type Json = Record<string, unknown>;
let t: TestApp;
let doc: Json;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
const seen = new Set<string>();

beforeAll(async () => {
  t = await testApp();
  doc = JSON.parse((await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).body);
  ajv.addSchema(doc, "openapi");
});
afterAll(async () => {
  await t.close();
});

function responseSchemaRef(path: string, method: string, status: number): string {
  const operation = (doc.paths as Record<string, Record<string, { responses: Record<string, { $ref?: string }> }>>)[path]![method]!;
  const response = operation.responses[String(status)];
  if (!response) throw new Error(`${method.toUpperCase()} ${path} answered ${status}, which openapi.json does not document`);
  const pointer = response.$ref ? response.$ref.slice(1) : `/paths/${path.replace(/~/g, "~0").replace(/\//g, "~1")}/${method}/responses/${status}`;
  return `openapi#${pointer}/content/application~1json/schema`;
}

function expectDocumented(operationId: string, res: LightMyRequestResponse, status: number): void {
  const op = operations.find((o) => o.operationId === operationId)!;
  expect(res.statusCode, res.body).toBe(status);
  const validate = ajv.getSchema(responseSchemaRef(op.path, op.method.toLowerCase(), res.statusCode)) ?? ajv.compile({ $ref: responseSchemaRef(op.path, op.method.toLowerCase(), res.statusCode) });
  expect(validate(JSON.parse(res.body)), `${operationId} ${status}: ${JSON.stringify(validate.errors)}`).toBe(true);
  seen.add(`${operationId} ${status}`);
}

const json = { "content-type": "application/json" };
const BUG = "## Steps to reproduce\n1. Open the page\n2. Click save\n## Expected\nI expected the record to be saved without an error message.";

const successes: [string, string, string, unknown?][] = [
  ["getApiIndex", "GET", "/api/v1"],
  ["getCapabilities", "GET", "/api/v1/capabilities"],
  ["listServices", "GET", "/api/v1/services"],
  ["getService", "GET", "/api/v1/services/web-apps"],
  ["listTechniques", "GET", "/api/v1/techniques"],
  ["getCoda", "GET", "/api/v1/alpha"],
  ["getTesla", "GET", "/api/v1/beta"],
  ["getCodaSecure", "GET", "/api/v1/alpha-secure"],
  ["recommend", "GET", "/api/v1/recommend?q=our%20website%20is%20slow"],
  ["searchFaq", "GET", "/api/v1/faq/search?q=nda"],
  ["reviewQuote", "POST", "/api/v1/quotes/review", { quoteText: "Scope: a shop.\nPrice: EUR 1,000" }],
  ["requestQuote", "POST", "/api/v1/quotes/request", { projectDescription: "A web shop that is fast" }],
  ["reviewTicket", "POST", "/api/v1/tickets/review", { ticketText: BUG, clientId: "drift" }],
  ["getTicketUsage", "GET", "/api/v1/tickets/usage?clientId=drift"],
  ["joinWaitlist", "POST", "/api/v1/waitlist", { name: "Ann", email: "ann@example.com" }],
  ["listWaitlistTools", "GET", "/api/v1/waitlist/tools"],
  ["submitLeadIntent", "POST", "/api/v1/leads/intent", { description: "Wants a demo" }],
  ["getGptAdvisorSetup", "GET", "/api/v1/gpt/advisor"],
  ["getContact", "GET", "/api/v1/contact"],
  ["getOpenApi", "GET", "/api/v1/openapi.json"],
];

describe("every answer matches openapi.json", () => {
  it.each(successes)("%s answers 200 as documented", async (operationId, method, url, body) => {
    const res = await t.app.inject({ method: method as "GET", url, ...(body ? { payload: body as Json, headers: json } : {}) });
    expectDocumented(operationId, res, 200);
  });

  it("documents the 400s, 404, 413, 415, 422 and the free-limit 429 as they are answered", async () => {
    for (const [operationId, url] of [["recommend", "/api/v1/recommend"], ["searchFaq", "/api/v1/faq/search?limit=99"], ["getTicketUsage", "/api/v1/tickets/usage"]] as const) {
      expectDocumented(operationId, await t.app.inject({ method: "GET", url }), 400);
    }
    expectDocumented("getService", await t.app.inject({ method: "GET", url: "/api/v1/services/none" }), 404);
    for (const op of operations.filter((o) => o.method === "POST")) {
      expectDocumented(op.operationId, await t.app.inject({ method: "POST", url: op.path, payload: {}, headers: json }), 400);
      expectDocumented(op.operationId, await t.app.inject({ method: "POST", url: op.path, payload: "x", headers: { "content-type": "text/plain" } }), 415);
      expectDocumented(op.operationId, await t.app.inject({ method: "POST", url: op.path, payload: { x: "y".repeat(70_000) }, headers: json }), 413);
    }
    const [, , url, body] = successes.find(([id]) => id === "submitLeadIntent")!;
    await t.app.inject({ method: "POST", url, payload: body as Json, headers: { ...json, "idempotency-key": "drift" } });
    expectDocumented("submitLeadIntent", await t.app.inject({ method: "POST", url, payload: { description: "other" }, headers: { ...json, "idempotency-key": "drift" } }), 422);
    for (let i = 0; i < 5; i++) await t.app.inject({ method: "POST", url: "/api/v1/tickets/review", payload: { ticketText: BUG, clientId: "drift-limit" }, headers: json });
    expectDocumented("reviewTicket", await t.app.inject({ method: "POST", url: "/api/v1/tickets/review", payload: { ticketText: BUG, clientId: "drift-limit" }, headers: json }), 429);
  });

  it("documents rate limiting (429) and internal errors (500) as they are answered", async () => {
    const limited = await createApp({ catalog: t.catalog, store: t.store, config: { publicBaseUrl: "http://x", readsPerMinute: 1 } });
    await limited.inject({ method: "GET", url: "/api/v1/contact" });
    expectDocumented("getContact", await limited.inject({ method: "GET", url: "/api/v1/contact" }), 429);
    await limited.close();
    const broken: Store = {
      transaction: async () => {
        throw new Error("disk on fire");
      },
      ticketUsage: (clientId) => t.store.ticketUsage(clientId),
      list: (collection) => t.store.list(collection),
      records: (collection) => t.store.records(collection),
      erase: (email) => t.store.erase(email),
      checkWritable: async () => {},
      close: async () => {},
    };
    const failing = await createApp({ catalog: t.catalog, store: broken, config: { publicBaseUrl: "http://x" } });
    const res = await failing.inject({ method: "POST", url: "/api/v1/leads/intent", payload: { description: "x" }, headers: json });
    expectDocumented("submitLeadIntent", res, 500);
    expect(res.body).not.toContain("disk on fire");
    await failing.close();
    const full = await createApp({ catalog: t.catalog, store: { ...broken, transaction: async () => Promise.reject(new StorageUnavailable("the test store", "the disk is full (ENOSPC)")) }, config: { publicBaseUrl: "http://x" } });
    const unavailable = await full.inject({ method: "POST", url: "/api/v1/leads/intent", payload: { description: "x" }, headers: json });
    expectDocumented("submitLeadIntent", unavailable, 503);
    expect(JSON.parse(unavailable.body).error.code).toBe("storage_unavailable");
    await full.close();
  });

  it("would catch a drifted answer", () => {
    const validate = ajv.getSchema(responseSchemaRef("/api/v1/services", "get", 200))!;
    expect(validate({ success: true, apiVersion: "1.0.0", timestamp: "2026-01-01T00:00:00.000Z", data: { count: "two", services: [] } })).toBe(false);
    expect(() => responseSchemaRef("/api/v1/services", "get", 418)).toThrow("does not document");
  });

  it("covered every operation's success", () => {
    for (const op of operations) expect(seen.has(`${op.operationId} 200`), op.operationId).toBe(true);
  });
});
