import pg from "pg";
import type { State } from "./model.js";
import {
  COLLECTIONS, EMAIL_FIELDS, ERASURE, IDEMPOTENCY_TTL_MS, expiryCutoffs, StorageUnavailable, StoreError,
  type Collection, type Erasure, type RememberedAnswer, type Store, type StoredRecord, type TicketUsage, type Transaction,
} from "./store.js";

/**
 * The shared store: PostgreSQL, for several stateless instances behind a load balancer.
 *
 * Instances do not coordinate in memory, so every read a handler bases a decision on is made
 * safe in the database: the ticket-usage row is locked (SELECT ... FOR UPDATE), and lookups by
 * conversation, e-mail and idempotency key first take a transaction-scoped advisory lock on that
 * key, so two instances deciding about the same key take turns while other keys run in parallel.
 * As on lowdb, writes are staged and executed just before COMMIT: reads inside a transaction see
 * the state before it, and a callback that throws leaves nothing behind.
 */

/** Applied in order, each once; append only, never edit one that has shipped. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE frontdesk_records (
     seq bigint GENERATED ALWAYS AS IDENTITY,
     collection text NOT NULL,
     reference text NOT NULL,
     data jsonb NOT NULL,
     conversation_id text GENERATED ALWAYS AS (data->>'conversationId') STORED,
     email text GENERATED ALWAYS AS (data->>'email') STORED,
     PRIMARY KEY (collection, reference)
   );
   CREATE INDEX frontdesk_records_order ON frontdesk_records (collection, seq);
   CREATE INDEX frontdesk_leads_conversation ON frontdesk_records (conversation_id) WHERE collection = 'leads';
   CREATE INDEX frontdesk_waitlist_email ON frontdesk_records (email) WHERE collection = 'waitlist';
   CREATE TABLE frontdesk_ticket_usage (
     client_id text PRIMARY KEY,
     used integer NOT NULL DEFAULT 0,
     email text
   );
   -- json, not jsonb: a replay must return the first answer's bytes, key order included.
   CREATE TABLE frontdesk_idempotency (
     key text PRIMARY KEY,
     answer json NOT NULL,
     created_at timestamptz NOT NULL
   );
   CREATE INDEX frontdesk_idempotency_age ON frontdesk_idempotency (created_at);`,
];

/** How long opening a connection (or waiting for a free one in the pool) may take. */
const CONNECT_TIMEOUT_MS = 5000;

interface Statement {
  text: string;
  values: unknown[];
}

export interface PostgresOptions {
  poolSize?: number;
  clock?: () => Date;
  /** Reviews older than this many days are removed at start and every hour; undefined keeps everything. */
  retentionDays?: number;
}

/** How often the retention period is applied. */
const RETENTION_EVERY_MS = 60 * 60 * 1000;

