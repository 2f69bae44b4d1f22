/** Programmatic entry: build an app or a catalog from code (tests, embedding). */
export { createApp, type AppOptions } from "./app.js";
export { LiveCatalog } from "./catalog/live.js";
export { readConfig, type Config } from "./config.js";
export { LowdbStore } from "./store/lowdb-store.js";
export type { Store } from "./store/store.js";
export { operations } from "./api/operations.js";
