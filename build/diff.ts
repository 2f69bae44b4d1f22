import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { structuredPatch } from "diff";
import { buildCatalog } from "./pipeline.js";
import { readCatalog } from "../src/catalog/load.js";
import type { CatalogData } from "../src/catalog/types.js";

/**
 * What changed between two catalogs, for every kind an editor writes (services, FAQ, the GPT's
 * system prompt, company.yaml, the review rubrics), per field ("pricing.from: 16500 → 17500"),
 * as Markdown for a pull-request comment or as JSON for tools. A long text that changed comes
 * with the lines that changed, so a reviewer sees a rewritten system prompt, not only that it was.
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

/** Each kind, where its items are in a catalog, and the heading a reviewer reads. */
const KINDS = {
  services: { heading: "Services", items: (d: CatalogData) => d.services },
  products: { heading: "Products", items: (d: CatalogData) => d.products },
  techniques: { heading: "Techniques", items: (d: CatalogData) => d.techniques },
  faq: { heading: "FAQ", items: (d: CatalogData) => d.faq },
  tools: { heading: "Tools", items: (d: CatalogData) => d.tools },
  advisor: { heading: "GPT advisor (gpt/advisor.md)", items: (d: CatalogData) => [{ ...d.advisor, id: "advisor" }] },
  company: { heading: "Company (company.yaml)", items: (d: CatalogData) => [{ ...d.company, id: "company" }] },
  concepts: {
    heading: "Concepts (concepts.yaml)",
    // As the editor wrote them: the catalog keeps them in index form, inside the search indexes.
    items: (d: CatalogData) => (d.recommendIndex.concepts ?? []).map((c) => ({ id: c.id, when: c.when.map((w) => w.phrase), means: c.means.map((m) => m.word).join(" ") })),
  },
  rubrics: {
    heading: "Review rubrics (rubrics/)",
    items: (d: CatalogData) => [{ ...d.rubrics.ticket, id: "ticket" }, { ...d.rubrics.quote, id: "quote" }],
  },
} satisfies Record<string, { heading: string; items: (d: CatalogData) => object[] }>;

export type CatalogDiff = Record<keyof typeof KINDS, KindDiff>;

/** Longer texts are shown as the lines that changed, not quoted whole. */
const LONG_TEXT = 120;

const titleOf = (item: Item) => String(item.title ?? item.question ?? item.name ?? item.id);

/**
 * Leaf values by path. A list of items with ids is keyed by id ("criteria[steps].weight"), so a
 * changed weight names its criterion; other lists of objects by position; lists of plain values
 * (tags) are one value.
 */
function flatten(value: unknown, prefix: string, out: Map<string, unknown>): Map<string, unknown> {
  const join = (key: string) => (prefix ? `${prefix}.${key}` : key);
  if (Array.isArray(value) && value.some((v) => v !== null && typeof v === "object")) {
    value.forEach((inner: unknown, i) => {
      const id = (inner as { id?: unknown } | null)?.id;
      flatten(inner, `${prefix}[${typeof id === "string" ? id : i}]`, out);
    });
  } else if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [key, inner] of Object.entries(value)) flatten(inner, join(key), out);
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
  const kinds = Object.entries(KINDS) as [keyof typeof KINDS, (typeof KINDS)[keyof typeof KINDS]][];
  return Object.fromEntries(kinds.map(([kind, { items }]) => [kind, diffItems(items(a.data) as Item[], items(b.data) as Item[])])) as CatalogDiff;
}

export class DiffError extends Error {}

/** The content folder as it is at a git ref (a branch, tag or commit), extracted into `into`. */
function contentAtRef(ref: string, contentDir: string, into: string): string {
  const top = execFileSync("git", ["rev-parse", "--show-toplevel"], { encoding: "utf8" }).trim();
  const path = relative(top, resolve(contentDir)) || ".";
  let archive: Buffer;
  try {
    archive = execFileSync("git", ["-C", top, "archive", "--format=tar", ref, path], { maxBuffer: 512 * 1024 * 1024, stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    throw new DiffError(`${path} does not exist at ${ref}: there is no content to compare with`);
  }
  execFileSync("tar", ["-x", "-C", into], { input: archive });
  return join(into, path);
}

/** The content at a git ref against the content folder now; temporary folders are removed. */
export async function diffAgainstRef(ref: string, content: string): Promise<CatalogDiff> {
  try {
    execFileSync("git", ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { stdio: "ignore" });
  } catch {
    throw new DiffError(`git ref "${ref}" does not exist here: give a branch, tag or commit ("git branch -a" lists the branches; fetch it first if it is only on the remote)`);
  }
  const work = await mkdtemp(join(tmpdir(), "frontdesk-diff-"));
  try {
    await mkdir(join(work, "ref"));
    const built = await Promise.all([
      buildCatalog({ content: contentAtRef(ref, content, join(work, "ref")), catalog: join(work, "before") }),
      buildCatalog({ content, catalog: join(work, "after") }),
    ]);
    const broken = built.findIndex((b) => !b.published);
    if (broken >= 0) throw new DiffError(`the content ${broken === 0 ? `at ${ref}` : "in the working tree"} does not build: run "frontdesk validate"`);
    return await diffCatalogFolders(join(work, "before"), join(work, "after"));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function show(value: unknown): string {
  if (value === undefined) return "(none)";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return `\`${text}\``;
}

const isLong = (value: unknown) => typeof value === "string" && (value.length > LONG_TEXT || value.includes("\n"));

/** The changed lines of a long text, with a line of context, as a diff block. */
function textDiff(before: unknown, after: unknown): string[] {
  const text = (v: unknown) => (typeof v === "string" ? `${v}\n` : v === undefined ? "" : `${JSON.stringify(v)}\n`);
  const { hunks } = structuredPatch("before", "after", text(before), text(after), "", "", { context: 1 });
  const lines = hunks.flatMap((h) => [`@@ line ${h.newStart} @@`, ...h.lines]);
  return ["    ```diff", ...lines.map((l) => `    ${l}`), "    ```"];
}

export function diffMarkdown(diff: CatalogDiff): string {
  const lines: string[] = ["## Catalog changes", ""];
  let any = false;
  for (const [kind, { heading }] of Object.entries(KINDS)) {
    const d = diff[kind as keyof typeof KINDS];
    if (d.added.length + d.removed.length + d.changed.length === 0) continue;
    any = true;
    lines.push(`### ${heading}`, "");
    for (const i of d.added) lines.push(`- Added \`${i.id}\`: ${i.title}`);
    for (const i of d.removed) lines.push(`- Removed \`${i.id}\`: ${i.title}`);
    for (const c of d.changed) {
      lines.push(`- Changed \`${c.id}\` (${c.title}):`);
      for (const f of c.fields) {
        if (isLong(f.before) || isLong(f.after)) lines.push(`  - ${f.field} rewritten:`, "", ...textDiff(f.before, f.after), "");
        else lines.push(`  - ${f.field}: ${show(f.before)} → ${show(f.after)}`);
      }
    }
    lines.push("");
  }
  if (!any) lines.push("No changes to services, products, techniques, FAQ, tools, the GPT advisor, company.yaml, the concepts or the rubrics.", "");
  return lines.join("\n");
}
