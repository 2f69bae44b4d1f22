import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { operations } from "../src/api/operations.js";
import type { JsonSchema } from "../src/api/schema.js";
import { testApp } from "./helpers/app.js";
import { SAMPLE_CONTENT, tempDir } from "./helpers/content.js";

/**
 * A client generated from the served document the way users generate one (openapi-typescript),
 * and a program that reads every documented field of every answer, compiled under strict: a
 * required field typed as possibly undefined, or an object typed as Record<string, never>
 * (a bare {"type":"object"}), fails to compile.
 */
/** Objects that document nothing of what they hold: a generated client types them Record<string, never>. */
function bareObjects(path: string, schema: JsonSchema, out: string[]): string[] {
  if (schema.type === "object" && !schema.properties && schema.additionalProperties === undefined) out.push(path);
  for (const [name, inner] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) bareObjects(`${path}.${name}`, inner, out);
  if (schema.items) bareObjects(`${path}[]`, schema.items as JsonSchema, out);
  return out;
}

/** One compile-time check per field: required ones must be defined, none may be typed as never. */
function checks(type: string, schema: JsonSchema, required: boolean, out: string[]): void {
  out.push(`export const c${out.length}: ${required ? "Required" : "Present"}<${type}> = true;`);
  // Below an optional field, the path goes through its defined value.
  const defined = required ? type : `NonNullable<${type}>`;
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const requiredNames = (schema.required ?? []) as string[];
  for (const [name, inner] of Object.entries(properties)) checks(`${defined}[${JSON.stringify(name)}]`, inner, required && requiredNames.includes(name), out);
  if (schema.type === "array" && schema.items) checks(`${defined}[number]`, schema.items as JsonSchema, required, out);
  const values = schema.additionalProperties;
  if (values !== null && typeof values === "object" && Object.keys(values).length > 0) {
    checks(`${defined}[string]`, values as JsonSchema, false, out);
  }
}

describe("a client generated from the OpenAPI document", () => {
  it("types every documented field of every answer exactly, under strict TypeScript", async () => {
    const t = await testApp({ content: SAMPLE_CONTENT });
    const document = JSON.parse((await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).body) as Record<string, unknown>;
    await t.close();
    const dir = await tempDir("frontdesk-client-");
    await writeFile(join(dir, "api.d.ts"), astToString(await openapiTS(document as unknown as Parameters<typeof openapiTS>[0])));

    const lines = [
      `import type { paths } from "./api";`,
      `type Required<T> = [T] extends [never] ? false : undefined extends T ? false : true;`,
      `type Present<T> = [Exclude<T, undefined>] extends [never] ? false : true;`,
    ];
    const fields: string[] = [];
    for (const op of operations) {
      const answer = `paths[${JSON.stringify(op.path)}][${JSON.stringify(op.method.toLowerCase())}]["responses"][200]["content"]["application/json"]`;
      lines.push(`declare const ${op.operationId}: ${answer};`);
      checks(op.raw ? `typeof ${op.operationId}` : `(typeof ${op.operationId})["data"]`, op.data, true, fields);
    }
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "reads.ts"), [...lines, ...fields].join("\n"));

    const program = ts.createProgram([join(dir, "reads.ts")], { strict: true, noEmit: true, skipLibCheck: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022 });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file && d.start !== undefined ? d.file.text.slice(d.file.getLineAndCharacterOfPosition(d.start).line === 0 ? 0 : d.file.text.lastIndexOf("\n", d.start) + 1, d.file.text.indexOf("\n", d.start)) : "";
      return `${ts.flattenDiagnosticMessageText(d.messageText, "\n").split("\n")[0]} ← ${where}`;
    });
    expect(operations.flatMap((op) => bareObjects(op.operationId, op.data, []))).toEqual([]);
    expect(fields.length).toBeGreaterThan(200);
    expect(problems).toEqual([]);
  }, 60_000);
});
