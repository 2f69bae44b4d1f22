import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { bundleName } from "../src/catalog/bundle.js";
import { followCatalog } from "../src/catalog/follow.js";
import { LiveCatalog } from "../src/catalog/live.js";
import type { ServedCatalog } from "../src/catalog/served.js";
import { BASE_URL, builtCatalog } from "./helpers/app.js";
import { tempDir } from "./helpers/content.js";

/**
 * The follower's timing on a first start with no catalog, with an injected fetch and fake clocks:
 * the rounds come 1, 2, 4… seconds apart, doubling up to FRONTDESK_CATALOG_POLL_MS (60 s when
 * polling is off), and once a catalog is served they come every poll interval again (or stop,
 * polling off). See src/catalog/follow.ts.
 */
const SITE = "https://catalog.test.example/site";

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  stop = undefined;
  vi.useRealTimers();
});

/** An instance with nothing served yet, and a catalog ready to be "taken" later in the test. */
async function setUp() {
  const live = await LiveCatalog.open(join(await tempDir(), "catalog"), BASE_URL, { waitForFirst: true });
  const prepared = await live.prepare(await builtCatalog());
  const errors: string[] = [];
  const log = { info: () => {}, error: (message: string) => void errors.push(message) };
  return { live, prepared, errors, log };
}

/** A host whose answer the test changes as it goes; it records when each request came. */
function host(answer: () => Response | Promise<Response>) {
  const calls: number[] = [];
  const fetch = (async () => {
    calls.push(Date.now());
    return answer();
  }) as unknown as typeof globalThis.fetch;
  const gaps = () => calls.slice(1).map((at, i) => at - calls[i]!);
  return { fetch, calls, gaps };
}

const pointerTo = (served: ServedCatalog) => {
  const hash = served.manifest.contentHash;
  return new Response(JSON.stringify({ format: 1, hash, bundle: bundleName(hash), sha256: "0".repeat(64), builtAt: "2026-01-01T00:00:00.000Z" }), {
    status: 200, headers: { etag: '"one"' },
  });
};

describe("following a catalog URL with no catalog yet", () => {
  it("asks again 1, 2, 4, 8 s apart up to the poll interval, then every poll interval once a catalog is served", async () => {
    const { live, prepared, errors, log } = await setUp();
    let served = false;
    const site = host(() => (served ? pointerTo(prepared) : new Response("not found", { status: 404 })));
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const follower = followCatalog({ url: SITE, catalogDir: join(await tempDir(), "catalog"), pollMs: 8000, live, log, fetch: site.fetch });
    stop = follower.stop;

    await vi.advanceTimersByTimeAsync(31_000);
    expect(site.gaps()).toEqual([1000, 2000, 4000, 8000, 8000, 8000]);
    expect(errors).toHaveLength(7);
    expect(errors[0]).toBe(`catalog from ${SITE} not taken, none served yet: ${SITE}/latest.json answered 404`);
    expect(live.lastError).toBe(`${SITE}/latest.json answered 404`);

    // The catalog arrives (as a take would leave it) and the pointer names it: every 8 s from now on.
    live.adopt(prepared, log);
    served = true;
    site.calls.length = 0;
    await vi.advanceTimersByTimeAsync(8000 * 4);
    expect(site.gaps()).toEqual([8000, 8000, 8000]);
    expect(live.lastError).toBeUndefined();
  });

  it("with polling off, doubles up to 60 s while the host refuses, and stops asking once a catalog is served", async () => {
    const { live, prepared, errors, log } = await setUp();
    let served = false;
    const site = host(() => {
      if (served) return pointerTo(prepared);
      throw new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:443") });
    });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const follower = followCatalog({ url: SITE, catalogDir: join(await tempDir(), "catalog"), pollMs: 0, live, log, fetch: site.fetch });
    stop = follower.stop;

    await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000 + 8000 + 16_000 + 32_000 + 60_000 + 60_000);
    expect(site.gaps()).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000]);
    expect(errors.at(-1)).toBe(`catalog from ${SITE} not taken, none served yet: ${SITE}/latest.json cannot be reached (connect ECONNREFUSED 127.0.0.1:443)`);

    live.adopt(prepared, log);
    served = true;
    await vi.advanceTimersByTimeAsync(60_000);
    const asked = site.calls.length;
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(site.calls.length).toBe(asked);
  });
});
