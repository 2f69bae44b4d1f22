import { basename, dirname, join } from "node:path";
import type { Adapter } from "lowdb";
import { errorCode, readLines, syncFolder, writeAll, type Files } from "./files.js";
import { isOp, Model, type Op, type State } from "./model.js";
import { COLLECTIONS, StoreError, type Collection, type RememberedAnswer, type StoredRecord, type TicketUsage } from "./store.js";

/**
 * The embedded store's files, beside FRONTDESK_DATA (say data/frontdesk.json):
 *
 * - `frontdesk.json`, the snapshot: one JSON document a person can read, with one record per line
 *   (so it is read a line at a time, never as one huge string). Its header names its generation.
 * - `frontdesk.json.journal.<generation>`: what changed since the snapshot of that generation, one
 *   JSON line (a list of Ops) per group commit, appended and fsynced before the answer. Its newline
 *   is its commit mark, written and fsynced only once the line is durable (see journal.ts): a
 *   line without one was never acknowledged, and is dropped. Journals written before group
 *   commits were one line (one list of Ops) per transaction; they read the same.
 * - compaction writes the state as a new snapshot of the next generation (temp file, fsync,
 *   rename, fsync of the folder) while new transactions go to the next generation's journal;
 *   journals older than the snapshot are then removed. A crash at any point leaves a snapshot and
 *   the journals that complete it: loading replays every journal of the snapshot's generation or
 *   later, in order.
 *
 * Format 1 (before journals) was the whole state as one JSON document in `frontdesk.json`; it is
 * read once and converted.
 */
export const FORMAT = "frontdesk-data";
export const VERSION = 2;

export const journalPath = (file: string, generation: number) => `${file}.journal.${generation}`;
export const temporaryPath = (file: string) => `${file}.tmp`;

/** The journals beside the data file, by generation, oldest first. */
export async function journals(files: Files, file: string): Promise<{ generation: number; path: string }[]> {
  const prefix = `${basename(file)}.journal.`;
  const names = await files.readdir(dirname(file));
  return names
    .filter((name) => name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)))
    .map((name) => ({ generation: Number(name.slice(prefix.length)), path: join(dirname(file), name) }))
    .sort((a, b) => a.generation - b.generation);
}

const corrupt = (file: string, why: string) =>
  new StoreError(`data file ${file} is corrupt (${why}); it was left untouched. Restore it from a backup, or move it away to start empty.`);

interface Header {
  format: typeof FORMAT;
  version: number;
  generation: number;
}

export interface LoadedSnapshot {
  generation: number;
  bytes: number;
  /** The file is in format 1: the caller converts it (writes a snapshot) and says so in the log. */
  format1?: true;
}

/** Reads the snapshot into `model`; a missing file is an empty store of generation 0. */
export async function readSnapshot(files: Files, file: string, model: Model): Promise<LoadedSnapshot> {
  let head: Buffer;
  try {
    const handle = await files.open(file, "r");
    try {
      head = Buffer.alloc(32);
      head = head.subarray(0, (await handle.read(head, 0, head.length, 0)).bytesRead);
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (errorCode(error) === "ENOENT") return { generation: 0, bytes: 0 };
    throw error;
  }
  if (/^\{\s*"version"\s*:\s*1\b/.test(head.toString("latin1"))) return readFormat1(files, file, model);

  let section: string | undefined;
  let header: Header | undefined;
  let ended = false;
  const { tail, size } = await readLines(files, file, (chunk, start, end) => {
    if (ended) throw corrupt(file, "text after the end of the document");
    // A record's line, the most of the file: one string of it, without its comma, parsed as it is.
    if (section !== undefined && (chunk[start] === 0x7b /* { */ || chunk[start] === 0x5b) /* [ */) {
      addEntry(file, model, section!, parseLine(file, chunk.toString("utf8", start, chunk[end - 1] === 0x2c /* , */ ? end - 1 : end)));
      return;
    }
    const line = chunk.toString("utf8", start, end);
    if (header === undefined) {
      header = parseLine(file, `${line.replace(/,$/, "")}}`) as Header;
      if (header.format !== FORMAT || header.version !== VERSION || !Number.isInteger(header.generation)) {
        throw corrupt(file, `not a Frontdesk data file of format ${VERSION}`);
      }
      return;
    }
    if (section === undefined) {
      const name = /^"(\w+)":\[$/.exec(line)?.[1];
      if (name === undefined) throw corrupt(file, `expected the start of a list, found ${JSON.stringify(line.slice(0, 40))}`);
      section = name;
      return;
    }
    if (line === "]," || line === "]}") {
      section = undefined;
      ended = line === "]}";
      return;
    }
    addEntry(file, model, section, parseLine(file, line.endsWith(",") ? line.slice(0, -1) : line));
  });
  if (!ended || tail.length > 0) throw corrupt(file, "it ends before the end of the document");
  return { generation: header!.generation, bytes: size };
}

function parseLine(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw corrupt(file, (error as Error).message);
  }
}

function addEntry(file: string, model: Model, section: string, value: unknown): void {
  if ((COLLECTIONS as readonly string[]).includes(section)) {
    const record = value as StoredRecord;
    if (record === null || typeof record !== "object" || typeof record.reference !== "string") throw corrupt(file, `a ${section} entry without a reference`);
    model.load(["put", section as Collection, record]);
  } else if (section === "ticketUsage" || section === "idempotency") {
    if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== "string") throw corrupt(file, `a ${section} entry that is not a [key, value] pair`);
    model.load(section === "ticketUsage" ? ["usage", value[0], value[1] as TicketUsage] : ["remember", value[0], value[1] as RememberedAnswer]);
  } else {
    throw corrupt(file, `an unknown list "${section}"`);
  }
}

/** Reads a format 1 file (the whole state in one document) into `model`; the caller writes it as a snapshot. */
async function readFormat1(files: Files, file: string, model: Model): Promise<LoadedSnapshot> {
  const chunks: Buffer[] = [];
  const { tail } = await readLines(files, file, (chunk, start, end) => chunks.push(Buffer.from(chunk.subarray(start, end + 1))));
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(Buffer.concat([...chunks, tail]).toString("utf8")) as Record<string, unknown>;
  } catch (error) {
    throw corrupt(file, (error as Error).message);
  }
  for (const collection of COLLECTIONS) {
    for (const record of (data[collection] as StoredRecord[] | undefined) ?? []) addEntry(file, model, collection, record);
  }
  for (const section of ["ticketUsage", "idempotency"] as const) {
    for (const pair of Object.entries((data[section] as Record<string, unknown> | undefined) ?? {})) addEntry(file, model, section, pair);
  }
  return { generation: 0, bytes: 0, format1: true };
}

