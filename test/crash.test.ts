import { readFile } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { builtCatalog } from "./helpers/app.js";
import { tempDir } from "./helpers/content.js";
import { startBackend } from "./helpers/postgres.js";
import { startServer } from "./helpers/server.js";

/**
 * Crash safety on both stores: the server is killed with SIGKILL during a burst of concurrent
 * lead submissions; every reference it acknowledged with 200 must be stored, and a restart on the
 * same data must serve it.
 */
async function killDuringBurst(env: Record<string, string>, storedReferences: () => Promise<Set<string>>): Promise<void> {
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
  while (acknowledged.length < 200) await new Promise((r) => setTimeout(r, 5));
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

describe("crash safety", () => {
  it("lowdb keeps every acknowledged lead when the server is killed mid-burst", async () => {
    const dataFile = join(await tempDir("frontdesk-crash-"), "frontdesk.json");
    await killDuringBurst({ FRONTDESK_CATALOG: await builtCatalog(), FRONTDESK_DATA: dataFile }, async () => {
      const saved = JSON.parse(await readFile(dataFile, "utf8")) as { leads: { reference: string }[] };
      return new Set(saved.leads.map((l) => l.reference));
    });
  }, 60_000);

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
