import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { operations, operationsById } from "../src/api/operations.js";
import { BASE_URL, testApp, type TestApp } from "./helpers/app.js";
import { SAMPLE_CONTENT } from "./helpers/content.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ strict: false }));
let t: TestApp;

beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => {
  await t.close();
});

let address: Promise<string> | undefined;
/** The app's address on a real socket, listening from the first call on. */
const listening = () => (address ??= t.app.listen({ port: 0, host: "127.0.0.1" }));

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: "GET", url, headers });
  return { status: res.statusCode, headers: res.headers, body: res.body ? JSON.parse(res.body) : undefined };
}

/** Status, envelope and `data` against the operation table's schema. */
async function expectOk(operationId: string, url: string) {
  const res = await get(url);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ success: true, apiVersion: "1.0.0" });
  expect(new Date(res.body.timestamp).toISOString()).toBe(res.body.timestamp);
  const validate = ajv.compile(operationsById.get(operationId)!.data);
  expect(validate(res.body.data), JSON.stringify(validate.errors)).toBe(true);
  return res;
}

describe("read side", () => {
  it("GET /api/v1 lists every operation with method, path, operationId and summary", async () => {
    const { body } = await expectOk("getApiIndex", "/api/v1");
    expect(body.data).toMatchObject({ name: "Test Co API", version: "1.0.0", openapi: `${BASE_URL}/api/v1/openapi.json` });
    expect(body.data.endpoints.map((e: { operationId: string }) => e.operationId)).toEqual(operations.map((o) => o.operationId));
    expect(body.data.hints.length).toBeGreaterThan(0);
    expect(body.data.documentation).toBe(`${BASE_URL}/docs`);
  });

  it("answers a known path with another method 405 with Allow, and unknown pages 404, in the envelope", async () => {
    for (const [method, url, allow] of [["PUT", "/api/v1/leads/intent", "POST"], ["DELETE", "/api/v1/waitlist", "POST"], ["POST", "/api/v1/services/web-apps", "GET, HEAD"]] as const) {
      const res = await t.app.inject({ method, url });
      expect([res.statusCode, res.headers.allow], url).toEqual([405, allow]);
      expect(JSON.parse(res.body)).toMatchObject({ success: false, error: { code: "method_not_allowed" } });
    }
    for (const url of ["/docs/x", "/api/v1/nothing"]) {
      const res = await get(url);
      expect([res.status, res.body.success, res.body.error.code], url).toEqual([404, false, "not_found"]);
    }
  });

  it("sends a browser at the site root on to /docs, and anything else to the API index", async () => {
    const browser = await get("/", { accept: "text/html,application/xhtml+xml,*/*;q=0.8" });
    expect([browser.status, browser.headers.location, browser.headers.vary]).toEqual([302, "/docs", "accept"]);
    const agent = await get("/", { accept: "application/json" });
    expect([agent.status, agent.headers.location]).toEqual([302, "/api/v1"]);
  });

  it("serves llms.txt and llms-full.txt with this server's address", async () => {
    const index = await t.app.inject({ method: "GET", url: "/llms.txt" });
    expect(index.headers["content-type"]).toContain("text/markdown");
    expect(index.body).toMatch(/^# Test Co\n\n> Small test company\./);
    expect(index.body).toContain(`- [Web Apps](${BASE_URL}/api/v1/services/web-apps): We build web applications. Pricing from EUR 10,000 per project (fixed).`);
    expect(index.body).toContain("## Optional");
    const full = await t.app.inject({ method: "GET", url: "/llms-full.txt" });
    expect(full.body).toContain("### Do you sign NDAs?\n\nYes, before the first call.");
    expect(full.body).not.toContain("{{baseUrl}}");
  });

  it("GET /capabilities gives the compact overview", async () => {
    const { body } = await expectOk("getCapabilities", "/api/v1/capabilities");
    expect(body.data.company.name).toBe("Test Co");
    expect(body.data.services.map((s: { id: string }) => s.id)).toEqual(["audits", "web-apps"]);
    expect(body.data.products).toHaveLength(3);
    expect(body.data.techniques[0]).toEqual({ id: "typescript", title: "TypeScript", category: "language" });
  });

  it("GET /services lists services with their address", async () => {
    const { body } = await expectOk("listServices", "/api/v1/services");
    expect(body.data.count).toBe(2);
    expect(body.data.services[1]).toMatchObject({ id: "web-apps", pricing: { from: 10000, currency: "EUR" }, url: `${BASE_URL}/api/v1/services/web-apps` });
  });

  it("GET /services/{id} finds a service by slug, in any letter case", async () => {
    const { body } = await expectOk("getService", "/api/v1/services/Web-Apps");
    expect(body.data).toMatchObject({ id: "web-apps", problems: ["our website is slow"], techniques: ["typescript"], description: "We build web applications with care." });
  });

  it("GET /services/{id} answers 404 not_found naming the list endpoint", async () => {
    const res = await get("/api/v1/services/nope");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, apiVersion: "1.0.0", error: { code: "not_found" } });
    expect(res.body.error.message).toContain("GET /api/v1/services");
  });

  it("serves techniques, the three products, tools, contact", async () => {
    await expectOk("listTechniques", "/api/v1/techniques");
    for (const [id, path] of [["getCoda", "alpha"], ["getTesla", "beta"], ["getCodaSecure", "alpha-secure"]] as const) {
      const { body } = await expectOk(id, `/api/v1/${path}`);
      expect(body.data.id).toBe(path);
      expect(body.data.plans[0]).toMatchObject({ name: "Team", price: 99, currency: "EUR" });
    }
    const tools = await expectOk("listWaitlistTools", "/api/v1/waitlist/tools");
    expect(tools.body.data.available[0].id).toBe("quote-reviewer");
    const contact = await expectOk("getContact", "/api/v1/contact");
    expect(contact.body.data).toMatchObject({ email: "hello@test.example", preferred: "email" });
  });

  it("GET /gpt/advisor has type gpt_advisor, the seven actions and the substituted set-up steps", async () => {
    const { body } = await expectOk("getGptAdvisorSetup", "/api/v1/gpt/advisor");
    expect(body.type).toBe("gpt_advisor");
    expect(body.data.actions.map((a: { name: string; method: string; path: string }) => `${a.name} ${a.method} ${a.path}`)).toEqual([
      "recommend GET /api/v1/recommend",
      "faqSearch GET /api/v1/faq/search",
      "reviewQuote POST /api/v1/quotes/review",
      "requestQuote POST /api/v1/quotes/request",
      "reviewTicket POST /api/v1/tickets/review",
      "joinWaitlist POST /api/v1/waitlist",
      "submitLead POST /api/v1/leads/intent",
    ]);
    expect(body.data.actions.every((a: { when: string }) => a.when.length > 10)).toBe(true);
    expect(body.data.openapiUrl).toBe(`${BASE_URL}/api/v1/openapi.json`);
    expect(body.data.setupSteps[0]).toBe(`Import the OpenAPI document from ${BASE_URL}/api/v1/openapi.json.`);
    expect(body.data.systemPrompt).toContain("requestedBy");
  });

  it("GET /openapi.json is the bare OpenAPI 3.1.0 document with every path and the spec's operationIds", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" });
    const doc = JSON.parse(res.body);
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.servers).toEqual([{ url: BASE_URL, description: "This server" }]);
    const ids = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((p) => Object.values(p).map((o) => o.operationId));
    expect(ids.sort()).toEqual([
      "getApiIndex", "getCapabilities", "listServices", "getService", "listTechniques", "getCoda", "getTesla", "getCodaSecure",
      "reviewQuote", "requestQuote", "reviewTicket", "getTicketUsage", "joinWaitlist", "listWaitlistTools", "recommend",
      "searchFaq", "submitLeadIntent", "getGptAdvisorSetup", "getContact", "getOpenApi",
    ].sort());
    for (const op of Object.values(doc.paths as Record<string, Record<string, { summary: string; description: string }>>).flatMap((p) => Object.values(p))) {
      expect(op.summary.length).toBeLessThanOrEqual(300);
      expect(op.description.length).toBeLessThanOrEqual(300);
    }
  });

  it("recommend ranks by the client's own words and explains why", async () => {
    const { body } = await expectOk("recommend", "/api/v1/recommend?q=we%20got%20hacked%20last%20week");
    expect(body.data.results[0]).toMatchObject({ kind: "service", id: "audits", url: `${BASE_URL}/api/v1/services/audits` });
    expect(body.data.results[0].score).toBeGreaterThan(0);
    expect(body.data.results[0].score).toBeLessThanOrEqual(1);
    expect(body.data.results[0].reasons[0]).toBe('solves: "we were hacked"');
    const alias = await get("/api/v1/recommend?problem=our%20websites%20are%20slow");
    expect(alias.body.data.results[0].id).toBe("web-apps");
  });

  it("remembers search answers for the catalog it serves", async () => {
    const catalog = t.catalog.current;
    const spy = vi.spyOn(catalog, "searchFaq");
    const first = await get("/api/v1/faq/search?q=warranty%20terms&limit=2");
    const again = await get("/api/v1/faq/search?q=warranty%20terms&limit=2");
    await get("/api/v1/faq/search?q=warranty%20terms&limit=3");
    expect(again.body.data).toEqual(first.body.data);
    expect(spy).toHaveBeenCalledTimes(2);
    spy.mockRestore();
  });

  it("recommend answers 400 when q and problem are missing, blank or too long", async () => {
    for (const url of ["/api/v1/recommend", "/api/v1/recommend?q=%20%20", `/api/v1/recommend?q=${"a".repeat(501)}`]) {
      const res = await get(url);
      expect(res.status, url).toBe(400);
      expect(res.body.error.code).toBe("validation_error");
      expect(res.body.error.details[0].path).toBe("query.q");
    }
    const longProblem = await get(`/api/v1/recommend?problem=${"a".repeat(501)}`);
    expect(longProblem.status).toBe(400);
    expect(longProblem.body.error.details[0]).toMatchObject({ path: "query.problem" });
    expect(longProblem.body.error.details[0].message).toContain("500");
  });

  it("faq/search returns citations and honours limit; bad limits are 400 naming the bound", async () => {
    const { body } = await expectOk("searchFaq", "/api/v1/faq/search?q=how%20much%20do%20you%20cost");
    expect(body.data.results[0]).toMatchObject({
      id: "what-do-you-cost",
      answer: "Projects start at EUR 5,000.",
      citeAs: `Test Co FAQ, "What do you cost?" (updated 2026-01-02), ${BASE_URL}/api/v1/faq/search?q=What%20do%20you%20cost%3F`,
    });
    const one = await get("/api/v1/faq/search?q=nda%20cost&limit=1");
    expect(one.body.data.results).toHaveLength(1);
    for (const [limit, message] of [["0", "query.limit must be at least 1"], ["21", "query.limit must be at most 20"], ["x", "query.limit must be a whole number"]]) {
      const res = await get(`/api/v1/faq/search?q=nda&limit=${limit}`);
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].message).toContain(message!.replace("query.", ""));
    }
    const missing = await get("/api/v1/faq/search");
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual([{ path: "query.q", message: "q is required: send it in the query" }]);
  });

  it("catalog answers carry a strong ETag and Cache-Control, and answer If-None-Match with 304", async () => {
    const first = await get("/api/v1/services");
    expect(first.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(first.headers["cache-control"]).toContain("max-age");
    const again = await t.app.inject({ method: "GET", url: "/api/v1/services", headers: { "if-none-match": first.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
  });

  it("answers a wrong request with its error even when If-None-Match holds the catalog's ETag", async () => {
    const { etag } = (await get("/api/v1/services")).headers as { etag: string };
    for (const [url, status] of [["/api/v1/services/nope", 404], ["/api/v1/recommend?q=%20", 400], ["/api/v1/recommend", 400], ["/api/v1/faq/search?q=x&limit=0", 400]] as const) {
      for (const tag of [etag, "*"]) {
        const res = await get(url, { "if-none-match": tag });
        expect(res.status, `${url} with If-None-Match: ${tag}`).toBe(status);
        expect(res.body.success).toBe(false);
        expect(res.headers.etag).toBeUndefined();
        expect(res.headers["cache-control"]).toBe("no-store");
      }
    }
    const search = await get("/api/v1/faq/search?q=nda", { "if-none-match": etag });
    expect(search.status).toBe(304);
  });

  it("lets browsers call the API without credentials (CORS preflight)", async () => {
    const res = await t.app.inject({
      method: "OPTIONS",
      url: "/api/v1/leads/intent",
      headers: { origin: "https://example.org", "access-control-request-method": "POST", "access-control-request-headers": "content-type, idempotency-key" },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    expect(res.headers["access-control-allow-headers"]).toContain("idempotency-key");
    expect(res.headers["access-control-allow-credentials"]).toBeUndefined();
    const get = await t.app.inject({ method: "GET", url: "/api/v1/contact", headers: { origin: "https://example.org" } });
    expect(get.headers["access-control-allow-origin"]).toBe("*");
    expect(get.headers["access-control-expose-headers"]).toContain("etag");
    expect(get.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("sends the security, CORS and request-id headers on errors and unknown routes too", async () => {
    for (const url of ["/api/v1/nowhere", "/api/v1/services/no-such-service", "/api/v1/faq/search"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.headers["access-control-allow-origin"], url).toBe("*");
      expect(res.headers["x-frame-options"], url).toBe("DENY");
      expect(res.headers["x-request-id"], url).toBeTypeOf("string");
    }
  });

  it("optional headers never cause an error", async () => {
    const res = await get("/api/v1/services", { "x-requested-by": "gpt", "x-service-client-id": "anything at all" });
    expect(res.status).toBe(200);
  });

  it("unknown routes answer in the error envelope", async () => {
    const res = await get("/api/v2/nothing");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, apiVersion: "1.0.0", error: { code: "not_found" } });
    expect(res.body.error.message).toContain("GET /api/v1");
  });

  it("answers what fastify rejects before routing in the error envelope, with every answer's headers", async () => {
    const badEscape = await get("/api/v1/services/%E0%A4%A");
    expect(badEscape.status).toBe(400);
    expect(badEscape.body).toMatchObject({ success: false, apiVersion: "1.0.0", error: { code: "validation_error", details: [{ path: "path" }] } });
    expect(badEscape.body.error.message).toContain("%20");
    expect(badEscape.headers["x-request-id"]).toBeTruthy();
    expect(badEscape.headers["access-control-allow-origin"]).toBe("*");
    // Up to the documented maximum an id reaches the route; beyond it, no id can match.
    const documented = await get(`/api/v1/services/${"a".repeat(200)}`);
    expect(documented.status).toBe(404);
    expect(documented.body.error.message).toContain("GET /api/v1/services lists every service");
    const tooLong = await get(`/api/v1/services/${"a".repeat(201)}`);
    expect(tooLong.status).toBe(404);
    expect(tooLong.body).toMatchObject({ success: false, error: { code: "not_found", details: [{ path: "path.id", message: "at most 200 characters" }] } });
  });

  it("answers what Node's HTTP parser refuses in the error envelope, then closes the connection", async () => {
    const origin = new URL(await listening());
    const exchange = (request: string) =>
      new Promise<string>((resolve, reject) => {
        let answer = "";
        const socket = connect(Number(origin.port), origin.hostname, () => socket.write(request));
        socket.on("data", (chunk) => (answer += chunk)).on("close", () => resolve(answer)).on("error", reject);
      });
    const oversized = await exchange(`GET /api/v1/services HTTP/1.1\r\nHost: x\r\nX-Service-Client-Id: ${"x".repeat(20_000)}\r\n\r\n`);
    expect(oversized).toMatch(/^HTTP\/1\.1 431 /);
    const [head, body] = oversized.split("\r\n\r\n");
    expect(head).toContain("content-type: application/json");
    expect(JSON.parse(body!)).toMatchObject({ success: false, apiVersion: "1.0.0", error: { code: "headers_too_large" } });
    const garbage = await exchange("HELLO\r\n\r\n");
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(garbage.split("\r\n\r\n")[1]!).error.code).toBe("bad_request");
  });

  it("answers over a real socket", async () => {
    const res = await fetch(`${await listening()}/api/v1/services/audits`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(((await res.json()) as { data: { id: string } }).data.id).toBe("audits");
  });
});

describe("answers prepared once per catalog", () => {
  it("serves each catalog answer as serialized at first use, the timestamp aside", async () => {
    const own = await testApp();
    try {
      const body = async (url: string) => (await own.app.inject({ method: "GET", url })).body.replace(/"timestamp":"[^"]+"/, "");
      const urls = ["/api/v1/services", "/api/v1/services/audits", "/api/v1/capabilities"];
      const first = await Promise.all(urls.map(body));
      // Were data serialized again per request, these changes would show.
      const { data } = own.catalog.current;
      data.services[0]!.title = "Changed after loading";
      data.capabilities.skills.push("changed after loading");
      expect(await Promise.all(urls.map(body))).toEqual(first);
    } finally {
      await own.close();
    }
  });
});

describe("on the sample content", () => {
  it("faq/search answers 5 results unless limit asks for another number", async () => {
    const sample = await testApp({ content: SAMPLE_CONTENT });
    try {
      const search = async (query: string) => JSON.parse((await sample.app.inject({ method: "GET", url: `/api/v1/faq/search?${query}` })).body).data;
      expect((await search("q=project%20code%20price")).count).toBe(5);
      expect((await search("q=project%20code%20price&limit=7")).results).toHaveLength(7);
    } finally {
      await sample.close();
    }
  });
});

describe("envelope", () => {
  it("wraps large catalog data kept as bytes into the same JSON as small data kept as text", async () => {
    const { Serialized, successBody } = await import("../src/api/envelope.js");
    const now = new Date("2026-01-02T03:04:05.006Z");
    const big = { items: Array.from({ length: 5000 }, (_, i) => ({ id: i, title: `Ünïcode title ${i}` })) };
    const large = successBody(new Serialized(JSON.stringify(big)), now, "gpt_advisor");
    expect(Buffer.isBuffer(large)).toBe(true);
    expect(JSON.parse(large.toString())).toEqual({ success: true, apiVersion: "1.0.0", timestamp: now.toISOString(), type: "gpt_advisor", data: big });
    expect(JSON.parse(successBody(new Serialized('{"a":1}'), now) as string).data).toEqual({ a: 1 });
  });
});
