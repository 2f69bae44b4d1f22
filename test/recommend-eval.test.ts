import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readCatalog } from "../src/catalog/load.js";
import { ServedCatalog } from "../src/catalog/served.js";
import { evaluateRecommend, loadRecommendCases, recommendFixtures, score, type RecommendCase } from "../src/eval/recommend.js";
import { builtCatalog } from "./helpers/app.js";
import { SAMPLE_CONTENT } from "./helpers/content.js";
import { miniSearchRanker } from "./helpers/minisearch-baseline.js";

/**
 * Recommendation quality on problems written the way prospects write them, labelled before the
 * recommender was run on them. The dev part is tuned on; the test part is the number that counts.
 */
let catalog: ServedCatalog;
let cases: RecommendCase[];
const ours = (q: string) => catalog.recommend(q, 10).map((r) => r.id);

beforeAll(async () => {
  catalog = new ServedCatalog(await readCatalog(await builtCatalog(SAMPLE_CONTENT)), "http://test");
  cases = await loadRecommendCases(await recommendFixtures(join(SAMPLE_CONTENT, "../test/fixtures")));
});

const report = (misses: ReturnType<typeof score>["misses"]) => misses.map((m) => `${m.case.q}\n  want ${m.case.accept.join("|")}, got ${m.got.join(", ")}`).join("\n");

describe("recommendation quality", () => {
  it("is measured on at least 150 problems, a third of them told only as symptoms, with a held-back test part", () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
    expect(cases.filter((c) => c.style === "symptoms").length).toBeGreaterThanOrEqual(cases.length / 3);
    expect(cases.filter((c) => c.split === "test").length).toBeGreaterThanOrEqual(cases.length / 4);
    const ids = new Set([...catalog.data.services, ...catalog.data.products].map((x) => x.id));
    expect(cases.flatMap((c) => c.accept).filter((id) => !ids.has(id))).toEqual([]);
  });

  // The target on the test part is hit@3 ≥ 0.92 and MRR ≥ 0.8. With set D in it, measured
  // once after tuning on the dev part: 0.920 and 0.852 (README, "How recommendations are judged").
  // These floors are that measured level, just under it; they are no target.
  it("keeps the measured level on the test part: hit@3 at least 0.915, MRR at least 0.85", () => {
    const result = score(cases.filter((c) => c.split === "test"), ours);
    expect(result.hitAt3, report(result.misses)).toBeGreaterThanOrEqual(0.915);
    expect(result.mrr).toBeGreaterThanOrEqual(0.85);
  });

  // Measured on the dev part it was tuned on: 1.000 and 0.975; the floors are that measured level,
  // just under it, not a target (a tuned-on part says little about new wording).
  it("does better on the dev part it was tuned on: hit@3 at least 0.99, MRR at least 0.97", () => {
    const result = score(cases.filter((c) => c.split === "dev"), ours);
    expect(result.hitAt3, report(result.misses)).toBeGreaterThanOrEqual(0.99);
    expect(result.mrr).toBeGreaterThanOrEqual(0.97);
  });

  it("beats stock MiniSearch over every field of the same catalog by at least 0.05 hit@3 on the test part", () => {
    const test = cases.filter((c) => c.split === "test");
    const baseline = score(test, miniSearchRanker(catalog.data));
    expect(score(test, ours).hitAt3 - baseline.hitAt3).toBeGreaterThanOrEqual(0.05);
  });

  it("copes with typos and word forms", () => {
    expect(catalog.recommend("secuirty audti of our codebase", 3).map((r) => r.id)).toContain("security-audit");
    expect(catalog.recommend("migrating servers to the cloud", 3)[0]!.id).toBe("cloud-migration");
  });

  it("frontdesk eval recommend prints hit@3 and MRR per part and style, and the problems missed", async () => {
    const printed = await evaluateRecommend({ content: SAMPLE_CONTENT, fixtures: join(SAMPLE_CONTENT, "../test/fixtures"), split: "test" });
    const test = score(cases.filter((c) => c.split === "test"), ours);
    expect(printed).toContain(`| test | ${test.cases} | ${test.hitAt3.toFixed(3)} | ${test.mrr.toFixed(3)} |`);
    expect(printed).toMatch(/\| dev · symptoms \| \d+ \|/);
    expect(printed).toContain(`Missed at 3 (test part): ${test.misses.length}`);
  });
});
