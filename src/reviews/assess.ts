import type { Criterion, Evidence, RubricLimits } from "../catalog/types.js";
import { excerpt, findEvidence, isNegated, normalize, sections, sentences, substance, wordCount, type Section } from "./text.js";

/**
 * Scores a text against a rubric, the same way for tickets and quotes. Deterministic and hard to
 * game: full credit needs a section with real content or a concrete structure, a wording pattern
 * in prose earns half, a bare keyword earns nothing, one piece of text credits one criterion,
 * and very short texts are capped.
 */
export type Status = "met" | "partial" | "missing";

export interface CriterionResult {
  id: string;
  title: string;
  weight: number;
  status: Status;
  points: number;
  /** A short quote of what was found, or why it does not count. */
  evidence: string;
  advice: string;
  /** The author's own content for this criterion, when found (used to rewrite the text). */
  content?: string;
}

export interface Assessment {
  score: number;
  threshold: number;
  passed: boolean;
  words: number;
  /** Set when the text is too short to earn more than the cap. */
  cappedAt?: number;
  criteria: CriterionResult[];
  sections: Section[];
}

// Structures that prove content even without a heading (a stack trace is a stack trace).
const SELF_EVIDENT: readonly Evidence[] = ["numbered-list", "given-when-then", "stack-trace", "code"];

export function assess(raw: string, criteria: readonly Criterion[], limits: RubricLimits): Assessment {
  const text = normalize(raw);
  const synonyms = criteria.flatMap((c) => c.headings.map((h) => h.toLowerCase()));
  const found = sections(text, (heading) => synonyms.some((syn) => headingMatches(heading, syn)));
  const usedSections = new Set<Section>();
  const usedSentences = new Set<string>();
  const results = new Map<string, CriterionResult>();

  // Heavier criteria choose first, so a section that could serve two goes to the one that matters more.
  const order = [...criteria].sort((a, b) => b.weight - a.weight);
  for (const criterion of order) {
    results.set(criterion.id, judge(criterion, found, usedSections, usedSentences));
  }

  const words = wordCount(text);
  const listed = criteria.map((c) => results.get(c.id)!);
  let score = round(listed.reduce((sum, r) => sum + r.points, 0));
  let cappedAt: number | undefined;
  if (words < limits.minWords) {
    score = Math.min(score, limits.shortTextCap);
    cappedAt = limits.shortTextCap;
  }
  return { score, threshold: limits.threshold, passed: score >= limits.threshold, words, ...(cappedAt !== undefined ? { cappedAt } : {}), criteria: listed, sections: found };
}

function judge(criterion: Criterion, found: Section[], usedSections: Set<Section>, usedSentences: Set<string>): CriterionResult {
  const base = { id: criterion.id, title: criterion.title, weight: criterion.weight, advice: criterion.advice };
  const synonyms = criterion.headings.map((h) => h.toLowerCase());
  // Of the sections this criterion could claim ("SCOPE OF WORK", then "In scope:"), the first
  // with real content counts; empty ones are claimed too, so they cannot credit anything else.
  const candidates = found.filter((s) => s.heading !== "" && !usedSections.has(s) && synonyms.some((syn) => headingMatches(s.heading, syn)));
  const section = candidates.find((s) => substance(s.content) !== "") ?? candidates[0];
  if (section) {
    for (const candidate of candidates) usedSections.add(candidate);
    const real = substance(section.content);
    if (real === "") {
      return { ...base, status: "missing", points: 0, evidence: `"${section.heading}" is there but says nothing (empty, N/A, TBD or a placeholder)` };
    }
    // Structures are looked for in the content as written: list markers are part of the proof.
    const structure = findEvidence(section.content, criterion.evidence);
    const words = wordCount(real);
    const enough = criterion.evidence.length > 0 ? structure !== undefined || words >= 8 : words >= 3;
    if (enough) return { ...base, status: "met", points: criterion.weight, evidence: excerpt(structure?.found ?? real), content: real };
    return { ...base, status: "partial", points: criterion.weight / 2, evidence: `"${section.heading}" is too thin: ${excerpt(real, 80)}`, content: real };
  }

  const prose = found.filter((s) => !usedSections.has(s)).map((s) => s.content).join("\n");
  for (const sentence of sentences(prose)) {
    if (usedSentences.has(sentence) || isNegated(sentence) || wordCount(sentence) < 5) continue;
    const lower = sentence.toLowerCase();
    if (!criterion.phrases.some((p) => lower.includes(p.toLowerCase()))) continue;
    usedSentences.add(sentence);
    const structure = findEvidence(sentence, criterion.evidence);
    if (structure) return { ...base, status: "met", points: criterion.weight, evidence: excerpt(sentence), content: sentence };
    return { ...base, status: "partial", points: criterion.weight / 2, evidence: `mentioned in passing: ${excerpt(sentence, 100)}`, content: sentence };
  }

  const structure = findEvidence(substance(prose), criterion.evidence.filter((e) => SELF_EVIDENT.includes(e)));
  if (structure && !usedSentences.has(structure.found)) {
    usedSentences.add(structure.found);
    return { ...base, status: "partial", points: criterion.weight / 2, evidence: `found without a heading: ${excerpt(structure.found, 100)}`, content: structure.found };
  }
  return { ...base, status: "missing", points: 0, evidence: "not found" };
}

function headingMatches(heading: string, synonym: string): boolean {
  if (heading === synonym) return true;
  const escaped = synonym.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\p{L}])${escaped}($|[^\\p{L}])`, "u").test(heading);
}

const round = (n: number) => Math.round(n * 10) / 10;
