import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * vitest globalSetup: the whole run, and every process it starts, writes its temporary files into
 * one private folder, and the run fails if anything is left in it at the end: a test that does
 * not clean up after itself is found here, not in a full /tmp weeks later.
 */
export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), "frontdesk-test-run-"));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return () => {
    // Compile caches of tsx (the loader of the CLI tests' child processes) and of Node 22 and
    // later are kept here: caches, not litter (and removed with the folder).
    const left = readdirSync(dir).filter((name) => !name.startsWith("tsx-") && name !== "node-compile-cache");
    rmSync(dir, { recursive: true, force: true });
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (left.length > 0) {
      // vitest reports an error thrown here but still exits 0: the exit code is set directly.
      console.error(`the tests left ${left.length} temporary entries behind: ${left.slice(0, 10).join(", ")}`);
      process.exitCode = 1;
    }
  };
}
