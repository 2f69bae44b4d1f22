import { mkdir, open, readdir, readlink, rename, rm, stat, symlink } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";

/**
 * Publishes a catalog so no reader ever sees half of one: files go into a fresh versioned folder
 * (`.catalog-<hash>`), which is then put in place by renaming a symlink over the catalog path,
 * an atomic step on POSIX. The previous version is kept, since a server may still be reading it.
 */
export async function publishCatalog(target: string, files: Record<string, string>, contentHash: string): Promise<string> {
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
    for (const [name, text] of Object.entries(files).sort()) await writeDurably(join(temporary, name), text);
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
