import { readFileSync, statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join, posix, resolve } from "node:path";
import matter from "gray-matter";
import { isMap, isScalar, LineCounter, parseDocument, Parser, type Document, type Node } from "yaml";
import type { Diagnostic } from "./diagnostics.js";
import type { SchemaName } from "./schemas.js";
import type { PathSegment } from "../src/validation/explain.js";

/**
 * Reads the content tree into parsed source files that remember where every value came from, so
 * later stages can point an editor at `file:line:column` of any field.
 */

export interface SourceFile {
  kind: SchemaName;
  /** The item's id: its file name without extension. */
  id: string;
  /** The path reported to editors (content folder + relative path, forward slashes). */
  file: string;
  data: unknown;
  /** Markdown body (front-matter files only), as the editor wrote it. */
  body: string;
  bodyLine: number;
  /** Line and column of a field's value, or of its key (for unknown keys); falls back to the nearest parent. */
  locate(path: readonly PathSegment[], at?: "value" | "key"): { line: number; column: number };
}

interface Layout {
  kind: SchemaName;
  /** Folder (collection) or exact file (singleton), relative to the content root. */
  folder?: string;
  file?: string;
}

export const LAYOUT: readonly Layout[] = [
  { kind: "company", file: "company.yaml" },
  { kind: "service", folder: "services" },
  { kind: "technique", folder: "techniques" },
  { kind: "product", folder: "products" },
  { kind: "faq", folder: "faq" },
  { kind: "tool", folder: "tools" },
  { kind: "advisor", file: "gpt/advisor.md" },
  { kind: "ticketRubric", file: "rubrics/ticket.yaml" },
  { kind: "quoteRubric", file: "rubrics/quote.yaml" },
  { kind: "concepts", file: "concepts.yaml" },
];

export const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export interface LoadResult {
  files: SourceFile[];
  diagnostics: Diagnostic[];
  /** Every item with a valid id, parsed or not, so references to a broken file are not reported twice. */
  ids: { kind: SchemaName; id: string }[];
}

async function listFiles(root: string, dir = ""): Promise<string[]> {
  const entries = await readdir(join(root, dir), { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    const rel = dir ? posix.join(dir, entry.name) : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(root, rel)));
    else out.push(rel);
  }
  return out.sort();
}

function kindOf(rel: string): SchemaName | undefined {
  for (const layout of LAYOUT) {
    if (layout.file === rel) return layout.kind;
    if (layout.folder && posix.dirname(rel) === layout.folder && rel.endsWith(".md")) return layout.kind;
  }
  return undefined;
}

function expectedPlaces(): string {
  return LAYOUT.map((l) => l.file ?? `${l.folder}/<slug>.md`).join(", ");
}

/**
 * Parsed files by path. `frontdesk dev` keeps one between rebuilds, so one edit re-reads one
 * file: a file is reused while it keeps its size, modification time and inode, and a path the
 * watcher reports is forgotten first, so even an edit within the clock's resolution is seen.
 */
export class SourceCache {
  private readonly entries = new Map<string, { stamp: string; file?: SourceFile; diagnostics: Diagnostic[] }>();
  private readonly checks = new WeakMap<SourceFile, Diagnostic[]>();
  private readonly derived = new Map<string, { inputs: readonly SourceFile[]; key?: string; value: unknown }>();
  /** How often each derived result was made (not reused): what a test of the reuse looks at. */
  readonly made = new Map<string, number>();

  forget(path: string): void {
    this.entries.delete(resolve(path));
  }

  /**
   * The file at `path`, read by `read` unless it is unchanged since the last call; undefined when
   * it was deleted after the folder was listed (a `git checkout` replaces files while `frontdesk
   * dev` builds: the build sees the tree without it, and the watcher's next event builds again).
   * A file that cannot be read for another reason is an error at the file, not a crash.
   */
  load(path: string, label: string, read: (text: string, diagnostics: Diagnostic[]) => SourceFile | undefined): { file?: SourceFile; diagnostics: Diagnostic[] } | undefined {
    const key = resolve(path);
    let stamp: string;
    let text: string;
    try {
      const stats = statSync(key);
      stamp = `${stats.size}:${stats.mtimeMs}:${stats.ino}`;
      const known = this.entries.get(key);
      if (known?.stamp === stamp) return known;
      // Synchronous on purpose: for thousands of small files it is several times faster than
      // fs/promises, and the build is a batch job with nothing else to do meanwhile.
      text = readFileSync(key, "utf8");
    } catch (error) {
      this.entries.delete(key);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return undefined;
      const reason = error instanceof Error ? error.message.replace(/,.*$/, "") : String(error);
      return { diagnostics: [{ file: label, line: 1, column: 1, severity: "error", message: `cannot read this file (${reason}): check that it is a file you can read` }] };
    }
    const diagnostics: Diagnostic[] = [];
    const file = read(text, diagnostics);
    const entry = { stamp, ...(file ? { file } : {}), diagnostics };
    this.entries.set(key, entry);
    return entry;
  }

