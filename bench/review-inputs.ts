// Reviews of the largest texts the API takes, shaped to find a slow path (runs of digits, spaces,
// labels, question-less letters), against the Markdown lexer alone reading the same text: the
// part of a review no reviewer code can avoid. Prints a Markdown section; `npm run bench` includes it.
import { readFile } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { Lexer } from "marked";
import YAML from "yaml";
import { LIMITS } from "../src/api/operations.js";
import type { QuoteRubric, TicketRubric } from "../src/catalog/types.js";
import { reviewQuote } from "../src/reviews/quote.js";
import { reviewTicket } from "../src/reviews/ticket.js";

const SHAPES: Record<string, string> = {
  "one long word": "a",
  "digits and spaces": "1 ",
  "spaces, then a dash": " ",
  "run-on labels": "Why: the catalogue applies. ",
  "sentences": "The export fails. ",
  "table rows": "| Item | € 1 |\n",
  "amounts on one total line": "total €1 ",
  "amounts each after 'fee'": "Price: fee EUR 1 ",
  "page footers": "Acme Ltd 1/2\nPage 1 of 2\n\n",
  "ASCII table rows": "+---+\n| a |\n|   | b |\n",
  "a clause run on with ', so'": "we went, so ",
  "spaces inside one line": "a b",
  "a line of figures over a page footer": "1,",
  "chat messages": "[10:00] ann (PM): acceptance: ok\n",
  "rows in columns with cents": "Item    1,000.00   Total net    9 000,00\n",
  "a key and its value aligned": "Acceptance     signed off\n",
  "dates, two to a clause": "1 May to 2 May, ",
  "a numbered question over tabs": `Q1${" \t".repeat(60)}\n${" \t".repeat(60)}\n`,
  "comma lead-ins": "EUR 1, as follows, ",
  "a 61-word clause, then spaces": "61 words",
  "an open bracket, then digits": "[1",
  "paragraphs indented by four spaces": "    The export fails for every order.\n",
  "cells one a line": "Design\n2,900\n",
  "speaker lines (Teams)": "Ann Lee  Tuesday 10:02\nok, and the price?\n",
  "a rule under each paragraph": "Needed by: 2 July.\n------\n",
  "lower-case labels a line": "who: ward managers\n",
  "nested lists under titles": "- You get\n  - the app\n",
  "quoted reply lines": "> The export fails.\n",
  "a label introducing a list": "Proposed solution: codes:\n- 0 ok\n\n",
  "WhatsApp prefixes": "[14/03/25, 10:42:05] Leo: ok\n",
  "forward notes": "FYI - forwarding this.\n",
  "digits alone a line": "1\n",
  "invisible characters in words": "Ex\u00adpected re\u200bsult ",
  "bold run-in labels": "**Problem** the export fails.\n",
  "day-rate computations": "2 devs × 3 days × €1 = €6, ",
  "tax and totals in turn": "Subtotal €1\nVAT €1\nTotal €2\n",
  "shares of the total": "50% of the total (€1) and ",
  "shares on one line": "1%, ",
  "line breaks escaped": "The export fails.\\n",
  "HTML line breaks": "The export fails.<br>",
  "fences a line": "```\n",
  "amounts joined by '+'": "€1 + ",
  "amounts after colons": "€1: x: ",
  "amounts between dashes": "€1 — ",
  "rows under a column header": "Item    Amount    Note\nDesign    €1    ok\n",
  "a header of many cells over two-cell rows": "wide header",
  "words in open brackets": "a <b. ",
  "rates told in prose": "€1 per month for 6 months, total €6, ",
  "shares before amounts": "50% upfront = €1, ",
  "a sum with '+' and '=' under a currency": "summed",
  "chat lines without times": "lena: ok\n",
  "labels over nested lists": "- Deliverables:\n  - the app\n",
};

// "a" then spaces to the end of one line, "1,1,1,...x" over a page footer, a long dictated clause
// run into spaces, an open bracket before digits: what a pattern that may start anywhere in a run
// of spaces or figures meets.
const FOOTER = "x\nPage 1 of 2\nEnd";
const WORDS_61 = Array.from({ length: 61 }, (_, i) => `w${i}`).join(" ");
const fill = (unit: string, length: number) =>
  unit === "a b" ? `a${" ".repeat(length - 2)}b`
  : unit === "61 words" ? `${WORDS_61}${" ".repeat(length - WORDS_61.length - 4)} end`
  : unit === "[1" ? `[${"1".repeat(length - 1)}`
  : unit === "summed" ? `## Price (EUR)\n${"1,000 + ".repeat(Math.floor((length - 30) / 8))}= 2,000`
  : unit === "wide header" ? `${"ab   ".repeat(Math.floor(length / 10))}\n${"x   y\n".repeat(Math.floor(length / 12))}`.slice(0, length)
  : unit === "1," ? unit.repeat(Math.ceil(length / 2)).slice(0, length - FOOTER.length) + FOOTER
  : unit.repeat(Math.ceil(length / unit.length)).slice(0, length - 3) + (unit === " " ? "- b" : "end");

/** Median milliseconds of three runs. */
function time(work: () => unknown): number {
  const runs = [0, 1, 2].map(() => {
    const started = performance.now();
    work();
    return performance.now() - started;
  });
  return runs.sort((a, b) => a - b)[1]!;
}

export async function reviewInputs(root: string): Promise<string[]> {
  const ticketRubric = YAML.parse(await readFile(`${root}/content/rubrics/ticket.yaml`, "utf8")) as TicketRubric;
  const quoteRubric = YAML.parse(await readFile(`${root}/content/rubrics/quote.yaml`, "utf8")) as QuoteRubric;
  const rows = [
    `## A review of the largest text the API takes (ticketText ${LIMITS.ticketText.toLocaleString("en")}, quoteText ${LIMITS.quoteText.toLocaleString("en")} characters; median of 3)`,
    "",
    "The baseline is the Markdown lexer alone reading the same text. A review reads each sentence for every criterion, so plain sentences cost about two hundred times the lexer; a shape far above the sentences row would be a path input can drive. Before this run's fixes, 20,000 characters of one long word took 1.4 s as a ticket and a quote of digits and spaces 28 s.",
    "",
    "| text | baseline: lexer | ticket review (no type) | vs. baseline | baseline: lexer | quote review | vs. baseline |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const [name, unit] of Object.entries(SHAPES)) {
    const ticket = fill(unit, LIMITS.ticketText);
    const quote = fill(unit, LIMITS.quoteText);
    const lexTicket = time(() => Lexer.lex(ticket, { gfm: true }));
    const lexQuote = time(() => Lexer.lex(quote, { gfm: true }));
    const ticketMs = time(() => reviewTicket({ ticketText: ticket }, ticketRubric));
    const quoteMs = time(() => reviewQuote(quote, quoteRubric, new Map(), (id) => id));
    const ms = (n: number) => `${n.toFixed(1)} ms`;
    rows.push(`| ${name} | ${ms(lexTicket)} | ${ms(ticketMs)} | ${(ticketMs / lexTicket).toFixed(0)}× | ${ms(lexQuote)} | ${ms(quoteMs)} | ${(quoteMs / lexQuote).toFixed(0)}× |`);
  }
  return [...rows, ""];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await reviewInputs(new URL("..", import.meta.url).pathname.replace(/\/$/, ""))) console.log(line);
}
