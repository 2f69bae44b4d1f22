import { cp, mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const MINIMAL_CONTENT = fileURLToPath(new URL("../fixtures/minimal-content", import.meta.url));
export const SAMPLE_CONTENT = fileURLToPath(new URL("../../content", import.meta.url));

/** A temporary copy of a content tree with some files replaced (string) or removed (null). */
export async function contentTree(changes: Record<string, string | null> = {}, from = MINIMAL_CONTENT): Promise<string> {
  const dir = await tempDir("frontdesk-content-");
  await cp(from, dir, { recursive: true });
  for (const [path, text] of Object.entries(changes)) {
    if (text === null) await rm(join(dir, path), { force: true });
    else {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    }
  }
  return dir;
}

/** Temporary folders made by this test file, removed after its last test (test/helpers/cleanup.ts). */
const made = new Set<string>();

export async function tempDir(prefix = "frontdesk-"): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

export async function removeTempDirs(): Promise<void> {
  await Promise.all([...made].map((dir) => rm(dir, { recursive: true, force: true })));
  made.clear();
}
