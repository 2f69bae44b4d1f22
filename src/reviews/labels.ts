import type { Criterion } from "../catalog/types.js";
import type { LabelResolver } from "./document.js";
import { contentWords, phraseForm, stemOf, words } from "./quality.js";

/**
 * Maps a label as written ("Steps to reproduce the behavior", "What browsers are you seeing the
 * problem on?", "Env") to a criterion through the rubric's synonyms, compared word by word on
 * stems. The longest synonym found wins, so "expected result" goes to the expected behaviour
 * and not to "result"; ties go to the heavier criterion.
 */
export interface LabelIndex {
  resolve: LabelResolver;
  /** Stems of every word of every synonym: the rubric's own vocabulary. */
  vocabulary: ReadonlySet<string>;
  /** The same, per criterion (what a negation must be close to, to deny that criterion). */
  vocabularyOf: ReadonlyMap<string, ReadonlySet<string>>;
}

// Words a label can leave out or add without naming something else ("What did you expect?").
const FILLER = new Set("a an the of to for in on at is are was be you your do does did i we my our me us please and or it this that with by any".split(" "));

// "Fees (GBP, fixed, excl. VAT)": a remark in brackets is not part of what the label names;
// "What I'll look at" is "what I will look at".
function tokens(text: string): string[] {
  return words(phraseForm(text.toLowerCase().replace(/\([^()]*\)/g, " ").replace(/[-/]/g, " "))).filter((w) => !FILLER.has(w)).map(stemOf);
}

/** Vocabulary is what a label names, without question words ("done when" is about "done"). */
function vocabularyTokens(text: string): string[] {
  return contentWords(text.replace(/[-/]/g, " ")).map(stemOf);
}

// Who filed a ticket ("Requester", "Reported by") or sent a quote ("From: Noah Feld, ML engineer", "Who we are"),
// and what is finished ("Done so far:"): a tracker's or a letter's fields, which name no criterion.
const FILED_BY = /^(?:from|who we are|requester|requestor|reporter|assignee|(?:requested|reported|raised|submitted|created|filed|opened) by|done (?:so far|already|yet)|already done)$/;

const cache = new WeakMap<readonly Criterion[], LabelIndex>();

export function labelIndex(criteria: readonly Criterion[]): LabelIndex {
  const cached = cache.get(criteria);
  if (cached) return cached;
  const order = [...criteria].sort((a, b) => b.weight - a.weight);
  const synonyms = order.flatMap((c) => c.headings.map((h) => ({ id: c.id, words: tokens(h) })).filter((s) => s.words.length > 0));
  const resolve: LabelResolver = (label) => {
    // "Requested by:" is no request, "Done so far:" no definition of done.
    if (FILED_BY.test(label)) return undefined;
    const words = tokens(label);
    if (words.length === 0) return undefined;
    let best: { id: string; length: number } | undefined;
    for (const s of synonyms) {
      if (s.words.length > words.length || (best && s.words.length <= best.length)) continue;
      if (contains(words, s.words)) best = { id: s.id, length: s.words.length };
    }
    // A label mostly about something else ("steps we took to fix the deployment pipeline") is
    // not this criterion's: the synonym must cover at least a third of the label's words.
    return best && best.length * 3 >= words.length ? best.id : undefined;
  };
  const index: LabelIndex = {
    resolve,
    vocabulary: new Set(criteria.flatMap((c) => c.headings.flatMap(vocabularyTokens))),
    vocabularyOf: new Map(criteria.map((c) => [c.id, new Set(c.headings.flatMap(vocabularyTokens))])),
  };
  cache.set(criteria, index);
  return index;
}

function contains(words: readonly string[], part: readonly string[]): boolean {
  outer: for (let i = 0; i + part.length <= words.length; i++) {
    for (let j = 0; j < part.length; j++) if (words[i + j] !== part[j]) continue outer;
    return true;
  }
  return false;
}
