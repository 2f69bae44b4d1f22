import { execFileSync } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";

/** The content folder as it is at a git ref (a branch, tag or commit), extracted to a temporary folder. */
export async function contentAtRef(ref: string, contentDir: string): Promise<string> {
  const top = execFileSync("git", ["rev-parse", "--show-toplevel"], { encoding: "utf8" }).trim();
  const path = relative(top, resolve(contentDir)) || ".";
  const out = await mkdtemp(join(tmpdir(), "frontdesk-ref-"));
  const archive = execFileSync("git", ["-C", top, "archive", "--format=tar", ref, path], { maxBuffer: 512 * 1024 * 1024 });
  execFileSync("tar", ["-x", "-C", out], { input: archive });
  return join(out, path);
}
