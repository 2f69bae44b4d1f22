import { performance } from "node:perf_hooks";
import { compileCatalog } from "./compile.js";
import { crossCheck } from "./crosscheck.js";
import { sortDiagnostics, type Diagnostic } from "./diagnostics.js";
import { publishCatalog } from "../src/catalog/publish.js";
import { loadContent, SourceCache, type SourceFile } from "./source.js";
import { validateFile } from "./validate.js";
import { MANIFEST_FILE, type Manifest } from "../src/catalog/types.js";

/** The stages in order: load → validate → cross-check → (compile → publish). */
export interface CheckResult {
  files: SourceFile[];
  diagnostics: Diagnostic[];
  errors: number;
  warnings: number;
}

export interface BuildResult extends CheckResult {
  manifest?: Manifest;
  /** Folder the catalog was published to (only when there were no errors). */
  published?: string;
  milliseconds: number;
}

export async function checkContent(contentDir: string, label = contentDir, cache = new SourceCache()): Promise<CheckResult> {
  const loaded = await loadContent(contentDir, label, cache);
  const diagnostics = [...loaded.diagnostics];
  const valid: SourceFile[] = [];
  for (const file of loaded.files) {
    const found = cache.validate(file, validateFile);
    diagnostics.push(...found);
    if (found.length === 0) valid.push(file);
  }
  // Cross-checks look at valid files only, so one mistake is not reported twice.
  diagnostics.push(...crossCheck(valid, label.replace(/\/$/, ""), loaded.ids));
  const sorted = sortDiagnostics(diagnostics);
  return {
    files: loaded.files,
    diagnostics: sorted,
    errors: sorted.filter((d) => d.severity === "error").length,
    warnings: sorted.filter((d) => d.severity === "warning").length,
  };
}

export async function buildCatalog(options: { content: string; catalog: string; label?: string; cache?: SourceCache }): Promise<BuildResult> {
  const started = performance.now();
  const check = await checkContent(options.content, options.label ?? options.content, options.cache);
  if (check.errors > 0) return { ...check, milliseconds: performance.now() - started };
  const output = await compileCatalog(check.files, options.cache);
  const manifest = JSON.parse(output[MANIFEST_FILE]!) as Manifest;
  const published = await publishCatalog(options.catalog, output, manifest.contentHash, manifest.files);
  return { ...check, manifest, published, milliseconds: performance.now() - started };
}
