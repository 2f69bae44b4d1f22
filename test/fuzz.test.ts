import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../src/api/operations.js";
import { storedFiles, testApp, type TestApp } from "./helpers/app.js";

/**
 * Bad input never hurts: thousands of generated malformed requests to every endpoint get a 4xx
 * in the error envelope (never a 5xx), the store is byte-for-byte unchanged, and no prototype
 * is polluted.
 */
let t: TestApp;
beforeAll(async () => {
  t = await testApp();
  // One accepted write, so the data file exists and can be compared byte for byte.
  await t.app.inject({ method: "POST", url: "/api/v1/leads/intent", payload: { description: "baseline" } });
});
afterAll(async () => {
  await t.close();
});

const nasty = fc.oneof(
  fc.string(),
  fc.string({ minLength: 20_000, maxLength: 70_000 }),
  fc.constantFrom("", " ", "\u0000", "\ud800", "💥".repeat(1000), "__proto__", "constructor", "NaN", "1e309", "-0", "null"),
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, -1, 1e308),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 5 }),
  fc.letrec((tie) => ({ deep: fc.oneof({ depthSize: "small" }, fc.string(), fc.dictionary(fc.string(), tie("deep"))) })).deep,
);
const keys = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom("__proto__", "constructor", "prototype", "description", "email", "ticketText", "clientId"));

/** A body that misses at least one required field (or is no object at all), so it must be refused. */
const invalidBody = (required: string[]) =>
  fc.oneof(
    fc.dictionary(keys, nasty, { maxKeys: 8 }).map((body) => {
      const copy = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
      delete copy[required[0]!];
      return JSON.stringify(copy);
    }),
    nasty.map((value) => JSON.stringify(value)),
    fc.constantFrom('{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}', "{", "[]", "nul", '{"a":1}{"b":2}'),
    fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from([0x7b, 0xff, 0xfe, ...bytes, 0x7d]).toString("latin1")),
  );

const contentTypes = fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "", "application/json; charset=latin1");

describe("fuzzing", () => {
  it("refuses malformed writes with a 4xx envelope and stores nothing", async () => {
    const before = await storedFiles(t.dataFile);
    const posts = operations.filter((o) => o.method === "POST");
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...posts), contentTypes, fc.nat(), async (op, contentType, seed) => {
        const body = fc.sample(invalidBody((op.body!.required as string[]) ?? []), { seed, numRuns: 1 })[0]!;
        const res = await t.app.inject({ method: "POST", url: op.path, payload: body, headers: contentType ? { "content-type": contentType } : {} });
        expect(res.statusCode, `${op.operationId} ${contentType} ${body.slice(0, 200)} → ${res.body}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, res.body).toBeLessThan(500);
        expect(JSON.parse(res.body)).toMatchObject({ success: false, apiVersion: "1.0.0", error: { code: expect.any(String), message: expect.any(String) } });
      }),
      { numRuns: 1500 },
    );
    expect(await storedFiles(t.dataFile)).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain("polluted");
  }, 60_000);

  it("answers any query string on every GET without a 5xx", async () => {
    const gets = operations.filter((o) => o.method === "GET");
    const param = fc.tuple(fc.constantFrom("q", "problem", "limit", "clientId", "id", "__proto__", "q[]"), fc.oneof(fc.string(), fc.constantFrom("-1", "0", "1e9", "NaN", "%", "%ZZ", "5.5", "x".repeat(600))));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...gets), fc.array(param, { maxLength: 6 }), async (op, params) => {
        const query = params.map(([k, v]) => `${k}=${encodeURIComponent(v).replace("%25ZZ", "%ZZ")}`).join("&");
        const url = `${op.path.replace("{id}", "web-apps")}?${query}`;
        const res = await t.app.inject({ method: "GET", url });
        expect(res.statusCode, `${url} → ${res.body}`).toBeLessThan(500);
        if (res.statusCode >= 400) expect(JSON.parse(res.body).success).toBe(false);
      }),
      { numRuns: 1500 },
    );
    expect((await t.app.inject({ method: "GET", url: "/api/v1/contact" })).statusCode).toBe(200);
  }, 60_000);
});
