import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../src/api/operations.js";
import type { JsonSchema } from "../src/api/schema.js";
import { testApp, type TestApp } from "./helpers/app.js";
import { SAMPLE_CONTENT } from "./helpers/content.js";

/**
 * The server accepts exactly what the OpenAPI document describes, as a client generated from it
 * (or Prism) does: a field of another type than documented is 400, never coerced, and a field the
 * document does not list is 400 naming it and the closest known one, never silently dropped.
 */
let t: TestApp;
beforeAll(async () => {
  t = await testApp({ content: SAMPLE_CONTENT }); // the examples name its tools and services
});
afterAll(async () => {
  await t.close();
});

const posts = operations.filter((op) => op.method === "POST" && op.body);

/** A value of another JSON type than the schema's. */
function flipped(schema: JsonSchema): unknown {
  switch (schema.type) {
    case "string":
      return 5;
    case "array":
      return "one";
    case "integer":
    case "number":
      return "5";
    default:
      return [];
  }
}

async function post(url: string, payload: unknown) {
  const res = await t.app.inject({ method: "POST", url, payload: payload as object, headers: { "x-service-client-id": `contract-${Math.random()}` } });
  return { status: res.statusCode, body: JSON.parse(res.body) as { error?: { code: string; details: { path: string; message: string }[] } } };
}

describe("request contract", () => {
  it.each(posts.map((op) => [op.operationId, op] as const))("%s refuses every field sent with another type than documented", async (_id, op) => {
    const properties = (op.body!.properties ?? {}) as Record<string, JsonSchema>;
    for (const [field, schema] of Object.entries(properties)) {
      const res = await post(op.path, { ...op.example, [field]: flipped(schema) });
      expect(res.status, `${op.operationId}.${field}`).toBe(400);
      expect(res.body.error!.details.map((d) => d.path), `${op.operationId}.${field}`).toContain(`body.${field}`);
    }
  });

  it.each(posts.map((op) => [op.operationId, op] as const))("%s refuses a field it does not know, naming the closest known one", async (_id, op) => {
    const known = Object.keys(op.body!.properties as object);
    const shortened = known.find((name) => name.length > 6)!;
    const res = await post(op.path, { ...op.example, [shortened.slice(0, -2)]: "x" });
    expect(res.status).toBe(400);
    expect(res.body.error!.details).toEqual([{ path: `body.${shortened.slice(0, -2)}`, message: `unknown field "${shortened.slice(0, -2)}": did you mean "${shortened}"?` }]);
  });

  it("takes a documented integer in the query string, where everything arrives as text", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/faq/search?q=contract+nda+price&limit=2" });
    expect([res.statusCode, JSON.parse(res.body).data.results.length]).toEqual([200, 2]);
    expect((await t.app.inject({ method: "GET", url: "/api/v1/faq/search?q=nda&limit=one" })).statusCode).toBe(400);
  });

  it("keeps the example of every POST valid, so the flips above are the only fault", async () => {
    for (const op of posts) {
      const res = await post(op.path, op.example);
      expect(res.status, `${op.operationId}: ${JSON.stringify(res.body.error)}`).toBe(200);
    }
  });
});
