import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import YAML from "yaml";
import { readCatalog } from "../catalog/load.js";
import { ServedCatalog } from "../catalog/served.js";
import { inSplit, type Split, type SplitChoice } from "./labelled.js";

/**
 * How well recommendations match what a consultant would answer, on labelled problems
 * (test/fixtures/recommend*.yaml): hit@3 (an acceptable offering among the first three) and MRR
 * (1 / the rank of the first acceptable one). Each set has a dev part, tuned on, and a test part,
 * never tuned on: the test part is the number that counts.
 */
export interface RecommendCase {
  q: string;
  /** Ids of the services or products a consultant would accept in the top 3. */
  accept: string[];
  split: Split;
  /** symptoms: told as pain only, never in the catalog's words. */
  style: "plain" | "symptoms";
  file: string;
}

export interface Scores {
  cases: number;
  hitAt3: number;
  mrr: number;
}

export interface Miss {
  case: RecommendCase;
  got: string[];
}

/** Every labelled problem in the fixture files; items without a split were tuned on (dev). */
export async function loadRecommendCases(files: string[]): Promise<RecommendCase[]> {
  const out: RecommendCase[] = [];
  for (const file of files) {
    const items = YAML.parse(await readFile(file, "utf8")) as Partial<RecommendCase>[];
    for (const item of items) {
      if (typeof item.q !== "string" || !Array.isArray(item.accept)) throw new Error(`${file}: every item needs q and accept (got ${JSON.stringify(item).slice(0, 80)})`);
      out.push({ q: item.q, accept: item.accept, split: item.split ?? "dev", style: item.style ?? "plain", file });
    }
  }
  return out;
}

/** The default fixture files: every recommend*.yaml in the folder. */
export async function recommendFixtures(folder: string): Promise<string[]> {
  return (await readdir(folder)).filter((f) => /^recommend.*\.ya?ml$/.test(f)).sort().map((f) => join(folder, f));
}

/** Scores a ranking function (ids, best first) on the cases, with the cases it missed at 3. */
export function score(cases: readonly RecommendCase[], rank: (q: string) => string[]): Scores & { misses: Miss[] } {
  let hits = 0;
  let reciprocal = 0;
  const misses: Miss[] = [];
  for (const c of cases) {
    const got = rank(c.q);
    const at = got.findIndex((id) => c.accept.includes(id));
    if (at >= 0) reciprocal += 1 / (at + 1);
    if (at >= 0 && at < 3) hits++;
    else misses.push({ case: c, got: got.slice(0, 3) });
  }
  const n = Math.max(cases.length, 1);
  return { cases: cases.length, hitAt3: hits / n, mrr: reciprocal / n, misses };
}

/** Scores per part (dev, test) and per style within each, as printed by `frontdesk eval recommend`. */
export function breakdown(cases: readonly RecommendCase[], rank: (q: string) => string[]): { group: string; scores: Scores & { misses: Miss[] } }[] {
  const groups: [string, (c: RecommendCase) => boolean][] = [];
  for (const split of ["dev", "test"] as const) {
    groups.push([split, (c) => c.split === split]);
    for (const style of ["plain", "symptoms"] as const) groups.push([`${split} · ${style}`, (c) => c.split === split && c.style === style]);
  }
  return groups
    .map(([group, keep]) => ({ group, scores: score(cases.filter(keep), rank) }))
    .filter(({ scores }) => scores.cases > 0);
}

export function formatReport(cases: readonly RecommendCase[], rank: (q: string) => string[], split: SplitChoice, items = true): string {
  const lines = ["| part | problems | hit@3 | MRR |", "|---|---|---|---|"];
  for (const { group, scores } of breakdown(cases, rank)) {
    lines.push(`| ${group} | ${scores.cases} | ${scores.hitAt3.toFixed(3)} | ${scores.mrr.toFixed(3)} |`);
  }
  const { misses } = score(inSplit(cases, split), rank);
  lines.push("", `Missed at 3 (${split === "all" ? "every part" : `${split} part`}): ${misses.length}`);
  for (const m of items ? misses : []) lines.push(`- [${m.case.split}, ${m.case.style}] "${m.case.q}"`, `  want ${m.case.accept.join(" or ")}; got ${m.got.join(", ") || "nothing"}`);
  return lines.join("\n");
}

/** `frontdesk eval recommend`: the content's catalog, built aside, asked every labelled problem. */
export async function evaluateRecommend(options: { content: string; fixtures: string; split: SplitChoice; items?: boolean }): Promise<string> {
  const { buildCatalog } = await import("../../build/pipeline.js");
  const work = await mkdtemp(join(tmpdir(), "frontdesk-eval-"));
  try {
    const built = await buildCatalog({ content: options.content, catalog: join(work, "catalog") });
    if (!built.published) throw new Error(`the content in ${options.content} has ${built.errors} errors: run "frontdesk validate"`);
    const catalog = new ServedCatalog(await readCatalog(built.published), "http://eval");
    const cases = await loadRecommendCases(await recommendFixtures(options.fixtures));
    return formatReport(cases, (q) => catalog.recommend(q, 10).map((r) => r.id), options.split, options.items ?? true);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
