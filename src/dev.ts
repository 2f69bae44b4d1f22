import { relative, sep } from "node:path";
import { watch } from "chokidar";
import { printDiagnostics, printSummary } from "../build/terminal.js";
import { buildCatalog } from "../build/pipeline.js";
import { SourceCache } from "../build/source.js";
import type { Config } from "./config.js";
import { serve, type Companion } from "./serve.js";

/**
 * `frontdesk dev`: build, serve, and rebuild whenever a content file changes. The new catalog is
 * swapped in at once; a build with errors prints them as path:line:column and the server keeps
 * the last good catalog.
 *
 * chokidar watches each folder on its own and re-arms a watch when a file is replaced by a
 * rename, which is how `sed -i`, vim, JetBrains' safe write and `git checkout` save; Node's
 * recursive fs.watch on Linux loses such a file for good. A rebuild re-reads only the files that
 * changed (SourceCache).
 */
const SETTLE_MS = 50; // editors save several files at once; build once they are all written

export async function rebuild(content: string, catalogDir: string, cache?: SourceCache): Promise<boolean> {
  const result = await buildCatalog({ content, catalog: catalogDir, ...(cache ? { cache } : {}) });
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
  const cache = new SourceCache();
  await rebuild(content, config.catalogDir, cache);
  const watcher: Companion = ({ catalog, log }) => {
    let timer: NodeJS.Timeout | undefined;
    let running = Promise.resolve();
    // Hidden files (.git, editors' swap files) are not content (loadContent skips them too).
    const hidden = (path: string) => relative(content, path).split(sep).some((part) => part.startsWith("."));
    const fsWatcher = watch(content, { ignoreInitial: true, ignored: hidden });
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        // A build that throws (not one with errors in the content, which rebuild reports) must
        // not end the server or the chain of later builds: it is printed, the last good catalog stays.
        running = running
          .then(async () => {
            if (await rebuild(content, config.catalogDir, cache)) await catalog.reload({ info: log, error: print });
          })
          .catch((error: unknown) => print(`rebuild failed, still serving the last good catalog: ${error instanceof Error ? error.message : String(error)}`));
      }, SETTLE_MS);
    };
    fsWatcher.on("all", (_event, path) => {
      cache.forget(path);
      schedule();
    });
    fsWatcher.on("error", (error) => print(`watching ${content} failed: ${error instanceof Error ? error.message : String(error)}`));
    // The first scan of a large tree takes seconds, and a save made meanwhile may not be reported:
    // one more build once it is done picks it up (unchanged files are not read again).
    fsWatcher.on("ready", () => {
      print(`watching ${content} for changes`);
      schedule();
    });
    return () => {
      clearTimeout(timer);
      void fsWatcher.close();
    };
  };
  await serve(config, watcher);
}
