import { randomBytes } from "node:crypto";
import pg from "pg";

/**
 * A PostgreSQL database for tests: a fresh schema on the machine's server (CI starts it), or,
 * where none answers, PGlite behind its socket server, through the same driver. Never a silent
 * skip: `name` says which backend it is. FRONTDESK_TEST_PGLITE=1 forces PGlite.
 */
const SERVER_URL = "postgres://postgres@127.0.0.1:5432/test";

export interface Backend {
  name: string;
  url: string;
  /** A database of its own (a new one on the server; PGlite's only one), for faults that act on a whole database. */
  privateDatabase(): Promise<PrivateDatabase>;
  stop(): Promise<void>;
}

export interface PrivateDatabase {
  host: string;
  port: number;
  database: string;
  /** New transactions are read-only (on) or not (off); open sessions are ended so that it holds at once. */
  setReadOnly(on: boolean): Promise<void>;
  drop(): Promise<void>;
}

export async function startBackend(): Promise<Backend> {
  const forced = process.env.FRONTDESK_TEST_PGLITE === "1";
  if (!forced) {
    const probe = new pg.Client({ connectionString: SERVER_URL, connectionTimeoutMillis: 2000 });
    try {
      await probe.connect();
      await probe.end();
      // Each test file gets its own schema, so parallel files and earlier runs never meet.
      const schema = `frontdesk_test_${randomBytes(6).toString("hex")}`;
      await admin(SERVER_URL, `CREATE SCHEMA ${schema}`);
      return {
        name: "the PostgreSQL server at 127.0.0.1:5432",
        url: `${SERVER_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
        privateDatabase: async () => {
          // Never the shared database: a read-only setting there would reach other test files.
          const database = `frontdesk_faults_${randomBytes(6).toString("hex")}`;
          await admin(SERVER_URL, `CREATE DATABASE ${database}`);
          return {
            host: "127.0.0.1", port: 5432, database,
            setReadOnly: async (on) => {
              await admin(SERVER_URL, `ALTER DATABASE ${database} ${on ? "SET default_transaction_read_only = on" : "RESET default_transaction_read_only"}`);
              await admin(SERVER_URL, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}' AND pid <> pg_backend_pid()`);
            },
            drop: () => admin(SERVER_URL, `DROP DATABASE ${database} WITH (FORCE)`),
          };
        },
        stop: () => admin(SERVER_URL, `DROP SCHEMA ${schema} CASCADE`),
      };
    } catch (error) {
      // A server that answers with an error is misconfigured: say so instead of hiding it behind PGlite.
      if (error instanceof pg.DatabaseError) throw new Error(`the PostgreSQL server at 127.0.0.1:5432 refused the tests: ${error.message}`);
    }
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db, port: 0, maxConnections: 64 });
  await server.start();
  const [host, port] = server.getServerConn().split(":");
  return {
    name: `PGlite (${forced ? "FRONTDESK_TEST_PGLITE=1" : "no server answered on 127.0.0.1:5432"})`,
    // PGlite is one private database with one session: no schema needed, and none could be set.
    url: `postgres://postgres@${server.getServerConn()}/postgres`,
    privateDatabase: async () => ({
      host: host!, port: Number(port), database: "postgres",
      // Its one session is every connection's: a session setting holds for all of them.
      setReadOnly: (on) => admin(`postgres://postgres@${server.getServerConn()}/postgres`, `SET default_transaction_read_only = ${on ? "on" : "off"}`),
      drop: async () => undefined,
    }),
    stop: async () => {
      await server.stop();
      await db.close(); // an open PGlite keeps the process alive
    },
  };
}

export async function admin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

