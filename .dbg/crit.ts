import { readFile } from "node:fs/promises";
import YAML from "yaml";
import { loadLabelled } from "../src/eval/labelled.js";
import { reviewQuote } from "../src/reviews/quote.js";
import { reviewTicket } from "../src/reviews/ticket.js";
import type { QuoteRubric, TicketRubric } from "../src/catalog/types.js";
const qr = YAML.parse(await readFile("content/rubrics/quote.yaml", "utf8")) as QuoteRubric;
const tr = YAML.parse(await readFile("content/rubrics/ticket.yaml", "utf8")) as TicketRubric;
const id = process.argv[2]!;
const file = process.argv[3];
const all = [...(await loadLabelled("test/fixtures", "quotes")), ...(await loadLabelled("test/fixtures", "tickets"))];
const it = all.find((i) => i.id === id)!;
const text = file ? await readFile(file, "utf8") : it.text;
if (id.startsWith("q")) {
  const r = reviewQuote(text, qr, new Map(), (x) => x);
  console.log(r.passed, r.score, r.summary);
  for (const c of r.criteria) console.log(` ${c.status.padEnd(8)} ${c.id}: ${c.evidence}`);
  console.log(r.consistency);
} else {
  const r = reviewTicket({ ticketText: text, ...(it.type ? { type: it.type as any } : {}) }, tr);
  console.log(r.passed, r.rating, r.summary);
  for (const c of r.criteria) console.log(` ${c.status.padEnd(8)} ${c.id}: ${c.evidence}`);
}
