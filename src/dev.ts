import { watch } from "node:fs";
import { printDiagnostics, printSummary } from "../build/terminal.js";
import { buildCatalog } from "../build/pipeline.js";
import type { Config } from "./config.js";
import { serve, type Companion } from "./serve.js";

/**
 * `frontdesk dev`: build, serve, and rebuild whenever a content file changes. The new catalog is
 * swapped in at once; a build with errors prints them as path:line:column and the server keeps
 * the last good catalog.
 */
const SETTLE_MS = 50; // editors save several files at once; build once they are all written

export async function rebuild(content: string, catalogDir: string): Promise<boolean> {
  const result = await buildCatalog({ content, catalog: catalogDir });
  printDiagnostics(result.diagnostics, "text");
  const time = `${Math.round(result.milliseconds)} ms`;
  printSummary(
    result.published !== undefined,
    result.published ? `rebuilt in ${time}: ${result.files.length} files, ${result.warnings} warnings` : `build failed with ${result.errors} errors in ${time}; still serving the last good catalog`,
  );
  return result.published !== undefined;
}

export async function dev(config: Config, content: string): Promise<void> {
  const print = (line: string) => console.error(line);
  await rebuild(content, config.catalogDir);
  const watcher: Companion = ({ catalog, log }) => {
    let timer: NodeJS.Timeout | undefined;
    let running = Promise.resolve();
    const fsWatcher = watch(content, { recursive: true }, () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        running = running.then(async () => {
          if (await rebuild(content, config.catalogDir)) await catalog.reload({ info: log, error: print });
        });
      }, SETTLE_MS);
    });
    print(`watching ${content} for changes`);
    return () => {
      clearTimeout(timer);
      fsWatcher.close();
    };
  };
  await serve(config, watcher);
}
