import { stat } from "node:fs/promises";
import { dirname } from "node:path";
import { Low } from "lowdb";
import { serveControl, controlPath, type ControlServer } from "./control.js";
import { DataFolder, journals, temporaryPath, writeSnapshot } from "./data-files.js";
import { errorCode, nodeFiles, type Files } from "./files.js";
import { createJournalFile, Journal, unavailable, type JournalFile } from "./journal.js";
import { DataFileLock } from "./lock.js";
import { Model, type Op, type State } from "./model.js";
import {
  COLLECTIONS, DEFAULT_LOCK_STALE_MS, EMAIL_FIELDS, ERASURE, holdsEmail, IDEMPOTENCY_TTL_MS, expiryCutoffs, StorageUnavailable, StoreError,
  type Collection, type Erasure, type StoredRecord, type Store, type TicketUsage, type Transaction,
} from "./store.js";

/**
 * The embedded store: lowdb holds everything in memory (a Model of Maps); on disk, a snapshot and
 * an append-only journal (see data-files.ts), owned by one process (see lock.ts).
 * - a commit appends only what changed, one line per group commit, and fsyncs the line and then its
 *   newline (the commit mark) before the answer, so its cost does not grow with what is stored;
 *   commits are grouped, and a failed one leaves no trace in memory or on disk (see journal.ts);
 * - compaction writes a new snapshot in the background once the journal is large, dropping what
 *   the retention period (FRONTDESK_RETENTION_DAYS) no longer keeps;
 * - careful: a file that does not parse is reported and left untouched, never reset.
 */
export interface LowdbStoreOptions {
  clock?: () => Date;
  /** The file layer (tests hand in one that fails on demand). */
  files?: Files;
  /** Reviews older than this many days are removed at compaction; undefined keeps everything. */
  retentionDays?: number;
  log?: (message: string) => void;
  /** A lock not refreshed for this long belongs to a dead process and is taken over. */
  lockStaleMs?: number;
  /** Compaction starts when the journal is larger than `minBytes` and than `ratio` × the snapshot. */
  compaction?: { minBytes: number; ratio: number };
  /** Answer the operator's data commands on a socket beside the data file (default: yes). */
  control?: boolean;
}

const DEFAULT_COMPACTION = { minBytes: 16 * 1024 * 1024, ratio: 0.5 };
/** After a failed compaction (a full disk, say), the next one waits this long. */
const COMPACTION_BACKOFF_MS = 60_000;
/** How often a store with a retention period looks for records past it. */
const RETENTION_CHECK_MS = 60 * 60 * 1000;

export class LowdbStore implements Store {
  readonly name: string;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly journal: Journal;
  private lockLost: StorageUnavailable | undefined;
  private compacting: Promise<void> | undefined;
  private nextCompaction = 0;
  private closing = false;
  private control: ControlServer | undefined;
  private readonly retentionTimer: NodeJS.Timeout | undefined;
  private readonly clock: () => Date;
  private readonly log: (message: string) => void;

  private constructor(
    private readonly file: string,
    private readonly db: Low<Model>,
    journalFile: JournalFile,
    private snapshotBytes: number,
    private readonly lock: DataFileLock,
    private readonly files: Files,
    private readonly options: LowdbStoreOptions,
  ) {
    this.name = `the embedded store (${file})`;
    this.journal = new Journal(journalFile, this.name, () => this.compactIfDue());
    this.clock = options.clock ?? (() => new Date());
    this.log = options.log ?? (() => undefined);
    // Logged questions expire whatever the retention period, so the check always runs.
    this.retentionTimer = setInterval(() => {
      if (this.hasExpiredRecords()) this.compact().catch(() => undefined); // logged, tried again later
    }, RETENTION_CHECK_MS).unref();
  }

