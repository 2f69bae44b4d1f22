import { execFile } from "node:child_process";
import { readdir, readFile, readlink, rm } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { editorSchemaFiles } from "../build/editor-schemas.js";
import { buildCatalog } from "../build/pipeline.js";
import { contentTree, MINIMAL_CONTENT, SAMPLE_CONTENT, tempDir } from "./helpers/content.js";

const run = promisify(execFile);

async function files(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) out[name] = await readFile(join(dir, name), "utf8");
  return out;
}

describe("build", () => {
  it("compiles the sample content with no errors, and counts match the content", async () => {
    const catalog = join(await tempDir(), "catalog");
    const result = await buildCatalog({ content: SAMPLE_CONTENT, catalog });
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const count = async (folder: string) => (await readdir(join(SAMPLE_CONTENT, folder))).filter((f) => f.endsWith(".md")).length;
    expect(result.manifest!.counts).toEqual({
      services: await count("services"), techniques: await count("techniques"), products: 3, faq: await count("faq"), tools: await count("tools"),
    });
    expect(result.manifest!.counts.services).toBeGreaterThanOrEqual(16);
    expect(result.manifest!.counts.faq).toBeGreaterThanOrEqual(30);
  });

  it("gives byte-identical catalogs for the same content", async () => {
    const a = join(await tempDir(), "catalog");
    const b = join(await tempDir(), "catalog");
    await buildCatalog({ content: SAMPLE_CONTENT, catalog: a });
    await buildCatalog({ content: SAMPLE_CONTENT, catalog: b });
    expect(await files(b)).toEqual(await files(a));
  });

  it("publishes by switching a symlink to a versioned folder, keeping the previous version", async () => {
    const catalog = join(await tempDir(), "catalog");
    const first = await buildCatalog({ content: MINIMAL_CONTENT, catalog });
    const changed = await contentTree({ "techniques/go.md": "---\ntitle: Go\nsummary: Go.\ncategory: language\n---\nGo.\n" });
    const second = await buildCatalog({ content: changed, catalog });
    expect(await readlink(catalog)).toBe(second.published!.split("/").pop());
    expect(second.manifest!.contentHash).not.toBe(first.manifest!.contentHash);
    const siblings = (await readdir(join(catalog, ".."))).sort();
    expect(siblings).toEqual(["catalog", first.published!.split("/").pop(), second.published!.split("/").pop()].sort());
  });

  it("writes a version folder again when files are missing from it", async () => {
    const catalog = join(await tempDir(), "catalog");
    const first = await buildCatalog({ content: MINIMAL_CONTENT, catalog });
    const before = await files(first.published!);
    for (const name of Object.keys(before)) await rm(join(first.published!, name));
    const again = await buildCatalog({ content: MINIMAL_CONTENT, catalog });
    expect(again.published).toBe(first.published);
    expect(await files(catalog)).toEqual(before);
  });

  it("publishes nothing when the content has errors", async () => {
    const catalog = join(await tempDir(), "catalog");
    const broken = await contentTree({ "company.yaml": "name: [" });
    const result = await buildCatalog({ content: broken, catalog });
    expect(result.published).toBeUndefined();
    await expect(readdir(catalog)).rejects.toThrow();
  });

  it("keeps the editor schemas in schemas/ up to date (run `npm run schemas` after changing build/schemas.ts)", async () => {
    const expected = editorSchemaFiles();
    const dir = join(SAMPLE_CONTENT, "..", "schemas");
    expect(await files(dir)).toEqual(expected);
  });

  it("the CLI exits 1 and prints GitHub annotations for every mistake", async () => {
    const broken = await contentTree({
      "techniques/typescript.md": "---\ntitle: TypeScript\nsummary: Typed.\ncategory: langauge\n---\nBody.\n",
      "faq/do-you-sign-ndas.md": "---\nquestion: Do you sign NDAs\ncategory: legal\n---\nYes.\n",
    });
    const failure = await run(process.execPath, ["--import", "tsx", "src/cli.ts", "validate", "--content", broken, "--format", "github"]).catch((e: { code: number; stderr: string }) => e);
    expect((failure as { code: number }).code).toBe(1);
    const lines = (failure as { stderr: string }).stderr.split("\n").filter((l) => l.startsWith("::"));
    expect(lines).toEqual([
      `::error file=${broken}/faq/do-you-sign-ndas.md,line=2,col=11::question must be a question ending with "?" (got "Do you sign NDAs")`,
      `::error file=${broken}/techniques/typescript.md,line=4,col=11::category must be one of language, framework, practice, infrastructure, ai-method (got "langauge"); did you mean "language"?`,
    ]);
    const ok = await run(process.execPath, ["--import", "tsx", "src/cli.ts", "validate", "--content", MINIMAL_CONTENT]);
    expect(ok.stderr).toContain("0 errors, 0 warnings");
  });
});
