import * as fs from "node:fs/promises";

/**
 * The file operations the embedded store uses, and nothing else: the store is built with an
 * implementation of this (Node's own by default), so tests can hand it one that fails the way
 * disks fail (ENOSPC, EROFS, EIO) at the moment they choose.
 */
export interface FileHandle {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  write(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesWritten: number }>;
  sync(): Promise<void>;
  truncate(length: number): Promise<void>;
  close(): Promise<void>;
}

export interface Files {
  open(path: string, flags: "r" | "r+" | "wx", mode?: number): Promise<FileHandle>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  readdir(dir: string): Promise<string[]>;
  mkdir(dir: string, mode: number): Promise<void>;
}

export const nodeFiles: Files = {
  open: (path, flags, mode) => fs.open(path, flags, mode),
  rename: (from, to) => fs.rename(from, to),
  unlink: (path) => fs.unlink(path),
  readdir: (dir) => fs.readdir(dir),
  mkdir: async (dir, mode) => void (await fs.mkdir(dir, { recursive: true, mode })),
};

/** Writes all of `data` at `position` (a write may take only part of it). */
export async function writeAll(handle: FileHandle, data: Buffer, position: number): Promise<void> {
  for (let done = 0; done < data.length; ) {
    const { bytesWritten } = await handle.write(data, done, data.length - done, position + done);
    done += bytesWritten;
  }
}

/** Makes a file's creation, rename or removal in `dir` durable. */
export async function syncFolder(files: Files, dir: string): Promise<void> {
  const folder = await files.open(dir, "r");
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

export const errorCode = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;

const CHUNK = 4 << 20;

/**
 * Reads a file line by line, a chunk at a time (so other work runs between chunks, and no single
 * string holds the whole file); the next chunk is read while this one's lines are handled. Calls
 * `line` for each line that ends in a newline with the bytes that hold it (`chunk` from `start`
 * to `end`, the newline excluded; the caller makes a string of what it needs, once) and the
 * line's end offset in the file; returns what follows the last newline (empty when the file ends
 * in one).
 */
export async function readLines(
  files: Files,
  path: string,
  line: (chunk: Buffer, start: number, end: number, offset: number) => void,
): Promise<{ tail: Buffer; size: number }> {
  const handle = await files.open(path, "r");
  // Room is left at the front for the part line carried over from the chunk before, so that
  // carrying it copies only it, never the whole chunk.
  const CARRY = 64 << 10;
  const read = async (position: number) => {
    const buffer = Buffer.allocUnsafe(CARRY + CHUNK);
    const { bytesRead } = await handle.read(buffer, CARRY, CHUNK, position);
    return buffer.subarray(CARRY, CARRY + bytesRead);
  };
  let next: Promise<Buffer> | undefined;
  try {
    let carry: Buffer = Buffer.alloc(0);
    let position = 0;
    next = read(0);
    for (;;) {
      const data = await next;
      if (data.length === 0) return { tail: carry, size: position };
      let chunk = data;
      if (carry.length > 0 && carry.length <= data.byteOffset) {
        chunk = Buffer.from(data.buffer, data.byteOffset - carry.length, carry.length + data.length);
        carry.copy(chunk, 0);
      } else if (carry.length > 0) {
        chunk = Buffer.concat([carry, data]);
      }
      const chunkStart = position - carry.length;
      position += data.length;
      next = read(position);
      let start = 0;
      for (let end = chunk.indexOf(10); end >= 0; end = chunk.indexOf(10, start)) {
        line(chunk, start, end, chunkStart + end + 1);
        start = end + 1;
      }
      carry = start < chunk.length ? Buffer.from(chunk.subarray(start)) : Buffer.alloc(0);
    }
  } finally {
    await next?.catch(() => undefined);
    await handle.close();
  }
}
