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
  /** Every indexed term, so a known word form ("migrating") is never "corrected". */
  terms: string[];
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

function analyse(text: string): string {
  return words(text).map(stem).join(" ");
}

export async function buildIndex(fields: FieldSpec[], documents: SearchDocument[]): Promise<ExportedIndex> {
  const vocabulary = new Map<string, number>();
  const parts: ExportedIndex["parts"] = {};
  for (const field of fields) {
    const index = new FlexSearch.Index(INDEX_OPTIONS);
    documents.forEach((doc, position) => {
      const text = fieldText(doc.fields[field.name]);
      for (const word of words(text)) vocabulary.set(word, (vocabulary.get(word) ?? 0) + 1);
      index.add(position, analyse(text));
    });
    const exported: Record<string, string> = {};
    await index.export((key: string, data: string) => {
      exported[key] = data;
    });
    parts[field.name] = exported;
  }
  const sortedVocabulary = Object.fromEntries([...vocabulary].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const indexedTerms = [...new Set(Object.keys(sortedVocabulary).map(stem))].sort();
  return { fields, ids: documents.map((d) => d.id), vocabulary: sortedVocabulary, terms: indexedTerms, parts };
}

export class SearchEngine {
  private readonly indexes: { weight: number; index: Index }[];
  private readonly vocabulary: Map<string, number>;
  private readonly terms: Set<string>;
  private readonly ids: string[];
  private readonly maxWeight: number;

  constructor(exported: ExportedIndex) {
    this.ids = exported.ids;
    this.vocabulary = new Map(Object.entries(exported.vocabulary));
    this.terms = new Set(exported.terms);
    this.maxWeight = Math.max(...exported.fields.map((f) => f.weight));
    this.indexes = exported.fields.map((field) => {
      const index = new FlexSearch.Index(INDEX_OPTIONS);
      for (const [key, data] of Object.entries(exported.parts[field.name] ?? {})) index.import(key, data);
      return { weight: field.weight, index };
    });
  }

  get size(): number {
    return this.ids.length;
  }

  search(query: string, limit: number): SearchHit[] {
    const scores = new Map<number, number>();
    const matched = new Map<number, string[]>();
    let total = 0;
    const seen = new Set<string>();
    for (const word of words(query)) {
      const known = this.terms.has(stem(word)) ? word : correct(word, this.vocabulary);
      if (known === undefined) continue;
      const term = stem(known);
      if (seen.has(term)) continue;
      seen.add(term);
      const best = new Map<number, number>();
      for (const { weight, index } of this.indexes) {
        for (const position of index.search(term, { limit: POSTING_LIMIT }) as number[]) {
          if ((best.get(position) ?? 0) < weight) best.set(position, weight);
        }
      }
      if (best.size === 0) continue;
      const idf = Math.log(1 + (this.ids.length - best.size + 0.5) / (best.size + 0.5));
      total += idf * this.maxWeight;
      for (const [position, weight] of best) {
        scores.set(position, (scores.get(position) ?? 0) + idf * weight);
        const list = matched.get(position);
        if (list) list.push(known);
        else matched.set(position, [known]);
      }
    }
    if (total === 0) return [];
    return [...scores]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, limit)
      .map(([position, score]) => ({
        id: this.ids[position]!,
        score: Math.round((score / total) * 1000) / 1000,
        matched: matched.get(position) ?? [],
      }));
  }
}
