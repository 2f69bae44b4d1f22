import { MONTH } from "./facts.js";

/**
 * A schedule's dates against each other: a milestone listed after another that falls before it
 * ("Testing in 2 pilot shops: 27 October – 7 November" then "Launch in all 14 shops: 20 October"),
 * or one after the end the quote states ("final delivery on 23 April 2027" and "M4 Handover – 4 June
 * 2027"). Either leaves the client unsure which date holds, as items that do not add up do.
 */
interface Dated {
  line: string;
  start: number;
  end: number;
  /** One date, not a span of days. */
  point: boolean;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAY = "(\\d{1,2})(?:st|nd|rd|th)?";
const YEAR = "(?:,?\\s+(\\d{4}))?";
// "19 February 2027", "1–12 September", "Jan 11", "Fri Jan 22 2027", "2027-02-19", "19.02.2027".
const DATE = new RegExp(
  `\\b(\\d{4})-(\\d{2})-(\\d{2})\\b|\\b(\\d{1,2})\\.(\\d{1,2})\\.(\\d{4})\\b|\\b${DAY}\\s+(?:of\\s+)?(${MONTH})${YEAR}|\\b(${MONTH})\\s+${DAY}\\b${YEAR}`,
  "gi",
);
// "1–12 September": the day a range starts, with the month after it.
const DAY_BEFORE_RANGE = new RegExp(`\\b${DAY}\\s?[–-]\\s?$`);
const ANY_YEAR = /\b(20\d{2})\b/;
// A schedule's own line: not what is paid, when the offer lapses, how long defects are fixed, what
// the client provides by when, or a table's total.
const NOT_A_MILESTONE = /\b(?:invoice[sd]?|invoicing|payable|payment|paid|pay|instal?ments?|valid|validity|expires?|dated|warranty|hypercare|support|maintenance|retainer|signed|total|assumptions?|prerequisites?|dependenc(?:y|ies)|client inputs?|from you|your side|you provide|we need)\b/i;
// "final delivery on 23 April 2027", "project end: 30 June": the end of the whole work, said so.
const PROJECT_END = /\b(?:final delivery|project end|end of the project|project (?:completion|completes|ends)|overall end)\b/i;
// "Timeline: 1 September – 7 November 2025": a summary's range ends where the work does.
const RANGE_TO = /(?:–|-|\bto|\buntil|\bthrough|→)\s*(?:\p{L}+\s+)?$/u;
const DAY_MS = 86_400_000;
// Dates further apart than this, backwards, are more likely a year the text left out than a slip.
const NEAR = 120 * DAY_MS;

/** The schedule's contradictions, read from its lists and tables of dated lines. */
export function scheduleProblems(text: string): string[] {
  let year = Number(ANY_YEAR.exec(text)?.[1] ?? 2000);
  const problems: string[] = [];
  let run: Dated[] = [];
  let statedEnd: { date: number; line: string } | undefined;
  const close = () => {
    problems.push(...outOfOrder(run), ...afterEnd(run, statedEnd));
    run = [];
  };
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const dates: { at: number; index: number }[] = [];
    for (const m of line.matchAll(DATE)) {
      const [day, month, given] = partsOf(m);
      if (given !== undefined) year = given;
      // "1–12 September": the range's first day is in the same month.
      const first = DAY_BEFORE_RANGE.exec(line.slice(Math.max(0, m.index - 12), m.index));
      if (first) dates.push({ at: Date.UTC(year, month, Number(first[1])), index: m.index });
      dates.push({ at: Date.UTC(year, month, day), index: m.index });
    }
    if (dates.length === 0 || NOT_A_MILESTONE.test(line)) {
      if (line !== "") close();
      continue;
    }
    const last = dates.at(-1)!;
    // "Timeline: 12 weeks from 1 February 2027; final delivery on 23 April 2027", "## Timeline (1 September – 7 November 2025)": the end of the whole work.
    if (PROJECT_END.test(line) || (!LISTED.test(line) && dates.length >= 2 && RANGE_TO.test(line.slice(0, last.index)))) {
      close();
      statedEnd = { date: last.at, line };
      continue;
    }
    if (!LISTED.test(line)) {
      close();
      continue;
    }
    // Quoted without its list marker or table bars: "Launch in all 14 shops: 20 October 2025".
    const quoted = line.replace(/^(?:[-*•]|\d{1,2}[.)])\s+/, "").replace(/^\|\s*|\s*\|$/g, "").replace(/\s*\|\s*/g, " | ");
    run.push({ line: quoted, start: dates[0]!.at, end: last.at, point: dates.length === 1 });
  }
  close();
  return problems;
}

// A list item, a table row, a milestone's or phase's name, or columns: one line of a schedule.
const LISTED = /^(?:[-*•]|\d{1,2}[.)]\s|\||[A-Z]\d\b|(?:phase|milestone|stage|sprint|step|week)\b)|\s{3,}|\t/i;

function partsOf(m: RegExpMatchArray): [day: number, month: number, year: number | undefined] {
  if (m[1]) return [Number(m[3]), Number(m[2]) - 1, Number(m[1])];
  if (m[4]) return [Number(m[4]), Number(m[5]) - 1, Number(m[6])];
  if (m[7]) return [Number(m[7]), monthOf(m[8]!), m[9] ? Number(m[9]) : undefined];
  return [Number(m[11]), monthOf(m[10]!), m[12] ? Number(m[12]) : undefined];
}

const monthOf = (name: string) => MONTHS.indexOf(name.slice(0, 3).toLowerCase());

/** A milestone on one date that falls before the start of the line listed above it. */
function outOfOrder(run: readonly Dated[]): string[] {
  for (let i = 1; i < run.length; i++) {
    const [before, now] = [run[i - 1]!, run[i]!];
    if (now.point && now.start < before.start && before.start - now.start <= NEAR) {
      return [`"${now.line}" comes before "${before.line}", listed above it: ask which date holds.`];
    }
  }
  return [];
}

/** A milestone after the end the quote states for the whole work. */
function afterEnd(run: readonly Dated[], end: { date: number; line: string } | undefined): string[] {
  if (end === undefined) return [];
  const late = run.find((d) => d.end > end.date && d.end - end.date <= NEAR);
  return late ? [`"${late.line}" falls after the end stated in "${end.line}": ask which date holds.`] : [];
}
