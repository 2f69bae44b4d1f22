import { createApp } from "./app.js";
import { LiveCatalog } from "./catalog/live.js";
import type { Config } from "./config.js";
import { openStore } from "./store/open.js";
import { keepTickObjectShape } from "./tick-shape.js";

/** Something that runs beside the server (the dev watcher) and stops with it. */
export type Companion = (running: { catalog: LiveCatalog; log: (message: string) => void }) => () => void;

/**
 * `frontdesk serve`: load the catalog and the store, listen, and shut down cleanly on a signal.
 * `frontdesk dev` passes a companion that rebuilds the catalog when content changes.
 */
export async function serve(config: Config, companion?: Companion): Promise<void> {
  keepTickObjectShape(); // first, before loading the catalog starts the first full collection
  // Side by side: neither waits for the other at start. If one fails the process exits with its
  // error; a lowdb lock left behind names a dead process and is taken over on the next start.
  const [catalog, store] = await Promise.all([LiveCatalog.open(config.catalogDir, config.publicBaseUrl), openStore(config)]);
  const app = await createApp({ catalog, store, config, logger: { level: config.logLevel } });
  catalog.watch(config.catalogPollMs, app.log);
  const stopCompanion = companion?.({ catalog, log: (m) => app.log.info(m) });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal} received: finishing open requests`);
    stopCompanion?.();
    catalog.close();
    // fastify closes the connections that are idle when closing starts. One whose request is in
    // flight turns idle once its answer is sent, and would then hold the exit until the client
    // closes it or the keep-alive timeout (72 s) passes. From now on that timeout is a moment
    // (Node adds a second to it); unlike closing connections as they turn idle, it never cuts off
    // an answer still being sent.
    app.server.keepAliveTimeout = 1;
    await app.close();
    await store.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Frontdesk serves ${config.publicBaseUrl}/api/v1 (catalog ${catalog.current.manifest.contentHash.slice(0, 12)})`);
}
