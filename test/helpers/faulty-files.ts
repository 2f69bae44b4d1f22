import { nodeFiles, type FileHandle, type Files } from "../../src/store/files.js";

/**
 * The embedded store's file layer with disk faults on demand, as Linux reports them:
 * - ENOSPC: a write stores part of its data, then fails; creating a file fails; cutting a file
 *   shorter still works (it frees space);
 * - EROFS: nothing that changes the disk works (opening for writing included);
 * - EIO: writes reach the file, but fsync fails (whether the data is on disk is unknown), and so
 *   do changes to the folder.
 * Reads always work.
 */
export type Fault = "ENOSPC" | "EROFS" | "EIO";

export class FaultyFiles implements Files {
  fault: Fault | undefined;
  /** Every fault raised, for the test to see that the fault was met at all. */
  raised = 0;
  /** Called before each write is checked against the fault, with its data: a test may set the fault for this very write. */
  beforeWrite: ((data: Buffer) => void) | undefined;
  /** Called once a write has reached the file: a fault set here came while the write was on its way (its fsync fails). */
  afterWrite: ((data: Buffer) => void) | undefined;

  constructor(private readonly base: Files = nodeFiles) {}

  private error(syscall: string, path?: string): NodeJS.ErrnoException {
    this.raised++;
    const text = { ENOSPC: "no space left on device", EROFS: "read-only file system", EIO: "i/o error" }[this.fault!];
    return Object.assign(new Error(`${this.fault}: ${text}, ${syscall}${path ? ` '${path}'` : ""}`), { code: this.fault, syscall, ...(path ? { path } : {}) });
  }

  async open(path: string, flags: "r" | "r+" | "wx", mode?: number): Promise<FileHandle> {
    if (flags !== "r" && (this.fault === "EROFS" || (this.fault === "ENOSPC" && flags === "wx"))) throw this.error("open", path);
    const handle = await this.base.open(path, flags, mode);
    return {
      read: (buffer, offset, length, position) => handle.read(buffer, offset, length, position),
      write: async (buffer, offset, length, position) => {
        this.beforeWrite?.(buffer.subarray(offset, offset + length));
        if (this.fault === "EROFS") throw this.error("write");
        if (this.fault === "ENOSPC") {
          await handle.write(buffer, offset, Math.floor(length / 2), position);
          throw this.error("write");
        }
        const written = await handle.write(buffer, offset, length, position);
        this.afterWrite?.(buffer.subarray(offset, offset + length));
        return written;
      },
      sync: async () => {
        if (this.fault) throw this.error("fsync");
        return handle.sync();
      },
      truncate: async (length) => {
        if (this.fault === "EROFS" || this.fault === "EIO") throw this.error("ftruncate");
        return handle.truncate(length);
      },
      close: () => handle.close(),
    };
  }

  async rename(from: string, to: string): Promise<void> {
    if (this.fault) throw this.error("rename", from);
    return this.base.rename(from, to);
  }

  async unlink(path: string): Promise<void> {
    if (this.fault === "EROFS" || this.fault === "EIO") throw this.error("unlink", path);
    return this.base.unlink(path);
  }

  readdir(dir: string): Promise<string[]> {
    return this.base.readdir(dir);
  }

  async mkdir(dir: string, mode: number): Promise<void> {
    if (this.fault) throw this.error("mkdir", dir);
    return this.base.mkdir(dir, mode);
  }
}