export class PostgresStore implements Store {
  private readonly name: string;
  private readonly retentionTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly pool: pg.Pool,
    databaseUrl: string,
    private readonly clock: () => Date,
    private readonly retentionDays: number | undefined,
  ) {
    this.name = `PostgreSQL at ${address(databaseUrl)}`;
    // Logged questions expire whatever the retention period. A failed round (the database away)
    // is simply the next hour's work.
    this.retentionTimer = setInterval(() => void this.removeExpired().catch(() => undefined), RETENTION_EVERY_MS).unref();
  }

  /** Connects, applies pending migrations, and fails with one clear message if it cannot. */
  static async open(databaseUrl: string, options: PostgresOptions = {}): Promise<PostgresStore> {
    const pool = newPool(databaseUrl, options.poolSize ?? 10);
    try {
      await prepare(pool, databaseUrl);
    } catch (error) {
      await pool.end();
      throw error;
    }
    const store = new PostgresStore(pool, databaseUrl, options.clock ?? (() => new Date()), options.retentionDays);
    await store.removeExpired();
    return store;
  }

  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.atomically(async (client) => {
      const staged: Statement[] = [];
      const result = await work(this.transactionOn(client, staged));
      for (const statement of staged) await client.query(statement.text, statement.values);
      return result;
    });
  }

  /**
   * Writes are possible when a write can run: a row inserted and rolled back (a read-only database
   * refuses the insert; a stopped one the connection).
   */
  async checkWritable(): Promise<void> {
    await this.atomically(async (client) => {
      await client.query("INSERT INTO frontdesk_ticket_usage (client_id) VALUES ('frontdesk.readyz') ON CONFLICT (client_id) DO NOTHING");
      throw ROLL_BACK;
    }).catch((error: unknown) => {
      if (error !== ROLL_BACK) throw error;
    });
  }

  /** Runs `work` between BEGIN and COMMIT on one connection; rolls back when it throws. */
  private async atomically<T>(work: (client: pg.PoolClient) => Promise<T>, firstTry = true): Promise<T> {
    const client = await this.pool.connect().catch((error: unknown) => Promise.reject(this.failure(error)));
    // A connection cut while checked out reports on the client, which has no listener then: the
    // next query fails instead, and the process must not crash on the event.
    const ignore = () => undefined;
    client.on("error", ignore);
    try {
      await client.query("BEGIN");
    } catch (error) {
      client.off("error", ignore);
      client.release(error as Error);
      // A pooled connection the server ended meanwhile (a restart, a failover) fails at BEGIN,
      // before anything ran: one more try, on a new connection, is safe.
      if (firstTry) return this.atomically(work, false);
      throw this.failure(error);
    }
    let broken: Error | undefined;
    try {
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      // A connection that cannot even roll back is in an unknown state: destroy it, not reuse it.
      await client.query("ROLLBACK").catch((rollbackError: Error) => (broken = rollbackError));
      throw error === ROLL_BACK ? error : this.failure(error);
    } finally {
      client.off("error", ignore);
      client.release(broken);
    }
  }

  /**
   * What a failed query becomes: StorageUnavailable when the database cannot take writes now (it is
   * unreachable, shutting down, read-only, out of disk or connections); else an error carrying
   * only PostgreSQL's code and message. Its detail, where and the query's parameters quote the
   * data (an e-mail address, say), and are never passed on to a log.
   */
  private failure(error: unknown): Error {
    if (error instanceof pg.DatabaseError) {
      const text = `${error.message} (SQLSTATE ${error.code ?? "unknown"})`;
      return UNAVAILABLE_SQLSTATE.test(error.code ?? "") ? new StorageUnavailable(this.name, text) : new StoreError(`PostgreSQL refused a query: ${text}`);
    }
    // The network failed (a refused or reset connection: a system error), or the driver gave up on it.
    if (typeof (error as NodeJS.ErrnoException).syscall === "string" || error instanceof AggregateError) return new StorageUnavailable(this.name, reason(error));
    if (error instanceof Error && /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/.test(error.message)) {
      return new StorageUnavailable(this.name, error.message);
    }
    return error instanceof Error ? error : new Error(String(error)); // the handler's own (an ApiError), or one already made here
  }

  private transactionOn(client: pg.PoolClient, staged: Statement[]): Transaction {
    // Serializes, across every instance, the transactions that look up the same key; released at COMMIT.
    const lock = (space: string, key: string) => client.query("SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))", [space, key]);
    const stage = (text: string, ...values: unknown[]) => void staged.push({ text, values });
    const firstRecord = async (text: string, value: string) => (await client.query<{ data: StoredRecord }>(text, [value])).rows[0]?.data;
    return {
      findLeadByConversation: async (conversationId) => {
        await lock("frontdesk.leads.conversationId", conversationId);
        return firstRecord("SELECT data FROM frontdesk_records WHERE collection = 'leads' AND conversation_id = $1 ORDER BY seq LIMIT 1", conversationId);
      },
      findWaitlistByEmail: async (email) => {
        await lock("frontdesk.waitlist.email", email);
        return firstRecord("SELECT data FROM frontdesk_records WHERE collection = 'waitlist' AND email = $1 ORDER BY seq LIMIT 1", email);
      },
      ticketUsage: async (clientId) => {
        // The row must exist to be locked; a rollback removes it again.
        await client.query("INSERT INTO frontdesk_ticket_usage (client_id) VALUES ($1) ON CONFLICT (client_id) DO NOTHING", [clientId]);
        return usageOf((await client.query("SELECT used, email FROM frontdesk_ticket_usage WHERE client_id = $1 FOR UPDATE", [clientId])).rows[0]);
      },
      rememberedAnswer: async (key) => {
        await lock("frontdesk.idempotency", key);
        const { rows } = await client.query<{ answer: RememberedAnswer }>(
          "SELECT answer FROM frontdesk_idempotency WHERE key = $1 AND created_at > $2",
          [key, new Date(this.clock().getTime() - IDEMPOTENCY_TTL_MS)],
        );
        return rows[0]?.answer;
      },
      put: async (collection, record) =>
        stage(
          `INSERT INTO frontdesk_records (collection, reference, data) VALUES ($1, $2, $3::jsonb)
           ON CONFLICT (collection, reference) DO UPDATE SET data = EXCLUDED.data`,
          collection, record.reference, JSON.stringify(record),
        ),
      setTicketUsage: async (clientId, usage) =>
        stage(
          `INSERT INTO frontdesk_ticket_usage (client_id, used, email) VALUES ($1, $2, $3)
           ON CONFLICT (client_id) DO UPDATE SET used = EXCLUDED.used, email = EXCLUDED.email`,
          clientId, usage.used, usage.email ?? null,
        ),
      remember: async (key, answer) => {
        stage(
          `INSERT INTO frontdesk_idempotency (key, answer, created_at) VALUES ($1, $2::json, $3)
           ON CONFLICT (key) DO UPDATE SET answer = EXCLUDED.answer, created_at = EXCLUDED.created_at`,
          key, JSON.stringify(answer), answer.createdAt,
        );
        // Like lowdb, forget answers well past their lifetime whenever a new one is remembered.
        stage("DELETE FROM frontdesk_idempotency WHERE created_at < $1", new Date(this.clock().getTime() - 2 * IDEMPOTENCY_TTL_MS));
      },
    };
  }

  async ticketUsage(clientId: string): Promise<TicketUsage> {
    return usageOf((await this.query<{ used: number; email: string | null }>("SELECT used, email FROM frontdesk_ticket_usage WHERE client_id = $1", [clientId])).rows[0]);
  }

  async list(collection: Collection): Promise<StoredRecord[]> {
    const { rows } = await this.query<{ data: StoredRecord }>("SELECT data FROM frontdesk_records WHERE collection = $1 ORDER BY seq", [collection]);
    return rows.map((r) => r.data);
  }

  private query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    return this.pool.query<R>(text, values).catch((error: unknown) => Promise.reject(this.failure(error)));
  }

  /** Removes the records their collection no longer keeps (RETENTION). */
  private async removeExpired(): Promise<void> {
    for (const [collection, cutoff] of expiryCutoffs(this.retentionDays, this.clock())) {
      await this.query("DELETE FROM frontdesk_records WHERE collection = $1 AND data->>'createdAt' < $2", [collection, cutoff]);
    }
  }

  async *records(collection: Collection, since?: string): AsyncIterable<StoredRecord> {
    // Keyset pages: constant memory however many records there are.
    let after = 0;
    for (;;) {
      const { rows } = await this.query<{ seq: string; data: StoredRecord }>(
        `SELECT seq, data FROM frontdesk_records WHERE collection = $1 AND seq > $2 AND ($3::text IS NULL OR data->>'createdAt' >= $3)
         ORDER BY seq LIMIT ${EXPORT_PAGE}`,
        [collection, after, since ?? null],
      );
      for (const row of rows) yield row.data;
      if (rows.length < EXPORT_PAGE) return;
      after = Number(rows[rows.length - 1]!.seq);
    }
  }

  erase(email: string): Promise<Erasure[]> {
    const address = email.toLowerCase();
    return this.atomically(async (client) => {
      const changes: Erasure[] = [];
      const matches = `lower(data->>'email') = $1 OR lower(data->>'contactEmail') = $1`;
      const deleted = Object.keys(ERASURE).filter((c) => ERASURE[c as Collection] === "deleted");
      const removed = await client.query<{ collection: Collection; reference: string }>(
        `DELETE FROM frontdesk_records WHERE collection = ANY($2) AND (${matches}) RETURNING collection, reference`, [address, deleted]);
      changes.push(...removed.rows.map((r) => ({ ...r, action: "deleted" as const })));
      const anonymised = await client.query<{ collection: Collection; reference: string }>(
        `UPDATE frontdesk_records SET data = data - $3::text[] WHERE NOT collection = ANY($2) AND (${matches}) RETURNING collection, reference`,
        [address, deleted, [...EMAIL_FIELDS]]);
      changes.push(...anonymised.rows.map((r) => ({ ...r, action: "anonymised" as const })));
      const usage = await client.query<{ client_id: string }>("UPDATE frontdesk_ticket_usage SET email = NULL WHERE lower(email) = $1 RETURNING client_id", [address]);
      changes.push(...usage.rows.map((r) => ({ collection: "ticketUsage" as const, reference: r.client_id, action: "anonymised" as const })));
      const answers = await client.query<{ key: string }>("DELETE FROM frontdesk_idempotency WHERE position($1 in lower(answer::text)) > 0 RETURNING key", [address]);
      changes.push(...answers.rows.map((r) => ({ collection: "idempotency" as const, reference: r.key, action: "deleted" as const })));
      return changes;
    });
  }

  /**
   * Adds what another store holds (`frontdesk migrate --from-file`), in its order, in one
   * transaction: records and remembered answers that exist already are left as they are, an
   * allowance keeps the larger count. Returns how many records were new.
   */
  async import(state: State): Promise<number> {
    return this.atomically(async (client) => {
      let added = 0;
      for (const collection of COLLECTIONS) {
        const records = state.collections[collection];
        for (let from = 0; from < records.length; from += IMPORT_BATCH) {
          const batch = records.slice(from, from + IMPORT_BATCH);
          const { rowCount } = await client.query(
            `INSERT INTO frontdesk_records (collection, reference, data)
             SELECT $1, reference, data FROM unnest($2::text[], $3::jsonb[]) WITH ORDINALITY AS t(reference, data, n) ORDER BY n
             ON CONFLICT (collection, reference) DO NOTHING`,
            [collection, batch.map((r) => r.reference), batch.map((r) => JSON.stringify(r))],
          );
          added += rowCount ?? 0;
        }
      }
      for (const [clientId, usage] of state.ticketUsage) {
        await client.query(
          `INSERT INTO frontdesk_ticket_usage (client_id, used, email) VALUES ($1, $2, $3)
           ON CONFLICT (client_id) DO UPDATE SET used = GREATEST(frontdesk_ticket_usage.used, EXCLUDED.used), email = COALESCE(frontdesk_ticket_usage.email, EXCLUDED.email)`,
          [clientId, usage.used, usage.email ?? null],
        );
      }
      for (const [key, answer] of state.idempotency) {
        await client.query("INSERT INTO frontdesk_idempotency (key, answer, created_at) VALUES ($1, $2::json, $3) ON CONFLICT (key) DO NOTHING", [key, JSON.stringify(answer), answer.createdAt]);
      }
      return added;
    });
  }

  async close(): Promise<void> {
    clearInterval(this.retentionTimer);
    await this.pool.end();
  }
}

