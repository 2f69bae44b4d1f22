import FlexSearch, { type Index } from "flexsearch";
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

/** Query terms beyond this many add nothing a person meant; the cap keeps the match mask in 32 bits. */
const MAX_QUERY_TERMS = 32;
/** A term found in more than this share of documents says little about any of them. */
const COMMON_SHARE = 0.5;
/** Merged postings kept, oldest dropped first: at most this many entries (8 bytes each, 16 MB). */
const POSTINGS_BUDGET = 2_000_000;
/** Remembered typo corrections, oldest dropped first. */
const CORRECTION_CACHE = 10_000;

export class SearchEngine {
  private readonly indexes: { weight: number; index: Index }[];
  private readonly vocabulary: Map<string, number>;
  private readonly frequency: Map<string, number>;
  private readonly ids: string[];
  private readonly maxWeight: number;
  // Scratch space reused by every search (searches are synchronous, so never shared).
  private readonly scores: Float64Array;
  private readonly best: Float64Array;
  private readonly masks: Uint32Array;
  /** The documents a search has given a score, in the order it reached them. */
  private readonly touched: Int32Array;
  private readonly corrections = new Map<string, string | undefined>();
  private readonly merged = new Map<string, { positions: Int32Array; weights: Float32Array }>();
  private mergedEntries = 0;

  constructor(exported: ExportedIndex) {
    this.ids = exported.ids;
    this.vocabulary = new Map(Object.entries(exported.vocabulary));
    this.frequency = new Map(Object.entries(exported.documentFrequency));
    this.maxWeight = Math.max(...exported.fields.map((f) => f.weight));
    this.indexes = exported.fields.map((field) => {
      const index = new FlexSearch.Index(INDEX_OPTIONS);
      for (const [key, data] of Object.entries(exported.parts[field.name] ?? {})) index.import(key, data);
      return { weight: field.weight, index };
    });
    this.scores = new Float64Array(this.ids.length);
    this.best = new Float64Array(this.ids.length);
    this.masks = new Uint32Array(this.ids.length);
    this.touched = new Int32Array(this.ids.length);
  }

  get size(): number {
    return this.ids.length;
  }

  search(query: string, limit: number): SearchHit[] {
    const queryWords = this.queryWords(query);
    const common = this.ids.length * COMMON_SHARE;
    const rare = queryWords.filter(({ term }) => this.frequency.get(term)! <= common).length;
    // Plain loops over local typed arrays: this is where a search spends its time.
    const { scores, masks, touched } = this;
    let count = 0;
    const used: string[] = [];
    let total = 0;
    for (const { word, term } of queryWords) {
      const documents = this.frequency.get(term)!;
      // Very common terms are skipped when rarer ones are there to rank by.
      if (rare > 0 && documents > common) continue;
      const { positions, weights } = this.postings(term);
      const bit = 1 << used.length;
      used.push(word);
      const idf = Math.log(1 + (this.ids.length - documents + 0.5) / (documents + 0.5));
      total += idf * this.maxWeight;
      for (let i = 0; i < positions.length; i++) {
        const position = positions[i]!;
        const mask = masks[position]!;
        if (mask === 0) touched[count++] = position; // each bit is set once: a document enters once
        masks[position] = mask | bit;
        scores[position] = scores[position]! + idf * weights[i]!;
      }
    }

    const top: number[] = [];
    for (let t = 0; t < count; t++) {
      const position = touched[t]!;
      const score = scores[position]!;
      if (top.length === limit && score <= scores[top[top.length - 1]!]!) continue;
      let at = top.length;
      while (at > 0 && (scores[top[at - 1]!]! < score || (scores[top[at - 1]!]! === score && top[at - 1]! > position))) at--;
      top.splice(at, 0, position);
      if (top.length > limit) top.pop();
    }
    const hits = top.map((position) => ({
      id: this.ids[position]!,
      score: Math.round((scores[position]! / total) * 1000) / 1000,
      matched: used.filter((_, bit) => (masks[position]! & (1 << bit)) !== 0),
    }));
    for (let t = 0; t < count; t++) {
      scores[touched[t]!] = 0;
      masks[touched[t]!] = 0;
    }
    return hits;
  }

  /**
   * The documents holding a term, each once with the weight of the best field it is in. Merged
   * from the per-field indexes on first use and kept (within a memory budget), since the same
   * words come back in query after query.
   */
  private postings(term: string): { positions: Int32Array; weights: Float32Array } {
    const cached = this.merged.get(term);
    if (cached) return cached;
    const order: number[] = [];
    for (const { weight, index } of this.indexes) {
      for (const position of index.search(term, { limit: POSTING_LIMIT }) as number[]) {
        if (this.best[position] === 0) order.push(position);
        if (this.best[position]! < weight) this.best[position] = weight;
      }
    }
    const merged = { positions: Int32Array.from(order), weights: Float32Array.from(order, (p) => this.best[p]!) };
    for (const position of order) this.best[position] = 0;
    this.merged.set(term, merged);
    this.mergedEntries += order.length;
    for (const [oldest, { positions }] of this.merged) {
      if (this.mergedEntries <= POSTINGS_BUDGET) break;
      this.merged.delete(oldest);
      this.mergedEntries -= positions.length;
    }
    return merged;
  }

  /** Typo correction tries hundreds of candidates; people repeat the same words, so answers are kept. */
  private corrected(word: string): string | undefined {
    if (this.corrections.has(word)) return this.corrections.get(word);
    const answer = correct(word, this.vocabulary);
    if (this.corrections.size >= CORRECTION_CACHE) this.corrections.delete(this.corrections.keys().next().value!);
    this.corrections.set(word, answer);
    return answer;
  }

  /** Distinct query terms in index form, each with the word as the caller wrote it (typos corrected). */
  private queryWords(query: string): { word: string; term: string }[] {
    const out: { word: string; term: string }[] = [];
    const seen = new Set<string>();
    for (const word of words(query)) {
      const own = stem(word);
      const known = this.frequency.has(own) ? word : this.corrected(word);
      if (known === undefined) continue;
      const term = known === word ? own : stem(known);
      if (seen.has(term)) continue;
      seen.add(term);
      out.push({ word: known, term });
      if (out.length === MAX_QUERY_TERMS) break;
    }
    return out;
  }
}
