/**
 * One-letter typo correction against the words of the indexed content: a word the content never
 * uses is replaced by the most frequent content word one edit away (insert, delete, substitute
 * or swap two neighbours). Candidates are generated from the query word (a few hundred strings)
 * and looked up, so nothing beyond the vocabulary itself is kept in memory.
 */
const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
const MIN_LENGTH = 4; // shorter words have too many neighbours to guess from

function* oneEditAway(word: string): Generator<string> {
  for (let i = 0; i <= word.length; i++) {
    const head = word.slice(0, i);
    const tail = word.slice(i);
    if (tail.length > 0) yield head + tail.slice(1);
    if (tail.length > 1) yield head + tail[1] + tail[0] + tail.slice(2);
    for (const c of ALPHABET) {
      if (tail.length > 0 && tail[0] !== c) yield head + c + tail.slice(1);
      yield head + c + tail;
    }
  }
}

export function correct(word: string, vocabulary: ReadonlyMap<string, number>): string | undefined {
  if (vocabulary.has(word)) return word;
  if (word.length < MIN_LENGTH || /\d/.test(word)) return undefined;
  let best: string | undefined;
  let bestCount = 0;
  for (const candidate of oneEditAway(word)) {
    const count = vocabulary.get(candidate) ?? 0;
    if (count > bestCount || (count === bestCount && count > 0 && candidate < best!)) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}