const EXPORT_PAGE = 500;
const IMPORT_BATCH = 1000;

/** Thrown to end checkWritable's transaction in a rollback. */
const ROLL_BACK = new Error("rolled back on purpose");

/**
 * SQLSTATEs that mean the database cannot take writes now, whatever was asked: connection
 * exceptions (08), read-only transactions (25006), insufficient resources such as a full disk (53),
 * and operator intervention such as a shutdown (57P).
 */
const UNAVAILABLE_SQLSTATE = /^(08|25006|53|57P)/;

function usageOf(row: { used: number; email: string | null } | undefined): TicketUsage {
  return { used: row?.used ?? 0, ...(row?.email ? { email: row.email } : {}) };
}

/**
 * Brings the schema up to date and returns the versions it applied (`frontdesk migrate`; the
 * store does the same when it opens).
 */
export async function migrate(databaseUrl: string): Promise<number[]> {
  const pool = newPool(databaseUrl, 1);
  try {
    return await prepare(pool, databaseUrl);
  } finally {
    await pool.end();
  }
}

function newPool(databaseUrl: string, size: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: size, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // A pooled connection that breaks while idle (server restart, network) is discarded by the
  // pool and replaced on next use; without a listener it would crash the process instead.
  pool.on("error", () => undefined);
  return pool;
}

