import { dirname } from "node:path";
import { journalPath } from "./data-files.js";
import { errorCode, syncFolder, writeAll, type FileHandle, type Files } from "./files.js";
import type { Op, Undo } from "./model.js";
import { StorageUnavailable } from "./store.js";

/**
 * The embedded store's journal and its group commit. A transaction is applied to memory first
 * (so the next one sees it) and handed here with how to undo it; its line is appended with
 * everything that piled up while the previous append was on its way to disk, one fsync for the
 * lot. When an append fails, every transaction not yet on disk is taken back out of memory
 * (newest first) and fails, and the file is cut back to its last good length before the next
 * append, so nothing of a failed write is read at the next start. Nobody is answered before the
 * writes their answer rests on are durable.
 */
export interface JournalFile {
  handle: FileHandle;
  generation: number;
  path: string;
  /** Bytes durably written; anything after them is from a failed write. */
  size: number;
  /** A write failed after `size`: the file may hold more, to be cut off before the next append. */
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
    const entry: Entry = { seq: ++this.appliedSeq, line: `${JSON.stringify(ops)}\n`, undo, resolve, reject, durable };
    this.pending.push(entry);
    this.writing ??= this.flush().finally(() => (this.writing = undefined));
    return entry.seq;
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
    await cutBack(previous);
    this.file = next;
    await previous.handle.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.writing;
    // What a failed write left after the journal's end is cut off now, if the disk lets it.
    await cutBack(this.file).catch(() => undefined);
    await this.file.handle.close().catch(() => undefined);
  }

  /** Appends every pending transaction, a batch per fsync, until none is left. */
  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.slice();
      try {
        await this.append(Buffer.from(batch.map((e) => e.line).join("")));
      } catch (error) {
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

  private async append(data: Buffer): Promise<void> {
    const file = this.file;
    await cutBack(file);
    file.dirty = true;
    await writeAll(file.handle, data, file.size);
    await file.handle.sync();
    file.size += data.length;
    file.dirty = false;
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

/** Cuts off what a failed write may have left after the journal's durable end. */
async function cutBack(file: JournalFile): Promise<void> {
  if (!file.dirty) return;
  await file.handle.truncate(file.size);
  await file.handle.sync();
  file.dirty = false;
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
