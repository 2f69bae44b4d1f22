import { dirname } from "node:path";
import { journalPath } from "./data-files.js";
import { errorCode, syncFolder, writeAll, type FileHandle, type Files } from "./files.js";
import type { Op, Undo } from "./model.js";
import { StorageUnavailable } from "./store.js";

/**
 * The embedded store's journal and its group commit. A transaction is applied to memory first
 * (so the next one sees it) and handed here with how to undo it; its changes are appended with
 * everything that piled up while the previous append was on its way to disk.
 *
 * A group commit is one unit that a start takes whole or not at all: one line holding the changes
 * of all its transactions, written in two steps. First the line without its newline, fsynced;
 * then the newline, its commit mark, fsynced. A start reads only lines that end in a newline (the
 * rest is a torn last line, dropped and cut off), so a batch whose write or fsync failed is never
 * read again, even when the process is killed before anything could be cut off: its bytes carry
 * no mark. And a mark only follows bytes already durable.
 *
 * When an append fails, every transaction not yet on disk is taken back out of memory (newest
 * first) and fails, and the file is cut back to its last good length at once (and again before the
 * next append, if the disk refused). Should the mark itself have been written before the failure
 * and the cut be refused (EIO), the mark is overwritten. Nobody is answered before the writes
 * their answer rests on are durable. What cannot be helped: a disk that turns read-only between
 * writing a mark and its fsync refuses both the cut and the overwrite; the mark is then in the
 * page cache only, never on the disk, which a restart (after the remount that a read-only disk
 * needs anyway) does not see.
 */
export interface JournalFile {
  handle: FileHandle;
  generation: number;
  path: string;
  /** Bytes durably written; anything after them is from a failed write. */
  size: number;
  /** A write failed after `size`: the file may hold more, to be cut off before the next append. */
  dirty: boolean;
  /** Where the commit mark of the batch being written goes, once its line is durable. */
  marked?: number | undefined;
}

interface Entry {
  seq: number;
  /** The transaction's changes as JSON, without the brackets of their list. */
  ops: string;
  undo: Undo[];
  resolve(): void;
  reject(error: Error): void;
  durable: Promise<void>;
}

const REASONS: Record<string, string> = {
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is used up",
  EROFS: "the file system is read-only",
  EIO: "the disk reports an input/output error",
  EACCES: "the data folder may not be written",
  EPERM: "the data folder may not be written",
};

/** What a failed file operation means for the store named `store`. */
export function unavailable(store: string, error: unknown): StorageUnavailable {
  const code = errorCode(error);
  return new StorageUnavailable(store, code && REASONS[code] ? `${REASONS[code]} (${code})` : (error as Error).message);
}

export class Journal {
  private pending: Entry[] = [];
  private writing: Promise<void> | undefined;
  private appliedSeq = 0;
  private durableSeq = 0;
  private epochCount = 0;
  private lastFailure: StorageUnavailable | undefined;

  constructor(
    private file: JournalFile,
    private readonly store: string,
    /** Called after each successful append (the store looks whether to compact). */
    private readonly appended: () => void,
  ) {}

  get size(): number {
    return this.file.size;
  }

  get generation(): number {
    return this.file.generation;
  }

  get path(): string {
    return this.file.path;
  }

  /** Counts rollbacks: whatever was read before one may have been taken back. */
  get epoch(): number {
    return this.epochCount;
  }

  /** Why the last append failed, until one succeeds. */
  get failure(): StorageUnavailable | undefined {
    return this.lastFailure;
  }

  /** The last transaction applied to memory; everything a read sees is up to it. */
  get last(): number {
    return this.appliedSeq;
  }

  /** Queues the line of a transaction already applied to memory; returns its number. */
  add(ops: Op[], undo: Undo[]): number {
    let resolve!: () => void;
    let reject!: (error: Error) => void;
    const durable = new Promise<void>((yes, no) => ((resolve = yes), (reject = no)));
    durable.catch(() => undefined); // whoever waits for it gets the rejection; nobody waiting is no crash
    const entry: Entry = { seq: ++this.appliedSeq, ops: JSON.stringify(ops).slice(1, -1), undo, resolve, reject, durable };
    this.pending.push(entry);
    this.kick();
    return entry.seq;
  }

  /** Starts appending unless an append is on its way (one added as that one ended is taken up after it). */
  private kick(): void {
    this.writing ??= this.flush().finally(() => {
      this.writing = undefined;
      if (this.pending.length > 0) this.kick();
    });
  }

