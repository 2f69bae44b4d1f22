import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testApp, type TestApp } from "./helpers/app.js";

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => {
  await t.close();
});

async function post(url: string, payload: unknown, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: "POST", url, payload: payload as string, headers: { "content-type": "application/json", ...headers } });
  return { status: res.statusCode, headers: res.headers, body: JSON.parse(res.body) };
}

const BUG = `## Steps to reproduce
1. Open the invoice page
2. Click "Export"
## Expected
I expected a PDF download of the invoice.`;

describe("leads", () => {
  it("accepts a lead with a lead- reference and stores it", async () => {
    const res = await post("/api/v1/leads/intent", { description: "Wants an AI agent for order intake", intent: "DEMO", requestedBy: "GPT", email: "a@b.example" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, apiVersion: "1.0.0", data: { received: true, duplicate: false } });
    expect(res.body.data.reference).toMatch(/^lead-[a-z0-9]+$/);
    const stored = (await t.store.list("leads")).find((l) => l.reference === res.body.data.reference);
    expect(stored).toMatchObject({ intent: "demo", requestedBy: "gpt", email: "a@b.example" });
  });

  it("returns the same reference for the same conversationId and stores no duplicate", async () => {
    const first = await post("/api/v1/leads/intent", { description: "First", conversationId: "conv-1" });
    const second = await post("/api/v1/leads/intent", { description: "Again", conversationId: "conv-1" });
    expect(second.body.data).toEqual({ received: true, reference: first.body.data.reference, duplicate: true });
    expect((await t.store.list("leads")).filter((l) => l.conversationId === "conv-1")).toHaveLength(1);
  });

  it("rejects other intents with the allowed list, and stores nothing", async () => {
    const before = (await t.store.list("leads")).length;
    const res = await post("/api/v1/leads/intent", { description: "x", intent: "hire" });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "validation_error", details: [{ path: "body.intent" }] });
    expect(res.body.error.message).toContain("quote, security, ticket, partnership, demo");
    expect((await t.store.list("leads")).length).toBe(before);
  });

  it("names every invalid field at once", async () => {
    const res = await post("/api/v1/leads/intent", { email: "not-an-email", name: 5 });
    expect(res.status).toBe(400);
    const paths = res.body.error.details.map((d: { path: string }) => d.path).sort();
    expect(paths).toEqual(["body.description", "body.email", "body.name"]);
    expect(res.body.error.details.find((d: { path: string }) => d.path === "body.email").message).toContain("e-mail address");
  });
});

describe("waitlist", () => {
  it("signs up, and the same e-mail again updates interests under the same reference", async () => {
    const first = await post("/api/v1/waitlist", { name: "Ann", email: "Ann@Example.com", toolsInterested: ["quote-reviewer"] });
    expect(first.status).toBe(200);
    expect(first.body.data.reference).toMatch(/^waitlist-/);
    const again = await post("/api/v1/waitlist", { name: "Ann", email: "ann@example.com", toolsInterested: [] });
    expect(again.body.data).toMatchObject({ reference: first.body.data.reference, updated: true, toolsInterested: ["quote-reviewer"] });
    expect((await t.store.list("waitlist")).filter((w) => w.email === "ann@example.com")).toHaveLength(1);
  });

  it("rejects unknown tools, listing the valid ids", async () => {
    const res = await post("/api/v1/waitlist", { name: "Bo", email: "bo@example.com", toolsInterested: ["time-machine"] });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]).toEqual({ path: "body.toolsInterested", message: "valid ids: quote-reviewer" });
  });

  it("requires name and email", async () => {
    const res = await post("/api/v1/waitlist", {});
    expect(res.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(["body.email", "body.name"]);
  });
});

