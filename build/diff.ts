import { readCatalog } from "../src/catalog/load.js";

/**
 * What changed between two catalogs, per kind and per field ("pricing.from: 16500 → 17500"),
 * as Markdown for a pull-request comment or as JSON for tools.
 */
type Item = { id: string } & Record<string, unknown>;

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

export interface KindDiff {
  added: { id: string; title: string }[];
  removed: { id: string; title: string }[];
  changed: { id: string; title: string; fields: FieldChange[] }[];
}

export type CatalogDiff = Record<"services" | "products" | "faq" | "tools" | "techniques", KindDiff>;

const KINDS = ["services", "products", "techniques", "faq", "tools"] as const;
/** Long texts are reported as changed, not quoted. */
const LONG_TEXT = 120;

const titleOf = (item: Item) => String(item.title ?? item.question ?? item.id);

function flatten(value: unknown, prefix: string, out: Map<string, unknown>): Map<string, unknown> {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, out);
  } else {
    out.set(prefix, value);
  }
  return out;
}

function fieldChanges(before: Item, after: Item): FieldChange[] {
  const a = flatten(before, "", new Map());
  const b = flatten(after, "", new Map());
  const fields = [...new Set([...a.keys(), ...b.keys()])].sort();
  return fields
    .filter((f) => f !== "citeAs" && JSON.stringify(a.get(f)) !== JSON.stringify(b.get(f)))
    .map((field) => ({ field, before: a.get(field), after: b.get(field) }));
}

export function diffItems(before: Item[], after: Item[]): KindDiff {
  const old = new Map(before.map((i) => [i.id, i]));
  const now = new Map(after.map((i) => [i.id, i]));
  return {
    added: after.filter((i) => !old.has(i.id)).map((i) => ({ id: i.id, title: titleOf(i) })),
    removed: before.filter((i) => !now.has(i.id)).map((i) => ({ id: i.id, title: titleOf(i) })),
    changed: after
      .filter((i) => old.has(i.id))
      .map((i) => ({ id: i.id, title: titleOf(i), fields: fieldChanges(old.get(i.id)!, i) }))
      .filter((c) => c.fields.length > 0),
  };
}

export async function diffCatalogFolders(before: string, after: string): Promise<CatalogDiff> {
  const [a, b] = await Promise.all([readCatalog(before), readCatalog(after)]);
  return Object.fromEntries(KINDS.map((kind) => [kind, diffItems(a.data[kind] as unknown as Item[], b.data[kind] as unknown as Item[])])) as CatalogDiff;
}

function show(value: unknown): string {
  if (value === undefined) return "(none)";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > LONG_TEXT ? "(long text)" : `\`${text}\``;
}

export function diffMarkdown(diff: CatalogDiff): string {
  const lines: string[] = ["## Catalog changes", ""];
  let any = false;
  for (const kind of KINDS) {
    const d = diff[kind];
    if (d.added.length + d.removed.length + d.changed.length === 0) continue;
    any = true;
    lines.push(`### ${kind === "faq" ? "FAQ" : kind[0]!.toUpperCase() + kind.slice(1)}`, "");
    for (const i of d.added) lines.push(`- Added \`${i.id}\`: ${i.title}`);
    for (const i of d.removed) lines.push(`- Removed \`${i.id}\`: ${i.title}`);
    for (const c of d.changed) {
      lines.push(`- Changed \`${c.id}\` (${c.title}):`);
      for (const f of c.fields) {
        const long = [f.before, f.after].some((v) => typeof v === "string" && v.length > LONG_TEXT);
        lines.push(long ? `  - ${f.field} rewritten` : `  - ${f.field}: ${show(f.before)} → ${show(f.after)}`);
      }
    }
    lines.push("");
  }
  if (!any) lines.push("No changes to services, products, techniques, FAQ or tools.", "");
  return lines.join("\n");
}
