/**
 * One `frontdesk dev` edit on the benchmark's large tree, in process and stage by stage: the
 * rebuild (buildCatalog with the dev SourceCache) and the running server's reload of the new
 * catalog (LiveCatalog.reload: read + hash check, answers' checks, warm-up). Median of 5 edits.
 *
 *   node --import tsx bench/dev-profile.ts [--keep DIR]
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { buildCatalog } from "../build/pipeline.js";
import { SourceCache } from "../build/source.js";
import { LiveCatalog } from "../src/catalog/live.js";
import { generateContent } from "./generate.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const EDITS = Number(process.env.EDITS ?? 5);
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

const keep = process.argv.indexOf("--keep");
const work = keep > 0 ? process.argv[keep + 1]! : await mkdtemp(join(tmpdir(), "frontdesk-devprof-"));
const content = join(work, "content");
if (!existsSync(content)) await generateContent(content, join(root, "test/fixtures/minimal-content"), { services: 1000, faq: 10_000 }, join(root, "content"));
const catalogDir = join(work, "catalog");
const silent = { info: () => {}, error: (m: string) => console.error(m) };

const cache = new SourceCache();
let t = performance.now();
const first = await buildCatalog({ content, catalog: catalogDir, cache });
console.log(`first build ${Math.round(performance.now() - t)} ms, ${first.errors} errors`);
const live = await LiveCatalog.open(catalogDir, "http://localhost:3000");
await live.warm(silent);

const edited = join(content, "services/service-500.md");
const original = await readFile(edited, "utf8");
const builds: number[] = [];
const reloads: number[] = [];
const totals: number[] = [];
for (let i = 0; i < EDITS; i++) {
  const price = 90_000 + i;
  await writeFile(edited, original.replace(/from: \d+/, `from: ${price}`));
  cache.forget(edited);
  t = performance.now();
  const result = await buildCatalog({ content, catalog: catalogDir, cache });
  const built = performance.now();
  await live.reload(silent);
  const done = performance.now();
  const served = live.current.services.get("service-500")!.pricing.from;
  if (served !== price || result.errors) throw new Error(`edit ${i} not served (${served}, ${result.errors} errors)`);
  builds.push(built - t);
  reloads.push(done - built);
  totals.push(done - t);
  console.log(`edit ${i}: rebuild ${Math.round(built - t)} ms, reload ${Math.round(done - built)} ms, total ${Math.round(done - t)} ms`);
}
await writeFile(edited, original);
console.log(`median of ${EDITS}: rebuild ${Math.round(median(builds))} ms, reload ${Math.round(median(reloads))} ms, total ${Math.round(median(totals))} ms`);
if (keep < 0) await rm(work, { recursive: true, force: true });
