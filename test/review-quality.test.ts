import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { agreement, groupBy, tally, type Verdict } from "../src/eval/agreement.js";
import { loadLabelled, type LabelledItem } from "../src/eval/labelled.js";
import { ADVERSARIAL_BELOW, evaluateReviews, judgeQuotes, judgeTickets } from "../src/eval/reviews.js";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import YAML from "yaml";
import type { QuoteRubric, TicketRubric } from "../src/catalog/types.js";
import { reviewQuote } from "../src/reviews/quote.js";
import { SAMPLE_CONTENT } from "./helpers/content.js";

/**
 * The reviewers' agreement with the labelled sets' held-back test parts (test/fixtures/tickets*.yaml
 * and quotes*.yaml, labelled before any reviewer ran on them, never tuned on). The floors are the
 * levels measured when they were set, just under them; the targets are in the README
 * ("How reviews are judged"), next to the measured figures.
 */
const FIXTURES = fileURLToPath(new URL("./fixtures", import.meta.url));
let tickets: Verdict[];
let quotes: Verdict[];

beforeAll(async () => {
  const [ticketReport, quoteReport] = await evaluateReviews({ content: SAMPLE_CONTENT, fixtures: FIXTURES, split: "test" });
  tickets = ticketReport!.verdicts;
  quotes = quoteReport!.verdicts;
});

const describeMisses = (verdicts: readonly Verdict[]) => verdicts.filter((v) => v.passed !== (v.item.expected === "pass")).map((v) => `${v.item.set} ${v.item.id}`).join(", ");

describe("review quality on the held-back test parts", () => {
  it("is measured on at least 150 tickets (every type, 8 formats, 40% passes) and 40 quotes in the issue's formats", async () => {
    const allTickets = await loadLabelled(FIXTURES, "tickets");
    expect(allTickets.length).toBeGreaterThanOrEqual(150);
    expect(new Set(allTickets.map((t) => t.type))).toEqual(new Set(["bug", "feature", "task", "question"]));
    expect(new Set(allTickets.map((t) => t.format)).size).toBeGreaterThanOrEqual(8);
    expect(allTickets.filter((t) => t.expected === "pass").length / allTickets.length).toBeGreaterThanOrEqual(0.4);
    const allQuotes = await loadLabelled(FIXTURES, "quotes");
    expect(allQuotes.length).toBeGreaterThanOrEqual(40);
    for (const format of ["table", "email", "numbered", "prose"]) expect(allQuotes.some((q) => q.format === format), format).toBe(true);
    expect(tickets.length + quotes.length).toBeGreaterThanOrEqual((allTickets.length + allQuotes.length) / 4);
  });

  it("tickets agree with the labels at the measured level, overall and per type", () => {
    expect(agreement(tally(tickets)), describeMisses(tickets)).toBeGreaterThanOrEqual(TICKET_FLOOR);
    for (const [type, t] of groupBy(tickets, (v) => v.item.type ?? "")) expect(agreement(t), type).toBeGreaterThanOrEqual(TICKET_TYPE_FLOOR);
  });

  it("quotes agree with the labels at the measured level", () => {
    expect(agreement(tally(quotes)), describeMisses(quotes)).toBeGreaterThanOrEqual(QUOTE_FLOOR);
  });

  it("fails keyword-stuffed, placeholder, filler, negated and unfilled-template items, nearly all below 4", () => {
    const attacks = [...tickets, ...quotes].filter((v) => v.item.adversarial);
    expect(attacks.length).toBeGreaterThanOrEqual(20);
    expect(attacks.filter((v) => v.passed).length).toBeLessThanOrEqual(ATTACKS_PASSED);
    expect(attacks.filter((v) => v.score >= ADVERSARIAL_BELOW).length).toBeLessThanOrEqual(ATTACKS_AT_4_OR_MORE);
  });

  it("the number checks agree with the price set's test part at the measured level, with no false alarm", async () => {
    // test/fixtures/prices.yaml: price sections labelled "adds up" or not by a helper who read no
    // code. Measured: 13 of 16 on the test part, at first contact and now (see the README).
    const quoteRubric = YAML.parse(await readFile(join(SAMPLE_CONTENT, "rubrics", "quote.yaml"), "utf8")) as QuoteRubric;
    const prices = (YAML.parse(await readFile(join(FIXTURES, "prices.yaml"), "utf8")) as { id: string; adds_up: boolean; split: string; text: string }[]).filter((p) => p.split === "test");
    const addsUp = (text: string) => reviewQuote(text, quoteRubric, new Map(), (id) => id).consistency.every((c) => c.ok);
    const wrong = prices.filter((p) => addsUp(p.text) !== p.adds_up);
    expect(prices.length).toBe(16);
    expect(wrong.length, wrong.map((p) => p.id).join(", ")).toBeLessThanOrEqual(3);
    expect(wrong.filter((p) => p.adds_up)).toEqual([]);
  });
});

