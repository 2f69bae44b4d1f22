/**
 * Loading the embedded store, in a fresh process each time (as a server starts):
 *
 *   node --import tsx bench/store-load.ts seed <dir> [records=100000] [journal=5000]
 *   node --import tsx bench/store-load.ts load <dir> [rounds=5]
 *
 * `seed` writes <dir>/frontdesk.json: a snapshot of `records` leads of 2 KB and a journal of
 * `journal` more, written as a server writes them (concurrent transactions, group commits).
 * `load` opens it `rounds` times, each in a process of its own, and prints each time
 * LowdbStore.open took (taking the lock, reading the snapshot, replaying the journal).
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LowdbStore } from "../src/store/lowdb-store.js";
import { TEXT } from "./writes.js";

const [command, dir, a, b] = process.argv.slice(2);
if (!dir) throw new Error("usage: store-load.ts seed|load|once <dir> ...");
const file = join(dir, "frontdesk.json");

if (command === "seed") {
  const records = Number(a ?? 100_000);
  const journal = Number(b ?? 5_000);
  let store = await LowdbStore.open(file, { compaction: { minBytes: Infinity, ratio: 0 }, control: false });
  for (let batch = 0; batch < records / 1000; batch++) {
    await store.transaction(async (tx) => {
      for (let i = 0; i < 1000; i++) await tx.put("leads", { reference: `lead-seed-${batch}-${i}`, createdAt: "2026-01-01T00:00:00.000Z", description: TEXT });
    });
  }
  await store.compact();
  for (let done = 0; done < journal; done += 100) {
    await Promise.all(Array.from({ length: Math.min(100, journal - done) }, (_, i) =>
      store.transaction(async (tx) => tx.put("leads", { reference: `lead-journal-${done + i}`, createdAt: "2026-01-02T00:00:00.000Z", description: TEXT, email: `p${done + i}@example.com` }))));
  }
  await store.close();
  store = await LowdbStore.open(file, { control: false });
  console.log(`seeded ${file}: ${(await store.list("leads")).length} leads`);
  await store.close();
} else if (command === "load") {
  const rounds = Number(a ?? 5);
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const out = execFileSync(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "once", dir], { encoding: "utf8" });
    times.push(Number(/loaded in (\d+)/.exec(out)?.[1]));
    process.stdout.write(out);
  }
  console.log(`median ${times.sort((x, y) => x - y)[Math.floor(times.length / 2)]} ms`);
} else if (command === "once") {
  const log: string[] = [];
  const started = performance.now();
  const store = await LowdbStore.open(file, { control: false, log: (m) => log.push(m) });
  const took = performance.now() - started;
  console.log(`loaded in ${Math.round(took)} ms${log.length ? ` (${log.join("; ")})` : ""}`);
  await store.close();
}
