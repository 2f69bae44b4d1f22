import { randomBytes } from "node:crypto";
import { rmdirSync, unlinkSync } from "node:fs";
import { lstat, mkdir, readdir, readFile, rename, rm, rmdir, stat, unlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { errorCode } from "./files.js";
import { StoreError } from "./store.js";

/**
 * One process at a time on a data file: a lock folder beside it (`frontdesk.json.lock`) holding
 * one empty file named by a random token its holder drew. The holder touches the folder every
 * `staleMs / 2`; a lock not touched for `staleMs` belongs to a process that died, and is taken
 * over. Nothing depends on process ids, so a server that runs as PID 1 in a container, killed and
 * started again on the same volume, takes its old lock over as any other.
 *
 * Every step that changes the lock succeeds for one process only, so two processes that find the
 * same stale lock at once cannot both end up holding it (proper-lockfile, used before, removed a
 * stale lock with rmdir and made it again with mkdir: the second remover could remove the lock the
 * first had just made, and both wrote):
 * - a lock is put in place whole, token inside, by renaming a folder made aside: the rename fails
 *   on a folder that holds a token, so it never replaces a lock in use;
 * - a stale lock is taken apart by unlinking the token read before it was found stale (only one
 *   process can unlink it, and a lock put in place since has another token), then rmdir, which
 *   fails if the folder is not empty (another process put its lock in place meanwhile).
 * The holder checks its token is still there at every refresh: it is gone only if its lock was
 * taken over as stale (the process was suspended for longer than `staleMs`), and writes stop.
 */

/** Data files this process holds: a second opener here is a mistake to report at once, not to wait out. */
const held = new Map<string, DataFileLock>();
/** How often a process that finds the lock in use looks again, while it waits for it to turn stale. */
const RETRY_MS = 500;

export interface LockOptions {
  staleMs: number;
  /** Called when the lock could not be kept fresh (the disk failed) or was taken by another process. */
  onLost: (error: Error) => void;
  log: (message: string) => void;
}

export class DataFileLock {
  private readonly path: string;
  private readonly staleMs: number;
  private timer: NodeJS.Timeout | undefined;
  private lastRefresh = Date.now();
  private lost = false;

  private constructor(
    private readonly file: string,
    private readonly options: LockOptions,
    private token: string,
  ) {
    this.path = `${file}.lock`;
    this.staleMs = Math.max(options.staleMs, 2000);
    this.schedule(this.staleMs / 2);
  }

  static async take(file: string, options: LockOptions): Promise<DataFileLock> {
    if (held.has(file)) throw new StoreError(`data file ${file} is already open in this process`);
    const path = `${file}.lock`;
    await removeFormat1Lock(path, file, options.log);
    const staleMs = Math.max(options.staleMs, 2000);
    // Waited for long enough for the lock of a process that just died to turn stale.
    const deadline = Date.now() + staleMs * 1.5;
    for (;;) {
      const token = newToken();
      if (await claim(path, token, staleMs)) {
        const lock = new DataFileLock(file, options, token);
        held.set(file, lock);
        return lock;
      }
      if (Date.now() >= deadline) {
        throw new StoreError(
          `data file ${file} is in use by another process (its lock ${path} is kept fresh): the embedded store allows one server at a time. Stop that process, or use PostgreSQL (DATABASE_URL) to run several.`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }

  /** Takes the lock again after it was lost; false while that fails (the disk still fails, or another process holds it). */
  async retake(): Promise<boolean> {
    try {
      // Still our token: nobody took the lock over, the disk failed while it was to be refreshed.
      if (!(await exists(join(this.path, this.token)))) {
        const token = newToken();
        if (!(await claim(this.path, token, this.staleMs))) return false;
        this.token = token;
      }
      await touch(this.path);
    } catch {
      return false;
    }
    this.lost = false;
    this.lastRefresh = Date.now();
    this.schedule(this.staleMs / 2);
    return true;
  }

  async release(): Promise<void> {
    clearTimeout(this.timer);
    held.delete(this.file);
    if (this.lost) return; // a lost lock has nothing left to release
    this.lost = true;
    await unlink(join(this.path, this.token)).catch(() => undefined);
    await rmdir(this.path).catch(() => undefined);
  }

  /** Removes the lock at once when the process exits without closing the store. */
  releaseNow(): void {
    if (this.lost) return;
    try {
      unlinkSync(join(this.path, this.token));
      rmdirSync(this.path);
    } catch {
      // left to turn stale
    }
  }

  private schedule(delay: number): void {
    // One refresh loop at a time, however often the lock is retaken.
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), delay).unref();
  }

  private async refresh(): Promise<void> {
    try {
      await touch(this.path);
      if (!(await exists(join(this.path, this.token)))) return this.lose(new Error("it was taken over by another process"));
      this.lastRefresh = Date.now();
      if (!this.lost) this.schedule(this.staleMs / 2);
    } catch (error) {
      if (errorCode(error) === "ENOENT" || Date.now() - this.lastRefresh >= this.staleMs) return this.lose(error as Error);
      if (!this.lost) this.schedule(1000); // the disk failed: tried again until the lock would turn stale
    }
  }

  private lose(error: Error): void {
    if (this.lost) return;
    this.lost = true;
    clearTimeout(this.timer);
    this.options.onLost(error);
  }
}

process.once("exit", () => {
  for (const lock of held.values()) lock.releaseNow();
});

/** Puts a lock with `token` in place at `path`: true if it is ours, false while another process's is there. */
async function claim(path: string, token: string, staleMs: number): Promise<boolean> {
  // Read before the time is: a token read belongs to the lock whose time is judged, or to one gone since (its unlink fails).
  const tokens = await readdir(path).catch(ifMissing(undefined));
  if (tokens) {
    const found = await stat(path).catch(ifMissing(undefined));
    if (found && Date.now() - found.mtimeMs < staleMs) return false;
    if (found) {
      // Stale. Unlinking changes the folder's time: to any other process it looks fresh from here on.
      for (const name of tokens) if (!(await unlink(join(path, name)).then(() => true, ifMissing(false)))) return false;
      // Fails if another process's lock was put in place over the emptied folder.
      if (!(await rmdir(path).then(() => true, ifMissing(true)).catch(ifNotEmpty(false)))) return false;
    }
  }
  // Renamed over an empty folder, the lock replaces it: an emptied stale lock, or (within the
  // moment since readdir) the fresh lock of a process of the earlier version, made with mkdir.
  const aside = `${path}.${token}`;
  await mkdir(aside, { mode: 0o700 });
  try {
    await writeFile(join(aside, token), "");
    await rename(aside, path);
    return true;
  } catch (error) {
    await rm(aside, { recursive: true, force: true });
    return ifNotEmpty(false)(error);
  }
}

function newToken(): string {
  return randomBytes(16).toString("hex");
}

async function touch(path: string): Promise<void> {
  const now = new Date();
  await utimes(path, now, now);
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, ifMissing(false));
}

function ifMissing<T>(value: T): (error: unknown) => T {
  return (error) => {
    if (errorCode(error) !== "ENOENT") throw error;
    return value;
  };
}

/** rename and rmdir fail with ENOTEMPTY (or EEXIST, as POSIX allows) on a folder that holds a token. */
function ifNotEmpty<T>(value: T): (error: unknown) => T {
  return (error) => {
    const code = errorCode(error);
    if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
    return value;
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