/**
 * The same text hard-wrapped at a fixed width, as PDFs and some mail clients send it: lines broken
 * between words (list items keep their indent), a page footer in the middle.
 */
function hardWrapped(text: string, width: number): string {
  const lines = text.split("\n").flatMap((line) => {
    if (line.length <= width || /^\s*\|/.test(line) || /^\s{4}/.test(line)) return [line];
    const indent = (/^\s*(?:[-*•]\s|\d+[.)]\s)?/.exec(line)![0]).replace(/\S/g, " ");
    const out = [""];
    for (const word of line.split(" ")) {
      if (out.at(-1)!.length > 0 && `${out.at(-1)} ${word}`.length > width) out.push(indent + word);
      else out[out.length - 1] = out.at(-1) ? `${out.at(-1)} ${word}` : word;
    }
    return out;
  });
  let middle = Math.floor(lines.length / 2);
  while (middle < lines.length && /^\s*\|/.test(lines[middle]!)) middle++;
  return [...lines.slice(0, middle), "Acme Consulting GmbH · Offer 2025-047 · Page 1 of 2", ...lines.slice(middle)].join("\n");
}

/** A text's Markdown pipe tables laid out another way: each row's cells become the lines `layout` makes of them. */
function tableRowsAs(text: string, layout: (cells: string[]) => string[]): string {
  return text
    .split("\n")
    .filter((line) => !/^\s*\|?\s*:?-{3,}/.test(line))
    .flatMap((line) => (/^\s*\|/.test(line) ? layout(line.replace(/^\s*\||\|\s*$/g, "").split("|").map((cell) => cell.trim())) : [line]))
    .join("\n");
}

/** The dev items and their verdicts as written, judged once for every reshaping below. */
const asWritten = (async () => {
  const rubric = async <T>(name: string) => YAML.parse(await readFile(join(SAMPLE_CONTENT, "rubrics", name), "utf8")) as T;
  const [ticketRubric, quoteRubric] = [await rubric<TicketRubric>("ticket.yaml"), await rubric<QuoteRubric>("quote.yaml")];
  const dev = async (prefix: string) => (await loadLabelled(FIXTURES, prefix)).filter((item) => item.split === "dev");
  const [ticketItems, quoteItems] = [await dev("tickets"), await dev("quotes")];
  return { ticketRubric, quoteRubric, ticketItems, quoteItems, tickets: judgeTickets(ticketItems, ticketRubric), quotes: judgeQuotes(quoteItems, quoteRubric) };
})();

/** The dev items whose verdict changes when their text is reshaped as people paste it. */
async function verdictChanges(ticketShape: (text: string) => string, quoteShape: (text: string) => string) {
  const { ticketRubric, quoteRubric, ticketItems, quoteItems, tickets, quotes } = await asWritten;
  // Only the items a shape changes are judged again: one it leaves as written keeps its verdict.
  const changed = (before: readonly Verdict[], shape: (text: string) => string, judgeAll: (items: LabelledItem[]) => Verdict[]) => {
    const reshaped = before.map((v) => ({ ...v.item, text: shape(v.item.text) })).filter((item, i) => item.text !== before[i]!.item.text);
    const after = new Map(judgeAll(reshaped).map((v) => [v.item.id, v.passed]));
    return before.filter((v) => after.has(v.item.id) && after.get(v.item.id) !== v.passed).map((v) => v.item.id);
  };
  return {
    tickets: changed(tickets, ticketShape, (items) => judgeTickets(items, ticketRubric)),
    quotes: changed(quotes, quoteShape, (items) => judgeQuotes(items, quoteRubric)),
    share: (ids: readonly string[], prefix: "tickets" | "quotes") => ids.length / (prefix === "tickets" ? ticketItems : quoteItems).length,
  };
}

