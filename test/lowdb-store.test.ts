import { spawn } from "node:child_process";
import { appendFile, cp, mkdir, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import lockfile from "proper-lockfile";
import { afterAll, describe, expect, it } from "vitest";
import { journalPath } from "../src/store/data-files.js";
import { nodeFiles, type Files } from "../src/store/files.js";
import { LowdbStore, type LowdbStoreOptions } from "../src/store/lowdb-store.js";
import { StorageUnavailable } from "../src/store/store.js";
import { tempDir } from "./helpers/content.js";
import { FaultyFiles } from "./helpers/faulty-files.js";
import { storeContract } from "./store-contract.js";
import { prototypeKeys } from "./store-keys.js";

const folders: string[] = [];
afterAll(() => Promise.all(folders.map((f) => rm(f, { recursive: true, force: true }))));
const freshFile = async () => {
  const folder = await tempDir("frontdesk-store-");
  folders.push(folder);
  return join(folder, "nested", "frontdesk.json");
};
const lead = (reference: string, extra: Record<string, unknown> = {}) => ({ reference, createdAt: "2026-01-01T00:00:00.000Z", ...extra });
const journal0 = (file: string) => journalPath(file, 0);

storeContract("lowdb", async () => LowdbStore.open(await freshFile()));
prototypeKeys("lowdb", async () => LowdbStore.open(await freshFile()));

describe("lowdb store on disk", () => {
  it("has the change in its journal, readable by its owner only, when a transaction resolves", async () => {
    const file = await freshFile();
    const store = await LowdbStore.open(file);
    await store.transaction(async (tx) => tx.put("leads", lead("lead-1")));
    expect((await readFile(journal0(file), "utf8")).trim().split("\n").map((l) => JSON.parse(l))).toEqual([[["put", "leads", lead("lead-1")]]]);
    expect((await stat(journal0(file))).mode & 0o777).toBe(0o600);
    expect((await stat(join(file, ".."))).mode & 0o777).toBe(0o700);
    await store.close();
    const reopened = await LowdbStore.open(file);
    expect(await reopened.list("leads")).toEqual([lead("lead-1")]);
    await reopened.close();
  });

  it("appends what a commit changed, whatever is stored already", async () => {
    const file = await freshFile();
    const store = await LowdbStore.open(file);
    await store.transaction(async (tx) => {
      for (let i = 0; i < 1000; i++) await tx.put("leads", lead(`lead-${i}`, { description: "x".repeat(1000) }));
    });
    const before = (await stat(journal0(file))).size;
    await store.transaction(async (tx) => tx.put("leads", lead("lead-new")));
    expect((await stat(journal0(file))).size - before).toBe(`${JSON.stringify([["put", "leads", lead("lead-new")]])}\n`.length);
    await store.close();
  });

  it("carries many concurrent transactions in few appends", async () => {
    let syncs = 0;
    const counting: Files = {
      ...nodeFiles,
      open: async (path, flags, mode) => {
        const handle = await nodeFiles.open(path, flags, mode);
        return { ...handle, read: handle.read.bind(handle), write: handle.write.bind(handle), truncate: handle.truncate.bind(handle), close: handle.close.bind(handle), sync: () => (syncs++, handle.sync()) };
      },
    };
    const store = await LowdbStore.open(await freshFile(), { files: counting });
    syncs = 0;
    await Promise.all(Array.from({ length: 100 }, (_, i) => store.transaction(async (tx) => tx.put("leads", lead(`lead-${i}`)))));
    expect(await store.list("leads")).toHaveLength(100);
    expect(syncs).toBeLessThan(10);
    await store.close();
  });

  it("drops a torn last journal line at start, with a line in the log", async () => {
    const file = await freshFile();
    const store = await LowdbStore.open(file);
    await store.transaction(async (tx) => tx.put("leads", lead("lead-1")));
    await store.close();
    const good = (await stat(journal0(file))).size;
    await appendFile(journal0(file), '[["put","leads",{"reference":"lead-2","crea');
    const log: string[] = [];
    const reopened = await LowdbStore.open(file, { log: (m) => log.push(m) });
    expect((await reopened.list("leads")).map((l) => l.reference)).toEqual(["lead-1"]);
    expect(log).toEqual([
      expect.stringMatching(/^dropped the torn last line \(43 bytes\) of .*journal\.0: a write cut off by a crash, never acknowledged$/),
      expect.stringMatching(/^store loaded 1 records in \d+ ms \(.*frontdesk\.json\)$/),
    ]);
    expect((await stat(journal0(file))).size).toBe(good);
    await reopened.transaction(async (tx) => tx.put("leads", lead("lead-3")));
    await reopened.close();
    const again = await LowdbStore.open(file);
    expect((await again.list("leads")).map((l) => l.reference)).toEqual(["lead-1", "lead-3"]);
    await again.close();
  });

  it("reports a damaged journal line that is not the last, and leaves the files untouched", async () => {
    const file = await freshFile();
    const store = await LowdbStore.open(file);
    await store.transaction(async (tx) => tx.put("leads", lead("lead-1")));
    await store.close();
    await appendFile(journal0(file), '[["put","leads",{"refer\n[["put","leads",{"reference":"lead-2","createdAt":"x"}]]\n');
    const before = await readFile(journal0(file));
    await expect(LowdbStore.open(file)).rejects.toThrow(/journal\.0 is corrupt \(line 2: .*\); it was left untouched/);
    expect((await readFile(journal0(file))).equals(before)).toBe(true);
  });

  it("reports a corrupt snapshot and leaves it untouched", async () => {
    const file = await freshFile();
    await (await LowdbStore.open(file)).close();
    await writeFile(file, '{"format":"frontdesk-data","version":2,"generation":0,\n"leads":[\n{"refer');
    await expect(LowdbStore.open(file)).rejects.toThrow(/is corrupt .* left untouched/);
    expect(await readFile(file, "utf8")).toBe('{"format":"frontdesk-data","version":2,"generation":0,\n"leads":[\n{"refer');
  });

  it("compacts into a snapshot a person can read, and starts a new journal", async () => {
    const file = await freshFile();
    const log: string[] = [];
    const options: LowdbStoreOptions = { compaction: { minBytes: 2000, ratio: 0.5 }, log: (m) => log.push(m) };
    const store = await LowdbStore.open(file, options);
    expect(log.splice(0)).toEqual([expect.stringMatching(/^store loaded 0 records in \d+ ms/)]);
    for (let i = 0; i < 40; i++) await store.transaction(async (tx) => tx.put("leads", lead(`lead-${i}`, { description: "y".repeat(100) })));
    // The journal passed 2,000 bytes (and half the snapshot) on the way: compaction ran by itself.
    await store.compact(); // joins one still running
    expect(log.length).toBeGreaterThan(0);
    for (const line of log) expect(line).toMatch(/^compacted .*: \d+ records, snapshot \d+ KiB, in \d+ ms$/);
    await store.compact();
    expect(log.at(-1)).toMatch(/^compacted .*: 40 records/);
    await store.transaction(async (tx) => tx.setTicketUsage("__proto__", { used: 2 }));
    const snapshot = JSON.parse(await readFile(file, "utf8"));
    expect(snapshot).toMatchObject({ format: "frontdesk-data", version: 2 });
    expect(snapshot.generation).toBeGreaterThan(0);
    expect(snapshot.leads).toHaveLength(40);
    expect((await readFile(file, "utf8")).split("\n").length).toBeGreaterThan(40); // one record a line
    const names = (await readdir(join(file, ".."))).filter((n) => n.includes(".journal."));
    expect(names).toEqual([`frontdesk.json.journal.${snapshot.generation}`]);
    await store.close();
    const reopened = await LowdbStore.open(file);
    expect(await reopened.list("leads")).toHaveLength(40);
    expect(await reopened.ticketUsage("__proto__")).toEqual({ used: 2 });
    await reopened.close();
  });

  it("keeps every change when compaction fails at any step, and compacts later", async () => {
    for (const step of ["open", "rename", "sync"] as const) {
      const file = await freshFile();
      const files = new FaultyFiles();
      const log: string[] = [];
      const store = await LowdbStore.open(file, { files, log: (m) => log.push(m), compaction: { minBytes: 1e9, ratio: 0 } });
      for (let i = 0; i < 10; i++) await store.transaction(async (tx) => tx.put("leads", lead(`lead-${step}-${i}`)));
      // The fault hits the snapshot only: appends go on meanwhile.
      const original = files.open.bind(files);
      files.open = async (path, flags, mode) => {
        if (path.endsWith(".tmp") && step === "open") throw Object.assign(new Error("ENOSPC: no space left on device, open"), { code: "ENOSPC" });
        const handle = await original(path, flags, mode);
        return path.endsWith(".tmp") && step === "sync" ? { ...handle, sync: async () => Promise.reject(Object.assign(new Error("EIO: i/o error, fsync"), { code: "EIO" })) } : handle;
      };
      if (step === "rename") files.rename = async () => Promise.reject(Object.assign(new Error("EIO: i/o error, rename"), { code: "EIO" }));
      const compaction = store.compact();
      await store.transaction(async (tx) => tx.put("leads", lead(`lead-${step}-during`)));
      await expect(compaction).rejects.toThrow(/cannot save/);
      expect(log.at(-1)).toMatch(/^compaction of .* stopped \(.*\); the journal keeps every change/);
      await store.close();
      const reopened = await LowdbStore.open(file);
      expect(await reopened.list("leads")).toHaveLength(11);
      await reopened.compact();
      await reopened.close();
      const last = await LowdbStore.open(file);
      expect(await last.list("leads")).toHaveLength(11);
      await last.close();
    }
  });

  it("removes reviews past the retention period at compaction, and keeps what people submitted", async () => {
    const file = await freshFile();
    const now = new Date("2026-06-01T00:00:00.000Z");
    const store = await LowdbStore.open(file, { retentionDays: 30, clock: () => now });
    const old = "2026-04-01T00:00:00.000Z";
    const recent = "2026-05-20T00:00:00.000Z";
    await store.transaction(async (tx) => {
      for (const collection of ["leads", "waitlist", "quoteRequests", "quoteReviews", "ticketReviews"] as const) {
        await tx.put(collection, { reference: `${collection}-old`, createdAt: old });
        await tx.put(collection, { reference: `${collection}-recent`, createdAt: recent });
      }
      await tx.remember("old-key", { fingerprint: "f", status: 200, body: {}, createdAt: old });
      await tx.remember("new-key", { fingerprint: "f", status: 200, body: {}, createdAt: "2026-05-31T12:00:00.000Z" });
    });
    await store.compact();
    const kept = async (s: LowdbStore) =>
      Object.fromEntries(await Promise.all((["leads", "waitlist", "quoteRequests", "quoteReviews", "ticketReviews"] as const).map(async (c) => [c, (await s.list(c)).map((r) => r.reference)])));
    const expected = {
      leads: ["leads-old", "leads-recent"], waitlist: ["waitlist-old", "waitlist-recent"], quoteRequests: ["quoteRequests-old", "quoteRequests-recent"],
      quoteReviews: ["quoteReviews-recent"], ticketReviews: ["ticketReviews-recent"],
    };
    expect(await kept(store)).toEqual(expected);
    await store.close();
    const reopened = await LowdbStore.open(file, { clock: () => now });
    expect(await kept(reopened)).toEqual(expected);
    expect(JSON.parse(await readFile(file, "utf8")).idempotency.map(([key]: [string]) => key)).toEqual(["new-key"]);
    await reopened.close();
  });

  it("removes logged questions after 30 days at compaction, even when the operator keeps everything else", async () => {
    const store = await LowdbStore.open(await freshFile(), { clock: () => new Date("2026-06-01T00:00:00.000Z") });
    await store.transaction(async (tx) => {
      await tx.put("questions", { reference: "q-old", createdAt: "2026-04-20T00:00:00.000Z", kind: "faq", question: "x" });
      await tx.put("questions", { reference: "q-recent", createdAt: "2026-05-20T00:00:00.000Z", kind: "faq", question: "y" });
      await tx.put("ticketReviews", { reference: "t-old", createdAt: "2026-01-01T00:00:00.000Z" });
    });
    await store.compact();
    expect((await store.list("questions")).map((r) => r.reference)).toEqual(["q-recent"]);
    expect((await store.list("ticketReviews")).map((r) => r.reference)).toEqual(["t-old"]);
    await store.close();
  });

  it("converts a data file written by the format 1 store, with a line in the log", async () => {
    const file = await freshFile();
    await mkdir(join(file, ".."), { recursive: true });
    await cp(fileURLToPath(new URL("fixtures/format-1/frontdesk.json", import.meta.url)), file);
    const log: string[] = [];
    const store = await LowdbStore.open(file, { log: (m) => log.push(m) });
    expect(log).toEqual([`converted ${file} from format 1 (one JSON document) to format 2 (a snapshot and a journal): 6 records`, expect.stringMatching(/^store loaded 6 records in \d+ ms/)]);
    expect((await store.list("leads")).map((l) => l.description)).toEqual(["Wants a booking app", 'Line one\nline two, "quoted" and ünïcode 😀']);
    expect(await store.ticketUsage("gpt-format1")).toEqual({ used: 3, email: "dev@example.com" });
    await store.transaction(async (tx) => {
      expect((await tx.findLeadByConversation("conv-format1"))?.reference).toBe("lead-format1a");
      expect((await tx.findWaitlistByEmail("ann@example.com"))?.reference).toBe("waitlist-format1");
    });
    await store.close();
    expect(JSON.parse(await readFile(file, "utf8"))).toMatchObject({ format: "frontdesk-data", version: 2, generation: 0 });
    const reopened = await LowdbStore.open(file, { log: (m) => log.push(m) });
    // Converted once: the second start only loads.
    expect(log).toHaveLength(3);
    expect(log[2]).toMatch(/^store loaded 6 records in \d+ ms/);
    expect(await reopened.list("quoteRequests")).toEqual([expect.objectContaining({ reference: "quote-format1", contactEmail: "bo@example.com" })]);
    await reopened.close();
  });
});

describe("lowdb store lock", () => {
  it("refuses a second opener in this process at once", async () => {
    const file = await freshFile();
    const store = await LowdbStore.open(file);
    await expect(LowdbStore.open(file)).rejects.toThrow(/already open in this process/);
    await store.close();
  });

  it("takes over a stale lock carrying this very process id, as a container's PID 1 finds it", async () => {
    const file = await freshFile();
    await (await LowdbStore.open(file)).close();
    // The earlier format's lock: a file with the process id (a crashed PID 1 left its own).
    await writeFile(`${file}.lock`, String(process.pid));
    const log: string[] = [];
    const store = await LowdbStore.open(file, { log: (m) => log.push(m) });
    expect(log).toEqual([`removed the lock file ${file}.lock left by an earlier Frontdesk version`, expect.stringMatching(/^store loaded 0 records in \d+ ms/)]);
    await store.close();
    // This format's lock, left by a process that died (not refreshed for longer than the stale time).
    await mkdir(`${file}.lock`);
    const past = new Date(Date.now() - 60_000);
    await utimes(`${file}.lock`, past, past);
    const started = Date.now();
    const again = await LowdbStore.open(file, { lockStaleMs: 2000 });
    expect(Date.now() - started).toBeLessThan(1000);
    await again.close();
  });

  it("stops writing when its lock is taken by another process, and writes again once it can take it back unchanged", async () => {
    for (const otherWrote of [false, true]) {
      const file = await freshFile();
      const log: string[] = [];
      const store = await LowdbStore.open(file, { lockStaleMs: 2000, log: (m) => log.push(m) });
      await store.transaction(async (tx) => tx.put("leads", lead("lead-1")));
      // Another process took the lock over (found it stale: this process had stopped for long).
      const [ours] = await readdir(`${file}.lock`);
      await rm(join(`${file}.lock`, ours!));
      await writeFile(join(`${file}.lock`, "their-token"), "");
      await expect.poll(() => log.some((m) => m.includes("could not be kept")), { timeout: 5000 }).toBe(true);
      const refused = await store.transaction(async (tx) => tx.put("leads", lead("lead-2"))).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(StorageUnavailable);
      expect(await store.list("leads")).toEqual([lead("lead-1")]);
      await expect(store.checkWritable()).rejects.toThrow(/its lock .* could not be kept/);
      if (otherWrote) await appendFile(journal0(file), `${JSON.stringify([["put", "leads", lead("lead-theirs")]])}\n`);
      // The other process is gone: its lock turns stale.
      const past = new Date(Date.now() - 60_000);
      await utimes(`${file}.lock`, past, past);
      if (otherWrote) {
        // Its write is not in this process's memory: writing on would lose it. Only a restart reads it.
        await expect(store.checkWritable()).rejects.toThrow(/could not be kept/);
        await store.close();
        const restarted = await LowdbStore.open(file);
        expect((await restarted.list("leads")).map((l) => l.reference)).toEqual(["lead-1", "lead-theirs"]);
        await restarted.close();
        continue;
      }
      await store.checkWritable();
      await store.transaction(async (tx) => tx.put("leads", lead("lead-3")));
      expect(log.at(-1)).toBe(`took the lock of ${file} again`);
      await store.close();
      const reopened = await LowdbStore.open(file);
      expect((await reopened.list("leads")).map((l) => l.reference)).toEqual(["lead-1", "lead-3"]);
      await reopened.close();
    }
  }, 20_000);

  /** Another process on `file` (test/helpers/store-opener.ts), loaded and waiting for "go". */
  const opener = async (file: string, name: string, mode = "") => {
    const root = fileURLToPath(new URL("..", import.meta.url));
    const tsx = pathToFileURL(join(root, "node_modules/tsx/dist/loader.mjs")).href;
    const child = spawn(process.execPath, ["--import", tsx, join(root, "test/helpers/store-opener.ts"), file, name, mode], { stdio: ["pipe", "pipe", "inherit"] });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const next = async () => ((await lines.next()).value as string | undefined) ?? `exited ${await exited()}`;
    const exited = () => (child.exitCode ?? child.signalCode ?? new Promise((done) => child.once("exit", (code, signal) => done(code ?? signal))));
    expect(await next()).toBe("ready");
    return { go: () => child.stdin.write("go\n"), next, stop: () => (child.stdin.end(), exited()), kill: () => (child.kill("SIGKILL"), exited()) };
  };
  /** The lock of a process that died (an empty folder, as the format made by proper-lockfile): not refreshed for longer than the stale time. */
  const staleLock = async (file: string) => {
    await mkdir(`${file}.lock`);
    const past = new Date(Date.now() - 60_000);
    await utimes(`${file}.lock`, past, past);
  };
  const leadsIn = async (file: string) => {
    const store = await LowdbStore.open(file);
    const references = (await store.list("leads")).map((l) => l.reference);
    await store.close();
    return references;
  };
  const refused = expect.stringMatching(/^refused: data file .* is in use by another process/);

  it("lets exactly one of two processes that start at once on a stale lock write", async () => {
    for (let round = 0; round < 5; round++) {
      const file = await freshFile();
      await (await LowdbStore.open(file)).close();
      await staleLock(file);
      const both = await Promise.all([opener(file, "lead-a"), opener(file, "lead-b")]);
      for (const other of both) other.go(); // both take the lock within a millisecond or so
      // The loser waits out the stale time of the lock the winner keeps fresh, then gives up.
      const said = await Promise.all(both.map((other) => other.next()));
      await Promise.all(both.map((other) => other.stop()));
      expect(said.sort(), `round ${round}`).toEqual([refused, "wrote"]);
      expect(await leadsIn(file)).toHaveLength(1);
    }
  }, 120_000);

  it("lets a process that found a lock stale not take it from the one that took it over meanwhile", async () => {
    // The lock of an earlier format, then one of this format left by a process killed while it held it.
    for (const left of ["empty folder", "killed holder"]) {
      const file = await freshFile();
      await (await LowdbStore.open(file)).close();
      if (left === "empty folder") await staleLock(file);
      else {
        const killed = await opener(file, "lead-killed");
        killed.go();
        expect(await killed.next()).toBe("wrote");
        await killed.kill();
        await new Promise((resolve) => setTimeout(resolve, 2500)); // its lock turns stale
      }
      const slow = await opener(file, "lead-slow", "slow");
      const quick = await opener(file, "lead-quick");
      slow.go();
      expect(await slow.next()).toBe("found stale");
      quick.go(); // takes the lock over while the slow one waits to act on what it found
      expect(await quick.next()).toBe("wrote");
      expect(await slow.next(), left).toEqual(refused);
      await Promise.all([slow.stop(), quick.stop()]);
      expect((await leadsIn(file)).filter((r) => r !== "lead-killed"), left).toEqual(["lead-quick"]);
    }
  }, 60_000);

  it("refuses a lock another process keeps fresh, after waiting out the stale time", async () => {
    const file = await freshFile();
    await (await LowdbStore.open(file)).close();
    const release = await lockfile.lock(file, { lockfilePath: `${file}.lock`, realpath: false, stale: 2000, update: 1000 });
    await expect(LowdbStore.open(file, { lockStaleMs: 2000 })).rejects.toThrow(/is in use by another process \(its lock .* is kept fresh\)/);
    await release();
  }, 15_000);
});

describe("lowdb store when the disk fails", () => {
  it("keeps nothing of a failed write, in memory or on disk, and a later write does not carry it", async () => {
    for (const fault of ["ENOSPC", "EROFS", "EIO"] as const) {
      const file = await freshFile();
      const files = new FaultyFiles();
      const store = await LowdbStore.open(file, { files });
      await store.transaction(async (tx) => tx.put("leads", lead("lead-kept", { conversationId: "c-kept" })));
      files.fault = fault;
      const failed = await store.transaction(async (tx) => {
        await tx.put("leads", lead("lead-failed", { conversationId: "c-failed" }));
        await tx.setTicketUsage("client", { used: 1 });
        await tx.remember("key", { fingerprint: "f", status: 200, body: {}, createdAt: new Date().toISOString() });
      }).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(StorageUnavailable);
      expect((failed as StorageUnavailable).message).toContain(`(${fault})`);
      expect(files.raised).toBeGreaterThan(0);
      await expect(store.checkWritable()).rejects.toBeInstanceOf(StorageUnavailable);
      await store.transaction(async (tx) => {
        expect(await tx.findLeadByConversation("c-failed")).toBeUndefined();
        expect(await tx.ticketUsage("client")).toEqual({ used: 0 });
        expect(await tx.rememberedAnswer("key")).toBeUndefined();
      });
      expect((await store.list("leads")).map((l) => l.reference)).toEqual(["lead-kept"]);
      files.fault = undefined;
      await store.checkWritable();
      await store.transaction(async (tx) => tx.put("leads", lead("lead-after")));
      await store.close();
      const journal = await readFile(journal0(file), "utf8");
      expect(journal).not.toContain("lead-failed");
      const reopened = await LowdbStore.open(file);
      expect((await reopened.list("leads")).map((l) => l.reference)).toEqual(["lead-kept", "lead-after"]);
      expect(await reopened.ticketUsage("client")).toEqual({ used: 0 });
      await reopened.close();
    }
  });

  /**
   * A kill after the failure: the data folder is copied while the store is still open (nothing is
   * cut off by a clean close), and a store opened on the copy must hold nothing of the three
   * transactions answered with an error. The three go in one group commit, after one that worked.
   */
  const cases: { name: string; when: "before" | "during" | "mark"; fault: "ENOSPC" | "EROFS" | "EIO" }[] = [
    { name: "ENOSPC (part of the batch written)", when: "before", fault: "ENOSPC" },
    { name: "EROFS", when: "before", fault: "EROFS" },
    { name: "EIO (the batch written, its fsync failed)", when: "before", fault: "EIO" },
    { name: "EROFS arriving while the batch was being written", when: "during", fault: "EROFS" },
    { name: "EIO arriving while the batch was being written", when: "during", fault: "EIO" },
    { name: "EIO arriving while the batch's end was being written", when: "mark", fault: "EIO" },
  ];
  for (const { name, when, fault } of cases) {
    it(`keeps nothing of a failed batch after a kill: ${name}`, async () => {
      const file = await freshFile();
      const files = new FaultyFiles();
      const store = await LowdbStore.open(file, { files, control: false });
      let armed = false;
      files.beforeWrite = (data) => {
        if (!data.includes("lead-failed")) return;
        armed = true;
        if (when === "before") files.fault = fault;
      };
      files.afterWrite = (data) => {
        if (armed && (when === "during" || (when === "mark" && !data.includes("lead-failed")))) files.fault = fault;
      };
      const outcomes = await Promise.allSettled(
        ["lead-kept", "lead-failed-1", "lead-failed-2", "lead-failed-3"].map((reference) => store.transaction(async (tx) => tx.put("leads", lead(reference)))),
      );
      expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "rejected", "rejected"]);
      expect(armed).toBe(true);
      // Killed here: what is on disk now is all a restart finds.
      const copy = join(await tempDir("frontdesk-killed-"), "frontdesk.json");
      folders.push(join(copy, ".."));
      await cp(join(file, ".."), join(copy, ".."), { recursive: true, filter: (from) => !from.endsWith(".lock") && !from.endsWith(".sock") });
      const restarted = await LowdbStore.open(copy, { control: false });
      expect((await restarted.list("leads")).map((l) => l.reference)).toEqual(["lead-kept"]);
      await restarted.transaction(async (tx) => tx.put("leads", lead("lead-after")));
      await restarted.close();
      const again = await LowdbStore.open(copy, { control: false });
      expect((await again.list("leads")).map((l) => l.reference)).toEqual(["lead-kept", "lead-after"]);
      await again.close();
      files.fault = undefined;
      await store.close();
    });
  }
});
