import { cp, readdir, readlink, rename, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildCatalog } from "../build/pipeline.js";
import { contentTree } from "./helpers/content.js";
import { testApp, type TestApp } from "./helpers/app.js";

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
});
