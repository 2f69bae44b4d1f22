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

const CHUNK = 1 << 20;

/**
 * Reads a file line by line, a chunk at a time (so other work runs between chunks, and no single
 * string holds the whole file). Calls `line` for each line that ends in a newline, with its end
 * offset; returns what follows the last newline (empty when the file ends in one).
 */
export async function readLines(files: Files, path: string, line: (text: string, end: number) => void): Promise<{ tail: Buffer; size: number }> {
  const handle = await files.open(path, "r");
  try {
    let carry: Buffer = Buffer.alloc(0);
    let position = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(CHUNK);
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, position);
      if (bytesRead === 0) return { tail: carry, size: position };
      const chunk = carry.length ? Buffer.concat([carry, buffer.subarray(0, bytesRead)]) : buffer.subarray(0, bytesRead);
      const chunkStart = position - carry.length;
      position += bytesRead;
      let start = 0;
      for (let end = chunk.indexOf(10); end >= 0; end = chunk.indexOf(10, start)) {
        line(chunk.toString("utf8", start, end), chunkStart + end + 1);
        start = end + 1;
      }
      carry = Buffer.from(chunk.subarray(start));
    }
  } finally {
    await handle.close();
  }
}
