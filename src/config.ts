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
  /** How often the catalog folder (or the published pointer) is checked for a new build, in milliseconds. */
  catalogPollMs: number;
  /** The address of a `frontdesk publish` folder to follow instead of waiting for local builds. */
  catalogUrl?: string;
  /** FRONTDESK_CATALOG_PUBLIC_KEY: an ed25519 public key (PEM, or a PEM file's path) bundles must be signed with. */
  catalogPublicKey?: string;
  /** Requests per minute and address before 429 rate_limited; 0 is no limit. */
  readsPerMinute: number;
  writesPerMinute: number;
  /**
   * Which proxies' X-Forwarded-For to believe (fastify's trustProxy): none by default, so the
   * socket's address counts for rate limits and the anonymous allowance; a hop count or the
   * proxies' addresses and CIDRs behind a load balancer.
   */
  trustProxy: false | number | string[];
  connections: ConnectionLimits;
  /** FRONTDESK_QUERY_LOG=on: recommend and FAQ questions that found little are kept 30 days for editors. */
  queryLog: boolean;
  logLevel: string;
}

/**
 * How long a client may take and how many may be connected: a client that announces a body and
 * sends it a byte a second must not hold a connection for ever.
 */
export interface ConnectionLimits {
  /** The whole request, headers and body, must arrive within this (408 timeout otherwise). */
  requestTimeoutMs: number;
  /** The headers must arrive within this (at most requestTimeoutMs). */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this: above a load balancer's idle timeout (60 s on AWS). */
  keepAliveTimeoutMs: number;
  /** Connections open at once; one more is closed as it arrives. */
  maxConnections: number;
}

export const CONNECTION_LIMITS: ConnectionLimits = { requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 72_000, maxConnections: 1024 };

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
    ...(env.FRONTDESK_CATALOG_URL ? { catalogUrl: httpUrl(env.FRONTDESK_CATALOG_URL, "FRONTDESK_CATALOG_URL") } : {}),
    ...(env.FRONTDESK_CATALOG_PUBLIC_KEY ? { catalogPublicKey: env.FRONTDESK_CATALOG_PUBLIC_KEY } : {}),
    // Generous: ChatGPT's calls for many users arrive from a few shared addresses.
    readsPerMinute: integer(env.RATE_LIMIT_READ_PER_MINUTE, 1200, "RATE_LIMIT_READ_PER_MINUTE"),
    writesPerMinute: integer(env.RATE_LIMIT_WRITE_PER_MINUTE, 240, "RATE_LIMIT_WRITE_PER_MINUTE"),
    trustProxy: trustProxy(env.TRUST_PROXY),
    connections: {
      requestTimeoutMs: integer(env.REQUEST_TIMEOUT_MS, CONNECTION_LIMITS.requestTimeoutMs, "REQUEST_TIMEOUT_MS", 1),
      headersTimeoutMs: integer(env.HEADERS_TIMEOUT_MS, CONNECTION_LIMITS.headersTimeoutMs, "HEADERS_TIMEOUT_MS", 1),
      keepAliveTimeoutMs: integer(env.KEEP_ALIVE_TIMEOUT_MS, CONNECTION_LIMITS.keepAliveTimeoutMs, "KEEP_ALIVE_TIMEOUT_MS", 1),
      maxConnections: integer(env.MAX_CONNECTIONS, CONNECTION_LIMITS.maxConnections, "MAX_CONNECTIONS", 1),
    },
    queryLog: onOff(env.FRONTDESK_QUERY_LOG, "FRONTDESK_QUERY_LOG"),
    logLevel: env.LOG_LEVEL ?? "info",
  };
}

function httpUrl(value: string, name: string): string {
  if (!/^https?:\/\/[^\s]+$/.test(value)) throw new Error(`${name} must be an http(s) address, the folder frontdesk publish wrote (got "${value}")`);
  return value;
}

function onOff(value: string | undefined, name: string): boolean {
  if (value === undefined || value === "" || value === "off") return false;
  if (value === "on") return true;
  throw new Error(`${name} must be on or off (got "${value}")`);
}

function trustProxy(value: string | undefined): Config["trustProxy"] {
  if (value === undefined || value.trim() === "") return false;
  if (/^\d+$/.test(value.trim())) return Number(value);
  if (/^(true|false)$/i.test(value.trim())) {
    throw new Error(`TRUST_PROXY must be a hop count or the proxies' addresses (got "${value}"): "true" would believe any caller's X-Forwarded-For; behind one load balancer, set it to 1 or to the balancer's address`);
  }
  return value.split(",").map((address) => address.trim()).filter(Boolean);
}

function integer(value: string | undefined, fallback: number, name: string, min = 0): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number${min > 0 ? ` of at least ${min}` : ""} (got "${value}")`);
  return n;
}
