import type { LabelledItem } from "./labelled.js";

/**
 * Agreement of a judge with labelled items, overall and per group (type, format, set), as
 * confusion matrices. Shared by every `frontdesk eval` command.
 */
export interface Verdict {
  item: LabelledItem;
  passed: boolean;
  score: number;
  /** What decided the verdict (filled in for disagreements): criteria with their status and evidence. */
  deciding: string[];
}

export interface Tally {
  n: number;
  agree: number;
  /** expected pass → passed, expected pass → failed, expected fail → passed, expected fail → failed */
  passPass: number;
  passFail: number;
  failPass: number;
  failFail: number;
}

export function tally(verdicts: readonly Verdict[]): Tally {
  const t: Tally = { n: 0, agree: 0, passPass: 0, passFail: 0, failPass: 0, failFail: 0 };
  for (const v of verdicts) {
    const expected = v.item.expected === "pass";
    t.n++;
    if (expected === v.passed) t.agree++;
    if (expected) v.passed ? t.passPass++ : t.passFail++;
    else v.passed ? t.failPass++ : t.failFail++;
  }
  return t;
}

export const agreement = (t: Tally): number => (t.n === 0 ? 1 : t.agree / t.n);

export function groupBy(verdicts: readonly Verdict[], key: (v: Verdict) => string): [string, Tally][] {
  const groups = new Map<string, Verdict[]>();
  for (const v of verdicts) groups.set(key(v), [...(groups.get(key(v)) ?? []), v]);
  return [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([k, vs]) => [k, tally(vs)]);
}

const percent = (t: Tally) => `${(agreement(t) * 100).toFixed(1)}%`;

/** A confusion matrix per group as a text table. */
export function matrixTable(title: string, rows: readonly [string, Tally][]): string {
  const header = [title, "n", "agree", "pass→pass", "pass→fail", "fail→pass", "fail→fail"];
  const body = rows.map(([k, t]) => [k, String(t.n), percent(t), String(t.passPass), String(t.passFail), String(t.failPass), String(t.failFail)]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(header), ...body.map(line)].join("\n");
}

export function summaryLine(label: string, t: Tally): string {
  return `${label}: ${percent(t)} agreement (${t.agree} of ${t.n})`;
}
