import { unlinkSync } from "node:fs";
import { mkdir, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { buildCatalog, checkContent } from "../build/pipeline.js";
import { loadContent, SourceCache } from "../build/source.js";
import { contentTree, tempDir } from "./helpers/content.js";

async function catalogFiles(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) out[name] = await readFile(join(dir, name), "utf8");
  return out;
}

/** A path to delete just before the build looks at it: a `git checkout` racing a rebuild. */
const race = vi.hoisted(() => ({ deleteBeforeStat: undefined as string | undefined }));
vi.mock("node:fs", async (original) => {
  const fs = await original<typeof import("node:fs")>();
  const statSync = ((path: string, ...rest: unknown[]) => {
    if (path === race.deleteBeforeStat) unlinkSync(path);
    return (fs.statSync as (...args: unknown[]) => unknown)(path, ...rest);
  }) as typeof fs.statSync;
  return { ...fs, default: { ...fs, statSync }, statSync };
});

/** What `frontdesk dev` keeps between rebuilds must never hide an edit. */
describe("SourceCache", () => {
  it("re-reads only what changed, and sees edits, new files and deletions", async () => {
    const dir = await contentTree();
    const cache = new SourceCache();
    const first = await loadContent(dir, "content", cache);
    const byId = (files: typeof first.files) => new Map(files.map((f) => [`${f.kind}/${f.id}`, f]));

    const service = join(dir, "services/web-apps.md");
    // Same length: forgetting the path makes sure it is read even within the clock's resolution.
    await writeFile(service, (await readFile(service, "utf8")).replace("from: 10000", "from: 10001"));
    cache.forget(service);
    await writeFile(join(dir, "faq/new-question.md"), "---\nquestion: Is this new?\ncategory: general\n---\nYes.\n");
    await rm(join(dir, "tools/quote-reviewer.md"));

    const second = byId((await loadContent(dir, "content", cache)).files);
    const before = byId(first.files);
    expect((second.get("service/web-apps")!.data as { pricing: { from: number } }).pricing.from).toBe(10001);
    expect(second.has("faq/new-question")).toBe(true);
    expect(second.has("tool/quote-reviewer")).toBe(false);
    for (const [key, file] of second) {
      if (["service/web-apps", "faq/new-question"].includes(key)) expect(file).not.toBe(before.get(key));
      else expect(file, key).toBe(before.get(key));
    }
  });

  it("notices a change the watcher did not report by the file's size or time", async () => {
    const dir = await contentTree();
    const cache = new SourceCache();
    await loadContent(dir, "content", cache);
    const service = join(dir, "services/web-apps.md");
    await writeFile(service, (await readFile(service, "utf8")).replace("title: Web Apps", "title: Web Applications"));
    const again = await loadContent(dir, "content", cache);
    expect(again.files.find((f) => f.id === "web-apps")!.data).toMatchObject({ title: "Web Applications" });
  });

  it("rebuilds a derived result only when one of its own files changed", async () => {
    const dir = await contentTree();
    const cache = new SourceCache();
    const builds: string[] = [];
    const derive = async () => {
      const { files } = await checkContent(dir, "content", cache);
      await cache.reuse("faq", files.filter((f) => f.kind === "faq"), async () => builds.push("faq"));
    };
    await derive();
    const service = join(dir, "services/web-apps.md");
    await writeFile(service, (await readFile(service, "utf8")).replace("from: 10000", "from: 10001"));
    cache.forget(service);
    await derive();
    expect(builds).toEqual(["faq"]);
    await writeFile(join(dir, "faq/new-question.md"), "---\nquestion: Is this new?\ncategory: general\n---\nYes.\n");
    await derive();
    expect(builds).toEqual(["faq", "faq"]);
  });

  it("builds the tree without a file deleted after its folder was listed, and reads it when it is back", async () => {
    const dir = await contentTree();
    const cache = new SourceCache();
    await loadContent(dir, "content", cache);
    const service = join(dir, "services/web-apps.md");
    const text = await readFile(service, "utf8");
    cache.forget(service);
    race.deleteBeforeStat = resolve(service);
    const during = await checkContent(dir, "content", cache).finally(() => (race.deleteBeforeStat = undefined));
    expect(during.files.map((f) => f.id)).not.toContain("web-apps");
    expect(during.diagnostics.filter((d) => d.file.includes("web-apps"))).toEqual([]);
    await writeFile(service, text);
    expect((await checkContent(dir, "content", cache)).files.map((f) => f.id)).toContain("web-apps");
  });

  it("reports a content file that cannot be read at that file, and builds on", async () => {
    const dir = await contentTree();
    // A link to a folder, named as a service: listed as a file, it cannot be read as one.
    await mkdir(join(dir, "elsewhere"));
    await symlink(join(dir, "elsewhere"), join(dir, "services/linked.md"));
    const check = await checkContent(dir, "content", new SourceCache());
    expect(check.diagnostics).toEqual([
      expect.objectContaining({ file: "content/services/linked.md", severity: "error", message: expect.stringMatching(/^cannot read this file \(EISDIR: illegal operation on a directory\)/) }),
    ]);
    expect(check.files.map((f) => f.id)).toContain("web-apps");
  });

  it("reports a broken file again on every build until it is fixed", async () => {
    const dir = await contentTree();
    const cache = new SourceCache();
    const service = join(dir, "services/web-apps.md");
    await writeFile(service, (await readFile(service, "utf8")).replace("from: 10000", "from: lots"));
    for (let i = 0; i < 2; i++) expect((await checkContent(dir, "content", cache)).errors).toBe(1);
  });

  it("rebuilds after an edit the catalog a full build gives, remaking and rewriting only what the edit touched", async () => {
    const dir = await contentTree();
    const catalog = join(await tempDir(), "catalog");
    const cache = new SourceCache();
    const edit = async (path: string, from: string, to: string) => {
      const file = join(dir, path);
      await writeFile(file, (await readFile(file, "utf8")).replace(from, to));
      cache.forget(file);
      const result = await buildCatalog({ content: dir, catalog, cache });
      const full = await buildCatalog({ content: dir, catalog: join(await tempDir(), "catalog") });
      expect(result.errors).toBe(0);
      expect(await catalogFiles(result.published!)).toEqual(await catalogFiles(full.published!));
      return result.published!;
    };
    const first = (await buildCatalog({ content: dir, catalog, cache })).published!;
    const made = () => Object.fromEntries(cache.made);
    expect(made()).toEqual({ conceptIndex: 1, faq: 1, faqIndex: 1, llmsFaqSection: 1, openapi: 1, recommendIndex: 1 });

    // One service's price, which no search index holds: only the service's own files change.
    const priced = await edit("services/web-apps.md", "from: 10000", "from: 10001");
    expect(made()).toEqual({ conceptIndex: 1, faq: 1, faqIndex: 1, llmsFaqSection: 1, openapi: 1, recommendIndex: 1 });
    const inode = async (folder: string, name: string) => (await stat(join(folder, name))).ino;
    expect(await inode(priced, "index-recommend.json")).toBe(await inode(first, "index-recommend.json"));

    // One service's title: the FAQ's entries, JSON, index and part of llms-full.txt are reused, not made again.
    const second = await edit("services/web-apps.md", "title: Web Apps", "title: Web Applications");
    expect(made()).toEqual({ conceptIndex: 1, faq: 1, faqIndex: 1, llmsFaqSection: 1, openapi: 1, recommendIndex: 2 });
    // ... and their files are the previous version's own (linked), not written again.
    for (const name of ["faq.json", "index-faq.json", "openapi.json", "techniques.json"]) expect(await inode(second, name), name).toBe(await inode(priced, name));
    for (const name of ["services.json", "index-recommend.json", "llms-full.txt", "manifest.json"]) expect(await inode(second, name), name).not.toBe(await inode(priced, name));

    // An FAQ entry, then the company's name (which every FAQ entry's citeAs holds).
    await edit("faq/do-you-sign-ndas.md", "?", "? Really?");
    expect(made()).toMatchObject({ faq: 2, faqIndex: 2, llmsFaqSection: 2, openapi: 1, recommendIndex: 2 });
    await edit("company.yaml", "name: Test Co", "name: Test Company");
    expect(made()).toMatchObject({ faq: 3, faqIndex: 2, llmsFaqSection: 2, openapi: 2, recommendIndex: 2 });
  });
});