  /** Resolves once everything up to `seq` (numbered in `epoch`) is on disk; rejects if a failed write took it back. */
  durable(seq: number, epoch: number): Promise<void> {
    if (epoch !== this.epochCount) return Promise.reject(this.lastFailure!);
    if (seq <= this.durableSeq) return Promise.resolve();
    for (let i = this.pending.length - 1; i >= 0; i--) if (this.pending[i]!.seq === seq) return this.pending[i]!.durable;
    return Promise.reject(this.lastFailure!);
  }

  /** A read of memory, returned once what it saw is on disk (read again when a failed write took it back). */
  async settled<T>(read: () => T): Promise<T> {
    for (;;) {
      const epoch = this.epochCount;
      const value = read();
      try {
        await this.durable(this.appliedSeq, epoch);
        return value;
      } catch (error) {
        if (!(error instanceof StorageUnavailable)) throw error;
      }
    }
  }

  /** Appends to `next` from now on (compaction); the caller made sure nothing is pending. */
  async rotate(next: JournalFile): Promise<void> {
    const previous = this.file;
    await this.cut();
    this.file = next;
    await previous.handle.close().catch(() => undefined);
  }

  /** Cuts off what a failed write left after the journal's end (it must go before a next journal follows this one); throws if the disk refuses. */
  cut(): Promise<void> {
    return cutBack(this.file);
  }

  async close(): Promise<void> {
    // A flush that ends may start the next one: wait until none is running.
    while (this.writing) await this.writing;
    // What a failed write left after the journal's end is cut off now, if the disk lets it.
    await cutBack(this.file).catch(() => undefined);
    await this.file.handle.close().catch(() => undefined);
  }

  /** Appends every pending transaction, a batch per fsync, until none is left. */
  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.slice();
      try {
        await this.append(Buffer.from(`[${batch.map((e) => e.ops).filter((ops) => ops !== "").join(",")}]`));
      } catch (error) {
        // Cut off at once, before anyone is answered: a kill from here on finds nothing of the batch.
        await cutBack(this.file).catch(() => unmark(this.file));
        // Whatever was applied meanwhile rests on the failed batch, and goes with it.
        this.rollBack(unavailable(this.store, error));
        return;
      }
      this.pending.splice(0, batch.length);
      this.durableSeq = batch[batch.length - 1]!.seq;
      this.lastFailure = undefined;
      for (const entry of batch) entry.resolve();
      this.appended();
    }
  }

  /** Appends `line` (without its newline) as one unit: the line, fsync, its newline (the commit mark), fsync. */
  private async append(line: Buffer): Promise<void> {
    const file = this.file;
    await cutBack(file);
    file.dirty = true;
    await writeAll(file.handle, line, file.size);
    await file.handle.sync();
    file.marked = file.size + line.length;
    await writeAll(file.handle, NEWLINE, file.marked);
    await file.handle.sync();
    file.size += line.length + 1;
    file.dirty = false;
    file.marked = undefined;
  }

  /** Takes every transaction not yet on disk back out of memory, newest first, and fails them. */
  private rollBack(failure: StorageUnavailable): void {
    this.lastFailure = failure;
    // Numbers start again after the last durable one: whoever waits for a number of the old
    // epoch is told by the epoch that it was taken back.
    this.epochCount++;
    this.appliedSeq = this.durableSeq;
    const entries = this.pending.splice(0);
    for (const entry of [...entries].reverse()) for (const undo of [...entry.undo].reverse()) undo();
    for (const entry of entries) entry.reject(failure);
  }
}

const NEWLINE = Buffer.from("\n");

/** Cuts off what a failed write may have left after the journal's durable end. */
async function cutBack(file: JournalFile): Promise<void> {
  if (!file.dirty) return;
  await file.handle.truncate(file.size);
  await file.handle.sync();
  file.dirty = false;
  file.marked = undefined;
}

/**
 * When the cut was refused: a commit mark that may have been written for a failed batch is
 * overwritten (with a space, which ends no line), so that no start reads the batch. The file stays
 * dirty, to be cut before the next append.
 */
async function unmark(file: JournalFile): Promise<void> {
  if (file.marked === undefined) return;
  try {
    await writeAll(file.handle, Buffer.from(" "), file.marked);
    await file.handle.sync().catch(() => undefined); // in the page cache is enough against a kill
  } catch {
    // Nothing can be written at all: see the note at the top.
  }
}

/** A new, empty journal, its name durable in the folder before anything is appended to it. */
export async function createJournalFile(files: Files, dataFile: string, generation: number): Promise<JournalFile> {
  const path = journalPath(dataFile, generation);
  const handle = await files.open(path, "wx", 0o600);
  try {
    await syncFolder(files, dirname(dataFile));
  } catch (error) {
    await handle.close().catch(() => undefined);
    await files.unlink(path).catch(() => undefined);
    throw error;
  }
  return { handle, generation, path, size: 0, dirty: false };
}
