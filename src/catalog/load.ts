import { createHash } from "node:crypto";
import { readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import { CATALOG_FILES, CATALOG_FORMAT, MANIFEST_FILE, type CatalogData, type Manifest } from "./types.js";

/**
 * Reads a compiled catalog and checks it before anyone is served from it: the manifest's format,
 * and every file against the hash the build recorded, so a half-copied or edited catalog is
 * refused instead of served. Files are read and hashed as bytes, all at once; each is parsed on
 * first use, so a server answers its first request without parsing a 10,000-entry FAQ first
 * (ServedCatalog.warm parses the rest).
 */
export interface LoadedCatalog {
  manifest: Manifest;
  /** Every file's content; a property is parsed (or decoded) the first time it is read. */
  data: CatalogData;
  /** The versioned folder actually read (the catalog path is a symlink to it). */
  folder: string;
}

export class CatalogError extends Error {}

export async function readManifest(dir: string): Promise<Manifest> {
  const text = await readFile(join(dir, MANIFEST_FILE), "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new CatalogError(
      error.code === "ENOENT"
        ? `no catalog at ${dir}: run "npm run build" (or "frontdesk build") first`
        : `cannot read ${join(dir, MANIFEST_FILE)}: ${error.message}`,
    );
  });
  const manifest = parse<Manifest>(text, MANIFEST_FILE);
  if (manifest.format !== CATALOG_FORMAT) {
    throw new CatalogError(`catalog format ${String(manifest.format)} is not supported (expected ${CATALOG_FORMAT}): rebuild it with this version`);
  }
  return manifest;
}

export async function readCatalog(dir: string): Promise<LoadedCatalog> {
  // Resolve the symlink once, so every file comes from the same version even if a new build lands now.
  const folder = await realpath(dir).catch(() => dir);
  const manifest = await readManifest(folder);
  const entries = Object.entries(CATALOG_FILES) as [keyof CatalogData, string][];
  const contents = await Promise.all(
    entries.map(async ([, file]) => {
      const bytes = await readFile(join(folder, file)).catch(() => {
        throw new CatalogError(`catalog file ${file} is missing in ${folder}`);
      });
      if (createHash("sha256").update(bytes).digest("hex") !== manifest.files[file]) {
        throw new CatalogError(`catalog file ${file} does not match its manifest hash: the catalog is incomplete or was changed by hand`);
      }
      return bytes;
    }),
  );
  const data = {} as CatalogData;
  entries.forEach(([key, file], i) => {
    const bytes = contents[i]!;
    Object.defineProperty(data, key, {
      enumerable: true,
      configurable: true,
      get() {
        const text = bytes.toString("utf8");
        let value: unknown;
        try {
          value = file.endsWith(".json") ? parse(text, file) : text;
        } catch (error) {
          // Parsed once: every later read fails the same way without parsing the file again.
          Object.defineProperty(data, key, { enumerable: true, get: () => { throw error; } });
          throw error;
        }
        Object.defineProperty(data, key, { value, enumerable: true });
        return value;
      },
    });
  });
  return { manifest, data, folder };
}

function parse<T>(text: string, file: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new CatalogError(`catalog file ${file} is not valid JSON: ${(error as Error).message}`);
  }
}
