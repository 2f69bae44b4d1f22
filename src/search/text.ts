import { stemmer } from "stemmer";

/**
 * Text analysis shared by the build (indexing) and the runtime (querying): both sides must
 * turn text into terms the same way, or nothing matches.
 */

// Words that carry no meaning for matching a problem to an offering. Kept short on purpose:
// words such as "app", "data" or "security" must stay searchable.
const STOPWORDS = new Set(
  ("a about above after again all also am an and any are as at be because been before being both but by can " +
    "could did do does doing don down during each few for from further had has have having he her here hers him " +
    "his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other " +
    "our ours ourselves out over own same she should so some such than that the their theirs them then there " +
    "these they this those through to too under until up very was we were what when where which while who whom " +
    "why will with would you your yours yourself yourselves get got really pls please thanks hi hello want wants " +
    "need needs like im ive weve were dont doesnt cant us one " +
    // Filler of spoken English that says nothing about the problem ("way too much", "lots of stuff").
    "way much many lot lots every thing things stuff someone something anything everything kind sort bit " +
    "still always never even ever also maybe actually basically honestly guess sure quite pretty kinda " +
    "somebody anyone everyone whole etc")
    .split(" "),
);

const ASCII = /^[\x00-\x7f]*$/;

/**
 * Unicode-normalized, lower-case, accent-free words of a text, stopwords removed. Plain ASCII
 * text (most queries) takes a shorter way to the same words: it has nothing to normalize, and
 * its letters and digits are exactly a-z and 0-9 once lower-cased.
 */
export function words(text: string): string[] {
  const out: string[] = [];
  const folded = ASCII.test(text)
    ? text.toLowerCase().replace(/'/g, "").split(/[^a-z0-9]+/)
    : text.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase().replace(/['’]/g, "").split(/[^\p{L}\p{N}]+/u);
  for (const word of folded) {
    if (word.length > 0 && !STOPWORDS.has(word)) out.push(word);
  }
  return out;
}

/** The index form of a word: its Porter stem, so "migrating", "migration" and "migrations" meet. */
export function stem(word: string): string {
  return word.length <= 3 ? word : stemmer(word);
}

/** Terms of a text in index form, in order, duplicates kept. */
export function terms(text: string): string[] {
  return words(text).map(stem);
}