describe("ticket reviews and the free allowance", () => {
  it("50 parallel reviews for a fresh clientId give exactly 5 answers and 45 free_limit_reached", async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, () => post("/api/v1/tickets/review", { ticketText: BUG, clientId: "race-client", type: "bug" })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    const refused = results.filter((r) => r.status === 429);
    expect(refused).toHaveLength(45);
    expect(refused[0]!.body.error.code).toBe("free_limit_reached");
    expect(refused[0]!.body.error.message).toContain("contactEmail");
    const usage = await t.app.inject({ method: "GET", url: "/api/v1/tickets/usage?clientId=race-client" });
    expect(JSON.parse(usage.body).data).toEqual({ clientId: "race-client", used: 5, freeLimit: 5, remaining: 0, emailRequired: true });
    const withEmail = await post("/api/v1/tickets/review", { ticketText: BUG, clientId: "race-client", contactEmail: "dev@example.com" });
    expect(withEmail.status).toBe(200);
    expect(withEmail.body.data.usage.used).toBe(6);
  });

  it("takes the clientId from the header, and the body wins when both are sent", async () => {
    await post("/api/v1/tickets/review", { ticketText: BUG }, { "x-service-client-id": "header-client" });
    await post("/api/v1/tickets/review", { ticketText: BUG, clientId: "body-client" }, { "x-service-client-id": "header-client" });
    expect((await t.store.ticketUsage("header-client")).used).toBe(1);
    expect((await t.store.ticketUsage("body-client")).used).toBe(1);
  });

  it("reviews with a rating, the criteria and a skeleton", async () => {
    const res = await post("/api/v1/tickets/review", { ticketText: BUG, clientId: "shape", type: "bug" });
    expect(res.body.data).toMatchObject({ rating: 10, threshold: 8, passed: true, type: "bug", typeInferred: false });
    expect(res.body.data.criteria.map((c: { status: string }) => c.status)).toEqual(["met", "met"]);
    expect(res.body.data.reference).toMatch(/^ticket-review-/);
  });

  it("usage needs a clientId", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/tickets/usage" });
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).error.details[0].path).toBe("query.clientId");
  });
});

describe("quotes", () => {
  it("reviews a quote with a score, consistency checks and a counter proposal; numbers that do not add up lose points", async () => {
    const res = await post("/api/v1/quotes/review", { quoteText: "Scope\nWe build the shop front end and the admin; hosting is not included.\n\nPrice\nDesign EUR 4,000\nBuild EUR 6,000\nTotal EUR 11,000" });
    expect(res.status).toBe(200);
    // Scope 5 + half of the price's 5: the price is there but contradicts itself.
    expect(res.body.data).toMatchObject({ score: 7.5, threshold: 8, passed: false });
    expect(res.body.data.criteria.find((c: { id: string }) => c.id === "price")).toMatchObject({ status: "partial", points: 2.5 });
    expect(res.body.data.summary).toContain("The line items add up to 10000, but the total says 11000");
    expect(res.body.data.reference).toMatch(/^quote-review-/);
    expect(res.body.data.consistency).toContainEqual({ check: "total", ok: false, message: "The line items add up to 10000, but the total says 11000: ask which is right." });
    expect(res.body.data.counterProposal.clarify).toContain("The line items add up to 10000, but the total says 11000: ask which is right.");
  });

  it("caps very short quotes and adds the missing clauses with the services that cover them", async () => {
    const res = await post("/api/v1/quotes/review", { quoteText: "Price: EUR 9,000 for everything." });
    expect(res.body.data).toMatchObject({ score: 3, passed: false });
    expect(res.body.data.summary).toContain("capped at 3");
    expect(res.body.data.counterProposal.add).toEqual([{ section: "Scope", clause: "The scope is described in Annex A." }]);
    expect(res.body.data.counterProposal.services[0]).toMatchObject({ id: "web-apps", from: 10000, currency: "EUR" });
  });

  it("drafts a proposal from the catalog", async () => {
    const res = await post("/api/v1/quotes/request", { projectDescription: "Our website is slow and we were hacked", servicesInterested: ["web-apps"], requestedBy: "gpt" });
    expect(res.status).toBe(200);
    expect(res.body.data.reference).toMatch(/^quote-/);
    expect(res.body.data.proposal.services.map((s: { id: string }) => s.id)).toEqual(["web-apps", "audits"]);
    expect(res.body.data.proposal.estimate).toMatchObject({ currency: "EUR", low: 15000, high: 15000 });
  });

  it("rejects unknown services", async () => {
    const res = await post("/api/v1/quotes/request", { projectDescription: "x", servicesInterested: ["nope"] });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].message).toBe("valid ids: audits, web-apps");
  });
});

