import { stat } from "node:fs/promises";
import { dirname } from "node:path";
import { Low, type Adapter } from "lowdb";
import { serveControl, controlPath, type ControlServer } from "./control.js";
import { journalPath, journals, readSnapshot, replayJournal, temporaryPath, writeSnapshot } from "./data-files.js";
import { errorCode, nodeFiles, syncFolder, writeAll, type FileHandle, type Files } from "./files.js";
import { DataFileLock } from "./lock.js";
import { Model, type Op, type Undo } from "./model.js";
import {
  COLLECTIONS, DEFAULT_LOCK_STALE_MS, EMAIL_FIELDS, ERASURE, holdsEmail, IDEMPOTENCY_TTL_MS, RETAINED_FOR_A_PERIOD, retentionCutoff, StorageUnavailable, StoreError,
  type Collection, type Erasure, type StoredRecord, type Store, type TicketUsage, type Transaction,
} from "./store.js";

/**
 * The embedded store: lowdb holds everything in memory (a Model of Maps); on disk, a snapshot and
 * an append-only journal (see data-files.ts), owned by one process (see lock.ts).
 * - a commit appends only what changed (one line) and fsyncs it before the answer, so its cost does
 *   not grow with what is stored; while one append is on its way to disk, later transactions pile
 *   up and the next append carries them all (group commit);
 * - memory and disk never disagree: a transaction is applied to memory at once (so the next one
 *   sees it), and taken back out, with every transaction after it, when its append fails; nothing
 *   resolves before the writes it depends on are durable. The file is cut back to its last good
 *   length before the next append, so nothing of a failed write is read at the next start;
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

const REASONS: Record<string, string> = {
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is used up",
  EROFS: "the file system is read-only",
  EIO: "the disk reports an input/output error",
  EACCES: "the data folder may not be written",
  EPERM: "the data folder may not be written",
};

interface Journal {
  handle: FileHandle;
  generation: number;
  path: string;
  /** Bytes durably written; anything after them is from a failed write. */
  size: number;
  /** A write failed after this size: the file may hold more, to be cut off before the next append. */
  dirty: boolean;
}

interface Entry {
  seq: number;
  line: string;
  undo: Undo[];
  resolve(): void;
  reject(error: Error): void;
  durable: Promise<void>;
}

/** lowdb's adapter: reads the snapshot and replays the journals; writes a whole snapshot (the conversion from format 1). */
class DataFolder implements Adapter<Model> {
  generation = 0;
  snapshotBytes = 0;
  format1 = false;
  /** The journal appends go to, and its good length (a torn last line excluded). */
  last: { generation: number; path: string; validBytes: number; tornBytes: number } | undefined;

  constructor(
    private readonly files: Files,
    private readonly file: string,
  ) {}

  async read(): Promise<Model> {
    const model = new Model();
    const snapshot = await readSnapshot(this.files, this.file, model);
    this.generation = snapshot.generation;
    this.snapshotBytes = snapshot.bytes;
    this.format1 = snapshot.format1 === true;
    for (const journal of await journals(this.files, this.file)) {
      // Left by a compaction that stopped after its snapshot was in place: all of it is in the snapshot.
      if (journal.generation < snapshot.generation) {
        await this.files.unlink(journal.path);
        continue;
      }
      if (this.last && this.last.tornBytes > 0) throw new StoreError(`journal ${this.last.path} ends in a damaged line, and later journals follow it: it was left untouched. Restore the data folder from a backup.`);
      this.last = { ...journal, ...(await replayJournal(this.files, journal.path, model)) };
    }
    return model;
  }

  async write(model: Model): Promise<void> {
    this.snapshotBytes = await writeSnapshot(this.files, this.file, model.capture(), this.generation);
  }
}

