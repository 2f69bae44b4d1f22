import FlexSearch, { type Index } from "flexsearch";
import { LRUCache } from "lru-cache";
import { stem, terms, words } from "./text.js";
import { correct } from "./spelling.js";

/**
 * Weighted multi-field search. FlexSearch keeps one inverted index per field (built and exported
 * at build time, imported at start); ranking is ours: each query term found in a document adds
 * its inverse document frequency times the weight of the best field it was found in, so rare,
 * specific words ("kubernetes", "pentest") count more than common ones, and a problem phrase
 * (heavy field) counts more than a passing mention in a body text (light field).
 */
export interface FieldSpec {
  name: string;
  weight: number;
}

export interface SearchDocument {
  id: string;
  fields: Record<string, string | readonly string[] | undefined>;
}

/** What the build writes and the runtime reads back: plain JSON. */
export interface ExportedIndex {
  fields: FieldSpec[];
  ids: string[];
  /** Surface words of the content with their counts, for typo correction. */
  vocabulary: Record<string, number>;
  /**
   * Every indexed term with the number of documents holding it: a known word form ("migrating")
   * is never "corrected", and a term's weight is known before its postings are fetched.
   */
  documentFrequency: Record<string, number>;
  parts: Record<string, Record<string, string>>;
  /** Each document's length in terms, for length normalisation; absent in older catalogs. */
  lengths?: number[];
  /** The editors' bridges from visitors' words to the catalog's (content/concepts.yaml); absent in older catalogs. */
  concepts?: ExportedConcept[];
}

/** What editors write in content/concepts.yaml. */
export interface Concept {
  id: string;
  when: string[];
  means: string;
}

/** A concept in index form: each `when` phrase with its terms, and the catalog words it stands for. */
export interface ExportedConcept {
  id: string;
  when: { phrase: string; terms: string[] }[];
  means: QueryWord[];
}

export interface SearchResult {
  /** Every term of the query in index form (typos corrected), for explaining a hit. */
  terms: ReadonlySet<string>;
  hits: SearchHit[];
  /** Concepts the query's words called up: the phrase that did ("amazon bill") and the catalog's words it stands for. */
  understood: { concept: string; phrase: string; means: string }[];
}

export interface SearchHit {
  id: string;
  /** 0–1: the share of the query's weight this document matched. */
  score: number;
  /** Query words (as the caller wrote them, typos corrected) that matched. */
  matched: string[];
}

// Documents are indexed by position in `ids`, which keeps the exported maps small.
const INDEX_OPTIONS = {
  tokenize: "strict" as const,
  resolution: 1,
  // Text reaches FlexSearch already analysed (see analyse); it only has to split it.
  encode: (text: string) => (text.length === 0 ? [] : text.split(" ")),
};
const POSTING_LIMIT = 100_000;

function fieldText(value: string | readonly string[] | undefined): string {
  if (value === undefined) return "";
  return typeof value === "string" ? value : value.join(" \n ");
}

const byKey = ([a]: [string, number], [b]: [string, number]) => (a < b ? -1 : a > b ? 1 : 0);

