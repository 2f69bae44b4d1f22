import type { Evidence } from "../catalog/types.js";

/**
 * Reading a pasted document: normalizing it, finding its sections, and spotting the concrete
 * structures (steps, amounts, dates, stack traces...) that show a section has real content.
 */
export interface Section {
  /** Normalized heading: lower case, without numbering, '#' or trailing ':'. Empty for the preamble. */
  heading: string;
  content: string;
  /** Line index of the heading in the normalized text. */
  line: number;
}

/** NFKC fixes PDF ligatures and odd spaces; hyphenated line breaks are rejoined. */
export function normalize(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/\r\n?/g, "\n")
    .replace(/[\u00a0\u2000-\u200b]/g, " ")
    .replace(/(\p{L})-\n(\p{Ll})/gu, "$1$2");
}

export function wordCount(text: string): number {
  return (text.match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? []).length;
}

const MAX_HEADING_WORDS = 8;

/** Tells whether a normalized heading names something the rubric knows ("payment terms and schedule"). */
export type KnownHeading = (heading: string) => boolean;

/**
 * A heading line, in the forms people paste: Markdown (#), bold, ALL CAPS, and, when the rubric
 * knows the words, a short line ending in ':', a numbered line ("4. Payment terms"), a bare short
 * line ("Scope") or an inline label ("Expected: it saves"). Numbered and bare lines need a known
 * name, or every step of a numbered list would pass for a heading.
 */
export function headingOf(line: string, isKnown: KnownHeading): { heading: string; rest: string } | undefined {
  const trimmed = line.trim();
  if (trimmed === "") return undefined;
  const label = /^([\p{L}][\p{L}\p{N} /&'()-]{1,40}?)\s*:\s+(\S.*)$/u.exec(trimmed);
  if (label && isKnown(clean(label[1]!))) return { heading: clean(label[1]!), rest: label[2]! };
  if (trimmed.length > 90) return undefined;
  const markdown = /^#{1,6}\s+(.+?)\s*#*$/.exec(trimmed);
  if (markdown) return { heading: clean(markdown[1]!), rest: "" };
  const bold = /^\*\*(.+?)\*\*:?\s*(.*)$/.exec(trimmed);
  if (bold && wordCount(bold[1]!) <= MAX_HEADING_WORDS) return { heading: clean(bold[1]!), rest: bold[2]! };
  const letters = trimmed.replace(/[^\p{L}]/gu, "");
  if (letters.length >= 3 && letters === letters.toUpperCase() && wordCount(trimmed) <= MAX_HEADING_WORDS) {
    return { heading: clean(trimmed), rest: "" };
  }
  // A short line ending in ':' is often a sub-label inside a section ("In scope:", "Notes:"):
  // it starts a section of its own only when it names something the rubric knows.
  if (/^[^:]{2,60}:$/.test(trimmed) && wordCount(trimmed) <= 6 && isKnown(clean(trimmed))) return { heading: clean(trimmed), rest: "" };
  const numbered = /^(?:\d+(?:\.\d+)*[.)]?|[A-Z][.)])\s+([^.!?]+?):?$/.exec(trimmed);
  if (numbered && wordCount(numbered[1]!) <= MAX_HEADING_WORDS && isKnown(clean(numbered[1]!))) return { heading: clean(numbered[1]!), rest: "" };
  if (/^[\p{Lu}][^.!?:]*$/u.test(trimmed) && wordCount(trimmed) <= 5 && isKnown(clean(trimmed))) return { heading: clean(trimmed), rest: "" };
  return undefined;
}

