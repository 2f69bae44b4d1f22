import type { QuoteRubric, TicketRubric, TicketType } from "../catalog/types.js";
import type { CriterionResult } from "../reviews/assess.js";
import { reviewQuote } from "../reviews/quote.js";
import { reviewTicket } from "../reviews/ticket.js";
import { groupBy, matrixTable, summaryLine, tally, type Verdict } from "./agreement.js";
import { inSplit, loadLabelled, type LabelledItem, type SplitChoice } from "./labelled.js";

/**
 * `frontdesk eval reviews`: the ticket and quote reviewers against the labelled sets, with
 * agreement per set, a confusion matrix per type and per format, the adversarial items' ratings,
 * and each disagreement with the criteria that decided it.
 */
export const TICKET_TYPES: readonly TicketType[] = ["bug", "feature", "task", "question"];
/** Adversarial items must rate below this. */
export const ADVERSARIAL_BELOW = 4;

export function judgeTickets(items: readonly LabelledItem[], rubric: TicketRubric): Verdict[] {
  return items.map((item) => {
    const type = TICKET_TYPES.includes(item.type as TicketType) ? (item.type as TicketType) : undefined;
    const review = reviewTicket({ ticketText: item.text, ...(type ? { type } : {}) }, rubric);
    const required = new Set(rubric.types[review.type].criteria.filter((c) => c.required).map((c) => c.id));
    return verdict(item, review.passed, review.rating, review.criteria, required, review.summary);
  });
}

export function judgeQuotes(items: readonly LabelledItem[], rubric: QuoteRubric): Verdict[] {
  const required = new Set(rubric.criteria.filter((c) => c.required).map((c) => c.id));
  return items.map((item) => {
    const review = reviewQuote(item.text, rubric, new Map(), (id) => id);
    const problems = review.consistency.filter((c) => !c.ok).map((c) => `numbers: ${c.message}`);
    return verdict(item, review.passed, review.score, review.criteria, required, review.summary, problems);
  });
}

/**
 * What decided a disagreement: for a wrong fail, the required criteria not met and any cap; for a
 * wrong pass, the required criteria that were credited, with the text that credited them.
 */
function verdict(item: LabelledItem, passed: boolean, score: number, criteria: readonly Omit<CriterionResult, "content">[], required: ReadonlySet<string>, summary: string, problems: string[] = []): Verdict {
  if (passed === (item.expected === "pass")) return { item, passed, score, deciding: [] };
  const relevant = criteria.filter((c) => (passed ? required.has(c.id) : required.has(c.id) ? c.status !== "met" : false));
  const cap = /The (?:rating|score) is capped at [^.]*\./.exec(summary)?.[0];
  return {
    item, passed, score,
    deciding: [...relevant.map((c) => `${c.status} ${c.id}: ${c.evidence}`), ...problems, ...(cap ? [cap] : [])],
  };
}

export interface ReviewSetReport {
  title: string;
  verdicts: Verdict[];
  groups: { title: string; key: (v: Verdict) => string }[];
}

/**
 * Both reviewers on the labelled sets of a folder (tickets*.yaml, quotes*.yaml), with the
 * rubrics of a content folder, checked as the build checks them.
 */
export async function evaluateReviews(options: { content: string; fixtures: string; split: SplitChoice }): Promise<ReviewSetReport[]> {
  const { checkContent } = await import("../../build/pipeline.js");
  const checked = await checkContent(options.content);
  if (checked.errors > 0) throw new Error(`the content in ${options.content} has ${checked.errors} errors: run "frontdesk validate"`);
  const rubric = <T>(kind: string) => checked.files.find((f) => f.kind === kind)!.data as T;
  const tickets = inSplit(await loadLabelled(options.fixtures, "tickets"), options.split);
  const quotes = inSplit(await loadLabelled(options.fixtures, "quotes"), options.split);
  return [
    {
      title: "Ticket reviews",
      verdicts: judgeTickets(tickets, rubric<TicketRubric>("ticketRubric")),
      groups: [{ title: "type", key: (v) => v.item.type ?? "(inferred)" }, { title: "format", key: (v) => v.item.format }],
    },
    {
      title: "Quote reviews",
      verdicts: judgeQuotes(quotes, rubric<QuoteRubric>("quoteRubric")),
      groups: [{ title: "format", key: (v) => v.item.format }],
    },
  ];
}

export function reviewReport(reports: readonly ReviewSetReport[], split: SplitChoice, items = true): string {
  const out: string[] = [];
  for (const r of reports) {
    const verdicts = r.verdicts;
    out.push(`## ${r.title} (split: ${split})`, "", summaryLine("all", tally(verdicts)));
    for (const [set, t] of groupBy(verdicts, (v) => `${v.item.set} ${v.item.split}`)) out.push(summaryLine(`  ${set}`, t));
    out.push("");
    for (const g of r.groups) out.push(matrixTable(g.title, groupBy(verdicts, g.key)), "");
    const adversarial = verdicts.filter((v) => v.item.adversarial);
    const high = adversarial.filter((v) => v.score >= ADVERSARIAL_BELOW);
    out.push(`adversarial items: ${adversarial.length}, rated ${ADVERSARIAL_BELOW} or more: ${high.length}${items ? high.map((v) => `\n  ${v.item.id} (${v.item.adversarial}): ${v.score}`).join("") : ""}`, "");
    const wrong = verdicts.filter((v) => v.deciding.length > 0);
    out.push(`disagreements: ${wrong.length}`);
    for (const v of items ? wrong : []) {
      const what = [v.item.type, v.item.format].filter(Boolean).join(", ");
      out.push(`- ${v.item.set} ${v.item.id} (${what}; ${v.item.split}): expected ${v.item.expected}, got ${v.passed ? "pass" : "fail"} at ${v.score}`);
      for (const d of v.deciding) out.push(`    ${d}`);
    }
    out.push("");
  }
  return out.join("\n");
}
