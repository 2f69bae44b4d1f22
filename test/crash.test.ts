import { access, rm } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { LowdbStore } from "../src/store/lowdb-store.js";
import { builtCatalog } from "./helpers/app.js";
import { tempDir } from "./helpers/content.js";
import { startBackend } from "./helpers/postgres.js";
import { startServer } from "./helpers/server.js";

/**
 * Crash safety on both stores: the server is killed with SIGKILL during a burst of concurrent
 * lead submissions; every reference it acknowledged with 200 must be stored, and a restart on the
 * same data must serve it.
 */
async function killDuringBurst(
  env: Record<string, string>,
  storedReferences: () => Promise<Set<string>>,
  kill: { after: number; when?: () => Promise<boolean> } = { after: 200 },
): Promise<void> {
  const { child, url } = await startServer(env);
  const acknowledged: string[] = [];
  let stop = false;
  const client = async (n: number) => {
    for (let i = 0; !stop; i++) {
      try {
        const res = await fetch(`${url}/api/v1/leads/intent`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ description: `lead ${n}-${i}`, conversationId: `c-${n}-${i}` }),
        });
        if (res.status === 200) acknowledged.push(((await res.json()) as { data: { reference: string } }).data.reference);
      } catch {
        return; // the server is gone
      }
    }
  };
  const clients = Array.from({ length: 16 }, (_, n) => client(n));
  const deadline = Date.now() + 30_000;
  while (acknowledged.length < kill.after || !(await (kill.when?.() ?? true))) {
    if (Date.now() > deadline) throw new Error(`the moment to kill never came (${acknowledged.length} leads acknowledged)`);
    await new Promise((r) => setTimeout(r, 1));
  }
  child.kill("SIGKILL");
  stop = true;
  await Promise.all(clients);

  const stored = await storedReferences();
  expect(acknowledged.filter((r) => !stored.has(r))).toEqual([]);

  // A restart (taking over the stale lock on lowdb) serves the same data.
  const again = await startServer(env);
  const res = await fetch(`${again.url}/api/v1/leads/intent`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ description: "again", conversationId: "c-0-0" }),
  });
  expect(((await res.json()) as { data: { duplicate: boolean } }).data.duplicate).toBe(true);
  again.child.kill("SIGTERM");
  await new Promise((r) => again.child.once("exit", r));
}

const backend = await startBackend();
afterAll(() => backend.stop());

const folders: string[] = [];
afterAll(() => Promise.all(folders.map((f) => rm(f, { recursive: true, force: true }))));

/** The leads in the embedded store's files, read as the next start reads them (taking the dead server's lock over). */
async function storedLeads(dataFile: string): Promise<Set<string>> {
  const store = await LowdbStore.open(dataFile, { lockStaleMs: 2000, control: false });
  try {
    return new Set((await store.list("leads")).map((l) => l.reference));
  } finally {
    await store.close();
  }
}

describe("crash safety", () => {
  it("lowdb keeps every acknowledged lead when the server is killed mid-burst", async () => {
    const folder = await tempDir("frontdesk-crash-");
    folders.push(folder);
    const dataFile = join(folder, "frontdesk.json");
    await killDuringBurst({ FRONTDESK_CATALOG: await builtCatalog(), FRONTDESK_DATA: dataFile, FRONTDESK_LOCK_STALE_MS: "2000" }, () => storedLeads(dataFile));
  }, 60_000);

  it("lowdb keeps every acknowledged and every earlier lead when the server is killed while it compacts", async () => {
    const folder = await tempDir("frontdesk-crash-");
    folders.push(folder);
    const dataFile = join(folder, "frontdesk.json");
    // A journal past the compaction threshold (16 MiB): the server's first append starts one.
    const seed = await LowdbStore.open(dataFile, { compaction: { minBytes: Infinity, ratio: 0 }, control: false });
    for (let batch = 0; batch < 80; batch++) {
      await seed.transaction(async (tx) => {
        for (let i = 0; i < 100; i++) await tx.put("leads", { reference: `lead-seed-${batch}-${i}`, createdAt: new Date().toISOString(), description: "z".repeat(2100) });
      });
    }
    await seed.close();
    const compacting = () => access(`${dataFile}.tmp`).then(() => true, () => false);
    await killDuringBurst({ FRONTDESK_CATALOG: await builtCatalog(), FRONTDESK_DATA: dataFile, FRONTDESK_LOCK_STALE_MS: "2000" }, async () => {
      const stored = await storedLeads(dataFile);
      expect([...stored].filter((r) => r.startsWith("lead-seed-"))).toHaveLength(8000);
      return stored;
    }, { after: 1, when: compacting });
  }, 90_000);

  it(`PostgreSQL (${backend.name}) keeps every acknowledged lead when the server is killed mid-burst`, async () => {
    await killDuringBurst({ FRONTDESK_CATALOG: await builtCatalog(), DATABASE_URL: backend.url }, async () => {
      const db = new pg.Client({ connectionString: backend.url });
      await db.connect();
      try {
        const { rows } = await db.query<{ reference: string }>("SELECT reference FROM frontdesk_records WHERE collection = 'leads'");
        return new Set(rows.map((r) => r.reference));
      } finally {
        await db.end();
      }
    });
  }, 60_000);
});
