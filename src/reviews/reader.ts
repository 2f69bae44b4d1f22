import { prepare } from "./formats.js";

/**
 * The reader: a logistic model over a ticket's words and word pairs, trained on the labelled dev
 * parts of test/fixtures (`frontdesk train reader`). The rubric's rules say which part is missing;
 * what they cannot see is a ticket whose parts are all there in name yet too thin to start on.
 * Read as a whole, such tickets resemble the ones that were sent back, and the reader says how
 * much (its likeness, 0 to 1). Measured on ticket sets at their first contact, it is right where
 * the rules are wrong far more often than the reverse (README, "How reviews are judged"); on
 * quotes it was not, so quotes have no reader.
 */
export interface ReaderModel {
  /** What it was trained on, so a stale model is seen (test/reader.test.ts retrains it). */
  trainedOn: { items: number; passes: number };
  bias: number;
  /** Feature → weight; features seen in fewer than MIN_ITEMS training items are left out. */
  weights: Record<string, number>;
}

export interface Example {
  text: string;
  type?: string;
  pass: boolean;
}

/**
 * Words and word pairs, lower-cased with digit runs made one token ("v2.8.0" and "v3.1.4" read
 * alike), plus the ticket's type. Each counts once; its length does not (short tickets are not
 * thin ones, and a length feature lowered complete short tickets). How a
 * ticket is pasted (quoted, forwarded, in Jira markup, as a table) must not move its verdict: the
 * text is read as the rules read it (e-mail headers and quoting gone), without marks.
 */
export function readerFeatures(text: string, type?: string): string[] {
  const words = prepare(text).toLowerCase().replace(/\d+/g, "0").match(/[\p{L}0]+/gu) ?? [];
  const features = new Set<string>([`type:${type ?? ""}`]);
  words.forEach((word, i) => {
    features.add(word);
    if (i > 0) features.add(`${words[i - 1]} ${word}`);
  });
  return [...features];
}

/** How much a text reads like the labelled passes, 0 to 1. */
export function likeness(model: ReaderModel, text: string, type?: string): number {
  const features = readerFeatures(text, type);
  const scale = 1 / Math.sqrt(features.length);
  const z = features.reduce((sum, f) => sum + (model.weights[f] ?? 0) * scale, model.bias);
  return 1 / (1 + Math.exp(-z));
}

const EPOCHS = 30;
const LEARNING_RATE = 0.5;
const L2 = 1e-4;
/** A feature of one item alone is that item's wording, not a pattern. */
const MIN_ITEMS = 2;

/**
 * Plain stochastic gradient descent on the log loss, in the examples' order: the same examples
 * give the same model, so the committed model can be checked against a fresh training.
 */
export function trainReader(examples: readonly Example[]): ReaderModel {
  const rows = examples.map((e) => ({ features: readerFeatures(e.text, e.type), y: e.pass ? 1 : 0 }));
  const seen = new Map<string, number>();
  for (const row of rows) for (const f of row.features) seen.set(f, (seen.get(f) ?? 0) + 1);
  const weights = new Map<string, number>();
  let bias = 0;
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (const { features, y } of rows) {
      const scale = 1 / Math.sqrt(features.length);
      const z = features.reduce((sum, f) => sum + (weights.get(f) ?? 0) * scale, bias);
      const gradient = 1 / (1 + Math.exp(-z)) - y;
      for (const f of features) {
        const w = weights.get(f) ?? 0;
        weights.set(f, w - LEARNING_RATE * (gradient * scale + L2 * w));
      }
      bias -= LEARNING_RATE * gradient;
    }
  }
  const kept = [...weights].filter(([f]) => seen.get(f)! >= MIN_ITEMS).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    trainedOn: { items: rows.length, passes: rows.filter((r) => r.y === 1).length },
    bias: round(bias),
    weights: Object.fromEntries(kept.map(([f, w]) => [f, round(w)])),
  };
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;
