import { execFileSync } from "node:child_process";
import { cp, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";
import { LiveCatalog } from "../src/catalog/live.js";
import { LowdbStore } from "../src/store/lowdb-store.js";
import { PostgresStore } from "../src/store/postgres-store.js";
import type { Store } from "../src/store/store.js";
import { BASE_URL, builtCatalog } from "./helpers/app.js";
import { tempDir } from "./helpers/content.js";
import { FaultyFiles, type Fault } from "./helpers/faulty-files.js";
import { startBackend } from "./helpers/postgres.js";
import { TcpProxy } from "./helpers/tcp-proxy.js";

/**
 * Faults of the disk and the database, on both stores, as a client meets them through the API.
 * Before, during and after each fault, leads (with Idempotency-Keys and conversationIds), ticket
 * reviews and waitlist sign-ups are sent. During the fault every write gets 503
 * storage_unavailable with Retry-After (one log line each, naming the cause and nothing of the
 * request), retries included, and /readyz 503 names the store; once it is over, /readyz recovers
 * by itself. After a restart: every acknowledged reference is stored, nothing of a failed request
 * is, and each allowance counts exactly the delivered reviews.
 */
interface Environment {
  /** Opens the store on the same data (a restart when called again). */
  open(): Promise<Store>;
  inject(): Promise<void>;
  heal(): Promise<void>;
  /** What the log and /readyz must name. */
  cause: RegExp;
  /**
   * Every write fails while the fault lasts. Not so on a real full disk: an append that fits in
   * the space the journal's last block already has still succeeds (and is durable, so its 200 is
   * true); there, each answer is 200 or 503, and at least one is 503.
   */
  exact: boolean;
  /**
   * A kill, simulated: copies the data as it is on disk now, with the store still open (nothing
   * cut off by a clean close), and returns how to open a store on the copy.
   */
  kill?: () => Promise<() => Promise<Store>>;
}

const BUG = "## Steps to reproduce\n1. Open the invoice page\n2. Click Export\n## Expected\nA PDF download.";
const catalogDir = await builtCatalog();
const folders: string[] = [];
const backend = await startBackend();
afterAll(async () => {
  await backend.stop();
  await Promise.all(folders.map((f) => rm(f, { recursive: true, force: true })));
});

async function faultScenario(name: string, env: Environment): Promise<void> {
  const catalog = await LiveCatalog.open(catalogDir, BASE_URL);
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({ write: (chunk, _enc, done) => (lines.push(JSON.parse(chunk.toString())), done()) });
  let store = await env.open();
  let app = await createApp({ catalog, store, config: { publicBaseUrl: BASE_URL }, logger: { level: "error", stream } });
  try {
    await scenario();
  } finally {
    await app.close();
    await store.close();
    catalog.close();
  }

  async function scenario() {
  const acknowledged = { leads: new Set<string>(), ticketReviews: new Set<string>(), waitlist: new Set<string>() };
  const delivered = new Map<string, number>();
  const personal: string[] = [];
  let failures = 0;

  async function post(url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) {
    const res = await app.inject({ method: "POST", url, payload, headers });
    const body = JSON.parse(res.body);
    if (res.statusCode === 200) {
      if (url.endsWith("/leads/intent")) acknowledged.leads.add(body.data.reference);
      if (url.endsWith("/waitlist")) acknowledged.waitlist.add(body.data.reference);
      if (url.endsWith("/tickets/review")) {
        acknowledged.ticketReviews.add(body.data.reference);
        delivered.set(payload.clientId as string, (delivered.get(payload.clientId as string) ?? 0) + 1);
      }
    }
    return { status: res.statusCode, headers: res.headers, body };
  }
  const lead = (n: string, extra: Record<string, unknown> = {}) => {
    const email = `person-${name}-${n}@example.com`.toLowerCase().replace(/[^a-z0-9@.-]/g, "-");
    personal.push(email, `Lead ${n} of ${name}`);
    // Larger than a memory page, so that on a full disk its append needs a new block.
    return { description: `Lead ${n} of ${name}. ${"Needs a booking app. ".repeat(250)}`, email, ...extra };
  };
  const ticket = (clientId: string) => ({ ticketText: BUG, clientId });

  // Before: the store works.
  expect((await post("/api/v1/leads/intent", lead("before"))).status).toBe(200);
  expect((await post("/api/v1/tickets/review", ticket("client-a"))).status).toBe(200);

  await env.inject();
  // Kills simulated during the fault: what each copy must hold is what was acknowledged by then.
  const kills: { open: () => Promise<Store>; acknowledged: Record<keyof typeof acknowledged, string[]>; delivered: Map<string, number> }[] = [];
  const killHere = async () => {
    if (!env.kill) return;
    const open = await env.kill();
    kills.push({ open, acknowledged: { leads: [...acknowledged.leads], ticketReviews: [...acknowledged.ticketReviews], waitlist: [...acknowledged.waitlist] }, delivered: new Map(delivered) });
  };
  const during = [
    await post("/api/v1/leads/intent", lead("keyed"), { "idempotency-key": "key-during" }),
    await post("/api/v1/leads/intent", lead("keyed"), { "idempotency-key": "key-during" }),
    await post("/api/v1/leads/intent", lead("conversation", { conversationId: "conv-during" })),
    await post("/api/v1/leads/intent", lead("conversation again", { conversationId: "conv-during" })),
    ...(await Promise.all(Array.from({ length: 6 }, () => post("/api/v1/tickets/review", ticket("client-b"))))),
  ];
  await killHere();
  during.push(await post("/api/v1/waitlist", { name: "Ann", email: `ann-${name.replace(/\W/g, "-")}@example.com` }));
  await killHere();
  for (const answer of during) {
    // On a real disk: stored (200), or refused for the reviews that were (429).
    if (!env.exact && (answer.status === 200 || answer.body.error?.code === "free_limit_reached")) continue;
    expect(answer.status, JSON.stringify(answer.body)).toBe(503);
    expect(answer.body.error.code).toBe("storage_unavailable");
    expect(answer.headers["retry-after"]).toBe("5");
    failures++;
  }
  expect(failures).toBeGreaterThan(0);
  if (env.exact) {
    const notReady = await app.inject({ method: "GET", url: "/readyz" });
    expect(notReady.statusCode).toBe(503);
    expect(JSON.parse(notReady.body).error.message).toMatch(env.cause);
  }

  await env.heal();
  // Ready again by itself: /readyz tries a write.
  await expect.poll(async () => (await app.inject({ method: "GET", url: "/readyz" })).statusCode, { timeout: 15_000, interval: 200 }).toBe(200);
  const keyed = during.slice(0, 2).find((a) => a.status === 200);
  const retried = await post("/api/v1/leads/intent", lead("keyed"), { "idempotency-key": "key-during" });
  expect(retried.status).toBe(200);
  if (keyed) expect(retried.body.data.reference).toBe(keyed.body.data.reference);
  expect((await post("/api/v1/leads/intent", lead("keyed"), { "idempotency-key": "key-during" })).body.data.reference).toBe(retried.body.data.reference);
  // A conversation whose lead failed was never stored: its next lead is new.
  const conversation = during.slice(2, 4).find((a) => a.status === 200);
  expect((await post("/api/v1/leads/intent", lead("conversation", { conversationId: "conv-during" }))).body.data.duplicate).toBe(conversation !== undefined);
  const left = 5 - (delivered.get("client-b") ?? 0);
  const reviews = await Promise.all(Array.from({ length: 7 }, () => post("/api/v1/tickets/review", ticket("client-b"))));
  // The failed reviews used none of the five free ones.
  expect(reviews.filter((r) => r.status === 200)).toHaveLength(left);
  expect(reviews.filter((r) => r.status === 429)).toHaveLength(7 - left);

  // One line per failed request, naming the cause, with nothing of what the request carried.
  const storageLines = lines.filter((l) => String(l.msg).startsWith("storage unavailable: "));
  expect(storageLines).toHaveLength(failures);
  for (const line of storageLines) expect(String(line.msg)).toMatch(env.cause);
  const logged = JSON.stringify(lines).toLowerCase();
  for (const text of personal) expect(logged).not.toContain(text.toLowerCase());

  // Restart.
  await app.close();
  await store.close();
  store = await env.open();
  app = await createApp({ catalog, store, config: { publicBaseUrl: BASE_URL } });
  for (const collection of ["leads", "ticketReviews", "waitlist"] as const) {
    const stored = new Set((await store.list(collection)).map((r) => r.reference));
    expect([...stored].sort(), `${collection}: stored = acknowledged`).toEqual([...acknowledged[collection]].sort());
  }
  for (const clientId of ["client-a", "client-b"]) {
    expect((await store.ticketUsage(clientId)).used, `allowance of ${clientId}`).toBe(delivered.get(clientId));
    expect((await store.list("ticketReviews")).filter((r) => r.clientId === clientId)).toHaveLength(delivered.get(clientId)!);
  }

  // Started again after a kill during the fault: what was acknowledged by then, and nothing else.
  for (const [n, kill] of kills.entries()) {
    const killed = await kill.open();
    try {
      for (const collection of ["leads", "ticketReviews", "waitlist"] as const) {
        const stored = (await killed.list(collection)).map((r) => r.reference).sort();
        expect(stored, `kill ${n + 1}, ${collection}: stored = acknowledged by then`).toEqual([...kill.acknowledged[collection]].sort());
      }
      for (const clientId of ["client-a", "client-b"]) {
        expect((await killed.ticketUsage(clientId)).used, `kill ${n + 1}, allowance of ${clientId}`).toBe(kill.delivered.get(clientId) ?? 0);
      }
    } finally {
      await killed.close();
    }
  }
  }
}

describe("disk faults on the embedded store", () => {
  for (const fault of ["ENOSPC", "EROFS", "EIO"] as Fault[]) {
    it(`${fault}: nothing acknowledged lost, nothing failed kept, allowances exact`, async () => {
      const folder = await tempDir("frontdesk-faults-");
      folders.push(folder);
      const files = new FaultyFiles();
      await faultScenario(`lowdb ${fault}`, {
        open: () => LowdbStore.open(join(folder, "frontdesk.json"), { files }),
        inject: async () => void (files.fault = fault),
        heal: async () => void (files.fault = undefined),
        cause: new RegExp(`embedded store .* cannot save: .*\\(${fault}\\)`),
        exact: true,
      });
    });
  }

  // The same, with the process killed during the fault (EIO: the writes land, their fsync fails).
  for (const fault of ["ENOSPC", "EROFS", "EIO"] as Fault[]) {
    it(`${fault}, killed during the fault: a restart finds nothing of a failed request`, async () => {
      const folder = await tempDir("frontdesk-faults-");
      folders.push(folder);
      const files = new FaultyFiles();
      await faultScenario(`lowdb ${fault} killed`, {
        open: () => LowdbStore.open(join(folder, "frontdesk.json"), { files }),
        inject: async () => void (files.fault = fault),
        heal: async () => void (files.fault = undefined),
        cause: new RegExp(`embedded store .* cannot save: .*\\(${fault}\\)`),
        exact: true,
        kill: async () => {
          const copy = await tempDir("frontdesk-killed-");
          folders.push(copy);
          await cp(folder, copy, { recursive: true, filter: (from) => !from.endsWith(".lock") && !from.endsWith(".sock") });
          return () => LowdbStore.open(join(copy, "frontdesk.json"), { control: false });
        },
      });
    });
  }

  it("a real full tmpfs: 503 while it is full, recovery once space is freed", async (context) => {
    const mount = await mountTmpfs();
    if (typeof mount === "string") {
      context.skip(`a real full disk needs root and a working mount (${mount})`);
      return;
    }
    try {
      const filler = join(mount.dir, "filler");
      await faultScenario("lowdb on a full tmpfs", {
        open: () => LowdbStore.open(join(mount.dir, "data", "frontdesk.json")),
        inject: async () => {
          // Fill every byte: the journal's next append finds no room.
          await writeFile(filler, Buffer.alloc(0));
          for (let size = 1 << 20; size >= 1; size = Math.floor(size / 2)) {
            for (;;) {
              const written = await writeFile(filler, Buffer.alloc(size), { flag: "a" }).then(() => true, () => false);
              if (!written) break;
            }
          }
        },
        heal: () => rm(filler),
        cause: /embedded store .* cannot save: the disk is full \(ENOSPC\)/,
        exact: false,
      });
    } finally {
      mount.unmount();
    }
  });
});

describe(`database faults on PostgreSQL (${backend.name})`, () => {
  it("stopped (unreachable): nothing acknowledged lost, nothing failed kept, allowances exact", async () => {
    const database = await backend.privateDatabase();
    const proxy = new TcpProxy({ host: database.host, port: database.port });
    await proxy.start();
    try {
      await faultScenario("postgresql stopped", {
        open: () => PostgresStore.open(`postgres://postgres@127.0.0.1:${proxy.port}/${database.database}`),
        inject: () => proxy.stop(),
        heal: () => proxy.start(),
        cause: /PostgreSQL at 127\.0\.0\.1:\d+\/\w+ cannot save: .*(ECONNREFUSED|Connection terminated)/,
        exact: true,
      });
    } finally {
      await proxy.stop();
      await database.drop();
    }
  }, 60_000);

  it("read-only: nothing acknowledged lost, nothing failed kept, allowances exact", async () => {
    const database = await backend.privateDatabase();
    try {
      await faultScenario("postgresql read-only", {
        open: () => PostgresStore.open(`postgres://postgres@${database.host}:${database.port}/${database.database}`),
        inject: () => database.setReadOnly(true),
        heal: () => database.setReadOnly(false),
        cause: /PostgreSQL at .* cannot save: cannot execute INSERT in a read-only transaction \(SQLSTATE 25006\)/,
        exact: true,
      });
    } finally {
      await database.setReadOnly(false);
      await database.drop();
    }
  }, 60_000);
});

/** A 1 MiB tmpfs of its own, or why there cannot be one here. */
async function mountTmpfs(): Promise<{ dir: string; unmount(): void } | string> {
  if (process.getuid?.() !== 0) return "not root";
  const dir = await tempDir("frontdesk-tmpfs-");
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", dir], { stdio: "pipe" });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    return `mount failed: ${(error as Error).message.split("\n")[0]}`;
  }
  await mkdir(join(dir, "data"));
  return {
    dir,
    unmount: () => {
      execFileSync("umount", [dir]);
      execFileSync("rmdir", [dir]);
    },
  };
}
