import { link as hardLink, mkdir, open, readdir, readFile, readlink, rename, rm, stat, symlink } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { MANIFEST_FILE, type Manifest } from "./types.js";

/**
 * Publishes a catalog so no reader ever sees half of one: files go into a fresh versioned folder
 * (`.catalog-<hash>`), which is then put in place by renaming a symlink over the catalog path,
 * an atomic step on POSIX. The previous version is kept, since a server may still be reading it.
 */
export async function publishCatalog(target: string, files: Record<string, string>, contentHash: string, hashes?: Readonly<Record<string, string>>): Promise<string> {
  const path = resolve(target);
  const parent = dirname(path);
  const prefix = `.${basename(path)}-`;
  await mkdir(parent, { recursive: true });
  const versionName = `${prefix}${contentHash.slice(0, 16)}`;
  const version = join(parent, versionName);

  // The same content was published before: its folder is reused, unless files are missing from
  // it (emptied by a clean-up, half copied by hand), in which case it is written again.
  const present = new Set(await readdir(version).catch(() => []));
  const complete = Object.keys(files).every((name) => present.has(name));
  if (!complete) {
    await rm(version, { recursive: true, force: true });
    const temporary = `${version}.tmp-${process.pid}`;
    await rm(temporary, { recursive: true, force: true });
    await mkdir(temporary);
    // A file the version now served holds already (same name, same hash in its manifest, same
    // size) is linked rather than written and synced again: files of a version are never
    // changed once it is in place, and one edit in `frontdesk dev` changes a few of them.
    const reusable = await unchanged(parent, hashes && (await readlink(path).catch(() => undefined)), files, hashes ?? {});
    for (const [name, text] of Object.entries(files).sort()) {
      if (reusable.has(name)) await hardLink(join(reusable.from, name), join(temporary, name)).catch(() => writeDurably(join(temporary, name), text));
      else await writeDurably(join(temporary, name), text);
    }
    await syncFolder(temporary);
    await rename(temporary, version);
  }

  const previous = await readlink(path).catch(() => undefined);
  if (previous === undefined && (await exists(path))) {
    // A plain folder from an older layout (or a hand copy): replace it by the link.
    await rm(path, { recursive: true, force: true });
  }
  const link = join(parent, `${prefix}link-${process.pid}`);
  await rm(link, { force: true });
  await symlink(versionName, link);
  await rename(link, path);
  await syncFolder(parent);

  for (const entry of await readdir(parent)) {
    if (entry.startsWith(prefix) && entry !== versionName && entry !== previous && !entry.includes(".tmp-") && !entry.startsWith(`${prefix}link-`)) {
      await rm(join(parent, entry), { recursive: true, force: true });
    }
  }
  return version;
}

/** The files (by name) of the version `current` names that are byte for byte the ones about to be written. */
async function unchanged(parent: string, current: string | undefined, files: Record<string, string>, hashes: Readonly<Record<string, string>>): Promise<Set<string> & { from: string }> {
  const found = Object.assign(new Set<string>(), { from: join(parent, current ?? "") });
  if (current === undefined || current.includes("/")) return found;
  const manifest = await readFile(join(found.from, MANIFEST_FILE), "utf8").then((text) => JSON.parse(text) as Manifest, () => undefined);
  if (!manifest?.files) return found;
  await Promise.all(
    Object.entries(hashes).map(async ([name, hash]) => {
      if (manifest.files[name] !== hash || files[name] === undefined) return;
      const size = await stat(join(found.from, name)).then((s) => (s.isFile() ? s.size : -1), () => -1);
      if (size === Buffer.byteLength(files[name]!)) found.add(name);
    }),
  );
  return found;
}

async function writeDurably(file: string, text: string): Promise<void> {
  const handle = await open(file, "w", 0o644);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}
