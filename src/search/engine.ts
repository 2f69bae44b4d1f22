import FlexSearch, { type Index } from "flexsearch";
import { LRUCache } from "lru-cache";
import { stem, words } from "./text.js";
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
}

export interface SearchResult {
  /** Every term of the query in index form (typos corrected), for explaining a hit. */
  terms: ReadonlySet<string>;
  hits: SearchHit[];
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

export async function buildIndex(fields: FieldSpec[], documents: SearchDocument[]): Promise<ExportedIndex> {
  const vocabulary = new Map<string, number>();
  const frequency = new Map<string, number>();
  const indexes = fields.map(() => new FlexSearch.Index(INDEX_OPTIONS));
  // One entry per distinct word: its count (for typo correction) and its stem, computed once.
  const seen = new Map<string, { count: number; stem: string }>();
  documents.forEach((doc, position) => {
    const distinct = new Set<string>();
    fields.forEach((field, f) => {
      const analysed = words(fieldText(doc.fields[field.name])).map((word) => {
        let entry = seen.get(word);
        if (entry) entry.count++;
        else seen.set(word, (entry = { count: 1, stem: stem(word) }));
        distinct.add(entry.stem);
        return entry.stem;
      });
      indexes[f]!.add(position, analysed.join(" "));
    });
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
  };
}

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
interface QueryWord {
  word: string;
  term: string;
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
  /** false: a word neither the content nor a one-letter correction knows. */
  private readonly queryWordCache = new LRUCache<string, QueryWord | false>({ max: WORD_CACHE });
  private readonly merged = new LRUCache<string, Postings>({ maxSize: POSTINGS_BUDGET, sizeCalculation: (p) => Math.max(1, p.positions.length) });

  constructor(exported: ExportedIndex) {
    this.ids = exported.ids;
    this.vocabulary = new Map(Object.entries(exported.vocabulary));
    this.frequency = new Map(Object.entries(exported.documentFrequency));
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
  }

  get size(): number {
    return this.ids.length;
  }

  search(query: string, limit: number): SearchResult {
    const queryWords = this.queryWords(query);
    const common = this.ids.length * COMMON_SHARE;
    const rare = queryWords.some(({ term }) => this.frequency.get(term)! <= common);
    // Very common terms are skipped when rarer ones are there to rank by.
    const used = queryWords.filter(({ term }) => !rare || this.frequency.get(term)! <= common);
    const postings = used.map(({ term }) => this.postings(term));

    let total = 0;
    let reached = 0;
    for (const { positions, ceiling } of postings) {
      total += ceiling;
      reached += positions.length;
    }
    const documents = this.ids.length;
    // A query that reaches a good share of the documents (long questions, common words) adds
    // into the scores without asking whether a document was reached before, a branch the CPU
    // mispredicts half of the time, and then scans every document; one that reaches few keeps
    // the list of those it reached and looks at them alone.
    const dense = reached * DENSE_SHARE >= documents;
    const { scores, matches } = this;
    const touched = dense ? null : this.touched;
    let count = 0;
    for (let u = 0; u < postings.length; u++) count = addPostings(postings[u]!, 1 << u, scores, matches, touched, count);
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
    return { terms: new Set(queryWords.map(({ term }) => term)), hits };
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
    const merged = { positions, impacts: Float64Array.from(positions, (p) => idf * this.best[p]!), ceiling: idf * this.maxWeight };
    for (const position of order) this.best[position] = 0;
    this.merged.set(term, merged);
    return merged;
  }

  /**
   * Distinct query terms in index form, each with the word as the caller wrote it (typos
   * corrected). Stemming and typo correction (hundreds of candidates) are remembered per word:
   * people and GPTs use the same words over and over.
   */
  private queryWords(query: string): QueryWord[] {
    const out: QueryWord[] = [];
    const seen = new Set<string>();
    for (const word of words(query)) {
      const known = this.queryWordCache.get(word) ?? this.resolve(word);
      if (known === false || seen.has(known.term)) continue;
      seen.add(known.term);
      out.push(known);
      if (out.length === MAX_QUERY_TERMS) break;
    }
    return out;
  }

  private resolve(word: string): QueryWord | false {
    const own = stem(word);
    const known = this.frequency.has(own) ? word : correct(word, this.vocabulary);
    const answer = known === undefined ? false : { word: known, term: known === word ? own : stem(known) };
    this.queryWordCache.set(word, answer);
    return answer;
  }
}

/**
 * Adds one term's postings into the scores and marks the term's bit in `matches`. When `touched`
 * is given (a sparse search), a document reached for the first time is also appended to it;
 * returns the new count of touched documents.
 */
function addPostings({ positions, impacts }: Postings, bit: number, scores: Float64Array, matches: Uint32Array, touched: Int32Array | null, count: number): number {
  for (let i = 0; i < positions.length; i++) {
    const position = positions[i]!;
    if (touched !== null && matches[position] === 0) touched[count++] = position;
    scores[position] = scores[position]! + impacts[i]!;
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
