import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkContent } from "../build/pipeline.js";
import { loadContent, SourceCache } from "../build/source.js";
import { contentTree } from "./helpers/content.js";

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

  it("reports a broken file again on every build until it is fixed", async () => {
    const dir = await contentTree();
    const cache = new SourceCache();
    const service = join(dir, "services/web-apps.md");
    await writeFile(service, (await readFile(service, "utf8")).replace("from: 10000", "from: lots"));
    for (let i = 0; i < 2; i++) expect((await checkContent(dir, "content", cache)).errors).toBe(1);
  });
});
