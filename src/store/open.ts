import type { Config } from "../config.js";
import { LowdbStore } from "./lowdb-store.js";
import type { Store } from "./store.js";

/** The store the configuration asks for: PostgreSQL when DATABASE_URL is set, else the lowdb file. */
export async function openStore(config: Pick<Config, "dataFile" | "databaseUrl">): Promise<Store> {
  if (config.databaseUrl) {
    throw new Error("DATABASE_URL is set, but the PostgreSQL store is not available in this version: unset it to use the embedded store");
  }
  return LowdbStore.open(config.dataFile);
}