  /** A file's own validation, run once per parse of it. */
  validate(file: SourceFile, validate: (file: SourceFile) => Diagnostic[]): Diagnostic[] {
    let found = this.checks.get(file);
    if (!found) this.checks.set(file, (found = validate(file)));
    return found;
  }

  /**
   * What `make` built from these very files last time, or a new build of it: a search index, the
   * FAQ's JSON or the FAQ's part of llms-full.txt is made again only when one of its own files
   * changed (an edited service leaves the FAQ's alone). With `contentKey`, all that `make` reads
   * of the files as one string, it is also reused when the files changed elsewhere.
   */
  async reuse<T>(name: string, inputs: readonly SourceFile[], make: () => Promise<T>, contentKey?: () => string): Promise<T> {
    const known = this.derived.get(name);
    if (known && known.inputs.length === inputs.length && known.inputs.every((file, i) => file === inputs[i])) return known.value as T;
    // Files that changed in what `make` does not look at (a service's price, for its search
    // index): the same key, all `make` reads of them, gives the same result.
    const key = contentKey?.();
    if (known && key !== undefined && known.key === key) {
      this.derived.set(name, { inputs, key, value: known.value });
      return known.value as T;
    }
    const value = await make();
    this.derived.set(name, { inputs, ...(key !== undefined ? { key } : {}), value });
    this.made.set(name, (this.made.get(name) ?? 0) + 1);
    return value;
  }

  /** Drops every file not among `paths` (deleted since the last build). */
  retain(paths: readonly string[]): void {
    const keep = new Set(paths.map((p) => resolve(p)));
    for (const key of this.entries.keys()) if (!keep.has(key)) this.entries.delete(key);
  }
}

export async function loadContent(root: string, label = root, cache = new SourceCache()): Promise<LoadResult> {
  const files: SourceFile[] = [];
  const diagnostics: Diagnostic[] = [];
  const ids: LoadResult["ids"] = [];
  const at = (rel: string) => posix.join(label.replace(/\\/g, "/").replace(/\/$/, ""), rel);

  const present = await listFiles(root);
  const vanished = new Set<string>();
  present.forEach((rel) => {
    const file = at(rel);
    const kind = kindOf(rel);
    if (!kind) {
      if (/\.(md|ya?ml)$/.test(rel)) {
        diagnostics.push({
          file, line: 1, column: 1, severity: "error",
          message: `this file is not part of any content kind; content files live at ${expectedPlaces()}`,
        });
      }
      return;
    }
    const id = posix.basename(rel).replace(/\.(md|ya?ml)$/, "");
    if (!SLUG.test(id)) {
      const suggestion = id.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
      diagnostics.push({
        file, line: 1, column: 1, severity: "error",
        message: `file name "${id}" is not a valid id: use lowercase words joined by hyphens, e.g. rename it to "${suggestion}${posix.extname(rel)}"`,
      });
      return;
    }
    const loaded = cache.load(join(root, rel), file, (text, found) => {
      const parsed = rel.endsWith(".md") ? parseFrontMatter(text, file, found) : parseYaml(text, file, found);
      return parsed && { kind, id, file, ...parsed };
    });
    if (!loaded) {
      vanished.add(rel);
      return;
    }
    ids.push({ kind, id });
    diagnostics.push(...loaded.diagnostics);
    if (loaded.file) files.push(loaded.file);
  });
  cache.retain(present.map((rel) => join(root, rel)));

  for (const layout of LAYOUT) {
    if (layout.file && (!present.includes(layout.file) || vanished.has(layout.file))) {
      diagnostics.push({
        file: at(layout.file), line: 1, column: 1, severity: "error",
        message: `required file is missing: create ${layout.file}`,
      });
    }
  }
  return { files, diagnostics, ids };
}

type Parsed = Omit<SourceFile, "kind" | "id" | "file">;

