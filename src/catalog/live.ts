import { watchFile, unwatchFile } from "node:fs";
import { join } from "node:path";
import { readCatalog } from "./load.js";
import { ServedCatalog } from "./served.js";
import { MANIFEST_FILE } from "./types.js";

/**
 * The catalog currently served, swapped whole when a new build lands. The build publishes by
 * renaming a symlink, so polling the manifest through that path sees each new version; a version
 * that fails its checks is logged and the previous one keeps serving.
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

  get current(): ServedCatalog {
    return this.served;
  }

  /** Load the catalog folder again; keep the current catalog if the new one is broken. */
  reload(log: CatalogLogger): Promise<void> {
    this.reloading = this.reloading.then(async () => {
      try {
        const loaded = await readCatalog(this.dir);
        if (loaded.manifest.contentHash === this.served.manifest.contentHash) return;
        this.served = new ServedCatalog(loaded, this.baseUrl);
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