export async function buildIndex(fields: FieldSpec[], documents: SearchDocument[], concepts: readonly ExportedConcept[] = []): Promise<ExportedIndex> {
  const vocabulary = new Map<string, number>();
  const frequency = new Map<string, number>();
  const indexes = fields.map(() => new FlexSearch.Index(INDEX_OPTIONS));
  // One entry per distinct word: its count (for typo correction) and its stem, computed once.
  const seen = new Map<string, { count: number; stem: string }>();
  const lengths: number[] = [];
  documents.forEach((doc, position) => {
    const distinct = new Set<string>();
    let length = 0;
    fields.forEach((field, f) => {
      const analysed = words(fieldText(doc.fields[field.name])).map((word) => {
        let entry = seen.get(word);
        if (entry) entry.count++;
        else seen.set(word, (entry = { count: 1, stem: stem(word) }));
        distinct.add(entry.stem);
        return entry.stem;
      });
      indexes[f]!.add(position, analysed.join(" "));
      length += analysed.length;
    });
    lengths.push(length);
    for (const term of distinct) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  });
  for (const [word, { count }] of seen) vocabulary.set(word, count);
  const parts: ExportedIndex["parts"] = {};
  for (const [f, field] of fields.entries()) {
    const exported: Record<string, string> = {};
    await indexes[f]!.export((key: string, data: string) => {
      exported[key] = data;
    });
    parts[field.name] = exported;
  }
  return {
    fields,
    ids: documents.map((d) => d.id),
    vocabulary: Object.fromEntries([...vocabulary].sort(byKey)),
    documentFrequency: Object.fromEntries([...frequency].sort(byKey)),
    parts,
    lengths,
    concepts: [...concepts],
  };
}

/**
 * The editors' concepts in index form, made once for every index of a build: spelled out, their
 * phrases repeat the same few hundred words thousands of times, so each word is stemmed once.
 */
export function indexConcepts(concepts: readonly Concept[]): ExportedConcept[] {
  const stems = new Map<string, string>();
  const stemOnce = (word: string): string => {
    let found = stems.get(word);
    if (found === undefined) stems.set(word, (found = stem(word)));
    return found;
  };
  return concepts.map((c) => ({
    id: c.id,
    when: unique(c.when.flatMap(spelledOut)).map((phrase) => ({ phrase, terms: words(phrase).map(stemOnce) })).filter((w) => w.terms.length > 0),
    means: words(c.means).map((word) => ({ word, term: stemOnce(word), boost: CONCEPT_BOOST })),
  }));
}

/**
 * A `when` phrase with alternatives, "agency|freelancer disappeared|vanished", as the plain
 * phrases it stands for: "agency disappeared", "agency vanished", "freelancer disappeared" and
 * "freelancer vanished". Editors write the ways people say a thing once, not every combination.
 * An alternative that says nothing (a stopword: "has|have") is left out, and so is a slot of
 * nothing else: it would shorten the phrase to its other words and make it fire far too often.
 */
export function spelledOut(phrase: string): string[] {
  return phrase
    .trim()
    .split(/\s+/)
    .map((slot) => slot.split("|").filter((w) => words(w).length > 0))
    .filter((slot) => slot.length > 0)
    .reduce<string[]>((heads, slot) => heads.flatMap((head) => slot.map((w) => (head ? `${head} ${w}` : w))), [""])
    .filter((p) => p.length > 0);
}

const unique = (list: string[]): string[] => [...new Set(list)];

/** What a concept stands for counts more than a word of the visitor's: it is the editors' reading of the whole problem. */
const CONCEPT_BOOST = 1.5;
/** How strongly a document's length above the average lowers its matches (BM25's b). */
export const LENGTH_B = 0.5;
/** Query terms beyond this many add nothing a person meant (and each has a bit in a 32-bit mask). */
const MAX_QUERY_TERMS = 32;
/** A search reaching at least a quarter of the documents (in postings) scans them all: see search. */
const DENSE_SHARE = 4;
/** A term found in more than this share of documents says little about any of them. */
const COMMON_SHARE = 0.5;
/** Merged postings kept, least recently used dropped first: at most this many entries (12 bytes each, 24 MB). */
const POSTINGS_BUDGET = 2_000_000;
/** Remembered query words (stem and typo correction), least recently used dropped first. */
const WORD_CACHE = 10_000;

/** A term's documents in ascending position, each with what it adds to a score (idf × best field weight). */
interface Postings {
  positions: Int32Array;
  impacts: Float64Array;
  /** The most a document can gain from this term: its idf times the heaviest field's weight. */
  ceiling: number;
}

