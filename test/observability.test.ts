import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Fastify from "fastify";
import { createApp } from "../src/app.js";
import { LiveCatalog } from "../src/catalog/live.js";
import { loggerOptions } from "../src/api/observability.js";
import { OpeningStore } from "../src/store/open.js";
import type { Store } from "../src/store/store.js";
import { testApp, type TestApp } from "./helpers/app.js";

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => {
  await t.close();
});

describe("health, request ids and logs", () => {
  it("answers /healthz and /readyz outside /api/v1", async () => {
    const live = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(JSON.parse(live.body).data).toEqual({ status: "ok" });
    const ready = await t.app.inject({ method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(200);
    expect(JSON.parse(ready.body).data).toMatchObject({ status: "ready" });
  });

  it("answers /readyz with 503 when the store does not answer, and logs it with the request id", async () => {
    const down = { ...t.store, checkWritable: async () => { throw new Error("connection refused"); } };
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({ write: (chunk, _enc, done) => { lines.push(JSON.parse(chunk.toString())); done(); } });
    const store = Object.assign(Object.create(Object.getPrototypeOf(t.store)), down);
    const app = await createApp({ catalog: t.catalog, store, config: { publicBaseUrl: "http://x" }, logger: { level: "error", stream } });
    const res = await app.inject({ method: "GET", url: "/readyz", headers: { "x-request-id": "probe-7" } });
    expect(res.statusCode).toBe(503);
    expect(JSON.parse(res.body).error.code).toBe("not_ready");
    await app.close();
    expect(lines).toEqual([expect.objectContaining({ level: 50, reqId: "probe-7", msg: "not ready" })]);
  });

  it("answers reads while the store is still opening; /readyz and writes wait for it", async () => {
    let opened!: (store: Store) => void;
    const store = new OpeningStore(new Promise<Store>((resolve) => (opened = resolve)));
    const app = await createApp({ catalog: t.catalog, store, config: { publicBaseUrl: "http://x" } });
    expect((await app.inject({ method: "GET", url: "/api/v1/contact" })).statusCode).toBe(200);
    let readyAt = 0;
    let wroteAt = 0;
    const ready = app.inject({ method: "GET", url: "/readyz" }).then((r) => ((readyAt = Date.now()), r));
    const write = app.inject({ method: "POST", url: "/api/v1/leads/intent", payload: { description: "While loading" } }).then((r) => ((wroteAt = Date.now()), r));
    await new Promise((r) => setTimeout(r, 100));
    expect([readyAt, wroteAt]).toEqual([0, 0]);
    const openedAt = Date.now();
    opened(t.store);
    expect((await ready).statusCode).toBe(200);
    expect((await write).statusCode).toBe(200);
    expect(Math.min(readyAt, wroteAt)).toBeGreaterThanOrEqual(openedAt);
    await app.close();
  });

  it("returns a request id, keeping a plain one sent by the caller", async () => {
    const own = await t.app.inject({ method: "GET", url: "/api/v1/contact", headers: { "x-request-id": "gpt-call-42" } });
    expect(own.headers["x-request-id"]).toBe("gpt-call-42");
    const made = await t.app.inject({ method: "GET", url: "/api/v1/contact", headers: { "x-request-id": "x".repeat(100) } });
    expect(made.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("logs one line per request, without query strings or personal data", async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({ write: (chunk, _enc, done) => { lines.push(JSON.parse(chunk.toString())); done(); } });
    const app = await createApp({ catalog: t.catalog, store: t.store, config: { publicBaseUrl: "http://x" }, logger: { level: "info", stream } });
    await app.inject({ method: "POST", url: "/api/v1/leads/intent", payload: { description: "Call me", email: "secret.person@example.com", name: "Secret Person" } });
    await app.inject({ method: "GET", url: "/api/v1/tickets/usage?clientId=secret.person@example.com" });
    await app.close();
    const requests = lines.filter((l) => l.msg === "request");
    expect(requests).toHaveLength(2);
    expect(requests[1]).toMatchObject({ method: "GET", path: "/api/v1/tickets/usage", status: 200 });
    expect(requests[0]!.reqId).toBeTypeOf("string");
    const all = JSON.stringify(lines);
    expect(all).not.toContain("secret.person");
    expect(all).not.toContain("Secret Person");
  });

  it("redacts personal fields of a logged error", () => {
    const lines: string[] = [];
    const stream = new Writable({ write: (chunk, _enc, done) => { lines.push(chunk.toString()); done(); } });
    const log = Fastify({ logger: loggerOptions({ level: "info", stream }) }).log;
    log.error({ err: Object.assign(new Error("store refused the lead"), { email: "secret.person@example.com" }), clientId: "secret-client" }, "failed");
    expect(lines.join("")).toContain("store refused the lead");
    expect(lines.join("")).not.toContain("secret.person");
    expect(lines.join("")).not.toContain("secret-client");
  });
});

describe("the README's write-path table", () => {
  it("lists 503 not_ready, which every POST answers until a catalog has arrived", async () => {
    const empty = await mkdtemp(join(tmpdir(), "frontdesk-nocatalog-"));
    const catalog = await LiveCatalog.open(empty, "http://x", { waitForFirst: true });
    const app = await createApp({ catalog, store: t.store, config: { publicBaseUrl: "http://x" } });
    try {
      const codes = new Set<string>();
      for (const [url, payload] of [
        ["/api/v1/leads/intent", { description: "Before any catalog" }],
        ["/api/v1/waitlist", { name: "Ann", email: "ann@example.com" }],
        ["/api/v1/tickets/review", { ticketText: "## Steps\n1. Open\n## Expected\nIt opens.", clientId: "c" }],
      ] as const) {
        const res = await app.inject({ method: "POST", url, payload });
        expect(res.statusCode, url).toBe(503);
        expect(res.headers["retry-after"]).toBe("5");
        codes.add(JSON.parse(res.body).error.code);
      }
      expect([...codes]).toEqual(["not_ready"]);
      const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
      const table = readme.slice(readme.indexOf("**What a client can get from the write path**"), readme.indexOf("- **Personal data.**"));
      expect(table).toMatch(/^\s*\| 503 \| `not_ready` \|.*Retry-After/m);
    } finally {
      await app.close();
      catalog.close();
      await rm(empty, { recursive: true, force: true });
    }
  });
});