/**
 * Connects and applies the pending migrations. Safe when several instances start at once: one
 * transaction under an advisory lock, so the others wait and then find nothing left to do.
 */
async function prepare(pool: pg.Pool, databaseUrl: string): Promise<number[]> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw new StoreError(
      `cannot connect to PostgreSQL at ${address(databaseUrl)}: ${reason(error)}. Check that the server is running and reachable from here, and that DATABASE_URL names the right host, port, database, user and password.`,
    );
  }
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock(hashtext('frontdesk.migrations'))");
    await client.query("CREATE TABLE IF NOT EXISTS frontdesk_schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())");
    const { rows } = await client.query<{ version: number }>("SELECT version FROM frontdesk_schema_migrations");
    const done = new Set(rows.map((r) => r.version));
    const applied: number[] = [];
    for (const [index, sql] of MIGRATIONS.entries()) {
      const version = index + 1;
      if (done.has(version)) continue;
      await client.query(sql);
      await client.query("INSERT INTO frontdesk_schema_migrations (version) VALUES ($1)", [version]);
      applied.push(version);
    }
    await client.query("COMMIT");
    return applied;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw new StoreError(`migrating the PostgreSQL database at ${address(databaseUrl)} failed: ${reason(error)}. Nothing was changed.`);
  } finally {
    client.release();
  }
}

/** Where DATABASE_URL points, without the password. */
function address(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname || "localhost"}:${url.port || "5432"}${url.pathname}`;
  } catch {
    return "DATABASE_URL (which is not a valid postgres:// address)";
  }
}

/** The driver's reason; a refused connection to a name with several addresses arrives as an AggregateError without a message. */
function reason(error: unknown): string {
  if (error instanceof AggregateError && error.message === "") return [...new Set(error.errors.map(reason))].join("; ");
  if (error instanceof Error) return error.message || ((error as NodeJS.ErrnoException).code ?? error.name);
  return String(error);
}
