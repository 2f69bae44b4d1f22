import { watchFile, unwatchFile } from "node:fs";
import { join } from "node:path";
import { readCatalog } from "./load.js";
import { ServedCatalog } from "./served.js";
import { MANIFEST_FILE } from "./types.js";

/**
 * The catalog currently served, swapped whole when a new build lands. The build publishes by
 * renaming a symlink, so polling the manifest through that path sees each new version; a version
 * that fails its checks is logged and the previous one keeps serving. The first version is served
 * as soon as its files check out; `warm` prepares its searches in the background.
 */
export interface CatalogLogger {
  info(message: string): void;
  error(message: string): void;
}

export class LiveCatalog {
  private served: ServedCatalog;
  private watching = false;
  private reloading: Promise<void> = Promise.resolve();

  private constructor(
    private readonly dir: string,
    private readonly baseUrl: string,
    first: ServedCatalog,
  ) {
    this.served = first;
  }

  static async open(dir: string, baseUrl: string): Promise<LiveCatalog> {
    return new LiveCatalog(dir, baseUrl, new ServedCatalog(await readCatalog(dir), baseUrl));
  }

  /** Parses and indexes what the first catalog left for first use; a broken file is logged. */
  warm(log: CatalogLogger): Promise<void> {
    const served = this.served;
    return served.warm().catch((error: Error) => log.error(`catalog ${served.manifest.contentHash.slice(0, 12)} is broken: ${error.message}`));
  }

  get current(): ServedCatalog {
    return this.served;
  }

  /** Load the catalog folder again; keep the current catalog if the new one is broken. */
  reload(log: CatalogLogger): Promise<void> {
    this.reloading = this.reloading.then(async () => {
      try {
        const loaded = await readCatalog(this.dir);
        if (loaded.manifest.contentHash === this.served.manifest.contentHash) return;
        const next = new ServedCatalog(loaded, this.baseUrl);
        await next.warm(); // whole and ready before the first request sees it
        this.served = next;
        log.info(`catalog ${loaded.manifest.contentHash.slice(0, 12)} is now served`);
      } catch (error) {
        log.error(`new catalog rejected, still serving ${this.served.manifest.contentHash.slice(0, 12)}: ${(error as Error).message}`);
      }
    });
    return this.reloading;
  }

  watch(intervalMs: number, log: CatalogLogger): void {
    if (this.watching || intervalMs === 0) return;
    this.watching = true;
    watchFile(join(this.dir, MANIFEST_FILE), { interval: intervalMs, persistent: false }, () => void this.reload(log));
  }

  close(): void {
    if (this.watching) unwatchFile(join(this.dir, MANIFEST_FILE));
    this.watching = false;
  }
}
