import { readFile } from "node:fs/promises";
import YAML from "yaml";
import { loadLabelled } from "../src/eval/labelled.js";
import { judgeQuotes, judgeTickets } from "../src/eval/reviews.js";
import type { QuoteRubric, TicketRubric } from "../src/catalog/types.js";

const rubric = async <T>(n: string) => YAML.parse(await readFile(`content/rubrics/${n}`, "utf8")) as T;
const tr = await rubric<TicketRubric>("ticket.yaml");
const qr = await rubric<QuoteRubric>("quote.yaml");

/** PDF copy: wrap at 84 with hyphenation of long words at the break, bullets as •, footer+header every ~25 lines, double spaces after full stops. */
function pdf(text: string): string {
  const width = 84;
  const lines = text.split("\n").flatMap((line) => {
    line = line.replace(/^(\s*)[-*]\s/, "$1• ").replace(/\*\*([^*]+)\*\*/g, "$1").replace(/^#+\s*/, "");
    if (line.length <= width || /^\s*\|/.test(line)) return [line];
    const out = [""];
    for (const word of line.split(" ")) {
      const cur = out.at(-1)!;
      if (cur.length > 0 && `${cur} ${word}`.length > width) {
        if (word.length >= 9 && /^[a-z]+$/.test(word) && cur.length + 6 <= width) {
          const cut = Math.floor(word.length / 2);
          out[out.length - 1] = `${cur} ${word.slice(0, cut)}-`;
          out.push(word.slice(cut));
        } else out.push(word);
      } else out[out.length - 1] = cur ? `${cur} ${word}` : word;
    }
    return out;
  });
  const res: string[] = [];
  lines.forEach((l, i) => {
    res.push(l);
    if (i > 0 && i % 25 === 0) res.push("", "Northwind Digital Ltd – Proposal 2025-041                Page 1 of 3", "CONFIDENTIAL", "");
  });
  return res.join("\n");
}

const mode = process.argv[2] ?? "pdf";
const tf = mode === "pdf" ? pdf : pdf;
for (const [prefix, judge] of [["tickets", (i: any) => judgeTickets(i, tr)], ["quotes", (i: any) => judgeQuotes(i, qr)]] as const) {
  const items = (await loadLabelled("test/fixtures", prefix)).filter((i) => i.split === "dev");
  const before = judge(items);
  const after = judge(items.map((i) => ({ ...i, text: tf(i.text) })));
  const flips = before.map((v, k) => [v, after[k]!] as const).filter(([a, b]) => a.passed !== b.passed);
  console.log(`${prefix}: ${flips.length} of ${items.length} flip`);
  for (const [a, b] of flips) console.log(`  ${a.item.id} ${a.item.format} expected ${a.item.expected}: ${a.passed}→${b.passed} | ${b.deciding.join(" ; ").slice(0, 300)}`);
}
const show = process.argv[3];
if (show) {
  const all = [...(await loadLabelled("test/fixtures", "quotes")), ...(await loadLabelled("test/fixtures", "tickets"))];
  const it = all.find((i) => i.id === show)!;
  console.error(tf(it.text));
  const v = (it.id.startsWith("q") ? judgeQuotes([{ ...it, text: tf(it.text) }], qr) : judgeTickets([{ ...it, text: tf(it.text) }], tr))[0]!;
  console.log(v.passed, v.score, v.deciding);
}