describe("safe retries and bad input", () => {
  it("replays the first answer for a repeated Idempotency-Key and stores once", async () => {
    const body = { description: "Idempotent lead" };
    const first = await post("/api/v1/leads/intent", body, { "idempotency-key": "key-1" });
    const retry = await post("/api/v1/leads/intent", body, { "idempotency-key": "key-1" });
    expect(retry.body.data).toEqual(first.body.data);
    expect((await t.store.list("leads")).filter((l) => l.description === "Idempotent lead")).toHaveLength(1);
    const other = await post("/api/v1/leads/intent", { description: "Another" }, { "idempotency-key": "key-1" });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe("idempotency_conflict");
  });

  it("answers 415, 413 and 400 for malformed bodies in the error envelope", async () => {
    const text = await t.app.inject({ method: "POST", url: "/api/v1/leads/intent", payload: "hello", headers: { "content-type": "text/plain" } });
    expect(text.statusCode).toBe(415);
    expect(JSON.parse(text.body).error.code).toBe("unsupported_media_type");
    const big = await post("/api/v1/leads/intent", { description: "x".repeat(70 * 1024) });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe("payload_too_large");
    const broken = await t.app.inject({ method: "POST", url: "/api/v1/leads/intent", payload: "{nope", headers: { "content-type": "application/json" } });
    expect(broken.statusCode).toBe(400);
    expect(JSON.parse(broken.body)).toMatchObject({ success: false, error: { code: "validation_error" } });
  });

  it("refuses NUL characters in any text, naming the field", async () => {
    const res = await post("/api/v1/leads/intent", { description: "a\u0000b" });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: "body.description", message: "description contains a NUL character (\\u0000): remove it" }]);
  });

  it("refuses lone surrogates, which no store can keep as text, naming the field and storing nothing", async () => {
    const before = (await t.store.list("leads")).length;
    const res = await post("/api/v1/leads/intent", '{"description":"d","email":"leak.me@victim.example","company":"\\ud800"}');
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: "body.company", message: "company contains a lone UTF-16 surrogate (such as \\ud800), which is not text: send valid Unicode" }]);
    expect((await post("/api/v1/leads/intent", { description: "an emoji 😀 is fine" })).status).toBe(200);
    expect((await t.store.list("leads")).length).toBe(before + 1);
  });

  it("refuses a body nested deeper than 32 levels with 400, however deep (no recursion input can drive)", async () => {
    for (const [open, close] of [["[", "]"], ['{"a":', "}"]] as const) {
      const deep = `{"description":"d","utm":${open.repeat(10_000)}1${close.repeat(10_000)}}`;
      const res = await post("/api/v1/leads/intent", deep);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("validation_error");
      expect(res.body.error.message).toContain("nested more than 32 levels deep");
    }
  });

  it("rejects texts over their documented maximum, naming the limit", async () => {
    const res = await post("/api/v1/leads/intent", { description: "ok", name: "n".repeat(201) });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: "body.name", message: "name is 201 characters long; the limit is 200: shorten it" }]);
  });
});

