import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { diffCatalogFolders, diffMarkdown } from "../build/diff.js";
import { checkContent } from "../build/pipeline.js";
import { newContentFile } from "../build/templates.js";
import { builtCatalog } from "./helpers/app.js";
import { contentTree, MINIMAL_CONTENT } from "./helpers/content.js";

const run = promisify(execFile);
const ROOT = join(MINIMAL_CONTENT, "../../..");
const CLI = join(ROOT, "src/cli.ts");
// An absolute loader address, so the CLI also runs from another working directory.
const TSX = pathToFileURL(join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;
const cli = (args: string[], cwd?: string) => run(process.execPath, ["--import", TSX, CLI, ...args], { ...(cwd ? { cwd } : {}) });

async function changedContent(): Promise<string> {
  const read = (path: string) => readFile(join(MINIMAL_CONTENT, path), "utf8");
  return contentTree({
    "services/web-apps.md": (await read("services/web-apps.md")).replace("from: 10000", "from: 12000"),
    "gpt/advisor.md": (await read("gpt/advisor.md")).replace("Submit leads", "Always ask for a budget first.\nSubmit leads"),
    "company.yaml": (await read("company.yaml")).replace("email: hello@test.example", "email: sales@test.example"),
    "rubrics/quote.yaml": (await read("rubrics/quote.yaml")).replace("headings: [price, pricing]", "headings: [price, pricing, costs]"),
    "faq/is-there-a-warranty.md": "---\nquestion: Is there a warranty?\ncategory: support\n---\nYes, 90 days.\n",
    "tools/quote-reviewer.md": null,
  });
}

describe("frontdesk diff", () => {
  it("lists added, removed and changed items with field-level changes", async () => {
    const before = await builtCatalog();
    const after = await builtCatalog(await changedContent());
    const diff = await diffCatalogFolders(before, after);
    expect(diff.services.changed).toEqual([{ id: "web-apps", title: "Web Apps", fields: [{ field: "pricing.from", before: 10000, after: 12000 }] }]);
    expect(diff.faq.added).toEqual([{ id: "is-there-a-warranty", title: "Is there a warranty?" }]);
    expect(diff.tools.removed).toEqual([{ id: "quote-reviewer", title: "Quote Reviewer" }]);
    const markdown = diffMarkdown(diff);
    expect(markdown).toContain("- Changed `web-apps` (Web Apps):\n  - pricing.from: `10000` → `12000`");
    expect(markdown).toContain("- Added `is-there-a-warranty`: Is there a warranty?");
    expect(markdown).toContain("- Removed `quote-reviewer`: Quote Reviewer");
  });

  it("shows changes to the system prompt, company.yaml and the rubrics, with the lines that changed", async () => {
    const diff = await diffCatalogFolders(await builtCatalog(), await builtCatalog(await changedContent()));
    expect(diff.company.changed).toEqual([{ id: "company", title: "Test Co", fields: [{ field: "contact.email", before: "hello@test.example", after: "sales@test.example" }] }]);
    expect(diff.rubrics.changed).toEqual([
      { id: "quote", title: "quote", fields: [{ field: "criteria[price].headings", before: ["price", "pricing"], after: ["price", "pricing", "costs"] }] },
    ]);
    expect(diff.advisor.changed.map((c) => c.fields.map((f) => f.field))).toEqual([["systemPrompt"]]);
    const markdown = diffMarkdown(diff);
    expect(markdown).toContain("### GPT advisor (gpt/advisor.md)");
    expect(markdown).toContain("  - systemPrompt rewritten:");
    expect(markdown).toContain("    -You are the Test Advisor. Submit leads with requestedBy set to \"gpt\".\n    +You are the Test Advisor. Always ask for a budget first.\n");
    expect(markdown).toContain("### Company (company.yaml)\n\n- Changed `company` (Test Co):\n  - contact.email: `hello@test.example` → `sales@test.example`");
    expect(markdown).toContain("  - criteria[price].headings: `[\"price\",\"pricing\"]` → `[\"price\",\"pricing\",\"costs\"]`");
  });

  it("compares the content at a git ref with the working tree", async () => {
    const repo = await contentTree({}, MINIMAL_CONTENT);
    const git = (...args: string[]) => run("git", ["-C", repo, "-c", "user.email=t@t", "-c", "user.name=t", ...args]);
    await git("init", "-q");
    await git("add", ".");
    await git("commit", "-qm", "content");
    await writeFile(join(repo, "services/web-apps.md"), (await readFile(join(repo, "services/web-apps.md"), "utf8")).replace("from: 10000", "from: 9000"));
    const { stdout } = await cli(["diff", "--ref", "HEAD", "--content", ".", "--format", "json"], repo);
    expect(JSON.parse(stdout).services.changed[0].fields).toEqual([{ field: "pricing.from", before: 10000, after: 9000 }]);
    const unknown = await cli(["diff", "--ref", "nosuchref", "--content", "."], repo).then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(unknown?.code).toBe(1);
    expect(unknown?.stderr.trim()).toBe(`git ref "nosuchref" does not exist here: give a branch, tag or commit ("git branch -a" lists the branches; fetch it first if it is only on the remote)`);
  }, 30_000);
});

describe("frontdesk new", () => {
  it("writes a file whose only findings are the fields an editor must fill", async () => {
    const dir = await contentTree();
    const file = await newContentFile(dir, "service", "data-platforms");
    expect(await readFile(file, "utf8")).toContain("# One of: engineering, ai, platform");
    const result = await checkContent(dir, "content");
    expect(result.diagnostics.map((d) => d.message)).toEqual([
      "title is empty: write some text or remove the field",
      "summary is empty: write some text or remove the field",
      "problems[0] is empty: write some text or remove the field",
      "deliverables[0] is empty: write some text or remove the field",
      "duration is empty: write some text or remove the field",
      "the text below the closing --- is still the placeholder: replace it with your own",
    ]);
  });

  it("refuses an invalid or taken slug and an unknown kind", async () => {
    const dir = await contentTree();
    await expect(newContentFile(dir, "service", "Data Platforms")).rejects.toThrow('"Data Platforms" is not a valid id');
    await expect(newContentFile(dir, "service", "web-apps")).rejects.toThrow("already exists");
    await expect(newContentFile(dir, "product", "gamma")).rejects.toThrow("unknown kind");
  });
});