/** A query word as it will be matched: the word (typo corrected) and its index form. */
export interface QueryWord {
  word: string;
  term: string;
  /** Set on the words a concept stands for: they count this much more than the visitor's own. */
  boost?: number;
}

export class SearchEngine {
  private readonly indexes: { weight: number; index: Index }[];
  private readonly vocabulary: Map<string, number>;
  private readonly frequency: Map<string, number>;
  private readonly ids: string[];
  private readonly maxWeight: number;
  // Scratch space reused by every search (searches are synchronous, so never shared).
  private readonly scores: Float64Array;
  /** Per document, which of the query's terms (one bit each) it holds. */
  private readonly matches: Uint32Array;
  /** The documents a search has reached, in the order it reached them (see search). */
  private readonly touched: Int32Array;
  private readonly best: Float64Array;
  /** Per document, what a match in it is worth: less in a document much longer than the others (see lengthNorms). */
  private readonly norms: Float64Array;
  /** Each word's own index form, and what it matches: false for a word neither the content nor a one-letter correction knows. */
  private readonly queryWordCache = new LRUCache<string, { own: string; known: QueryWord | false }>({ max: WORD_CACHE });
  /** The concepts' phrases by the one of their terms fewest phrases hold (see understand), each with its concept. */
  private readonly phrases = new Map<string, { concept: ExportedConcept; phrase: string; terms: string[] }[]>();
  /** Every term of the concepts' phrases: words of visitors, not of the catalog. */
  private readonly conceptTerms = new Set<string>();
  private readonly merged = new LRUCache<string, Postings>({ maxSize: POSTINGS_BUDGET, sizeCalculation: (p) => Math.max(1, p.positions.length) });

  constructor(exported: ExportedIndex) {
    this.ids = exported.ids;
    this.vocabulary = new Map(Object.entries(exported.vocabulary));
    this.frequency = new Map(Object.entries(exported.documentFrequency));
    const phrases = (exported.concepts ?? []).flatMap((concept) => concept.when.map(({ phrase, terms }) => ({ concept, phrase, terms })));
    const holding = new Map<string, number>();
    for (const { terms } of phrases) for (const term of new Set(terms)) holding.set(term, (holding.get(term) ?? 0) + 1);
    for (const phrase of phrases) {
      // A phrase is looked at only when a question holds its rarest term: "agency vanished" when
      // "vanished" is asked, not every time "agency" is.
      const key = phrase.terms.reduce((a, b) => (holding.get(b)! < holding.get(a)! ? b : a));
      const same = this.phrases.get(key) ?? [];
      if (same.length === 0) this.phrases.set(key, same);
      same.push(phrase);
      for (const term of phrase.terms) this.conceptTerms.add(term);
    }
    // Every weight must count: the dense scan (bestOf) takes a score of zero for a document the
    // search never reached.
    if (exported.fields.some((f) => !(f.weight > 0))) throw new Error("every search field needs a weight above 0");
    this.maxWeight = Math.max(...exported.fields.map((f) => f.weight));
    this.indexes = exported.fields.map((field) => {
      const index = new FlexSearch.Index(INDEX_OPTIONS);
      for (const [key, data] of Object.entries(exported.parts[field.name] ?? {})) index.import(key, data);
      return { weight: field.weight, index };
    });
    this.scores = new Float64Array(this.ids.length);
    this.matches = new Uint32Array(this.ids.length);
    this.touched = new Int32Array(this.ids.length);
    this.best = new Float64Array(this.ids.length);
    this.norms = lengthNorms(exported.lengths ?? [], this.ids.length);
  }

  get size(): number {
    return this.ids.length;
  }

