import type { Config } from "../config.js";
import { LowdbStore } from "./lowdb-store.js";
import type { Store } from "./store.js";

/** The store the configuration asks for: PostgreSQL when DATABASE_URL is set, else the lowdb file. */
export async function openStore(config: Pick<Config, "dataFile" | "databaseUrl" | "databasePoolSize">, options: { readOnly?: boolean } = {}): Promise<Store> {
  if (config.databaseUrl) {
    // Loaded only when asked for, so an embedded-store server starts without the driver.
    const { PostgresStore } = await import("./postgres-store.js");
    return PostgresStore.open(config.databaseUrl, { poolSize: config.databasePoolSize });
  }
  return LowdbStore.open(config.dataFile, undefined, options);
}
