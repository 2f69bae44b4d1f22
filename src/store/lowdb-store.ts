import { mkdir, open, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { Low, type Adapter } from "lowdb";
import {
  EMAIL_FIELDS, ERASURE, holdsEmail, IDEMPOTENCY_TTL_MS, StoreError,
  type Collection, type Erasure, type RememberedAnswer, type Store, type StoredRecord, type TicketUsage, type Transaction,
} from "./store.js";

/**
 * The embedded store: one JSON file owned by one process.
 * - durable: a write is acknowledged after temp file + fsync + rename + fsync of the folder;
 * - group commit: while one write is on its way to disk, later transactions pile up in memory and
 *   the next write carries them all;
 * - exclusive: a lock file beside the data file keeps a second process out;
 * - careful: a file that does not parse is reported and left untouched, never reset.
 */
interface Data {
  version: 1;
  leads: StoredRecord[];
  waitlist: StoredRecord[];
  quoteReviews: StoredRecord[];
  quoteRequests: StoredRecord[];
  ticketReviews: StoredRecord[];
  ticketUsage: Record<string, TicketUsage>;
  idempotency: Record<string, RememberedAnswer>;
}

const empty = (): Data => ({
  version: 1, leads: [], waitlist: [], quoteReviews: [], quoteRequests: [], ticketReviews: [], ticketUsage: {}, idempotency: {},
});


class DurableJsonFile implements Adapter<Data> {
  constructor(private readonly file: string) {}

  async read(): Promise<Data | null> {
    let text: string;
    try {
      text = await readFile(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
    try {
      const data = JSON.parse(text) as Data;
      if (data === null || typeof data !== "object" || data.version !== 1) throw new Error("not a Frontdesk data file");
      return { ...empty(), ...data };
    } catch (error) {
      throw new StoreError(
        `data file ${this.file} is corrupt (${(error as Error).message}); it was left untouched. Restore it from a backup, or move it away to start empty.`,
      );
    }
  }

  async write(data: Data): Promise<void> {
    const temporary = `${this.file}.tmp`;
    const handle = await open(temporary, "w", 0o600);
    try {
      await handle.writeFile(JSON.stringify(data));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, this.file);
    const folder = await open(dirname(this.file), "r");
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
  }
}

export class LowdbStore implements Store {
  private queue: Promise<unknown> = Promise.resolve();
  private writing: Promise<void> | undefined;
  private pendingWrite: Promise<void> | undefined;

  private constructor(
    private readonly db: Low<Data>,
    private readonly lockFile: string | undefined,
    private readonly clock: () => Date,
  ) {}

  private get readOnly(): boolean {
    return this.lockFile === undefined;
  }

  /**
   * Opens the data file for this process alone. `readOnly` opens it without the lock, for exports
   * beside a running server: the file is only ever replaced whole, so a read sees a consistent state.
   */
  static async open(file: string, clock: () => Date = () => new Date(), options: { readOnly?: boolean } = {}): Promise<LowdbStore> {
    const db = new Low<Data>(new DurableJsonFile(file), empty());
    if (options.readOnly) {
      await db.read();
      return new LowdbStore(db, undefined, clock);
    }
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    const lockFile = `${file}.lock`;
    await takeLock(lockFile, file);
    try {
      await db.read();
      return new LowdbStore(db, lockFile, clock);
    } catch (error) {
      await rm(lockFile, { force: true });
      throw error;
    }
  }

  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      const staged: (() => void)[] = [];
      const data = this.db.data;
      const tx: Transaction = {
        findLeadByConversation: async (id) => data.leads.find((l) => l.conversationId === id),
        findWaitlistByEmail: async (email) => data.waitlist.find((w) => w.email === email),
        ticketUsage: async (clientId) => ({ ...(data.ticketUsage[clientId] ?? { used: 0 }) }),
        rememberedAnswer: async (key) => {
          const answer = data.idempotency[key];
          return answer && this.clock().getTime() - Date.parse(answer.createdAt) < IDEMPOTENCY_TTL_MS ? answer : undefined;
        },
        put: async (collection, record) => void staged.push(() => upsert(data[collection], record)),
        setTicketUsage: async (clientId, usage) => void staged.push(() => (data.ticketUsage[clientId] = usage)),
        remember: async (key, answer) => void staged.push(() => (data.idempotency[key] = answer)),
      };
      const result = await work(tx);
      for (const apply of staged) apply();
      return { result, changed: staged.length > 0 };
    });
  }

  erase(email: string): Promise<Erasure[]> {
    return this.exclusive(async () => {
      const data = this.db.data;
      const changes: Erasure[] = [];
      for (const collection of Object.keys(ERASURE) as Collection[]) {
        const matching = data[collection].filter((r) => holdsEmail(r, email));
        for (const record of matching) changes.push({ collection, reference: record.reference, action: ERASURE[collection] });
        if (ERASURE[collection] === "deleted") data[collection] = data[collection].filter((r) => !matching.includes(r));
        else for (const record of matching) for (const field of EMAIL_FIELDS) delete record[field];
      }
      for (const [clientId, usage] of Object.entries(data.ticketUsage)) {
        if (usage.email && holdsEmail(usage as unknown as Record<string, unknown>, email)) {
          delete usage.email;
          changes.push({ collection: "ticketUsage", reference: clientId, action: "anonymised" });
        }
      }
      for (const [key, answer] of Object.entries(data.idempotency)) {
        if (JSON.stringify(answer.body).toLowerCase().includes(email.toLowerCase())) {
          delete data.idempotency[key];
          changes.push({ collection: "idempotency", reference: key, action: "deleted" });
        }
      }
      return { result: changes, changed: changes.length > 0 };
    });
  }

  /**
   * Runs one step at a time, in arrival order. The next step may start as soon as this one has
   * changed memory; only the caller's answer waits until the change is on disk.
   */
  private exclusive<T>(step: () => Promise<{ result: T; changed: boolean }>): Promise<T> {
    if (this.readOnly) return Promise.reject(new StoreError("this store was opened read-only (for export): writes go through the running server"));
    const run = this.queue.then(async () => {
      const { result, changed } = await step();
      return { result, durable: changed ? this.flush() : Promise.resolve() };
    });
    this.queue = run.catch(() => undefined);
    return run.then(async ({ result, durable }) => {
      await durable;
      return result;
    });
  }

  /** Resolves once a write that includes the current memory state is on disk. */
  private flush(): Promise<void> {
    if (!this.writing) {
      this.writing = this.write().finally(() => (this.writing = undefined));
      return this.writing;
    }
    this.pendingWrite ??= this.writing.catch(() => undefined).then(() => {
      this.pendingWrite = undefined;
      return this.flush();
    });
    return this.pendingWrite;
  }

  private async write(): Promise<void> {
    const now = this.clock().getTime();
    for (const [key, answer] of Object.entries(this.db.data.idempotency)) {
      if (now - Date.parse(answer.createdAt) > IDEMPOTENCY_TTL_MS * 2) delete this.db.data.idempotency[key];
    }
    await this.db.write();
  }

  async ticketUsage(clientId: string): Promise<TicketUsage> {
    return { ...(this.db.data.ticketUsage[clientId] ?? { used: 0 }) };
  }

  async list(collection: Collection): Promise<StoredRecord[]> {
    return this.db.data[collection].map((r) => ({ ...r }));
  }

  async *records(collection: Collection, since?: string): AsyncIterable<StoredRecord> {
    for (const record of this.db.data[collection]) if (since === undefined || record.createdAt >= since) yield { ...record };
  }

  async close(): Promise<void> {
    await this.queue;
    await (this.pendingWrite ?? this.writing);
    if (this.lockFile) await rm(this.lockFile, { force: true });
  }
}

function upsert(list: StoredRecord[], record: StoredRecord): void {
  const at = list.findIndex((r) => r.reference === record.reference);
  if (at >= 0) list[at] = record;
  else list.push(record);
}

async function takeLock(lockFile: string, dataFile: string): Promise<void> {
  try {
    await writeFile(lockFile, String(process.pid), { flag: "wx", mode: 0o600 });
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const owner = Number((await readFile(lockFile, "utf8").catch(() => "")).trim());
  if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
    throw new StoreError(
      `data file ${dataFile} is in use by process ${owner}: the embedded store allows one server at a time. Stop that process, or use PostgreSQL (DATABASE_URL) to run several.`,
    );
  }
  if (owner === process.pid) throw new StoreError(`data file ${dataFile} is already open in this process`);
  // The owner is gone (crash or kill): the lock is stale.
  await writeFile(lockFile, String(process.pid), { mode: 0o600 });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