describe("rate limits", () => {
  it("answers 429 rate_limited with Retry-After and RateLimit headers past the per-address limit", async () => {
    const { createApp } = await import("../src/app.js");
    const app = await createApp({ catalog: t.catalog, store: t.store, config: { publicBaseUrl: "http://x", readsPerMinute: 2, writesPerMinute: 1 } });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await app.inject({ method: "GET", url: "/api/v1/contact" }));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 429]);
    expect(answers[0]!.headers["ratelimit-policy"]).toBe('"read";q=2;w=60');
    expect(answers[0]!.headers.ratelimit).toMatch(/^"read";r=1;t=\d+$/);
    expect(answers[2]!.headers["retry-after"]).toBeDefined();
    expect(JSON.parse(answers[2]!.body)).toMatchObject({ success: false, error: { code: "rate_limited" } });
    // Writes are counted apart from reads, with their own (stricter) limit.
    const write = () => app.inject({ method: "POST", url: "/api/v1/leads/intent", payload: { description: "limited" } });
    expect([(await write()).statusCode, (await write()).statusCode]).toEqual([200, 429]);
    await app.close();
  });

  it("counts the socket's address, not X-Forwarded-For, unless the proxy is trusted", async () => {
    const { createApp } = await import("../src/app.js");
    const forged = (app: Awaited<ReturnType<typeof createApp>>, i: number, remoteAddress = "203.0.113.7") =>
      app.inject({ method: "POST", url: "/api/v1/leads/intent", remoteAddress, payload: { description: "limited" }, headers: { "x-forwarded-for": `198.51.100.${i}` } });
    const direct = await createApp({ catalog: t.catalog, store: t.store, config: { publicBaseUrl: "http://x", writesPerMinute: 2 } });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await forged(direct, i)).statusCode);
    expect(statuses).toEqual([200, 200, 429, 429, 429, 429]);
    await direct.close();
    // Behind a load balancer at 10.0.0.5 (TRUST_PROXY=10.0.0.5), each forwarded client counts on its own...
    const proxied = await createApp({ catalog: t.catalog, store: t.store, config: { publicBaseUrl: "http://x", writesPerMinute: 2, trustProxy: ["10.0.0.5"] } });
    const behind = [];
    for (let i = 0; i < 4; i++) behind.push((await forged(proxied, i, "10.0.0.5")).statusCode);
    expect(behind).toEqual([200, 200, 200, 200]);
    // ...but a client that reaches the server directly cannot claim another address.
    expect([(await forged(proxied, 50)).statusCode, (await forged(proxied, 51)).statusCode, (await forged(proxied, 52)).statusCode]).toEqual([200, 200, 429]);
    await proxied.close();
  });
});

describe("free ticket reviews without a client id", () => {
  it("are counted per socket address: a forged X-Forwarded-For does not reset them", async () => {
    const review = (i: number) =>
      t.app.inject({ method: "POST", url: "/api/v1/tickets/review", remoteAddress: "203.0.113.9", payload: { ticketText: BUG }, headers: { "x-forwarded-for": `198.51.100.${i}` } });
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await review(i)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });
});

describe("keys callers choose", () => {
  it("scopes an Idempotency-Key by caller: another client's same key and body is a request of its own", async () => {
    const body = { description: "Scoped key" };
    const mine = await post("/api/v1/leads/intent", body, { "idempotency-key": "shared-key", "x-service-client-id": "client-one" });
    const theirs = await post("/api/v1/leads/intent", body, { "idempotency-key": "shared-key", "x-service-client-id": "client-two" });
    const again = await post("/api/v1/leads/intent", body, { "idempotency-key": "shared-key", "x-service-client-id": "client-one" });
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.reference).not.toBe(mine.body.data.reference);
    expect(again.body.data.reference).toBe(mine.body.data.reference);
    expect((await t.store.list("leads")).filter((l) => l.description === "Scoped key")).toHaveLength(2);
    // A ticket review replayed for its own client only: the other one's is reviewed and counted.
    const ticket = { ticketText: BUG };
    await post("/api/v1/tickets/review", ticket, { "idempotency-key": "review-key", "x-service-client-id": "reviewer-one" });
    await post("/api/v1/tickets/review", ticket, { "idempotency-key": "review-key", "x-service-client-id": "reviewer-two" });
    expect([(await t.store.ticketUsage("reviewer-one")).used, (await t.store.ticketUsage("reviewer-two")).used]).toEqual([1, 1]);
  });

  it("gives a clientId named like any Object.prototype property its 5 free reviews, then 429", async () => {
    for (const clientId of Object.getOwnPropertyNames(Object.prototype)) {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await post("/api/v1/tickets/review", { ticketText: BUG, clientId })).status);
      expect(statuses, clientId).toEqual([200, 200, 200, 200, 200, 429]);
      const usage = JSON.parse((await t.app.inject({ method: "GET", url: `/api/v1/tickets/usage?clientId=${encodeURIComponent(clientId)}` })).body).data;
      expect(usage, clientId).toEqual({ clientId, used: 5, freeLimit: 5, remaining: 0, emailRequired: true });
    }
    expect((await t.store.ticketUsage("used")).used).toBe(0);
  });
});