  search(query: string, limit: number): SearchResult {
    const { queryWords, understood } = this.queryWords(query);
    const common = this.ids.length * COMMON_SHARE;
    const rare = queryWords.some(({ term }) => this.frequency.get(term)! <= common);
    // Very common terms are skipped when rarer ones are there to rank by; what a concept stands
    // for is kept: an editor chose those words.
    const used = queryWords.filter(({ term, boost }) => boost !== undefined || !rare || this.frequency.get(term)! <= common);
    const postings = used.map(({ term }) => this.postings(term));

    let total = 0;
    let reached = 0;
    postings.forEach(({ positions, ceiling }, u) => {
      total += ceiling * (used[u]!.boost ?? 1);
      reached += positions.length;
    });
    const documents = this.ids.length;
    // A query that reaches a good share of the documents (long questions, common words) adds
    // into the scores without asking whether a document was reached before, a branch the CPU
    // mispredicts half of the time, and then scans every document; one that reaches few keeps
    // the list of those it reached and looks at them alone.
    const dense = reached * DENSE_SHARE >= documents;
    const { scores, matches } = this;
    const touched = dense ? null : this.touched;
    let count = 0;
    for (let u = 0; u < postings.length; u++) count = addPostings(postings[u]!, used[u]!.boost ?? 1, 1 << u, scores, matches, touched, count);
    const top = bestOf(scores, touched, dense ? documents : count, limit);
    const hits = Array.from(top, (position) => ({
      id: this.ids[position]!,
      score: Math.round((scores[position]! / total) * 1000) / 1000,
      matched: used.filter((_, u) => (matches[position]! >>> u) & 1).map(({ word }) => word),
    }));
    if (touched === null) {
      scores.fill(0);
      matches.fill(0);
    } else {
      for (let t = 0; t < count; t++) {
        scores[touched[t]!] = 0;
        matches[touched[t]!] = 0;
      }
    }
    return { terms: new Set(queryWords.map(({ term }) => term)), hits, understood };
  }

  /**
   * The documents holding a term, each once with the weight of the best field it is in. Merged
   * from the per-field indexes on first use and kept (within a memory budget), since the same
   * words come back in query after query.
   */
  private postings(term: string): Postings {
    const cached = this.merged.get(term);
    if (cached) return cached;
    const order: number[] = [];
    for (const { weight, index } of this.indexes) {
      for (const position of index.search(term, { limit: POSTING_LIMIT }) as number[]) {
        if (this.best[position] === 0) order.push(position);
        if (this.best[position]! < weight) this.best[position] = weight;
      }
    }
    const documents = this.frequency.get(term)!;
    const idf = Math.log(1 + (this.ids.length - documents + 0.5) / (documents + 0.5));
    const positions = Int32Array.from(order).sort();
    const merged = { positions, impacts: Float64Array.from(positions, (p) => idf * this.best[p]! * this.norms[p]!), ceiling: idf * this.maxWeight };
    for (const position of order) this.best[position] = 0;
    this.merged.set(term, merged);
    return merged;
  }

  /**
   * Distinct query terms in index form, each with the word as the caller wrote it (typos
   * corrected). Stemming and typo correction (hundreds of candidates) are remembered per word:
   * people and GPTs use the same words over and over.
   */
  private queryWords(query: string): { queryWords: QueryWord[]; understood: SearchResult["understood"] } {
    const resolved = words(query).map((word) => this.queryWordCache.get(word) ?? this.resolve(word));
    const called = this.phrases.size > 0 ? this.understand(resolved.map((r) => r.own)) : [];
    const means = called.flatMap(({ concept }) => concept.means);
    const out: QueryWord[] = [];
    const seen = new Set<string>();
    // The visitor's own words first, leaving room for what their concepts stand for.
    const room = MAX_QUERY_TERMS - Math.min(means.length, MAX_QUERY_TERMS / 2);
    for (const { known } of resolved) {
      if (out.length === room) break;
      if (known === false || seen.has(known.term)) continue;
      seen.add(known.term);
      out.push(known);
    }
    for (const word of means) {
      if (out.length === MAX_QUERY_TERMS) break;
      if (seen.has(word.term) || !this.frequency.has(word.term)) continue;
      seen.add(word.term);
      out.push(word);
    }
    return { queryWords: out, understood: called.map(({ concept, phrase }) => ({ concept: concept.id, phrase, means: concept.means.map((m) => m.word).join(" ") })) };
  }

