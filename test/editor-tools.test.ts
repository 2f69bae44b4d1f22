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
  const service = await readFile(join(MINIMAL_CONTENT, "services/web-apps.md"), "utf8");
  return contentTree({
    "services/web-apps.md": service.replace("from: 10000", "from: 12000"),
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

  it("compares the content at a git ref with the working tree", async () => {
    const repo = await contentTree({}, MINIMAL_CONTENT);
    const git = (...args: string[]) => run("git", ["-C", repo, "-c", "user.email=t@t", "-c", "user.name=t", ...args]);
    await git("init", "-q");
    await git("add", ".");
    await git("commit", "-qm", "content");
    await writeFile(join(repo, "services/web-apps.md"), (await readFile(join(repo, "services/web-apps.md"), "utf8")).replace("from: 10000", "from: 9000"));
    const { stdout } = await cli(["diff", "--ref", "HEAD", "--content", ".", "--format", "json"], repo);
    expect(JSON.parse(stdout).services.changed[0].fields).toEqual([{ field: "pricing.from", before: 10000, after: 9000 }]);
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
