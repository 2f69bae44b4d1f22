import type { KeyObject } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { extract } from "tar";
import { publishCatalog } from "./publish.js";
import { parsePointer, POINTER_FILE, sha256, signatureHolds, type Pointer } from "./bundle.js";
import type { CatalogLogger, LiveCatalog } from "./live.js";

/**
 * FRONTDESK_CATALOG_URL: the instance follows the pointer a `frontdesk publish` folder holds. Each
 * round asks for the pointer (If-None-Match, so an unchanged one costs a 304); a new one names a
 * bundle, which is downloaded, checked against its sha256 (and its signature when a public key is
 * set), unpacked beside the catalog folder, checked as a new local build is, published into the
 * catalog folder (so a restart serves it) and swapped in whole. Whatever goes wrong keeps the
 * current catalog serving, logs one line and is named by /readyz; with no catalog yet, the rounds
 * come faster (backoff from one second up to the poll interval).
 */
export interface FollowOptions {
  url: string;
  catalogDir: string;
  pollMs: number;
  publicKey?: KeyObject;
  live: LiveCatalog;
  log: CatalogLogger;
  /** fetch, for tests. */
  fetch?: typeof fetch;
}

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 60_000;
const REQUEST_TIMEOUT_MS = 30_000;

export function followCatalog(options: FollowOptions): { stop(): void; round(): Promise<void> } {
  const base = options.url.replace(/\/+$/, "");
  const get = options.fetch ?? fetch;
  let etag: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let retry = FIRST_RETRY_MS;

  const fetchOk = async (path: string, headers: Record<string, string> = {}): Promise<Response> => {
    const response = await get(`${base}/${path}`, { headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }).catch((error: Error) => {
      throw new Error(`${base}/${path} cannot be reached (${(error.cause as Error | undefined)?.message ?? error.message})`);
    });
    if (response.status !== 200 && response.status !== 304) throw new Error(`${base}/${path} answered ${response.status}`);
    return response;
  };

  async function round(): Promise<void> {
    try {
      const answer = await fetchOk(POINTER_FILE, etag ? { "if-none-match": etag } : {});
      if (answer.status === 304) return;
      const pointer = parsePointer(await answer.text());
      if (pointer.hash !== options.live.available?.manifest.contentHash) await take(pointer);
      etag = answer.headers.get("etag") ?? undefined;
      options.live.lastError = undefined;
    } catch (error) {
      const message = (error as Error).message;
      options.live.lastError = message;
      const served = options.live.available;
      options.log.error(`catalog from ${base} not taken, ${served ? `still serving ${served.manifest.contentHash.slice(0, 12)}` : "none served yet"}: ${message}`);
    }
  }

  async function take(pointer: Pointer): Promise<void> {
    const bundle = Buffer.from(await (await fetchOk(pointer.bundle)).arrayBuffer());
    if (sha256(bundle) !== pointer.sha256) throw new Error(`${pointer.bundle} does not match the sha256 in ${POINTER_FILE} (a changed or half-uploaded bundle)`);
    if (options.publicKey) {
      if (!pointer.signature) throw new Error(`${pointer.bundle} is not signed, and FRONTDESK_CATALOG_PUBLIC_KEY asks for a signature`);
      const signature = await (await fetchOk(pointer.signature)).text();
      if (!signatureHolds(bundle, signature, options.publicKey)) throw new Error(`the signature of ${pointer.bundle} does not hold for FRONTDESK_CATALOG_PUBLIC_KEY`);
    }
    // Beside the catalog folder, on the same disk, which may not exist yet on a first start.
    await mkdir(dirname(options.catalogDir), { recursive: true });
    const incoming = await mkdtemp(join(dirname(options.catalogDir), ".incoming-"));
    try {
      await pipeline(Readable.from(bundle), extract({ cwd: incoming, strict: true })).catch((error: Error) => {
        throw new Error(`${pointer.bundle} is not a readable bundle (${error.message})`);
      });
      const next = await options.live.prepare(incoming);
      if (next.manifest.contentHash !== pointer.hash) throw new Error(`${pointer.bundle} holds catalog ${next.manifest.contentHash.slice(0, 12)}, not ${pointer.hash.slice(0, 12)} as ${POINTER_FILE} says`);
      const files = Object.fromEntries(await Promise.all((await readdir(incoming)).map(async (name) => [name, await readFile(join(incoming, name), "utf8")] as const)));
      await publishCatalog(options.catalogDir, files, pointer.hash);
      options.live.adopt(next, options.log);
    } finally {
      await rm(incoming, { recursive: true, force: true });
    }
  }

  // Polling off (FRONTDESK_CATALOG_POLL_MS=0): rounds only until a catalog is served.
  const ceiling = options.pollMs || MAX_RETRY_MS;
  const schedule = () => {
    if (stopped || (options.pollMs === 0 && options.live.available)) return;
    const wait = options.live.available ? options.pollMs : Math.min(retry, ceiling);
    retry = options.live.available ? FIRST_RETRY_MS : Math.min(retry * 2, ceiling);
    timer = setTimeout(() => void round().then(schedule), wait);
    timer.unref();
  };
  void round().then(schedule);
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
    round,
  };
}
