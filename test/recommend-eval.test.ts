import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { readCatalog } from "../src/catalog/load.js";
import { ServedCatalog } from "../src/catalog/served.js";
import { builtCatalog } from "./helpers/app.js";
import { SAMPLE_CONTENT } from "./helpers/content.js";

/** Recommendation quality on problem statements written the way prospects write them. */
let catalog: ServedCatalog;
let cases: { q: string; accept: string[] }[];

beforeAll(async () => {
  catalog = new ServedCatalog(await readCatalog(await builtCatalog(SAMPLE_CONTENT)), "http://test");
  cases = YAML.parse(await readFile(join(SAMPLE_CONTENT, "..", "test/fixtures/recommend-eval.yaml"), "utf8"));
});

describe("recommendation quality", () => {
  it("puts an acceptable service or product in the top 3 for at least 90% of the evaluation set", () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
    const misses = cases.filter((c) => !catalog.recommend(c.q, 3).some((r) => c.accept.includes(r.id)));
    const report = misses.map((c) => `${c.q}\n  want ${c.accept.join("|")}, got ${catalog.recommend(c.q, 3).map((r) => r.id).join(", ")}`);
    expect(misses.length / cases.length, report.join("\n")).toBeLessThanOrEqual(0.1);
  });

  it("copes with typos and word forms", () => {
    expect(catalog.recommend("secuirty audti of our codebase", 3).map((r) => r.id)).toContain("security-audit");
    expect(catalog.recommend("migrating servers to the cloud", 3)[0]!.id).toBe("cloud-migration");
  });
});
