import type { Config } from "../config.js";
import { connectControl, controlPath } from "./control.js";
import { LowdbStore } from "./lowdb-store.js";
import { StoreError, type Collection, type Erasure, type OperatorStore, type Store, type StoredRecord, type TicketUsage, type Transaction } from "./store.js";

type StoreConfig = Pick<Config, "dataFile" | "databaseUrl" | "databasePoolSize" | "retentionDays" | "lockStaleMs">;

/** The store the configuration asks for: PostgreSQL when DATABASE_URL is set, else the embedded store. */
export async function openStore(config: StoreConfig, log: (message: string) => void = () => undefined): Promise<Store> {
  if (config.databaseUrl) {
    // Loaded only when asked for, so an embedded-store server starts without the driver.
    const { PostgresStore } = await import("./postgres-store.js");
    return PostgresStore.open(config.databaseUrl, { poolSize: config.databasePoolSize, retentionDays: config.retentionDays });
  }
  return LowdbStore.open(config.dataFile, { retentionDays: config.retentionDays, lockStaleMs: config.lockStaleMs, log });
}

/**
 * The store for `frontdesk data`: the running server's, through its socket, when a server holds
 * the embedded store; else the store itself (taking the lock while the command runs).
 */
export async function openOperatorStore(config: StoreConfig): Promise<OperatorStore> {
  if (config.databaseUrl) return openStore(config);
  const running = await connectControl(controlPath(config.dataFile));
  if (running) return running;
  try {
    return await LowdbStore.open(config.dataFile, { retentionDays: config.retentionDays, lockStaleMs: config.lockStaleMs, control: false });
  } catch (error) {
    // A server that was still loading holds the lock and answers by now.
    if (error instanceof StoreError) return (await connectControl(controlPath(config.dataFile))) ?? Promise.reject(error);
    throw error;
  }
}

/**
 * A store that answers at once while the real one opens (takes its lock, reads its snapshot and
 * journal): the server listens and answers reads meanwhile; store calls wait for it, and /readyz
 * with them. A store that fails to open is the server's to report (it exits).
 */
export class OpeningStore implements Store {
  constructor(readonly opened: Promise<Store>) {
    opened.catch(() => undefined);
  }

  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return (await this.opened).transaction(work);
  }

  async ticketUsage(clientId: string): Promise<TicketUsage> {
    return (await this.opened).ticketUsage(clientId);
  }

  async list(collection: Collection): Promise<StoredRecord[]> {
    return (await this.opened).list(collection);
  }

  async *records(collection: Collection, since?: string): AsyncIterable<StoredRecord> {
    yield* (await this.opened).records(collection, since);
  }

  async erase(email: string): Promise<Erasure[]> {
    return (await this.opened).erase(email);
  }

  async checkWritable(): Promise<void> {
    return (await this.opened).checkWritable();
  }

  async close(): Promise<void> {
    await (await this.opened.catch(() => undefined))?.close();
  }
}
