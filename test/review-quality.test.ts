import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { agreement, groupBy, tally, type Verdict } from "../src/eval/agreement.js";
import { loadLabelled } from "../src/eval/labelled.js";
import { ADVERSARIAL_BELOW, evaluateReviews } from "../src/eval/reviews.js";
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
});

// Measured levels (see the README), not the targets (90% overall, no type or format below 80%,
// every attack below 4).
const TICKET_FLOOR = 0.855;
const TICKET_TYPE_FLOOR = 0.79;
const QUOTE_FLOOR = 0.72;
const ATTACKS_AT_4_OR_MORE = 2;
const ATTACKS_PASSED = 1;
