import { execFileSync } from "node:child_process";
import { createPrivateKey, sign } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { create } from "tar";
import { bundleName, parsePointer, POINTER_FILE, POINTER_FORMAT, sha256, type Pointer } from "../src/catalog/bundle.js";
import { readCatalog } from "../src/catalog/load.js";
import { CATALOG_FILES, MANIFEST_FILE } from "../src/catalog/types.js";

/**
 * `frontdesk publish`: a built catalog as files any static host can serve (see bundle.ts). The
 * bundle is byte-identical for the same content (sorted entries, no owners, no times), so
 * publishing the same content again changes nothing, the pointer included.
 */
export interface PublishOptions {
  /** A built catalog (frontdesk build). */
  catalog: string;
  /** The folder the host serves. */
  out: string;
  /** Bundles to keep in all, the one the pointer names among them; older ones are removed. */
  keep?: number;
  /** An ed25519 private key (PEM file) to sign the bundle with. */
  signKey?: string;
  now?: Date;
}

export async function publishBundle(options: PublishOptions): Promise<{ pointer: Pointer; changed: boolean; removed: string[] }> {
  const loaded = await readCatalog(options.catalog); // checks every file against its manifest
  const hash = loaded.manifest.contentHash;
  const bundle = bundleName(hash);
  await mkdir(options.out, { recursive: true });
  const path = join(options.out, bundle);

  if (!(await exists(path))) {
    const temporary = `${path}.tmp-${process.pid}`;
    const files = [MANIFEST_FILE, ...Object.values(CATALOG_FILES)].sort();
    await create({ file: temporary, gzip: true, cwd: loaded.folder, portable: true, mtime: new Date(0), noDirRecurse: true }, files);
    await rename(temporary, path);
  }
  const bytes = await readFile(path);
  const signature = options.signKey ? `${bundle}.sig` : undefined;
  if (options.signKey) {
    const key = createPrivateKey(await readFile(options.signKey, "utf8"));
    if (key.asymmetricKeyType !== "ed25519") throw new Error(`--sign-key ${options.signKey} is a ${key.asymmetricKeyType} key: use an ed25519 key (openssl genpkey -algorithm ed25519)`);
    await writeFile(join(options.out, signature!), `${sign(null, bytes, key).toString("base64")}\n`);
  }

  const previous = await readFile(join(options.out, POINTER_FILE), "utf8").then(parsePointer, () => undefined);
  const same = previous?.hash === hash && previous.sha256 === sha256(bytes) && previous.signature === signature;
  const pointer: Pointer = same
    ? previous
    : {
        format: POINTER_FORMAT, hash, bundle, sha256: sha256(bytes), ...(signature ? { signature } : {}),
        builtAt: (options.now ?? new Date()).toISOString(), ...commit(),
      };
  if (!same) {
    const temporary = join(options.out, `${POINTER_FILE}.tmp-${process.pid}`);
    await writeFile(temporary, `${JSON.stringify(pointer, null, 2)}\n`);
    await rename(temporary, join(options.out, POINTER_FILE));
  }
  const removed = options.keep === undefined ? [] : await prune(options.out, bundle, options.keep);
  return { pointer, changed: !same, removed };
}

/** The pointed bundle and the newest others up to `keep` in all stay; the rest go, with their signatures. */
async function prune(out: string, current: string, keep: number): Promise<string[]> {
  const bundles = (await readdir(out)).filter((name) => /^catalog-[0-9a-f]{16}\.tar\.gz$/.test(name) && name !== current);
  const dated = await Promise.all(bundles.map(async (name) => ({ name, time: (await stat(join(out, name))).mtimeMs })));
  const old = dated.sort((a, b) => b.time - a.time || (a.name < b.name ? -1 : 1)).slice(Math.max(0, keep - 1)).map((b) => b.name);
  for (const name of old) {
    await rm(join(out, name), { force: true });
    await rm(join(out, `${name}.sig`), { force: true });
  }
  return old;
}

/** The commit the content came from: CI says it (GITHUB_SHA), else git, else nothing. */
function commit(): { commit?: string } {
  if (process.env.GITHUB_SHA) return { commit: process.env.GITHUB_SHA };
  try {
    return { commit: execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim() };
  } catch {
    return {};
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}
