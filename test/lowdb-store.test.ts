import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LowdbStore } from "../src/store/lowdb-store.js";
import { tempDir } from "./helpers/content.js";
import { storeContract } from "./store-contract.js";

const freshFile = async () => join(await tempDir("frontdesk-store-"), "nested", "frontdesk.json");

storeContract("lowdb", async () => LowdbStore.open(await freshFile()));

describe("lowdb store on disk", () => {
  it("has the data on disk, readable by its owner only, when a transaction resolves", async () => {
    const file = await freshFile();
    const store = await LowdbStore.open(file);
    await store.transaction(async (tx) => tx.put("leads", { reference: "lead-1", createdAt: "x" }));
    expect(JSON.parse(await readFile(file, "utf8")).leads).toEqual([{ reference: "lead-1", createdAt: "x" }]);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await store.close();
    const reopened = await LowdbStore.open(file);
    expect(await reopened.list("leads")).toHaveLength(1);
    await reopened.close();
  });

  it("carries many concurrent transactions in few file writes", async () => {
    const store = await LowdbStore.open(await freshFile());
    const writes: number[] = [];
    const db = (store as unknown as { db: { write: () => Promise<void> } }).db;
    const original = db.write.bind(db);
    db.write = async () => {
      writes.push(Date.now());
      return original();
    };
    await Promise.all(Array.from({ length: 100 }, (_, i) => store.transaction(async (tx) => tx.put("leads", { reference: `lead-${i}`, createdAt: "x" }))));
    expect(await store.list("leads")).toHaveLength(100);
    expect(writes.length).toBeLessThan(10);
    await store.close();
  });

  it("refuses a second opener of the same file with a clear message", async () => {
    const file = await freshFile();
    const store = await LowdbStore.open(file);
    await expect(LowdbStore.open(file)).rejects.toThrow(/already open in this process/);
    await store.close();
    // A lock left by a process that no longer exists is taken over.
    await writeFile(`${file}.lock`, "999999999");
    const again = await LowdbStore.open(file);
    await again.close();
  });

  it("reports a corrupt file and leaves it untouched", async () => {
    const file = await freshFile();
    const store = await LowdbStore.open(file);
    await store.close();
    await writeFile(file, '{"version":1,"leads":[{"refer');
    await expect(LowdbStore.open(file)).rejects.toThrow(/is corrupt .* left untouched/);
    expect(await readFile(file, "utf8")).toBe('{"version":1,"leads":[{"refer');
  });

  it("does not acknowledge a write that did not reach the disk", async () => {
    const store = await LowdbStore.open(await freshFile());
    const db = (store as unknown as { db: { write: () => Promise<void> } }).db;
    const original = db.write.bind(db);
    db.write = async () => {
      throw new Error("ENOSPC: no space left on device");
    };
    await expect(store.transaction(async (tx) => tx.put("leads", { reference: "lead-1", createdAt: "x" }))).rejects.toThrow("ENOSPC");
    db.write = original;
    await store.transaction(async (tx) => tx.put("leads", { reference: "lead-2", createdAt: "x" }));
    await store.close();
  });
});
