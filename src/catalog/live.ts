import { watchFile, unwatchFile } from "node:fs";
import { join } from "node:path";
import { ApiError } from "../api/envelope.js";
import { CatalogError, readCatalog, readManifest, type LoadedCatalog } from "./load.js";
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
  private served: ServedCatalog | undefined;
  private watching = false;
  private reloading: Promise<void> = Promise.resolve();
  /** Why the last catalog offered was not taken (a remote one that did not arrive or check out). */
  lastError: string | undefined;

  private constructor(
    private readonly dir: string,
    private readonly baseUrl: string,
    first: ServedCatalog | undefined,
  ) {
    this.served = first;
  }

  /**
   * The catalog in `dir`. With `waitForFirst` (a catalog followed from FRONTDESK_CATALOG_URL), an
   * empty folder is no error: the server answers 503 until the first catalog arrives.
   */
  static async open(dir: string, baseUrl: string, options: { waitForFirst?: boolean } = {}): Promise<LiveCatalog> {
    try {
      return new LiveCatalog(dir, baseUrl, new ServedCatalog(await readCatalog(dir), baseUrl));
    } catch (error) {
      if (options.waitForFirst && error instanceof CatalogError && (await readManifest(dir).then(() => false, () => true))) return new LiveCatalog(dir, baseUrl, undefined);
      throw error;
    }
  }

  /** A catalog folder read, checked and warmed as one that is about to be served: it throws if it is broken. */
  async prepare(dir: string): Promise<ServedCatalog> {
    return this.ready(await readCatalog(dir));
  }

  private async ready(loaded: LoadedCatalog): Promise<ServedCatalog> {
    // The catalog served lends the new one its unchanged parts (it checked them); the rest is checked anew.
    const next = new ServedCatalog(loaded, this.baseUrl, this.served);
    await next.warm(); // whole and ready before the first request sees it
    return next;
  }

  /** Serves a prepared catalog from now on. */
  adopt(next: ServedCatalog, log: CatalogLogger): void {
    this.served = next;
    this.lastError = undefined;
    log.info(`catalog ${next.manifest.contentHash.slice(0, 12)} is now served`);
  }

  /** Parses and indexes what the first catalog left for first use; a broken file is logged. */
  warm(log: CatalogLogger): Promise<void> {
    const served = this.served;
    if (!served) return Promise.resolve();
    return served.warm().catch((error: Error) => log.error(`catalog ${served.manifest.contentHash.slice(0, 12)} is broken: ${error.message}`));
  }

  /** The catalog served, if one has arrived. */
  get available(): ServedCatalog | undefined {
    return this.served;
  }

  get current(): ServedCatalog {
    if (!this.served) {
      throw new ApiError(503, "not_ready", `No catalog has arrived yet${this.lastError ? ` (${this.lastError})` : ""}: retry in a moment.`, [], { "retry-after": "5" });
    }
    return this.served;
  }

  /** Load the catalog folder again; keep the current catalog if the new one is broken. */
  reload(log: CatalogLogger): Promise<void> {
    this.reloading = this.reloading.then(async () => {
      try {
        // Every file is checked against the manifest, even when the manifest is the one served.
        const loaded = await readCatalog(this.dir);
        if (loaded.manifest.contentHash === this.served?.manifest.contentHash) return;
        this.adopt(await this.ready(loaded), log);
      } catch (error) {
        log.error(`new catalog rejected, ${this.served ? `still serving ${this.served.manifest.contentHash.slice(0, 12)}` : "none served yet"}: ${(error as Error).message}`);
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
