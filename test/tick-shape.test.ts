import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, open, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "frontdesk-tick-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** The states of the feedback slots of nextTick's tick-object literal, after a full collection. */
async function literalFeedback(keep: boolean): Promise<string[]> {
  // V8 prints to a buffered stdout that a pipe may lose at exit; a file keeps it all.
  const file = join(work, keep ? "kept.txt" : "without.txt");
  const out = await open(file, "w");
  const args = ["--allow-natives-syntax", "--expose-gc", "--import", "tsx", "test/helpers/tick-probe.ts", "feedback", ...(keep ? ["keep"] : [])];
  const child = spawn(process.execPath, args, { stdio: ["ignore", out.fd, "inherit"] });
  const [code] = await once(child, "exit");
  await out.close();
  expect(code).toBe(0);
  return [...(await readFile(file, "utf8")).matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((m) => m[1]!);
}

describe("keepTickObjectShape", () => {
  it("keeps nextTick's tick-object literal monomorphic through a full collection on every Node (without it, Node 20 and 22 turn it megamorphic)", async () => {
    const [without, kept] = await Promise.all([literalFeedback(false), literalFeedback(true)]);
    // The control proves the probe sees the problem where it exists (Node 24's V8 no longer has
    // it); if a Node 20 or 22 release fixes it, this fails and keepTickObjectShape can go once
    // those are no longer supported. Where V8 differs the keeper must do no harm: every slot stays
    // monomorphic, however many the literal has.
    if (Number(process.versions.node.split(".")[0]) <= 22) expect(without).toContain("MEGAMORPHIC");
    expect(kept.length).toBeGreaterThan(0);
    expect(new Set(kept)).toEqual(new Set(["MONOMORPHIC"]));
  });
});
