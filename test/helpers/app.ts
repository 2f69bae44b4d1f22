import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { buildCatalog } from "../../build/pipeline.js";
import { createApp } from "../../src/app.js";
import { LiveCatalog } from "../../src/catalog/live.js";
import { LowdbStore } from "../../src/store/lowdb-store.js";
import { MINIMAL_CONTENT, tempDir } from "./content.js";

export const BASE_URL = "https://api.test.example";

/** Builds `content` into a fresh catalog folder and returns its path. */
export async function builtCatalog(content = MINIMAL_CONTENT): Promise<string> {
  const catalog = join(await tempDir("frontdesk-catalog-"), "catalog");
  const result = await buildCatalog({ content, catalog });
  if (!result.published) throw new Error(`test content does not build: ${JSON.stringify(result.diagnostics)}`);
  return catalog;
}

export interface TestApp {
  app: FastifyInstance;
  catalog: LiveCatalog;
  store: LowdbStore;
  catalogDir: string;
  dataFile: string;
  close(): Promise<void>;
}

export async function testApp(options: { content?: string; catalogDir?: string; clock?: () => Date } = {}): Promise<TestApp> {
  const catalogDir = options.catalogDir ?? (await builtCatalog(options.content));
  const dataFile = join(await tempDir("frontdesk-data-"), "frontdesk.json");
  const catalog = await LiveCatalog.open(catalogDir, BASE_URL);
  const store = await LowdbStore.open(dataFile, options.clock ? { clock: options.clock } : {});
  const app = await createApp({ catalog, store, config: { publicBaseUrl: BASE_URL }, ...(options.clock ? { clock: options.clock } : {}) });
  return {
    app, catalog, store, catalogDir, dataFile,
    close: async () => {
      catalog.close();
      await app.close();
      await store.close();
    },
  };
}

/** Everything the embedded store keeps on disk beside `dataFile` (snapshot and journals), for tests that nothing was written. */
export async function storedFiles(dataFile: string): Promise<string> {
  const folder = join(dataFile, "..");
  const names = (await readdir(folder)).filter((n) => !n.endsWith(".sock") && !n.endsWith(".lock")).sort();
  return (await Promise.all(names.map(async (n) => `${n}\n${await readFile(join(folder, n), "utf8")}`))).join("\n");
}
