import { execFile, spawn } from "node:child_process";
import { cp, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";
import { LiveCatalog } from "../src/catalog/live.js";
import { LowdbStore } from "../src/store/lowdb-store.js";
import { COLLECTIONS, StoreError } from "../src/store/store.js";
import { migrate, PostgresStore } from "../src/store/postgres-store.js";
import { BASE_URL, builtCatalog } from "./helpers/app.js";
import { tempDir } from "./helpers/content.js";
import { admin, startBackend } from "./helpers/postgres.js";

const run = promisify(execFile);
import { storeContract } from "./store-contract.js";
import { prototypeKeys } from "./store-keys.js";

/** The PostgreSQL store on the backend test/helpers/postgres.ts provides; the suite names it. */
const backend = await startBackend();
console.info(`postgres-store tests run on ${backend.name}`);
afterAll(() => backend.stop());

/** Every test starts from an empty, unmigrated database. */
const emptyDatabase = () =>
  admin(backend.url, "DROP TABLE IF EXISTS frontdesk_records, frontdesk_ticket_usage, frontdesk_idempotency, frontdesk_schema_migrations");

storeContract(`postgresql on ${backend.name}`, async () => {
  await emptyDatabase();
  return PostgresStore.open(backend.url);
});

prototypeKeys(`postgresql on ${backend.name}`, async () => {
  await emptyDatabase();
  return PostgresStore.open(backend.url);
});

describe("postgresql store", () => {
  it("passes on a database error without its detail, where or parameters (they quote the data)", async () => {
    await emptyDatabase();
    const store = await PostgresStore.open(backend.url);
    const error = await store
      .transaction(async (tx) => tx.put("leads", { reference: "lead-x", createdAt: "x", email: "leak.me@victim.example", company: "\ud800" }))
      .then(() => new Error("stored"), (e: unknown) => e as Error);
    await store.close();
    expect(error).toBeInstanceOf(StoreError);
    expect(error.message).toMatch(/^PostgreSQL refused a query: invalid input syntax for type json \(SQLSTATE 22P02\)$/);
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain("leak.me");
    for (const field of ["detail", "where", "parameters", "hint"]) expect((error as unknown as Record<string, unknown>)[field]).toBeUndefined();
  });

  it("applies each migration once when several instances start at once", async () => {
    await emptyDatabase();
    const applied = await Promise.all(Array.from({ length: 4 }, () => migrate(backend.url)));
    expect(applied.flat()).toEqual([1]);
    expect(await migrate(backend.url)).toEqual([]);
  });

  it("forgets idempotent answers after their lifetime", async () => {
    await emptyDatabase();
    const createdAt = new Date().toISOString();
    const later = await PostgresStore.open(backend.url, { clock: () => new Date(Date.now() + 25 * 60 * 60 * 1000) });
    await later.transaction(async (tx) => tx.remember("op:key", { fingerprint: "f", status: 200, body: {}, createdAt }));
    await later.transaction(async (tx) => expect(await tx.rememberedAnswer("op:key")).toBeUndefined());
    await later.close();
  });

  it("removes reviews past FRONTDESK_RETENTION_DAYS when it opens, and keeps what people submitted", async () => {
    await emptyDatabase();
    const seed = await PostgresStore.open(backend.url);
    await seed.transaction(async (tx) => {
      for (const collection of COLLECTIONS) {
        await tx.put(collection, { reference: `${collection}-old`, createdAt: "2026-04-01T00:00:00.000Z" });
        await tx.put(collection, { reference: `${collection}-recent`, createdAt: "2026-05-20T00:00:00.000Z" });
      }
    });
    await seed.close();
    const store = await PostgresStore.open(backend.url, { retentionDays: 30, clock: () => new Date("2026-06-01T00:00:00.000Z") });
    const kept = Object.fromEntries(await Promise.all(COLLECTIONS.map(async (c) => [c, (await store.list(c)).map((r) => r.reference)])));
    await store.close();
    expect(kept).toEqual({
      leads: ["leads-old", "leads-recent"], waitlist: ["waitlist-old", "waitlist-recent"], quoteRequests: ["quoteRequests-old", "quoteRequests-recent"],
      quoteReviews: ["quoteReviews-recent"], ticketReviews: ["ticketReviews-recent"], questions: ["questions-recent"],
    });
  });

  it("removes logged questions after 30 days even when the operator keeps everything else", async () => {
    const seed = await PostgresStore.open(backend.url);
    await seed.transaction(async (tx) => {
      await tx.put("questions", { reference: "q-old", createdAt: "2026-04-20T00:00:00.000Z", kind: "faq", question: "x" });
      await tx.put("questions", { reference: "q-recent", createdAt: "2026-05-20T00:00:00.000Z", kind: "faq", question: "y" });
      await tx.put("ticketReviews", { reference: "t-old", createdAt: "2026-01-01T00:00:00.000Z" });
    });
    await seed.close();
    const store = await PostgresStore.open(backend.url, { clock: () => new Date("2026-06-01T00:00:00.000Z") });
    expect((await store.list("questions")).map((r) => r.reference)).toEqual(["q-recent"]);
    expect((await store.list("ticketReviews")).map((r) => r.reference)).toContain("t-old");
    await store.close();
  });

  it("reports an unreachable database at once, in one message", async () => {
    const error = await PostgresStore.open("postgres://postgres@127.0.0.1:1/test").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(/^cannot connect to PostgreSQL at 127\.0\.0\.1:1\/test: .*ECONNREFUSED.*Check that the server is running/);
  });

  it("makes `frontdesk serve` exit 1 with that message when the database is unreachable", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli.ts", "serve"], {
      env: { ...process.env, FRONTDESK_CATALOG: await builtCatalog(), DATABASE_URL: "postgres://postgres@127.0.0.1:1/test", PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    expect(stderr.trim().split("\n")).toEqual([expect.stringMatching(/^cannot connect to PostgreSQL at 127\.0\.0\.1:1\/test: /)]);
  });
});

describe("frontdesk migrate --from-file", () => {
  it("moves an embedded store's records, allowances and remembered answers into PostgreSQL, once", async () => {
    await emptyDatabase();
    const folder = await tempDir("frontdesk-move-");
    const file = join(folder, "frontdesk.json");
    await cp(fileURLToPath(new URL("fixtures/format-1/frontdesk.json", import.meta.url)), file);
    const source = await LowdbStore.open(file, { control: false });
    await source.transaction(async (tx) => tx.put("leads", { reference: "lead-journal", createdAt: "2026-03-01T00:00:00.000Z", description: "From the journal" }));
    const expected = Object.fromEntries(await Promise.all(COLLECTIONS.map(async (c) => [c, await source.list(c)])));
    await source.close();
    const migrate = () =>
      run(process.execPath, ["--import", "tsx", "src/cli.ts", "migrate", "--from-file", file], { env: { ...process.env, DATABASE_URL: backend.url } });
    expect((await migrate()).stderr).toContain("moved " + file + " into PostgreSQL: 7 records (7 new), 1 allowance, 1 remembered answer");
    expect((await migrate()).stderr).toContain("7 records (0 new)");
    const target = await PostgresStore.open(backend.url);
    for (const collection of COLLECTIONS) expect(await target.list(collection), collection).toEqual(expected[collection]);
    expect(await target.ticketUsage("gpt-format1")).toEqual({ used: 3, email: "dev@example.com" });
    await target.close();
    await rm(folder, { recursive: true, force: true });
  }, 30_000);
});

describe("two instances on one database", () => {
  interface Instance {
    app: FastifyInstance;
    store: PostgresStore;
    catalog: LiveCatalog;
  }
  const instances: Instance[] = [];

  beforeAll(async () => {
    await emptyDatabase();
    const catalogDir = await builtCatalog();
    for (let i = 0; i < 2; i++) {
      const catalog = await LiveCatalog.open(catalogDir, BASE_URL);
      const store = await PostgresStore.open(backend.url);
      instances.push({ app: await createApp({ catalog, store, config: { publicBaseUrl: BASE_URL } }), store, catalog });
    }
  });
  afterAll(async () => {
    for (const { app, store, catalog } of instances) {
      catalog.close();
      await app.close();
      await store.close();
    }
  });

  /** Request `n` goes to instance n % 2, as a round-robin load balancer would send it. */
  async function post(n: number, url: string, payload: unknown, headers: Record<string, string> = {}) {
    const res = await instances[n % 2]!.app.inject({ method: "POST", url, payload: payload as string, headers: { "content-type": "application/json", ...headers } });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  }

  it("gives exactly 5 of 50 parallel ticket reviews for one client", async () => {
    const ticket = { ticketText: "## Steps to reproduce\n1. Open the invoice page\n2. Click Export\n## Expected\nA PDF download.", clientId: "busy-client" };
    const answers = await Promise.all(Array.from({ length: 50 }, (_, n) => post(n, "/api/v1/tickets/review", ticket)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(45).fill(429)]);
    expect(await instances[0]!.store.ticketUsage("busy-client")).toEqual({ used: 5 });
    expect((await instances[1]!.store.list("ticketReviews")).filter((r) => r.clientId === "busy-client")).toHaveLength(5);
  });

  it("replays the first answer when an Idempotency-Key is retried on the other instance", async () => {
    const lead = { description: "Retried through another instance" };
    const first = await post(0, "/api/v1/leads/intent", lead, { "idempotency-key": "retry-1" });
    const retry = await post(1, "/api/v1/leads/intent", lead, { "idempotency-key": "retry-1" });
    expect([first.status, retry.status]).toEqual([200, 200]);
    // The same bytes, key order included, not merely an equal object.
    expect(JSON.stringify(retry.body.data)).toBe(JSON.stringify(first.body.data));
    expect((await instances[0]!.store.list("leads")).filter((l) => l.description === lead.description)).toHaveLength(1);

    // Retries that overtake the first attempt still store it once.
    const racing = { description: "Retried before the first answer came" };
    const answers = await Promise.all([0, 1, 2, 3].map((n) => post(n, "/api/v1/leads/intent", racing, { "idempotency-key": "retry-2" })));
    expect(new Set(answers.map((a) => a.body.data.reference)).size).toBe(1);
    expect((await instances[1]!.store.list("leads")).filter((l) => l.description === racing.description)).toHaveLength(1);
  });

  it("stores one lead for a conversationId sent to both instances at once", async () => {
    const answers = await Promise.all([0, 1, 2, 3].map((n) => post(n, "/api/v1/leads/intent", { description: `attempt ${n}`, conversationId: "conv-shared" })));
    expect(new Set(answers.map((a) => a.body.data.reference)).size).toBe(1);
    expect(answers.filter((a) => a.body.data.duplicate === false)).toHaveLength(1);
    expect((await instances[1]!.store.list("leads")).filter((l) => l.conversationId === "conv-shared")).toHaveLength(1);
  });

  it("refuses a lone surrogate with 400 naming the field, as the embedded store does", async () => {
    const res = await instances[0]!.app.inject({
      method: "POST", url: "/api/v1/leads/intent", headers: { "content-type": "application/json" },
      payload: '{"description":"d","email":"leak.me@victim.example","company":"\\ud800"}',
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).error.details).toEqual([expect.objectContaining({ path: "body.company" })]);
  });

  it("keeps one waitlist entry for an e-mail signed up on both instances at once", async () => {
    await Promise.all([0, 1, 2, 3].map((n) => post(n, "/api/v1/waitlist", { name: `Ann ${n}`, email: "same@example.com" })));
    expect((await instances[0]!.store.list("waitlist")).filter((w) => w.email === "same@example.com")).toHaveLength(1);
  });
});
