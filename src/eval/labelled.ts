import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import YAML from "yaml";

/**
 * Labelled evaluation sets: YAML lists of items, each labelled by a stated rule before any
 * reviewer saw it, and split into a dev part (tuned on) and a test part (never tuned on).
 */
export type Split = "dev" | "test";
export type SplitChoice = Split | "all";

export interface LabelledItem {
  /** The file the item came from (its set). */
  set: string;
  id: string;
  split: Split;
  format: string;
  expected: "pass" | "fail";
  type?: string;
  adversarial?: string;
  why?: string;
  text: string;
}

const SPLITS = ["dev", "test"];
const EXPECTED = ["pass", "fail"];

/** Every `<prefix>*.yaml` of a folder, checked item by item; a bad item names its file, id and field. */
export async function loadLabelled(dir: string, prefix: string): Promise<LabelledItem[]> {
  const files = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") throw new Error(`${dir} is not a folder: give --fixtures the folder that holds the ${prefix}*.yaml sets`);
    throw error;
  });
  const names = files.filter((n) => n.startsWith(prefix) && /\.ya?ml$/.test(n)).sort();
  const items: LabelledItem[] = [];
  for (const name of names) {
    const parsed: unknown = YAML.parse(await readFile(join(dir, name), "utf8"));
    if (!Array.isArray(parsed)) throw new Error(`${name}: expected a list of labelled items`);
    parsed.forEach((raw: unknown, i) => items.push(checkItem(name, i, raw)));
  }
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.id)) throw new Error(`${item.set}: id "${item.id}" is used twice in the ${prefix} sets`);
    seen.add(item.id);
  }
  return items;
}

function checkItem(set: string, index: number, raw: unknown): LabelledItem {
  const item = (raw ?? {}) as Record<string, unknown>;
  const where = `${set}: item ${index + 1}${typeof item.id === "string" ? ` (${item.id})` : ""}`;
  const text = (field: string, optional = false): string | undefined => {
    const value = item[field];
    if (value === undefined && optional) return undefined;
    if (typeof value !== "string" || value.trim() === "") throw new Error(`${where}: "${field}" must be a non-empty string`);
    return value;
  };
  const oneOf = (field: string, allowed: string[]): string => {
    const value = text(field)!;
    if (!allowed.includes(value)) throw new Error(`${where}: "${field}" must be one of ${allowed.join(", ")} (got "${value}")`);
    return value;
  };
  const type = text("type", true);
  const adversarial = text("adversarial", true);
  const why = text("why", true);
  return {
    set,
    id: text("id")!,
    split: oneOf("split", SPLITS) as Split,
    format: text("format")!,
    expected: oneOf("expected", EXPECTED) as "pass" | "fail",
    ...(type ? { type } : {}),
    ...(adversarial ? { adversarial } : {}),
    ...(why ? { why } : {}),
    text: text("text")!,
  };
}

export function inSplit<T extends { split: Split }>(items: readonly T[], split: SplitChoice): T[] {
  return split === "all" ? [...items] : items.filter((i) => i.split === split);
}
