import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { validate } from "@readme/openapi-parser";
import spectralCore from "@stoplight/spectral-core";
import spectralParsers from "@stoplight/spectral-parsers";
import spectralRulesets from "@stoplight/spectral-rulesets";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_URL, testApp, type TestApp } from "./helpers/app.js";
import { SAMPLE_CONTENT, tempDir } from "./helpers/content.js";

/** The served OpenAPI document passes a validator and a linter with the GPT Actions limits. */
const run = promisify(execFile);
const root = join(SAMPLE_CONTENT, "..");
let t: TestApp;
let file: string;
let doc: { servers: { url: string }[]; paths: Record<string, Record<string, Record<string, unknown>>> };
let text: string;

beforeAll(async () => {
  t = await testApp({ content: SAMPLE_CONTENT });
  text = (await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).body;
  doc = JSON.parse(text);
  file = join(await tempDir("frontdesk-openapi-"), "openapi.json");
  await writeFile(file, text);
});
afterAll(async () => {
  await t.close();
});

describe("openapi.json", () => {
  it("passes @readme/openapi-parser validation", async () => {
    const result = await validate(file);
    expect(result.valid, JSON.stringify(result)).toBe(true);
  });

  it("has no Spectral finding with every rule of spectral:oas on, but the tags' order (ours is the reading order)", async () => {
    const spectral = new spectralCore.Spectral();
    spectral.setRuleset({ extends: [[spectralRulesets.oas as spectralCore.RulesetDefinition, "all"]] });
    const findings = await spectral.run(new spectralCore.Document(text, spectralParsers.Json));
    const reported = findings.map((f) => `${f.code} at ${f.path.join(".")}: ${f.message}`);
    expect(reported.filter((r) => !r.startsWith("openapi-tags-alphabetical "))).toEqual([]);
  });

  it("passes redocly lint with operationIds, 4xx responses and the GPT limits as errors", async () => {
    const result = await run(join(root, "node_modules/.bin/redocly"), ["lint", file, "--config", join(root, "redocly.yaml"), "--format", "stylish"], {
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    }).catch((error: { stdout: string; stderr: string }) => {
      throw new Error(`redocly lint failed:\n${error.stdout}\n${error.stderr}`);
    });
    expect(result.stdout + result.stderr).not.toMatch(/\berror\b\s+\S/);
  }, 60_000);

  it("shows request examples that the API accepts", async () => {
    const examples = Object.values(doc.paths).flatMap((p) => Object.values(p)).flatMap((op) => {
      const media = (op.requestBody as { content: Record<string, { example?: unknown }> } | undefined)?.content["application/json"];
      return media?.example ? [[op.operationId as string, media.example] as const] : [];
    });
    expect(examples.length).toBe(5);
    for (const [operationId, example] of examples) {
      const path = Object.entries(doc.paths).find(([, p]) => Object.values(p).some((o) => o.operationId === operationId))![0];
      const res = await t.app.inject({ method: "POST", url: path, payload: example as Record<string, unknown> });
      expect(res.statusCode, `${operationId}: ${res.body}`).toBe(200);
    }
  });

  it("fits GPT Actions: at most 30 operations, under 1 MB, https-ready servers from PUBLIC_BASE_URL", () => {
    const ops = Object.values(doc.paths).flatMap((p) => Object.entries(p));
    expect(ops.length).toBe(20);
    expect(ops.length).toBeLessThanOrEqual(30);
    expect(Buffer.byteLength(text)).toBeLessThan(1024 * 1024);
    expect(doc.servers[0]!.url).toBe(BASE_URL);
    for (const [method, op] of ops) {
      expect(op.operationId).toBeTypeOf("string");
      if (method === "post") expect(op["x-openai-isConsequential"]).toBeTypeOf("boolean");
    }
  });
});
