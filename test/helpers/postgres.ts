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
  stop(): Promise<void>;
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
  return {
    name: `PGlite (${forced ? "FRONTDESK_TEST_PGLITE=1" : "no server answered on 127.0.0.1:5432"})`,
    // PGlite is one private database with one session: no schema needed, and none could be set.
    url: `postgres://postgres@${server.getServerConn()}/postgres`,
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

