import { LowdbStore } from "./lowdb-store.js";
import { PostgresStore } from "./postgres-store.js";
import { COLLECTIONS } from "./store.js";

/**
 * `frontdesk migrate --from-file`: copies an embedded store into PostgreSQL. It takes the data
 * file's lock, so it refuses to run beside a server (whose new writes would be left behind), and
 * can be run again: what PostgreSQL has already is kept.
 */
export async function moveToPostgres(file: string, databaseUrl: string, lockStaleMs: number): Promise<{ records: number; added: number; allowances: number; answers: number }> {
  const source = await LowdbStore.open(file, { control: false, lockStaleMs });
  try {
    const state = await source.state();
    const target = await PostgresStore.open(databaseUrl);
    try {
      const added = await target.import(state);
      return { records: COLLECTIONS.reduce((n, c) => n + state.collections[c].length, 0), added, allowances: state.ticketUsage.length, answers: state.idempotency.length };
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}