/**
 * Writes `state` as the snapshot of `generation`, atomically: a temporary file, written a chunk at
 * a time (other work runs in between), fsynced, renamed over the snapshot, and the folder fsynced.
 * Returns its size. Stops, leaving the old snapshot, as soon as `cancelled` says so.
 */
export async function writeSnapshot(files: Files, file: string, state: State, generation: number, cancelled = () => false): Promise<number> {
  const temporary = temporaryPath(file);
  const handle = await files.open(temporary, "wx", 0o600);
  let position = 0;
  try {
    let pending: string[] = [];
    let pendingLength = 0;
    const write = async (text: string, force = false) => {
      pending.push(text);
      pendingLength += text.length;
      if (pendingLength < 1 << 20 && !force) return;
      if (cancelled()) throw new Error("cancelled: the store is closing");
      const data = Buffer.from(pending.join(""));
      pending = [];
      pendingLength = 0;
      await writeAll(handle, data, position);
      position += data.length;
    };
    await write(`${JSON.stringify({ format: FORMAT, version: VERSION, generation, savedAt: new Date().toISOString() }).slice(0, -1)},\n`);
    const sections: [string, unknown[]][] = [...COLLECTIONS.map((c): [string, unknown[]] => [c, state.collections[c]]), ["ticketUsage", state.ticketUsage], ["idempotency", state.idempotency]];
    for (const [index, [name, entries]] of sections.entries()) {
      await write(`"${name}":[\n`);
      for (let i = 0; i < entries.length; i++) await write(`${JSON.stringify(entries[i])}${i < entries.length - 1 ? "," : ""}\n`);
      await write(index < sections.length - 1 ? "],\n" : "]}\n", index === sections.length - 1);
    }
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await files.unlink(temporary).catch(() => undefined);
    throw error;
  }
  await handle.close();
  await files.rename(temporary, file);
  await syncFolder(files, dirname(file));
  return position;
}

/**
 * Replays a journal into `model`. Only lines that end in a newline (their commit mark) count:
 * what follows the last newline, and a last line that does not parse, is a write the crash tore or
 * that failed; it was never acknowledged, and is dropped (the returned length excludes it). A bad
 * line anywhere else is damage, and stops the store.
 */
export async function replayJournal(files: Files, path: string, model: Model): Promise<{ validBytes: number; tornBytes: number }> {
  let validBytes = 0;
  let bad: { line: number; error: string } | undefined;
  let lines = 0;
  const { size } = await readLines(files, path, (chunk, start, end, offset) => {
    const text = chunk.toString("utf8", start, end);
    lines++;
    if (bad) throw corrupt(path, `line ${bad.line}: ${bad.error}`);
    let ops: unknown;
    try {
      ops = JSON.parse(text);
      if (!Array.isArray(ops) || !ops.every(isOp)) throw new Error("not a list of changes");
    } catch (error) {
      // Only a last line may be torn; whether this one is, the next line tells.
      bad = { line: lines, error: (error as Error).message };
      return;
    }
    for (const op of ops as Op[]) model.load(op);
    validBytes = offset;
  });
  return { validBytes, tornBytes: size - validBytes };
}

/** lowdb's adapter: reads the snapshot and replays the journals; writes a whole snapshot (the conversion from format 1). */
export class DataFolder implements Adapter<Model> {
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