function clean(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/^[\d.)\s]+/, "")
    .replace(/[*_`#:]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

export function sections(text: string, isKnown: KnownHeading): Section[] {
  const out: Section[] = [{ heading: "", content: "", line: 0 }];
  const lines = text.split("\n");
  lines.forEach((line, index) => {
    const heading = headingOf(line, isKnown);
    if (heading) out.push({ heading: heading.heading, content: heading.rest, line: index });
    else out[out.length - 1]!.content += `${line}\n`;
  });
  return out.map((s) => ({ ...s, content: s.content.trim() }));
}

// Text that stands for nothing: negations, placeholders and unfilled template parts.
const EMPTY_LINE = new RegExp(
  [
    "^(?:n/?a|none|nil|null|tbd|tba|todo|unknown|\\?+|-+|\\.{2,}|…|x+|see above|same as above|not (?:applicable|available|included|provided|known|sure|defined|specified|yet (?:known|defined|decided))|to be (?:defined|determined|confirmed|decided)|no(?:ne)? (?:steps|idea|logs?|details?|information|info)\\b.*|no\\.?)$",
    "^<[^>]*>$",
    "^\\[[^\\]]*\\]$",
    "^\\{\\{[^}]*\\}\\}$",
  ].join("|"),
  "i",
);

/** The content with negations, placeholders and list markers removed; empty if nothing real is left. */
export function substance(content: string): string {
  return content
    .split("\n")
    .map((line) => line.replace(/^\s*(?:[-*•]|\d+[.)]|>)\s*/, "").trim())
    .filter((line) => line !== "" && !EMPTY_LINE.test(line.replace(/[.!]+$/, "").trim()) && !/^<!--.*-->$/.test(line))
    .join("\n");
}

const MONTH = "(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?";
const DETECTORS: Record<Evidence, (text: string) => string | undefined> = {
  "numbered-list": (t) => atLeast(t, /^\s*(?:\d+[.)]|step\s+\d+:?)\s+\S.*$/gim, 2),
  "bullet-list": (t) => atLeast(t, /^\s*[-*•]\s+\S.*$/gm, 2),
  "given-when-then": (t) => first(t, /\bgiven\b[^\n]*\n?[\s\S]{0,300}?\bwhen\b[\s\S]{0,300}?\bthen\b[^\n]*/i),
  code: (t) => first(t, /```[\s\S]+?```|`[^`\n]{3,}`|^(?: {4}|\t)\S.*$/m),
  "stack-trace": (t) =>
    first(t, /Traceback \(most recent call last\)[^\n]*|^\s*at [\w$.<>]+ ?\(?[^\n]*:\d+(?::\d+)?\)?$|\b\w+(?:Error|Exception)\b:?[^\n]*\n\s+at\b[^\n]*|\bpanic: [^\n]+/m),
  version: (t) => first(t, /\bv?\d+\.\d+(?:\.\d+)*(?:-[\w.]+)?\b|\b(?:version|build|release)\s*:?\s*\d+\b/i),
  amount: (t) => first(t, /(?:€|\$|£|\b(?:EUR|USD|GBP|CHF)\b)\s?\d[\d.,' ]*\d|\b\d[\d.,' ]*\d\s?(?:€|\$|£|\b(?:EUR|USD|GBP|CHF)\b)/i),
  percentage: (t) => first(t, /\b\d{1,3}(?:[.,]\d+)?\s?%/),
  date: (t) => first(t, new RegExp(`\\b\\d{4}-\\d{2}-\\d{2}\\b|\\b\\d{1,2}[./]\\d{1,2}[./]\\d{2,4}\\b|\\b${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?\\b|\\b\\d{1,2}(?:st|nd|rd|th)?\\s+${MONTH}|\\bQ[1-4]\\s+\\d{4}\\b|\\bweek\\s+\\d+\\b`, "i")),
  duration: (t) => first(t, /\b\d+(?:[.,]\d+)?\s*(?:-|–|to)?\s*\d*\s*(?:business |working |calendar )?(?:hours?|days?|weeks?|months?|years?|sprints?)\b/i),
  url: (t) => first(t, /\bhttps?:\/\/[^\s)>\]]+/i),
};

export function findEvidence(text: string, kinds: readonly Evidence[]): { kind: Evidence; found: string } | undefined {
  for (const kind of kinds) {
    const found = DETECTORS[kind](text);
    if (found) return { kind, found };
  }
  return undefined;
}

function first(text: string, pattern: RegExp): string | undefined {
  return pattern.exec(text)?.[0];
}

function atLeast(text: string, pattern: RegExp, count: number): string | undefined {
  const matches = text.match(pattern) ?? [];
  return matches.length >= count ? matches.slice(0, count).join(" / ") : undefined;
}

/** Sentences of prose, for wording patterns ("I expected...", "instead it..."). */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Shorten a quote of the author's text for the review's evidence field. */
export function excerpt(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A sentence that denies what it names: "no steps to reproduce", "not provided". */
export function isNegated(sentence: string): boolean {
  return /^(?:no|none|without|n\/a)\b|\b(?:not (?:provided|included|available|known|sure|applicable|defined)|tbd|to be (?:defined|determined|confirmed))\b/i.test(sentence.trim());
}
