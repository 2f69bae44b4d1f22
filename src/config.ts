import { DEFAULT_LOCK_STALE_MS } from "./store/store.js";

/**
 * Runtime configuration, read from the environment in one place so the rest of the code takes
 * plain values (and tests pass their own).
 */
export interface Config {
  port: number;
  host: string;
  catalogDir: string;
  /** Public address of this server, without a trailing slash; used in links and openapi servers. */
  publicBaseUrl: string;
  /** lowdb data file (the default store). */
  dataFile: string;
  /** Reviews older than this many days are removed (at compaction on the embedded store, hourly on PostgreSQL); unset keeps everything. */
  retentionDays?: number;
  /** How long a crashed process's lock on the data file keeps a new one waiting (a running one refreshes it every half of this). */
  lockStaleMs: number;
  /** PostgreSQL connection string; when set, the PostgreSQL store is used instead of lowdb. */
  databaseUrl?: string;
  /** Connections each instance keeps to PostgreSQL (mind the server's max_connections across instances). */
  databasePoolSize: number;
  /** How often the catalog folder is checked for a new build, in milliseconds. */
  catalogPollMs: number;
  /** Requests per minute and address before 429 rate_limited; 0 is no limit. */
  readsPerMinute: number;
  writesPerMinute: number;
  logLevel: string;
}

export function readConfig(env: NodeJS.ProcessEnv): Config {
  const port = integer(env.PORT, 3000, "PORT");
  const host = env.HOST ?? "127.0.0.1";
  const visibleHost = host === "0.0.0.0" || host === "::" ? "localhost" : host;
  return {
    port,
    host,
    catalogDir: env.FRONTDESK_CATALOG ?? "dist/catalog",
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://${visibleHost}:${port}`).replace(/\/+$/, ""),
    dataFile: env.FRONTDESK_DATA ?? "data/frontdesk.json",
    ...(env.FRONTDESK_RETENTION_DAYS ? { retentionDays: integer(env.FRONTDESK_RETENTION_DAYS, 0, "FRONTDESK_RETENTION_DAYS", 1) } : {}),
    lockStaleMs: integer(env.FRONTDESK_LOCK_STALE_MS, DEFAULT_LOCK_STALE_MS, "FRONTDESK_LOCK_STALE_MS", 2000),
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    databasePoolSize: integer(env.DATABASE_POOL_SIZE, 10, "DATABASE_POOL_SIZE", 1),
    catalogPollMs: integer(env.FRONTDESK_CATALOG_POLL_MS, 1000, "FRONTDESK_CATALOG_POLL_MS"),
    // Generous: ChatGPT's calls for many users arrive from a few shared addresses.
    readsPerMinute: integer(env.RATE_LIMIT_READ_PER_MINUTE, 1200, "RATE_LIMIT_READ_PER_MINUTE"),
    writesPerMinute: integer(env.RATE_LIMIT_WRITE_PER_MINUTE, 240, "RATE_LIMIT_WRITE_PER_MINUTE"),
    logLevel: env.LOG_LEVEL ?? "info",
  };
}

function integer(value: string | undefined, fallback: number, name: string, min = 0): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number${min > 0 ? ` of at least ${min}` : ""} (got "${value}")`);
  return n;
}
