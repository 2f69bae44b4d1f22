// The cost of a search itself, without HTTP: the two searches of the catalog in argv[2], asked the
// evaluation questions each with a number word added (ignored by the search, but no question is
// ever asked twice, so no answer comes from a cache). Prints { faq, recommend }: the median
// microseconds per question, results made into their JSON as the API sends them.
import { readFile } from "node:fs/promises";
import YAML from "yaml";
import { readCatalog } from "../src/catalog/load.js";
import { ServedCatalog } from "../src/catalog/served.js";

const served = new ServedCatalog(await readCatalog(process.argv[2]!), "http://bench");
await served.warm();
const cases = YAML.parse(await readFile(new URL("../test/fixtures/recommend-eval.yaml", import.meta.url), "utf8")) as { q: string }[];
const questions = cases.map((c) => c.q.slice(0, 200));
let asked = 0;

/** Median microseconds per question over runs of a few thousand, after a warm-up run. */
function perQuestion(search: (question: string) => unknown): number {
  const runs: number[] = [];
  for (let run = 0; run < 8; run++) {
    const started = performance.now();
    for (let i = 0; i < 5000; i++, asked++) search(`${questions[asked % questions.length]} ${asked}`);
    if (run > 0) runs.push(((performance.now() - started) * 1000) / 5000);
  }
  return runs.sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
}

const faq = perQuestion((q) => served.searchFaq(q, 5).results);
const recommend = perQuestion((q) => served.recommend(q, 5).map((r) => JSON.stringify(r)));
console.log(JSON.stringify({ faq, recommend }));