// Each probe judges again every dev item its shape changes (about 1,400): tens of seconds when the
// other test file running beside it takes the second core.
describe("review verdicts do not depend on where lines are broken or how they are indented", { timeout: 120_000 }, () => {
  it("dev items keep their verdict when hard-wrapped (tickets at 72 columns, quotes at 68 with a page footer)", async () => {
    const { tickets, quotes, share } = await verdictChanges((t) => hardWrapped(t, 72), (q) => hardWrapped(q, 68));
    // Measured: 5 of 668 tickets and 6 of 347 quotes (a footer can still land inside a sentence).
    expect(share(tickets, "tickets"), tickets.join(", ")).toBeLessThanOrEqual(0.02);
    expect(share(quotes, "quotes"), quotes.join(", ")).toBeLessThanOrEqual(0.03);
  });

  it("dev items keep their verdict pasted with a margin, typographic quotes and invisible characters, or quoted as a reply", async () => {
    // A whole text pasted with a margin, with Word's and Google Docs' typographic quotes (‘ ’ “ ”),
    // copied from a web page, a chat app or a hyphenating PDF (a byte-order mark, a zero-width
    // space or a soft hyphen inside every longer word): all at once, as one copy can bring them.
    // Measured while invisible characters were read as spaces: 485 of the 1,279 dev tickets and
    // quotes changed with them alone.
    const margin = (text: string) => text.replace(/^(?=.)/gm, "  ");
    const curly = (text: string) => text.replace(/'/g, "’").replace(/"([^"\n]*)"/g, "“$1”");
    const invisible = (text: string) => `\ufeff${text.replace(/(\w{3})(\w{3})/g, (_word, head: string, tail: string, at: number) => `${head}${at % 2 ? "\u200b" : "\u00ad"}${tail}`)}`;
    const copied = (text: string) => invisible(curly(margin(text)));
    const pasted = await verdictChanges(copied, copied);
    expect([...pasted.tickets, ...pasted.quotes]).toEqual([]);
    // Forwarded as a reply, every line quoted ("> "): measured 7 tickets and 8 quotes changed while
    // only the e-mail step dropped the markers, after tables, lists and wrapped lines were read.
    const quote = (text: string) => text.replace(/^/gm, "> ");
    const quoted = await verdictChanges(quote, quote);
    expect([...quoted.tickets, ...quoted.quotes]).toEqual([]);
  });

  it("dev items keep their verdict forwarded in an e-mail, with its headers, a note on top and a signature", async () => {
    // Measured before forwarding notes ("Please see below.", "FYI - forwarding this ...") and
    // subjects that name nothing ("FW: request") were dropped: 22 and 8 tickets changed.
    const forwarded = (text: string) => `From: Dana Whitfield <dana.whitfield@northwind.example>\nSent: Tuesday, 4 June 2024 09:12\nTo: Support <support@vendor.example>\nSubject: FW: request\n\nHi team,\n\nplease see below.\n\n${text}\n\nKind regards,\nDana Whitfield\nOperations Lead | Northwind\n+44 20 7946 0018`;
    const fyi = (text: string) => `---------- Forwarded message ---------\nFrom: Customer Success <cs@northwind.example>\nDate: Mon, 3 Jun 2024 at 16:40\nSubject: Fwd: ticket\nTo: <dev-intake@vendor.example>\n\nHello,\n\nFYI - forwarding this from the customer success team.\n\n${text}\n\nThanks,\nDana\n\nSent from my iPhone`;
    for (const shape of [forwarded, fyi]) {
      const { tickets, quotes } = await verdictChanges(shape, shape);
      expect([...tickets, ...quotes]).toEqual([]);
    }
  });

  it("nearly all Markdown dev items keep their verdict rewritten in Jira's wiki markup", async () => {
    const alreadyJira = /^h[1-6]\.\s|^#{1,3} \S.*\n#{1,3} \S|\{code|^\*[^*\n]{1,60}:\*\s*$/m;
    const jira = (text: string) =>
      alreadyJira.test(text)
        ? text
        : text
            .replace(/^#{1,6}\s+(.+)$/gm, "h3. $1")
            .replace(/\*\*([^*\n]+)\*\*/g, "*$1*")
            .replace(/^(\s*)[-*]\s+/gm, (_m, indent: string) => `${"*".repeat(indent.length / 2 + 1)} `)
            .replace(/^```\w*$/gm, "{code}")
            .replace(/^\s*\d+\.\s+/gm, "# ");
    // Measured: 0 of 740 tickets and 4 of 407 quotes (1 and 5 before "** item", a nested bullet,
    // was taken for Jira's; the quotes left are Markdown tables whose bold became Jira's).
    const { tickets, quotes, share } = await verdictChanges(jira, jira);
    expect(tickets).toEqual([]);
    expect(share(quotes, "quotes"), quotes.join(", ")).toBeLessThanOrEqual(0.015);
  });

  it("nearly all dev items keep their verdict when their tables are pasted as aligned columns, as PDFs and plain-text mails lay them out", async () => {
    const columns = (text: string) => tableRowsAs(text, (cells) => [cells.map((cell) => cell.padEnd(Math.max(22, cell.length + 3))).join("").trimEnd()]);
    // Measured: 1 of 740 tickets and 5 of 407 quotes (14 before a currency column header, a bold
    // total row and a bold figure were read in columns as they are in a table); 0 of 812 and 7 of
    // 467 with every set.
    const { tickets, quotes, share } = await verdictChanges(columns, columns);
    expect(share(tickets, "tickets"), tickets.join(", ")).toBeLessThanOrEqual(0.01);
    expect(share(quotes, "quotes"), quotes.join(", ")).toBeLessThanOrEqual(0.02);
  });

  it("most dev items keep their verdict with a table given one cell a line or with their bullets lost, as some PDF and web copies paste them", async () => {
    const oneCellALine = (text: string) => tableRowsAs(text, (cells) => cells);
    const noBullets = (text: string) => text.replace(/^(\s*)[-*•]\s+/gm, "$1");
    // Measured: 1 of 812 tickets and 15 of 467 quotes one cell a line (17 of 407 quotes before the
    // round of 2026-11-27's rules); 14 tickets and 11 quotes without bullets (16 of 740 tickets before).
    const cells = await verdictChanges(oneCellALine, oneCellALine);
    expect(cells.share(cells.tickets, "tickets"), cells.tickets.join(", ")).toBeLessThanOrEqual(0.005);
    expect(cells.share(cells.quotes, "quotes"), cells.quotes.join(", ")).toBeLessThanOrEqual(0.034);
    const bare = await verdictChanges(noBullets, noBullets);
    expect(bare.share(bare.tickets, "tickets"), bare.tickets.join(", ")).toBeLessThanOrEqual(0.019);
    expect(bare.share(bare.quotes, "quotes"), bare.quotes.join(", ")).toBeLessThanOrEqual(0.03);
  });

  it("dev items keep their verdict with their Markdown headings run in with the first line below, in bold or as plain labels", async () => {
    // "## Problem\n\nTeachers grant ..." as "**Problem** Teachers grant ...", "**Problem:** ..." or
    // "Problem: ...", as GitHub templates, chat and e-mail write them. Jira's numbered lists ("# step",
    // a line after a line) are no headings and stay. Measured before a bold name run in with its text
    // was read as a label and a label could end in "?": 16 tickets and 5 quotes changed in bold,
    // 3 tickets with a colon.
    const runIn = (label: (title: string) => string) => (text: string) => {
      if (/^# .*\n# /m.test(text)) return text;
      const lines = text.split("\n");
      return lines
        .map((line, i) => {
          const heading = /^#{1,6}\s+(.+?)\s*$/.exec(line);
          const next = lines.slice(i + 1).find((l) => l.trim() !== "");
          return heading && next !== undefined && /^[\p{L}"(]/u.test(next.trim()) ? `${label(heading[1]!.replace(/\*\*/g, ""))}\u0000` : line;
        })
        .join("\n")
        .replace(/\u0000\n\s*/g, " ");
    };
    for (const label of [(t: string) => `**${t}**`, (t: string) => `${t}:`]) {
      const { tickets, quotes } = await verdictChanges(runIn(label), runIn(label));
      expect([...tickets, ...quotes]).toEqual([]);
    }
  });

  it("dev items keep their verdict as an agent or a client may send them: fenced as code, quoted under a lead-in, with <br> or escaped line breaks", async () => {
    // Measured before such wrappings were undone: fenced, 398 of 727 tickets and 222 of 426 quotes
    // changed; between triple quotes under "The user wrote:", 43 tickets; <br>, 80 and 203;
    // "\n" escaped, 268 and 205. A bare "```" around a text with bare fences of its own is two
    // readings at once and is left as Markdown reads it (13 tickets change so).
    // Two wrappings at a time, each undone on its own, so the suite judges every dev item twice, not four times.
    const fencedWithBr = (text: string) => `\`\`\`text\n${text.replace(/\n/g, "<br>\n")}\n\`\`\``;
    const fenced = await verdictChanges(fencedWithBr, fencedWithBr);
    expect([...fenced.tickets, ...fenced.quotes]).toEqual([]);
    // One dev ticket quotes a file's bytes with "\n" in them, which an escaped text cannot tell apart.
    const quotedEscaped = (text: string) => `The user wrote:\n\n"""\n${text}\n"""`.replace(/\n/g, "\\n");
    const sent = await verdictChanges(quotedEscaped, quotedEscaped);
    expect(sent.tickets.length + sent.quotes.length, [...sent.tickets, ...sent.quotes].join(", ")).toBeLessThanOrEqual(1);
  });

  it("nearly all dev items keep their verdict double-spaced or with their paragraphs indented by four spaces", async () => {
    // Double-spaced (a blank line after every line, two or more between paragraphs): measured 3 of
    // 812 tickets and 5 of 467 quotes (21 and 26 while only sentences broken over a blank line
    // showed double spacing; 29 and 50 of fewer before such pastes were read as single-spaced);
    // 5 of 968 tickets once a field table's header was dropped (u-37: its rows a blank line apart
    // are tables of one row each, whose header is kept; joining them moved 15 quotes). 9 of 712
    // quotes once quotes-fit came in: a two-column table's rows and a numbered payment schedule a
    // blank line apart each lose the total or the instalments they belong to (qfit-25, qfit-42).
    const doubled = (text: string) => text.split("\n").join("\n\n");
    const spaced = await verdictChanges(doubled, doubled);
    expect(spaced.share(spaced.tickets, "tickets"), spaced.tickets.join(", ")).toBeLessThanOrEqual(0.006);
    expect(spaced.share(spaced.quotes, "quotes"), spaced.quotes.join(", ")).toBeLessThanOrEqual(0.013);
    // Paragraphs indented as a PDF lays them out: Markdown would read four spaces as a code block,
    // where no criterion is found. Measured: 18 of 812 tickets and 2 of 467 quotes (30 of 740 and
    // 4 of 347 while a bracket after a space or a semicolon inside a sentence looked like code;
    // before paragraphs were unindented: 249 of 668 and 122). 5 of 712 quotes once quotes-fit came
    // in: an Indian-grouped amount ("INR 4,80,000") read whole only when indented (qfit-05), and
    // an indented change order whose deliverables are no longer found (qfit-60).
    const indented = (text: string) => text.split("\n").map((l) => (l.trim() === "" || /^#|^\d+\.|^[A-Z][A-Z &]+$/.test(l.trim()) ? l : `    ${l}`)).join("\n");
    const { tickets, quotes, share } = await verdictChanges(indented, indented);
    expect(share(tickets, "tickets"), tickets.join(", ")).toBeLessThanOrEqual(0.023);
    expect(share(quotes, "quotes"), quotes.join(", ")).toBeLessThanOrEqual(0.008);
  });
});

// Measured levels (see the README), not the targets (90% overall, no type or format below 80%,
// every attack below 4).
const TICKET_FLOOR = 0.87;
const TICKET_TYPE_FLOOR = 0.8;
const QUOTE_FLOOR = 0.79;
// Six: quotes-y, a set of attacks written to carry real figures, added two in its test part.
const ATTACKS_AT_4_OR_MORE = 6;
const ATTACKS_PASSED = 2;
