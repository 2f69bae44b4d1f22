import { lstat, readFile, unlink } from "node:fs/promises";
import lockfile from "proper-lockfile";
import { errorCode } from "./files.js";
import { StoreError } from "./store.js";

/**
 * One process at a time on a data file: a lock folder beside it (`frontdesk.json.lock`), made with
 * mkdir (atomic) by proper-lockfile, which the holder touches every `staleMs / 2`. A lock not
 * touched for `staleMs` belongs to a process that died, and is taken over (removed and made
 * again, atomically). Nothing depends on process ids, so a server that runs as PID 1 in a
 * container, killed and started again on the same volume, takes its old lock over as any other.
 */

/** Data files this process holds: a second opener here is a mistake to report at once, not to wait out. */
const held = new Set<string>();

export interface LockOptions {
  staleMs: number;
  /** Called when the lock could not be kept fresh (the disk failed) or was taken by another process. */
  onLost: (error: Error) => void;
  log: (message: string) => void;
}

export class DataFileLock {
  private constructor(
    private readonly file: string,
    private readonly options: LockOptions,
    private releaseLock: () => Promise<void>,
  ) {}

  static async take(file: string, options: LockOptions): Promise<DataFileLock> {
    if (held.has(file)) throw new StoreError(`data file ${file} is already open in this process`);
    await removeFormat1Lock(`${file}.lock`, file, options.log);
    try {
      // Retried long enough for the lock of a process that just died to turn stale.
      const release = await lockfile.lock(file, lockOptions(file, options, true));
      held.add(file);
      return new DataFileLock(file, options, release);
    } catch (error) {
      if (errorCode(error) !== "ELOCKED") throw error;
      throw new StoreError(
        `data file ${file} is in use by another process (its lock ${file}.lock is kept fresh): the embedded store allows one server at a time. Stop that process, or use PostgreSQL (DATABASE_URL) to run several.`,
      );
    }
  }

  /** Takes the lock again after it was lost; false while that fails (the disk still fails, or another process holds it). */
  async retake(): Promise<boolean> {
    try {
      this.releaseLock = await lockfile.lock(this.file, lockOptions(this.file, this.options, false));
      return true;
    } catch {
      return false;
    }
  }

  async release(): Promise<void> {
    held.delete(this.file);
    await this.releaseLock().catch(() => undefined); // a lost lock has nothing left to release
  }
}

function lockOptions(file: string, options: LockOptions, wait: boolean): lockfile.LockOptions {
  const stale = Math.max(options.staleMs, 2000); // proper-lockfile's minimum
  return {
    lockfilePath: `${file}.lock`,
    realpath: false,
    stale,
    update: Math.floor(stale / 2),
    retries: wait ? { retries: Math.ceil((stale * 1.5) / 500), factor: 1, minTimeout: 500, maxTimeout: 500 } : 0,
    onCompromised: options.onLost,
  };
}

/**
 * Frontdesk before format 2 locked with a file holding its process id. Such a file is in the way
 * of the lock folder: it is removed, unless the process it names runs (and is not this one).
 */
async function removeFormat1Lock(lockPath: string, file: string, log: (message: string) => void): Promise<void> {
  const stat = await lstat(lockPath).catch(() => undefined);
  if (!stat?.isFile()) return;
  const owner = Number((await readFile(lockPath, "utf8").catch(() => "")).trim());
  if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
    throw new StoreError(`data file ${file} is in use by process ${owner} (an earlier Frontdesk version): stop it first.`);
  }
  await unlink(lockPath).catch((error: unknown) => {
    if (errorCode(error) !== "ENOENT") throw error;
  });
  log(`removed the lock file ${lockPath} left by an earlier Frontdesk version`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === "EPERM";
  }
}
