import { createApp } from "./app.js";
import { readPublicKey } from "./catalog/bundle.js";
import { followCatalog } from "./catalog/follow.js";
import { LiveCatalog } from "./catalog/live.js";
import type { Config } from "./config.js";
import { OpeningStore, openStore } from "./store/open.js";
import { StoreError } from "./store/store.js";
import { keepTickObjectShape } from "./tick-shape.js";

/** Something that runs beside the server (the dev watcher) and stops with it. */
export type Companion = (running: { catalog: LiveCatalog; log: (message: string) => void }) => () => void;

/**
 * `frontdesk serve`: load the catalog and the store, listen, and shut down cleanly on a signal.
 * `frontdesk dev` passes a companion that rebuilds the catalog when content changes.
 */
export async function serve(config: Config, companion?: Companion): Promise<void> {
  keepTickObjectShape(); // first, before loading the catalog starts the first full collection
  // The store opens (takes its lock, loads its data) beside everything else: the server answers
  // reads meanwhile, and writes and /readyz wait for it. If it cannot open, the process exits with
  // its error; a lock left behind by a process that died is taken over once it is stale.
  const early: string[] = [];
  let log: (message: string) => void = (message) => early.push(message);
  const store = new OpeningStore(openStore(config, (message) => log(message)));
  store.opened.catch((error: unknown) => {
    console.error(error instanceof StoreError ? error.message : error);
    process.exit(1);
  });
  const catalog = await LiveCatalog.open(config.catalogDir, config.publicBaseUrl, { waitForFirst: config.catalogUrl !== undefined });
  const app = await createApp({ catalog, store, config, logger: { level: config.logLevel } });
  log = (message) => app.log.info(message);
  for (const message of early.splice(0)) log(message);
  const follower = config.catalogUrl
    ? followCatalog({
        url: config.catalogUrl, catalogDir: config.catalogDir, pollMs: config.catalogPollMs, live: catalog, log: app.log,
        ...(config.catalogPublicKey ? { publicKey: readPublicKey(config.catalogPublicKey) } : {}),
      })
    : undefined;
  if (!follower) catalog.watch(config.catalogPollMs, app.log);
  const stopCompanion = companion?.({ catalog, log: (m) => app.log.info(m) });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal} received: finishing open requests`);
    stopCompanion?.();
    follower?.stop();
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
  const served = catalog.available ? `catalog ${catalog.available.manifest.contentHash.slice(0, 12)}` : `no catalog yet: waiting for ${config.catalogUrl}`;
  app.log.info(`Frontdesk serves ${config.publicBaseUrl}/api/v1 (${served})`);
  const warning = publicAddressWarning(config.publicBaseUrl);
  if (warning) app.log.warn(warning);
}

/** GPT Actions import only a document whose server address is https: say so at start, not at import. */
export function publicAddressWarning(publicBaseUrl: string): string | undefined {
  if (publicBaseUrl.startsWith("https://")) return undefined;
  return `PUBLIC_BASE_URL is ${publicBaseUrl}: a custom GPT refuses to import an OpenAPI document whose server is not https. Set PUBLIC_BASE_URL to the public https address of this server (e.g. https://api.example.com) before setting up a GPT; local tries and MCP clients work as is.`;
}
