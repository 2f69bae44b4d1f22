/**
 * A second process on the same data file (see "lowdb store lock" in lowdb-store.test.ts): loads,
 * says "ready", and on "go" (a line on stdin) opens the embedded store at argv[2] and writes one
 * lead named argv[3]. It says "wrote" and keeps the store open until stdin ends, or says
 * "refused: <message>" and exits 1.
 *
 * With argv[4] "slow", the first time it finds the lock stale (a stat of it, made by whatever
 * takes the lock, shows a time older than 2 s) it says "found stale" and waits a second before
 * acting on it: another process can take the lock over in between, as it might on a busy machine.
 */
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { createInterface } from "node:readline";

const [file, name, mode] = process.argv.slice(2) as [string, string, string | undefined];
if (mode === "slow") {
  let paused = false;
  const foundStale = (path: fs.PathLike, stats: fs.Stats | undefined) => {
    if (paused || !String(path).endsWith(".lock") || !stats || stats.mtimeMs > Date.now() - 2000) return 0;
    paused = true;
    process.stdout.write("found stale\n");
    return 1000;
  };
  const { stat } = fs;
  fs.stat = ((path: fs.PathLike, ...rest: unknown[]) => {
    const callback = rest.pop() as (error: Error | null, stats?: fs.Stats) => void;
    stat(path, ...(rest as []), (error: Error | null, stats?: fs.Stats) => setTimeout(() => callback(error, stats), foundStale(path, stats)));
  }) as typeof fs.stat;
  const promised = fs.promises.stat;
  fs.promises.stat = (async (path: fs.PathLike, options?: fs.StatOptions) => {
    const stats = (await promised(path, options)) as fs.Stats;
    await new Promise((resolve) => setTimeout(resolve, foundStale(path, stats)));
    return stats;
  }) as typeof fs.promises.stat;
  syncBuiltinESMExports();
}
const { LowdbStore } = await import("../../src/store/lowdb-store.js");
const input = createInterface({ input: process.stdin });
const lines = input[Symbol.asyncIterator]();
process.stdout.write("ready\n");
await lines.next();
try {
  const store = await LowdbStore.open(file, { lockStaleMs: 2000, control: false });
  await store.transaction(async (tx) => tx.put("leads", { reference: name, createdAt: new Date().toISOString() }));
  process.stdout.write("wrote\n");
  while (!(await lines.next()).done);
  await store.close();
} catch (error) {
  process.stdout.write(`refused: ${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  input.close();
}
