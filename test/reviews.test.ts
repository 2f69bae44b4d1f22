import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import type { QuoteRubric, Service, TicketRubric, TicketType } from "../src/catalog/types.js";
import { reviewQuote } from "../src/reviews/quote.js";
import { reviewTicket } from "../src/reviews/ticket.js";
import { SAMPLE_CONTENT } from "./helpers/content.js";

/** Review quality on labelled sets: what an experienced engineering lead would say, pass or fail. */
interface Labelled {
  id: string;
  type?: TicketType;
  expected: "pass" | "fail";
  text: string;
}

let ticketRubric: TicketRubric;
let quoteRubric: QuoteRubric;
const fixtures = async (name: string) => YAML.parse(await readFile(join(SAMPLE_CONTENT, "..", "test/fixtures", name), "utf8")) as Labelled[];
const noServices = new Map<string, Service>();
const url = (id: string) => `/api/v1/services/${id}`;

beforeAll(async () => {
  ticketRubric = YAML.parse(await readFile(join(SAMPLE_CONTENT, "rubrics/ticket.yaml"), "utf8"));
  quoteRubric = YAML.parse(await readFile(join(SAMPLE_CONTENT, "rubrics/quote.yaml"), "utf8"));
  for (const type of Object.values(ticketRubric.types)) for (const c of type.criteria) Object.assign(c, { phrases: c.phrases ?? [], evidence: c.evidence ?? [] });
  for (const c of quoteRubric.criteria) Object.assign(c, { phrases: c.phrases ?? [], evidence: c.evidence ?? [], services: c.services ?? [] });
});

describe("ticket review", () => {
  it("agrees with the labelled tickets at least 90% of the time", async () => {
    const tickets = await fixtures("tickets.yaml");
    expect(tickets.length).toBeGreaterThanOrEqual(30);
    const wrong = tickets.filter((t) => reviewTicket({ ticketText: t.text, type: t.type }, ticketRubric).passed !== (t.expected === "pass"));
    const detail = wrong.map((t) => `${t.id} (${t.expected}): ${reviewTicket({ ticketText: t.text, type: t.type }, ticketRubric).rating}`);
    expect(wrong.length / tickets.length, detail.join("\n")).toBeLessThanOrEqual(0.1);
  });

  it("is deterministic", async () => {
    const [ticket] = await fixtures("tickets.yaml");
    expect(reviewTicket({ ticketText: ticket!.text }, ticketRubric)).toEqual(reviewTicket({ ticketText: ticket!.text }, ticketRubric));
  });

  it("gives no credit for negated or placeholder sections", () => {
    const review = reviewTicket({
      type: "bug",
      ticketText: "The page is broken and it needs fixing as soon as possible please.\n\n## Steps to reproduce\nNo steps to reproduce.\n\n## Expected behaviour\nN/A\n\n## Environment\nTBD\n\n## Actual behaviour\n<describe what happened>\n",
    }, ticketRubric);
    for (const id of review.criteria.filter((c) => /step|expect|environment|actual|observed/.test(c.id))) expect(id.status, id.id).toBe("missing");
    expect(review.passed).toBe(false);
  });

  it("never passes a list of section names without content", () => {
    const stuffed = "steps to reproduce expected behaviour actual behaviour environment version stack trace logs impact severity ".repeat(5);
    const review = reviewTicket({ ticketText: stuffed, type: "bug" }, ticketRubric);
    expect(review.rating).toBeLessThan(3);
  });

  it("caps very short tickets and says why", () => {
    const review = reviewTicket({ ticketText: "## Steps to reproduce\n1. Open app\n2. Crash\n## Expected\nNo crash" }, ticketRubric);
    expect(review.rating).toBeLessThanOrEqual(ticketRubric.shortTextCap);
    expect(review.summary).toContain("capped");
  });

  it("infers the type from the wording and says so", () => {
    const review = reviewTicket({ ticketText: "It would be great if users could export reports as CSV. As a finance user I want to download the monthly numbers." }, ticketRubric);
    expect(review).toMatchObject({ type: "feature", typeInferred: true });
  });

  it("marks what is missing in the rewritten skeleton", () => {
    const review = reviewTicket({ type: "bug", ticketText: "The export button does nothing when I click it on the invoices page in Chrome." }, ticketRubric);
    expect(review.skeleton).toContain("<!-- missing:");
  });
});

describe("quote review", () => {
  it("agrees with the labelled quotes at least 90% of the time", async () => {
    const quotes = await fixtures("quotes.yaml");
    expect(quotes.length).toBeGreaterThanOrEqual(12);
    const wrong = quotes.filter((q) => reviewQuote(q.text, quoteRubric, noServices, url).passed !== (q.expected === "pass"));
    const detail = wrong.map((q) => `${q.id} (${q.expected}): ${reviewQuote(q.text, quoteRubric, noServices, url).score}`);
    expect(wrong.length / quotes.length, detail.join("\n")).toBeLessThanOrEqual(0.1);
  });

  it("checks that payment shares add up to 100%", () => {
    const text = `PAYMENT TERMS\n40% on signature, 40% on delivery and 30% on acceptance.\n\n${"Filler words to pass the minimum length. ".repeat(10)}`;
    const review = reviewQuote(text, quoteRubric, noServices, url);
    expect(review.consistency).toContainEqual({ check: "payment-shares", ok: false, message: "The payment instalments add up to 110%, not 100%: ask for the missing or extra share." });
  });

  it("flags mixed currencies", () => {
    const review = reviewQuote("PRICE\nDesign EUR 4,000\nHosting USD 300 per month\n", quoteRubric, noServices, url);
    expect(review.consistency[0]).toMatchObject({ check: "currency", ok: false });
  });
});
