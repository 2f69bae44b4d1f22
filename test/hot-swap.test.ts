import { createHash } from "node:crypto";
import { cp, readdir, readFile, readlink, rename, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildCatalog } from "../build/pipeline.js";
import { contentTree, tempDir } from "./helpers/content.js";
import { Writable } from "node:stream";
import { createApp } from "../src/app.js";
import { LiveCatalog } from "../src/catalog/live.js";
import { CatalogError, readCatalog } from "../src/catalog/load.js";
import { LowdbStore } from "../src/store/lowdb-store.js";
import { BASE_URL, builtCatalog, testApp, type TestApp } from "./helpers/app.js";

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const quiet = { info: () => {}, error: () => {} };
const techniques = async (app: TestApp) =>
  JSON.parse((await app.app.inject({ method: "GET", url: "/api/v1/techniques" })).body).data.techniques.map((x: { id: string }) => x.id);

async function eventually(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * A copy of the catalog's current version with one file's text replaced and the manifest updated
 * to match: the hashes cannot find the fault. Returns the copy's folder.
 */
async function changedCopy(catalogDir: string, name: string, file: string, text: string): Promise<string> {
  const parent = join(catalogDir, "..");
  const copy = join(parent, name);
  await cp(join(parent, await readlink(catalogDir)), copy, { recursive: true });
  await writeFile(join(copy, file), text);
  const manifest = JSON.parse(await readFile(join(copy, "manifest.json"), "utf8"));
  manifest.files[file] = createHash("sha256").update(text).digest("hex");
  manifest.contentHash = createHash("sha256").update(`changed ${manifest.contentHash}`).digest("hex");
  await writeFile(join(copy, "manifest.json"), JSON.stringify(manifest));
  return copy;
}

/** A copy whose FAQ index is not JSON: only parsing the file can find the fault. */
const unparsableCopy = (catalogDir: string, name: string) => changedCopy(catalogDir, name, "index-faq.json", '{"fields": [');

describe("publishing a new catalog under a running server", () => {
  it("serves the new catalog without a restart, with a new ETag", async () => {
    t = await testApp();
    t.catalog.watch(20, quiet);
    const before = await t.app.inject({ method: "GET", url: "/api/v1/techniques" });
    expect(await techniques(t)).toEqual(["typescript"]);
    const changed = await contentTree({ "techniques/go.md": "---\ntitle: Go\nsummary: Go.\ncategory: language\n---\nGo.\n" });
    await buildCatalog({ content: changed, catalog: t.catalogDir });
    await eventually(async () => (await techniques(t!)).length === 2);
    const after = await t.app.inject({ method: "GET", url: "/api/v1/techniques" });
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it("keeps serving the old catalog when the new one is broken", async () => {
    t = await testApp();
    const errors: string[] = [];
    t.catalog.watch(20, { info: () => {}, error: (m) => errors.push(m) });
    // A copy of the current version with one file changed by hand, switched in like a build would.
    const parent = join(t.catalogDir, "..");
    const broken = join(parent, ".catalog-broken");
    await cp(join(parent, await readlink(t.catalogDir)), broken, { recursive: true });
    await writeFile(join(broken, "techniques.json"), "[]");
    await symlink(".catalog-broken", join(parent, "next"));
    await rename(join(parent, "next"), t.catalogDir);
    await eventually(async () => errors.length > 0);
    expect(errors[0]).toContain("techniques.json does not match its manifest hash");
    expect(await techniques(t)).toEqual(["typescript"]);
    expect(await readdir(broken)).toContain("manifest.json");
  });

  it("parses a new catalog whole before swapping it in: a file that does not parse keeps the old one", async () => {
    t = await testApp();
    const errors: string[] = [];
    t.catalog.watch(20, { info: () => {}, error: (m) => errors.push(m) });
    await unparsableCopy(t.catalogDir, ".catalog-unparsable");
    const parent = join(t.catalogDir, "..");
    await symlink(".catalog-unparsable", join(parent, "next"));
    await rename(join(parent, "next"), t.catalogDir);
    await eventually(async () => errors.length > 0);
    expect(errors[0]).toContain("index-faq.json is not valid JSON");
    const search = await t.app.inject({ method: "GET", url: "/api/v1/faq/search?q=start" });
    expect(search.statusCode).toBe(200);
  });

  it("checks a new catalog's answers against the documented schemas before swapping it in", async () => {
    for (const [file, text, fault] of [
      ["techniques.json", '{"oops":1}', "listTechniques would not be as documented (the answer must have required property 'count')"],
      ["faq.json", '[{"id":"nda","category":"legal","answer":"Yes.","tags":[],"citeAs":"FAQ"}]', "the search result of FAQ entry nda would not be as documented (the answer must have required property 'question')"],
    ]) {
      t = await testApp();
      const errors: string[] = [];
      t.catalog.watch(20, { info: () => {}, error: (m) => errors.push(m) });
      await changedCopy(t.catalogDir, ".catalog-undocumented", file!, text!);
      const parent = join(t.catalogDir, "..");
      await symlink(".catalog-undocumented", join(parent, "next"));
      await rename(join(parent, "next"), t.catalogDir);
      await eventually(async () => errors.length > 0);
      expect(errors[0], errors[0]).toContain(fault);
      expect(errors[0]).toContain("was the catalog built by another version of Frontdesk? Build it with this one");
      expect(await techniques(t)).toEqual(["typescript"]);
      await t.close();
      t = undefined;
    }
  });
});

describe("a new catalog after an edit", () => {
  it("takes over what did not change from the warm catalog it replaces, and serves the edit", async () => {
    const content = await contentTree();
    const catalogDir = await builtCatalog(content);
    const live = await LiveCatalog.open(catalogDir, BASE_URL);
    await live.warm(quiet);
    const before = live.current;
    const service = join(content, "services/web-apps.md");
    await writeFile(service, (await readFile(service, "utf8")).replace("from: 10000", "from: 10001"));
    await buildCatalog({ content, catalog: catalogDir });
    await live.reload(quiet);
    const after = live.current;
    expect(after).not.toBe(before);
    expect(after.services.get("web-apps")!.pricing.from).toBe(10001);
    // The FAQ was neither parsed nor imported again: the very same values are served.
    for (const key of ["faq", "faqIndex", "recommendIndex", "openapi"] as const) expect(after.data[key], key).toBe(before.data[key]);
    expect(after.data.services).not.toBe(before.data.services);
    expect(after.searchFaq("nda", 1).results[0]).toBe(before.searchFaq("nda", 1).results[0]);
    expect(after.serviceDetail("web-apps")!.text).toContain('"from":10001');
  });

  it("checks the changed parts against the documented schemas though the catalog it replaces is warm", async () => {
    for (const [file, text, fault] of [
      ["techniques.json", '{"oops":1}', "listTechniques would not be as documented"],
      ["services.json", '[{"id":"web-apps","title":"Web Apps"}]', "would not be as documented"],
      ["faq.json", '[{"id":"nda","category":"legal","answer":"Yes.","tags":[],"citeAs":"FAQ"}]', "the search result of FAQ entry nda would not be as documented"],
    ]) {
      const catalogDir = await builtCatalog();
      const live = await LiveCatalog.open(catalogDir, BASE_URL);
      await live.warm(quiet);
      const served = live.current;
      const errors: string[] = [];
      await changedCopy(catalogDir, ".catalog-undocumented", file!, text!);
      const parent = join(catalogDir, "..");
      await symlink(".catalog-undocumented", join(parent, "next"));
      await rename(join(parent, "next"), catalogDir);
      await live.reload({ info: () => {}, error: (m) => errors.push(m) });
      expect(errors[0], file).toContain(fault);
      expect(live.current).toBe(served);
    }
  });
});

describe("the first catalog", () => {
  it("answers before its FAQ is parsed, and reports a file that does not parse when it warms", async () => {
    const catalogDir = await builtCatalog();
    const copy = await unparsableCopy(catalogDir, ".catalog-unparsable");
    const catalog = await LiveCatalog.open(copy, BASE_URL);
    expect(catalog.current.fixed.get("listServices")!.text).toContain('"count":2');
    const errors: string[] = [];
    await catalog.warm({ info: () => {}, error: (m) => errors.push(m) });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/catalog \w{12} is broken: catalog file index-faq.json is not valid JSON/);
  });

  it("fails the same way each time a broken file is read, without parsing it again", async () => {
    const loaded = await readCatalog(await unparsableCopy(await builtCatalog(), ".catalog-unparsable"));
    const failure = () => {
      try {
        return loaded.data.faqIndex;
      } catch (error) {
        return error;
      }
    };
    const first = failure();
    expect(first).toBeInstanceOf(CatalogError);
    expect(failure()).toBe(first);
  });

  it("is not ready while broken: /readyz names the catalog and the fix", async () => {
    t = await testApp({ catalogDir: await unparsableCopy(await builtCatalog(), ".catalog-unparsable") });
    const ready = await t.app.inject({ method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(503);
    expect(JSON.parse(ready.body).error.message).toMatch(/^The catalog \w{12} is broken \(catalog file index-faq.json is not valid JSON.*publish a fixed build\.$/);
    expect((await t.app.inject({ method: "GET", url: "/api/v1/services" })).statusCode).toBe(200);
  });

  for (const [trigger, warmAfterMs, ask] of [
    ["its first answer is out", 60_000, true],
    ["a moment has passed without a request", 20, false],
  ] as const) {
    it(`is warmed by a listening server once ${trigger}`, async () => {
      const copy = await unparsableCopy(await builtCatalog(), ".catalog-unparsable");
      const catalog = await LiveCatalog.open(copy, BASE_URL);
      const store = await LowdbStore.open(join(await tempDir("frontdesk-data-"), "frontdesk.json"));
      const lines: string[] = [];
      const stream = new Writable({ write: (chunk, _enc, done) => { lines.push(chunk.toString()); done(); } });
      const app = await createApp({ catalog, store, config: { publicBaseUrl: BASE_URL }, warmAfterMs, logger: { level: "error", stream } });
      try {
        const address = await app.listen({ port: 0, host: "127.0.0.1" });
        if (ask) expect((await fetch(`${address}/api/v1/services`)).status).toBe(200);
        await eventually(async () => lines.some((l) => l.includes("index-faq.json is not valid JSON")));
      } finally {
        await app.close();
        await store.close();
      }
    });
  }
});