export class LowdbStore implements Store {
  readonly name: string;
  private queue: Promise<unknown> = Promise.resolve();
  private pending: Entry[] = [];
  private writing: Promise<void> | undefined;
  private appliedSeq = 0;
  private durableSeq = 0;
  /** Counts rollbacks: a transaction that started before one read what was taken back. */
  private epoch = 0;
  private failure: StorageUnavailable | undefined;
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
    private journal: Journal,
    private snapshotBytes: number,
    private readonly lock: DataFileLock,
    private readonly files: Files,
    private readonly options: LowdbStoreOptions,
  ) {
    this.name = `the embedded store (${file})`;
    this.clock = options.clock ?? (() => new Date());
    this.log = options.log ?? (() => undefined);
    if (options.retentionDays !== undefined) {
      this.retentionTimer = setInterval(() => {
        if (this.hasExpiredRecords()) this.compact().catch(() => undefined); // logged, tried again later
      }, RETENTION_CHECK_MS).unref();
    }
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
      await db.read();
      if (folder.format1) {
        await db.write();
        log(`converted ${file} from format 1 (one JSON document) to format 2 (a snapshot and a journal): ${db.data.size} records`);
      }
      let journal: Journal;
      if (folder.last) {
        const handle = await files.open(folder.last.path, "r+");
        if (folder.last.tornBytes > 0) {
          await handle.truncate(folder.last.validBytes);
          await handle.sync();
          log(`dropped the torn last line (${folder.last.tornBytes} bytes) of ${folder.last.path}: a write cut off by a crash, never acknowledged`);
        }
        journal = { handle, generation: folder.last.generation, path: folder.last.path, size: folder.last.validBytes, dirty: false };
      } else {
        journal = await createJournal(files, file, folder.generation);
      }
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
    if (this.failure || this.lockLost) await this.commit(async () => ({ result: undefined, ops: [] }), { probe: true });
  }

  async ticketUsage(clientId: string): Promise<TicketUsage> {
    return this.settled(() => ({ ...(this.db.data.ticketUsage.get(clientId) ?? { used: 0 }) }));
  }

  async list(collection: Collection): Promise<StoredRecord[]> {
    return this.settled(() => [...this.db.data.collections[collection].values()].map((r) => ({ ...r })));
  }

  async *records(collection: Collection, since?: string): AsyncIterable<StoredRecord> {
    // The list is taken at once; records are never changed in place, so it stays as it was.
    const records = await this.settled(() => [...this.db.data.collections[collection].values()]);
    for (const record of records) if (since === undefined || record.createdAt >= since) yield { ...record };
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
    await this.writing;
    await this.compacting;
    // What a failed write left after the journal's end is cut off now, if the disk lets it.
    await this.cutBack(this.journal).catch(() => undefined);
    await this.journal.handle.close().catch(() => undefined);
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
      const epoch = this.epoch;
      try {
        const { result, ops } = await step();
        // A failed write took back what this step read: its answer would rest on nothing.
        if (epoch !== this.epoch) throw this.failure!;
        return { result, seq: ops.length > 0 || options.probe ? this.apply(ops) : this.appliedSeq, epoch };
      } catch (error) {
        // A refusal (429: the allowance is used) rests on what the step read as much as an answer.
        return { error, seq: this.appliedSeq, epoch };
      }
    });
    this.queue = run.catch(() => undefined);
    const outcome = await run;
    await this.durable(outcome.seq, outcome.epoch);
    if ("error" in outcome) throw outcome.error;
    return outcome.result;
  }

  private apply(ops: Op[]): number {
    const undo = ops.map((op) => this.db.data.apply(op));
    let resolve!: () => void;
    let reject!: (error: Error) => void;
    const durable = new Promise<void>((yes, no) => ((resolve = yes), (reject = no)));
    durable.catch(() => undefined); // whoever waits for it gets the rejection; nobody waiting is no crash
    const entry: Entry = { seq: ++this.appliedSeq, line: `${JSON.stringify(ops)}\n`, undo, resolve, reject, durable };
    this.pending.push(entry);
    this.writing ??= this.flush().finally(() => (this.writing = undefined));
    return entry.seq;
  }

  /** Resolves once everything up to `seq` is on disk; rejects if a failed write took it back. */
  private durable(seq: number, epoch: number): Promise<void> {
    if (epoch !== this.epoch) return Promise.reject(this.failure!);
    if (seq <= this.durableSeq) return Promise.resolve();
    for (let i = this.pending.length - 1; i >= 0; i--) if (this.pending[i]!.seq === seq) return this.pending[i]!.durable;
    return Promise.reject(this.failure!);
  }

  /** A read of memory, returned once what it saw is on disk (read again when a failed write took it back). */
  private async settled<T>(read: () => T): Promise<T> {
    for (;;) {
      const epoch = this.epoch;
      const value = read();
      try {
        await this.durable(this.appliedSeq, epoch);
        return value;
      } catch (error) {
        if (!(error instanceof StorageUnavailable)) throw error;
      }
    }
  }

  /** Appends every pending transaction, a batch per fsync, until none is left. */
  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.slice();
      try {
        await this.append(Buffer.from(batch.map((e) => e.line).join("")));
      } catch (error) {
        this.rollBack(this.unavailable(error));
        return;
      }
      this.pending.splice(0, batch.length);
      this.durableSeq = batch[batch.length - 1]!.seq;
      this.failure = undefined;
      for (const entry of batch) entry.resolve();
      this.compactIfDue();
    }
  }

  private async append(data: Buffer): Promise<void> {
    const journal = this.journal;
    await this.cutBack(journal);
    journal.dirty = true;
    await writeAll(journal.handle, data, journal.size);
    await journal.handle.sync();
    journal.size += data.length;
    journal.dirty = false;
  }

  /** Cuts off what a failed write may have left after the journal's durable end. */
  private async cutBack(journal: Journal): Promise<void> {
    if (!journal.dirty) return;
    await journal.handle.truncate(journal.size);
    await journal.handle.sync();
    journal.dirty = false;
  }

  /** Takes every transaction not yet on disk back out of memory, newest first, and fails them. */
  private rollBack(failure: StorageUnavailable): void {
    this.failure = failure;
    // Sequence numbers start again after the last durable one: whoever waits for a number of the
    // old epoch is told by the epoch that it was taken back.
    this.epoch++;
    this.appliedSeq = this.durableSeq;
    const entries = this.pending.splice(0);
    for (const entry of [...entries].reverse()) for (const undo of [...entry.undo].reverse()) undo();
    for (const entry of entries) entry.reject(failure);
  }

  private unavailable(error: unknown): StorageUnavailable {
    const code = errorCode(error);
    return new StorageUnavailable(this.name, code && REASONS[code] ? `${REASONS[code]} (${code})` : (error as Error).message);
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
    return latest?.generation === this.journal.generation && size !== undefined && (size === this.journal.size || this.journal.dirty);
  }

  private compactIfDue(): void {
    const { minBytes, ratio } = this.options.compaction ?? DEFAULT_COMPACTION;
    if (this.closing || Date.now() < this.nextCompaction) return;
    if (this.journal.size > minBytes && this.journal.size > ratio * this.snapshotBytes) this.compact().catch(() => undefined); // logged, tried again later
  }

  private hasExpiredRecords(): boolean {
    const cutoff = retentionCutoff(this.options.retentionDays, this.clock());
    if (cutoff === undefined) return false;
    // Records are kept in the order they came: the first is the oldest.
    return RETAINED_FOR_A_PERIOD.some((c) => {
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
        await this.durable(this.appliedSeq, this.epoch);
        const previous = this.journal;
        await this.cutBack(previous);
        const next = await createJournal(this.files, this.file, previous.generation + 1);
        this.journal = next;
        await previous.handle.close().catch(() => undefined);
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
      const failure = this.unavailable(error);
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
    const cutoff = retentionCutoff(this.options.retentionDays, now);
    if (cutoff !== undefined) {
      for (const collection of RETAINED_FOR_A_PERIOD) {
        for (const record of this.db.data.collections[collection].values()) if (record.createdAt < cutoff) ops.push(["delete", collection, record.reference]);
      }
    }
    return ops;
  }
}

function withoutEmail(record: StoredRecord): StoredRecord {
  const copy = { ...record };
  for (const field of EMAIL_FIELDS) delete copy[field];
  return copy;
}

/** A new, empty journal, its name durable in the folder before anything is appended to it. */
async function createJournal(files: Files, file: string, generation: number): Promise<Journal> {
  const path = journalPath(file, generation);
  const handle = await files.open(path, "wx", 0o600);
  try {
    await syncFolder(files, dirname(file));
  } catch (error) {
    await handle.close().catch(() => undefined);
    await files.unlink(path).catch(() => undefined);
    throw error;
  }
  return { handle, generation, path, size: 0, dirty: false };
}

function ignoreMissing(error: unknown): void {
  if (errorCode(error) !== "ENOENT") throw error;
}
