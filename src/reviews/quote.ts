import type { QuoteRubric, Service } from "../catalog/types.js";
import { assess, type CriterionResult } from "./assess.js";
import { normalize } from "./text.js";

/**
 * Quote review: completeness against the statement-of-work rubric, consistency of the numbers,
 * and a counter proposal that keeps what is there, asks about what is vague and adds what is
 * missing from the clause library, never inventing the vendor's amounts.
 */
export interface ConsistencyCheck {
  check: "currency" | "total" | "payment-shares";
  ok: boolean;
  message: string;
}

export interface QuoteReview {
  score: number;
  threshold: number;
  passed: boolean;
  summary: string;
  criteria: Omit<CriterionResult, "content">[];
  consistency: ConsistencyCheck[];
  counterProposal: {
    keep: string[];
    clarify: string[];
    add: { section: string; clause: string }[];
    services: { id: string; title: string; from: number; currency: string; url: string }[];
  };
}

const CURRENCY: Record<string, string> = { "€": "EUR", $: "USD", "£": "GBP" };
const AMOUNT = /(€|\$|£|\b(?:EUR|USD|GBP|CHF)\b)\s?(\d[\d.,' ]*\d|\d)|(\d[\d.,' ]*\d|\d)\s?(€|\$|£|\b(?:EUR|USD|GBP|CHF)\b)/gi;

/** "42,000", "12.500,00", "1 250" → number; the last separator followed by two digits is decimal. */
export function parseAmount(text: string): number {
  const compact = text.replace(/[' ]/g, "");
  const decimal = /[.,](\d{2})$/.exec(compact);
  const whole = (decimal ? compact.slice(0, -3) : compact).replace(/[.,]/g, "");
  return Number(whole) + (decimal ? Number(decimal[1]) / 100 : 0);
}

function amounts(text: string): { currency: string; value: number; line: string }[] {
  const out: { currency: string; value: number; line: string }[] = [];
  for (const line of text.split("\n")) {
    for (const m of line.matchAll(AMOUNT)) {
      const symbol = (m[1] ?? m[4] ?? "").toUpperCase();
      out.push({ currency: CURRENCY[symbol] ?? symbol, value: parseAmount(m[2] ?? m[3] ?? "0"), line });
    }
  }
  return out;
}

function consistency(text: string, criteria: CriterionResult[]): ConsistencyCheck[] {
  const checks: ConsistencyCheck[] = [];
  const all = amounts(text);
  const currencies = [...new Set(all.map((a) => a.currency))];
  if (currencies.length > 0) {
    checks.push({
      check: "currency",
      ok: currencies.length === 1,
      message: currencies.length === 1 ? `All amounts are in ${currencies[0]}.` : `Amounts mix currencies (${currencies.join(", ")}): ask for one currency or a stated exchange rate.`,
    });
  }
  const priceSection = criteria.find((c) => /price|cost|fee/.test(c.id) && c.content)?.content;
  if (priceSection) {
    const lines = amounts(priceSection);
    const totals = lines.filter((a) => /\btotal\b/i.test(a.line));
    const items = lines.filter((a) => !/\b(?:total|subtotal|vat|tax|per (?:day|hour|month))\b|%/i.test(a.line));
    if (totals.length > 0 && items.length >= 2) {
      const sum = Math.round(items.reduce((s, a) => s + a.value, 0) * 100) / 100;
      const total = totals[totals.length - 1]!.value;
      checks.push({
        check: "total",
        ok: Math.abs(sum - total) < 0.01,
        message: Math.abs(sum - total) < 0.01 ? `The line items add up to the total (${total}).` : `The line items add up to ${sum}, but the total says ${total}: ask which is right.`,
      });
    }
  }
  const paymentSection = criteria.find((c) => /payment/.test(c.id) && c.content)?.content;
  if (paymentSection) {
    const shares = [...paymentSection.matchAll(/\b(\d{1,3}(?:[.,]\d+)?)\s?%/g)].map((m) => Number(m[1]!.replace(",", ".")));
    if (shares.length >= 2) {
      const sum = Math.round(shares.reduce((s, n) => s + n, 0) * 100) / 100;
      checks.push({
        check: "payment-shares",
        ok: sum === 100,
        message: sum === 100 ? "The payment instalments add up to 100%." : `The payment instalments add up to ${sum}%, not 100%: ask for the missing or extra share.`,
      });
    }
  }
  return checks;
}

export function reviewQuote(quoteText: string, rubric: QuoteRubric, services: ReadonlyMap<string, Service>, serviceUrl: (id: string) => string): QuoteReview {
  const result = assess(quoteText, rubric.criteria, rubric);
  const checks = consistency(normalize(quoteText), result.criteria);
  const byId = new Map(rubric.criteria.map((c) => [c.id, c]));
  const lacking = result.criteria.filter((c) => c.status !== "met");
  const related = [...new Set(lacking.flatMap((c) => byId.get(c.id)!.services))].flatMap((id) => {
    const s = services.get(id);
    return s ? [{ id, title: s.title, from: s.pricing.from, currency: s.pricing.currency, url: serviceUrl(id) }] : [];
  });
  const problems = checks.filter((c) => !c.ok);
  const summary = [
    `Completeness ${result.score}/10 (threshold ${result.threshold}): ${result.passed ? "the quote covers what a statement of work needs" : "the quote leaves important terms open"}.`,
    lacking.length ? `Missing or vague: ${lacking.map((c) => c.title.toLowerCase()).join(", ")}.` : "",
    problems.length ? `Numbers to check: ${problems.map((p) => p.message).join(" ")}` : "",
    result.cappedAt !== undefined ? `The text has ${result.words} words, fewer than ${rubric.minWords}: the score is capped at ${result.cappedAt}.` : "",
  ].filter(Boolean).join(" ");
  return {
    score: result.score,
    threshold: result.threshold,
    passed: result.passed,
    summary,
    criteria: result.criteria.map(({ content: _content, ...rest }) => rest),
    consistency: checks,
    counterProposal: {
      keep: result.criteria.filter((c) => c.status === "met").map((c) => `${c.title}: ${c.evidence}`),
      clarify: [
        ...result.criteria.filter((c) => c.status === "partial").map((c) => `${c.title}: ${c.advice}`),
        ...problems.map((p) => p.message),
      ],
      add: result.criteria.filter((c) => c.status === "missing").map((c) => ({ section: c.title, clause: byId.get(c.id)!.clause })),
      services: related,
    },
  };
}