function parseYaml(text: string, file: string, diagnostics: Diagnostic[], bodyLine = 0, body = ""): Parsed | undefined {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const error = doc.errors[0];
  if (error) {
    // The parser notices an unclosed "[", "{" or quote only lines later, where the text stops
    // making sense; the editor needs the line where it opened.
    const opened = unclosedOpener(text, error.pos[0]);
    const pos = lineCounter.linePos(opened?.offset ?? error.pos[0]);
    // Later syntax errors are almost always echoes of the first one.
    const reason = error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
    diagnostics.push({ file, line: pos.line, column: pos.col, severity: "error", message: opened?.message ?? `YAML syntax error: ${reason}` });
    return undefined;
  }
  return { data: doc.toJS() ?? {}, body, bodyLine, locate: locator(doc, lineCounter) };
}

const OPENERS: Record<string, string> = {
  "[": '"[" opens a list here that is never closed: add "]" after its last item',
  "{": '"{" opens a group of fields here that is never closed: add "}" after its last field',
  '"': 'this " opens a quoted text that is never closed: add " at the end of the text',
  "'": "this ' opens a quoted text that is never closed: add ' at the end of the text",
};

/** The first list, map or quoted text that opens before `before` and is never closed. */
function unclosedOpener(text: string, before: number): { offset: number; message: string } | undefined {
  let found: { offset: number; message: string } | undefined;
  const visit = (token: unknown): void => {
    if (found || token === null || typeof token !== "object") return;
    const t = token as { type?: string; offset?: number; source?: string; start?: { source?: string }; end?: { type: string }[] };
    if (t.offset !== undefined && t.offset >= before) return;
    if (t.type === "flow-collection" && !t.end?.some((e) => e.type === "flow-seq-end" || e.type === "flow-map-end")) {
      found = { offset: t.offset!, message: OPENERS[t.start?.source ?? "["]! };
      return;
    }
    const quote = t.source?.[0];
    if ((t.type === "double-quoted-scalar" || t.type === "single-quoted-scalar") && (t.source!.length < 2 || !t.source!.endsWith(quote!))) {
      found = { offset: t.offset!, message: OPENERS[quote!]! };
      return;
    }
    for (const inner of Object.values(t)) (Array.isArray(inner) ? inner : [inner]).forEach(visit);
  };
  for (const token of new Parser().parse(text)) visit(token);
  return found;
}

function parseFrontMatter(text: string, file: string, diagnostics: Diagnostic[]): Parsed | undefined {
  const firstLine = text.split("\n", 1)[0]!;
  if (!/^---\s*$/.test(firstLine)) {
    const message = /^---/.test(firstLine)
      ? `front matter must be YAML: "${firstLine.trim()}" selects another engine (JavaScript front matter would run code at build time); start the file with a plain "---" line`
      : `front matter is missing: start the file with a "---" line, the YAML fields, and another "---" line`;
    diagnostics.push({ file, line: 1, column: 1, severity: "error", message });
    return undefined;
  }
  let front = "";
  // An options object bypasses gray-matter's shared cache; the engine only hands us the text,
  // which `yaml` parses with positions (gray-matter's own js-yaml engine is never used).
  const parsed = matter(text, {
    engines: {
      yaml: (source: string) => {
        front = source;
        return {};
      },
    },
  });
  if (text.indexOf("\n---", 3) < 0) {
    diagnostics.push({ file, line: 1, column: 1, severity: "error", message: `front matter is not closed: add a "---" line after the last field` });
    return undefined;
  }
  const bodyStart = text.length - parsed.content.length;
  const bodyLine = text.slice(0, bodyStart).split("\n").length;
  // `front` starts right after the opening "---", so its offsets map to the file's own lines.
  return parseYaml(front, file, diagnostics, bodyLine, parsed.content.replace(/^\n+/, "").trimEnd());
}

function locator(doc: Document, lineCounter: LineCounter): SourceFile["locate"] {
  const position = (node: Node | null | undefined) => {
    const offset = node?.range?.[0];
    if (offset === undefined) return undefined;
    const pos = lineCounter.linePos(offset);
    return { line: pos.line, column: pos.col };
  };
  return (path, at = "value") => {
    for (let depth = path.length; depth >= 0; depth--) {
      const prefix = path.slice(0, depth);
      if (at === "key" && depth === path.length && depth > 0) {
        const parent = prefix.length > 1 ? doc.getIn(prefix.slice(0, -1), true) : doc.contents;
        if (isMap(parent)) {
          const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === path[path.length - 1]);
          const pos = position(pair?.key as Node | undefined);
          if (pos) return pos;
        }
      }
      const node = (depth === 0 ? doc.contents : doc.getIn(prefix, true)) as Node | null | undefined;
      const pos = position(node);
      if (pos) return pos;
    }
    return { line: 1, column: 1 };
  };
}