  /** The concepts whose phrase has every one of its terms among the query's (in any order). */
  private understand(own: readonly string[]): { concept: ExportedConcept; phrase: string }[] {
    const present = new Set(own);
    const found: { concept: ExportedConcept; phrase: string }[] = [];
    for (const term of present) {
      for (const { concept, phrase, terms } of this.phrases.get(term) ?? []) {
        if (!found.some((f) => f.concept === concept) && terms.every((t) => present.has(t))) found.push({ concept, phrase });
      }
    }
    return found;
  }

  /**
   * A word's index form and what it matches, remembered. A word of a concept's phrases that the
   * catalog does not hold ("amazon") is kept as it is for the concepts, never "corrected" into
   * another word of the catalog, and matches nothing itself.
   */
  private resolve(word: string): { own: string; known: QueryWord | false } {
    const own = stem(word);
    let known: QueryWord | false = false;
    if (this.frequency.has(own)) known = { word, term: own };
    else if (!this.conceptTerms.has(own)) {
      const corrected = correct(word, this.vocabulary);
      if (corrected !== undefined) known = { word: corrected, term: stem(corrected) };
    }
    const answer: { own: string; known: QueryWord | false } = { own, known };
    this.queryWordCache.set(word, answer);
    return answer;
  }
}

/**
 * BM25's length normalisation, for documents longer than the average only: a long product page
 * holds more of any question's words by its length alone, and must not outrank the offering a
 * question is about; a short one gains nothing, so a score stays at most 1.
 */
function lengthNorms(lengths: readonly number[], documents: number): Float64Array {
  const norms = new Float64Array(documents).fill(1);
  if (lengths.length !== documents || documents === 0) return norms;
  const average = lengths.reduce((a, b) => a + b, 0) / documents;
  if (average === 0) return norms;
  lengths.forEach((length, d) => (norms[d] = Math.min(1, 1 / (1 - LENGTH_B + (LENGTH_B * length) / average))));
  return norms;
}

/**
 * Adds one term's postings (times its boost) into the scores and marks the term's bit in `matches`. When `touched`
 * is given (a sparse search), a document reached for the first time is also appended to it;
 * returns the new count of touched documents.
 */
function addPostings({ positions, impacts }: Postings, boost: number, bit: number, scores: Float64Array, matches: Uint32Array, touched: Int32Array | null, count: number): number {
  for (let i = 0; i < positions.length; i++) {
    const position = positions[i]!;
    if (touched !== null && matches[position] === 0) touched[count++] = position;
    scores[position] = scores[position]! + impacts[i]! * boost;
    matches[position] = matches[position]! | bit;
  }
  return count;
}

/**
 * Positions of the best `limit` documents among the candidates (all documents when null), highest
 * score first and, on a tie, the earlier document. Once `limit` are kept, most documents fall
 * below the last one's score: one comparison each.
 */
function bestOf(scores: Float64Array, candidates: Int32Array | null, count: number, limit: number): Int32Array {
  limit = Math.max(0, Math.min(limit, count));
  const top = new Int32Array(limit);
  let kept = 0;
  let floor = 0;
  for (let t = 0; t < count; t++) {
    const position = candidates === null ? t : candidates[t]!;
    const score = scores[position]!;
    if (score < floor || (score === floor && (kept < limit || position > top[limit - 1]!))) continue;
    let at = kept < limit ? kept++ : limit - 1;
    for (; at > 0; at--) {
      const above = top[at - 1]!;
      if (scores[above]! > score || (scores[above] === score && above < position)) break;
      top[at] = above;
    }
    top[at] = position;
    if (kept === limit) floor = scores[top[limit - 1]!]!;
  }
  return top.subarray(0, kept);
}