  /** Takes the data file's lock, loads the snapshot and journals (converting a format 1 file), and opens the journal for appends. */
  static async open(file: string, options: LowdbStoreOptions = {}): Promise<LowdbStore> {
    const files = options.files ?? nodeFiles;
    const log = options.log ?? (() => undefined);
    await files.mkdir(dirname(file), 0o700);
    let store: LowdbStore | undefined;
    let lostEarly: Error | undefined;
    const lock = await DataFileLock.take(file, {
      staleMs: options.lockStaleMs ?? DEFAULT_LOCK_STALE_MS,
      onLost: (error) => (store ? store.loseLock(error) : (lostEarly = error)),
      log,
    });
    try {
      await files.unlink(temporaryPath(file)).catch(ignoreMissing);
      const folder = new DataFolder(files, file);
      const db = new Low<Model>(folder, new Model());
      const loading = performance.now();
      await db.read();
      const loaded = `store loaded ${db.data.size} records in ${Math.round(performance.now() - loading)} ms`;
      if (folder.format1) {
        await db.write();
        log(`converted ${file} from format 1 (one JSON document) to format 2 (a snapshot and a journal): ${db.data.size} records`);
      }
      let journal: JournalFile;
      if (folder.last) {
        const handle = await files.open(folder.last.path, "r+");
        if (folder.last.tornBytes > 0) {
          await handle.truncate(folder.last.validBytes);
          await handle.sync();
          log(`dropped the torn last line (${folder.last.tornBytes} bytes) of ${folder.last.path}: a write cut off by a crash, never acknowledged`);
        }
        journal = { handle, generation: folder.last.generation, path: folder.last.path, size: folder.last.validBytes, dirty: false };
      } else {
        journal = await createJournalFile(files, file, folder.generation);
      }
      log(`${loaded} (${file})`);
      store = new LowdbStore(file, db, journal, folder.snapshotBytes, lock, files, options);
      if (lostEarly) store.loseLock(lostEarly);
      if (options.control !== false) store.control = await serveControl(store, controlPath(file), log);
      return store;
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.commit(async () => {
      const ops: Op[] = [];
      const result = await work(this.view(ops));
      return { result, ops };
    });
  }

  /**
   * Erases through the journal, then compacts, so that no file keeps what was erased (the
   * journal lines that held it go with the compaction). Rejects if the compaction fails: the
   * erasure holds, but the old lines are still on disk until a compaction succeeds.
   */
  async erase(email: string): Promise<Erasure[]> {
    const changes = await this.eraseInMemoryAndJournal(email);
    if (changes.length > 0) {
      // A compaction that started before the erasure writes what it erased: the next one does not.
      await this.compacting?.catch(() => undefined);
      await this.compact();
    }
    return changes;
  }

  private eraseInMemoryAndJournal(email: string): Promise<Erasure[]> {
    return this.commit(async () => {
      const model = this.db.data;
      const changes: Erasure[] = [];
      const ops: Op[] = [];
      for (const collection of COLLECTIONS) {
        for (const record of model.collections[collection].values()) {
          if (!holdsEmail(record, email)) continue;
          changes.push({ collection, reference: record.reference, action: ERASURE[collection] });
          if (ERASURE[collection] === "deleted") ops.push(["delete", collection, record.reference]);
          else ops.push(["put", collection, withoutEmail(record)]);
        }
      }
      for (const [clientId, usage] of model.ticketUsage) {
        if (usage.email && holdsEmail(usage as unknown as Record<string, unknown>, email)) {
          ops.push(["usage", clientId, { used: usage.used }]);
          changes.push({ collection: "ticketUsage", reference: clientId, action: "anonymised" });
        }
      }
      for (const [key, answer] of model.idempotency) {
        if (JSON.stringify(answer.body).toLowerCase().includes(email.toLowerCase())) {
          ops.push(["forget", key]);
          changes.push({ collection: "idempotency", reference: key, action: "deleted" });
        }
      }
      return { result: changes, ops };
    });
  }

  async checkWritable(): Promise<void> {
    if (this.journal.failure || this.lockLost) await this.commit(async () => ({ result: undefined, ops: [] }), { probe: true });
  }

  async ticketUsage(clientId: string): Promise<TicketUsage> {
    return this.journal.settled(() => ({ ...(this.db.data.ticketUsage.get(clientId) ?? { used: 0 }) }));
  }

  async list(collection: Collection): Promise<StoredRecord[]> {
    return this.journal.settled(() => [...this.db.data.collections[collection].values()].map((r) => ({ ...r })));
  }

  async *records(collection: Collection, since?: string): AsyncIterable<StoredRecord> {
    // The list is taken at once; records are never changed in place, so it stays as it was.
    const records = await this.journal.settled(() => [...this.db.data.collections[collection].values()]);
    for (const record of records) if (since === undefined || record.createdAt >= since) yield { ...record };
  }

  /** Everything stored, as durable now (for moving the data to PostgreSQL). */
  state(): Promise<State> {
    return this.journal.settled(() => this.db.data.capture());
  }

  /** Writes a new snapshot now and drops the journal it replaces (it also runs by itself); rejects, after logging, when it fails. */
  compact(): Promise<void> {
    this.compacting ??= this.runCompaction().finally(() => (this.compacting = undefined));
    return this.compacting;
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    clearInterval(this.retentionTimer);
    await this.control?.close();
    await this.queue;
    await this.compacting?.catch(() => undefined);
    await this.journal.close();
    await this.lock.release();
  }

  private view(ops: Op[]): Transaction {
    const model = this.db.data;
    const copy = (record: StoredRecord | undefined) => (record ? { ...record } : undefined);
    return {
      findLeadByConversation: async (conversationId) => copy(model.findLeadByConversation(conversationId)),
      findWaitlistByEmail: async (email) => copy(model.findWaitlistByEmail(email)),
      ticketUsage: async (clientId) => ({ ...(model.ticketUsage.get(clientId) ?? { used: 0 }) }),
      rememberedAnswer: async (key) => {
        const answer = model.idempotency.get(key);
        return answer && this.clock().getTime() - Date.parse(answer.createdAt) < IDEMPOTENCY_TTL_MS ? answer : undefined;
      },
      put: async (collection, record) => void ops.push(["put", collection, { ...record }]),
      setTicketUsage: async (clientId, usage) => void ops.push(["usage", clientId, { ...usage }]),
      remember: async (key, answer) => void ops.push(["remember", key, answer]),
    };
  }

  /**
   * Runs `step` alone (in arrival order), applies the changes it returns to memory, and resolves
   * once they, and everything applied before them, are on disk. The next step may start as soon
   * as this one has changed memory; only the answer waits for the disk.
   */
  private async commit<T>(step: () => Promise<{ result: T; ops: Op[] }>, options: { probe?: boolean } = {}): Promise<T> {
    if (this.closing) throw new StoreError(`${this.name} is closed`);
    const run = this.queue.then(async () => {
      await this.keepLock();
      const epoch = this.journal.epoch;
      try {
        const { result, ops } = await step();
        // A failed write took back what this step read: its answer would rest on nothing.
        if (epoch !== this.journal.epoch) throw this.journal.failure!;
        const applied = ops.length > 0 || options.probe ? this.journal.add(ops, ops.map((op) => this.db.data.apply(op))) : this.journal.last;
        return { result, seq: applied, epoch };
      } catch (error) {
        // A refusal (429: the allowance is used) rests on what the step read as much as an answer.
        return { error, seq: this.journal.last, epoch };
      }
    });
    this.queue = run.catch(() => undefined);
    const outcome = await run;
    await this.journal.durable(outcome.seq, outcome.epoch);
    if ("error" in outcome) throw outcome.error;
    return outcome.result;
  }

  private loseLock(error: Error): void {
    this.lockLost = new StorageUnavailable(this.name, `its lock ${this.file}.lock could not be kept (${error.message})`);
    this.log(`${this.lockLost.message}; writes fail until it is taken again`);
  }

  /**
   * Writes only while the lock is held. A lost lock (the disk failed while it was to be refreshed)
   * is taken again once the disk works, if no other process has written in the meantime.
   */
  private async keepLock(): Promise<void> {
    if (!this.lockLost) return;
    if ((await this.lock.retake()) && (await this.nobodyElseWrote())) {
      this.log(`took the lock of ${this.file} again`);
      this.lockLost = undefined;
      return;
    }
    throw this.lockLost;
  }

  private async nobodyElseWrote(): Promise<boolean> {
    const latest = (await journals(this.files, this.file)).at(-1);
    const size = (await stat(this.journal.path).catch(() => undefined))?.size;
    // Longer is what a failed append of ours left; anything else is another writer's.
    return latest?.generation === this.journal.generation && size !== undefined && size >= this.journal.size && (size === this.journal.size || this.journal.failure !== undefined);
  }

  private compactIfDue(): void {
    const { minBytes, ratio } = this.options.compaction ?? DEFAULT_COMPACTION;
    if (this.closing || Date.now() < this.nextCompaction) return;
    if (this.journal.size > minBytes && this.journal.size > ratio * this.snapshotBytes) this.compact().catch(() => undefined); // logged, tried again later
  }

  private hasExpiredRecords(): boolean {
    // Records are kept in the order they came: the first is the oldest.
    return expiryCutoffs(this.options.retentionDays, this.clock()).some(([c, cutoff]) => {
      const first = this.db.data.collections[c].values().next();
      return !first.done && first.value.createdAt < cutoff;
    });
  }

  private async runCompaction(): Promise<void> {
    const started = performance.now();
    try {
      // What the retention period and the idempotency lifetime no longer keep goes first, through the journal.
      await this.commit(async () => ({ result: undefined, ops: this.expired() }));
      const { state, generation } = await this.commit(async () => {
        // Everything applied is on disk, and no transaction runs: the captured state is exactly
        // what the journals so far hold, and from here on transactions go to the next journal.
        await this.journal.durable(this.journal.last, this.journal.epoch);
        // A journal that still holds a failed write's bytes is never followed by the next one.
        await this.journal.cut();
        const next = await createJournalFile(this.files, this.file, this.journal.generation + 1);
        await this.journal.rotate(next);
        return { result: { state: this.db.data.capture(), generation: next.generation }, ops: [] };
      });
      this.snapshotBytes = await writeSnapshot(this.files, this.file, state, generation, () => this.closing);
      for (const old of await journals(this.files, this.file)) {
        if (old.generation < generation) await this.files.unlink(old.path).catch(() => undefined);
      }
      this.log(`compacted ${this.file}: ${this.db.data.size} records, snapshot ${Math.round(this.snapshotBytes / 1024)} KiB, in ${Math.round(performance.now() - started)} ms`);
    } catch (error) {
      if (this.closing) return;
      this.nextCompaction = Date.now() + COMPACTION_BACKOFF_MS;
      const failure = unavailable(this.name, error);
      this.log(`compaction of ${this.file} stopped (${failure.reason}); the journal keeps every change, and compaction is tried again later`);
      throw failure;
    }
  }

  private expired(): Op[] {
    const now = this.clock();
    const ops: Op[] = [];
    for (const [key, answer] of this.db.data.idempotency) {
      if (now.getTime() - Date.parse(answer.createdAt) > IDEMPOTENCY_TTL_MS) ops.push(["forget", key]);
    }
    for (const [collection, cutoff] of expiryCutoffs(this.options.retentionDays, now)) {
      for (const record of this.db.data.collections[collection].values()) if (record.createdAt < cutoff) ops.push(["delete", collection, record.reference]);
    }
    return ops;
  }
}

function withoutEmail(record: StoredRecord): StoredRecord {
  const copy = { ...record };
  for (const field of EMAIL_FIELDS) delete copy[field];
  return copy;
}

function ignoreMissing(error: unknown): void {
  if (errorCode(error) !== "ENOENT") throw error;
}
