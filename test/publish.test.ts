import { execFile } from "node:child_process";
import { createHash, generateKeyPairSync, type KeyObject } from "node:crypto";
import { readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, normalize } from "node:path";
import type { ChildProcess } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { publishBundle } from "../build/publish-bundle.js";
import { bundleName, parsePointer } from "../src/catalog/bundle.js";
import { builtCatalog } from "./helpers/app.js";
import { contentTree, MINIMAL_CONTENT, SAMPLE_CONTENT, tempDir } from "./helpers/content.js";
import { startServer } from "./helpers/server.js";

/**
 * From a published folder to a running instance, as CI and operators use it: `frontdesk publish`
 * into a folder, that folder served as it is by a plain static HTTP server, and an instance that
 * follows it with FRONTDESK_CATALOG_URL, through new content, a broken host and bad bundles.
 */
const POLL_MS = 400;

/** A request the static host answered: the file asked for, the ETag it was asked with, the status. */
interface Served {
  path: string;
  ifNoneMatch: string | undefined;
  status: number;
}

/**
 * A static file server with ETags, like GitHub Pages or a bucket behind a CDN: a conditional
 * request whose ETag matches is answered 304. It records every request it answers.
 */
async function staticHost(root: string): Promise<{ url: string; server: Server; requests: Served[] }> {
  const requests: Served[] = [];
  const server = createServer(async (request, response) => {
    const pathname = new URL(request.url!, "http://x").pathname;
    const ifNoneMatch = request.headers["if-none-match"];
    const answer = (status: number, headers: Record<string, string | number> = {}) => {
      requests.push({ path: pathname, ifNoneMatch, status });
      return response.writeHead(status, headers);
    };
    const path = normalize(join(root, decodeURIComponent(pathname)));
    const bytes = path.startsWith(root) ? await readFile(path).catch(() => undefined) : undefined;
    if (!bytes) return answer(404).end("not found");
    const etag = `"${createHash("sha1").update(bytes).digest("hex")}"`;
    if (ifNoneMatch === etag) return answer(304, { etag }).end();
    answer(200, { etag, "content-length": bytes.length }).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/site`, server, requests };
}

/** `frontdesk publish` as CI runs it (from the sources, as test/helpers/server.ts starts `serve`). */
const run = promisify(execFile);
const publishWithCli = async (catalog: string, out: string) =>
  (await run(process.execPath, ["--import", "tsx", "src/cli.ts", "publish", "--catalog", catalog, "--out", out, "--keep", "2"])).stderr;

const running: { child: ChildProcess }[] = [];
const hosts: Server[] = [];
afterEach(() => {
  for (const r of running.splice(0)) r.child.kill("SIGTERM");
});
afterAll(() => {
  for (const host of hosts) host.close();
});

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const titled = async (content: string, title: string) =>
  builtCatalog(await contentTree({ "services/web-apps.md": (await readFile(join(MINIMAL_CONTENT, "services/web-apps.md"), "utf8")).replace("title: Web Apps", `title: ${title}`) }, content));

async function instance(site: string, extra: Record<string, string> = {}) {
  const output = { text: "" };
  const server = await startServer({
    // The catalog's folder does not exist yet, as on a fresh volume.
    FRONTDESK_CATALOG_URL: site, FRONTDESK_CATALOG: join(await tempDir(), "srv/frontdesk/catalog"), FRONTDESK_CATALOG_POLL_MS: String(POLL_MS),
    FRONTDESK_DATA: join(await tempDir(), "data.json"), ...extra,
  });
  server.child.stdout!.on("data", (c: Buffer) => (output.text += c.toString()));
  running.push(server);
  const get = async (path: string) => {
    const res = await fetch(`${server.url}${path}`);
    return { status: res.status, body: (await res.json()) as { data?: Record<string, unknown>; error?: { code: string; message: string } } };
  };
  const title = async (id = "web-apps") => ((await get(`/api/v1/services/${id}`)).body.data?.title as string | undefined);
  return { get, title, output };
}

describe("publishing a catalog and following it", () => {
  it("publishes the same content as the same bytes, and prunes old bundles but never the pointed one", async () => {
    const out = await tempDir();
    const first = await publishBundle({ catalog: await titled(MINIMAL_CONTENT, "Web Apps A"), out, now: new Date("2026-01-01T00:00:00Z") });
    const pointer = await readFile(join(out, "latest.json"), "utf8");
    const again = await publishBundle({ catalog: await titled(MINIMAL_CONTENT, "Web Apps A"), out, now: new Date("2026-02-01T00:00:00Z") });
    expect([first.changed, again.changed, await readFile(join(out, "latest.json"), "utf8")]).toEqual([true, false, pointer]);
    expect(parsePointer(pointer)).toMatchObject({ format: 1, bundle: bundleName(first.pointer.hash), builtAt: "2026-01-01T00:00:00.000Z" });

    const second = await publishBundle({ catalog: await titled(MINIMAL_CONTENT, "Web Apps B"), out });
    const third = await publishBundle({ catalog: await titled(MINIMAL_CONTENT, "Web Apps C"), out, keep: 2 });
    expect(third.removed).toEqual([first.pointer.bundle]);
    await expect(stat(join(out, second.pointer.bundle))).resolves.toBeDefined();
    const only = await publishBundle({ catalog: await titled(MINIMAL_CONTENT, "Web Apps C"), out, keep: 1 });
    expect([only.removed, only.changed]).toEqual([[second.pointer.bundle], false]);
  });

  it("waits for a first catalog, follows new ones without a restart, and keeps serving through a 404, a tampered and a broken bundle", async () => {
    const root = await tempDir();
    const host = await staticHost(root);
    hosts.push(host.server);
    const out = join(root, "site");
    const site = host.url;
    const node = await instance(site);

    // Nothing published yet: not ready, and catalog answers say why.
    const waiting = await node.get("/readyz");
    expect([waiting.status, waiting.body.error?.message]).toEqual([503, expect.stringContaining("No catalog has arrived yet")]);
    expect((await node.get("/api/v1/services")).status).toBe(503);

    // The first catalog is the sample content, published by the CLI as the workflow does.
    const sample = await builtCatalog(SAMPLE_CONTENT);
    expect(await publishWithCli(sample, out)).toMatch(/^published catalog-[0-9a-f]{16}\.tar\.gz \(catalog [0-9a-f]{12}\) in /);
    const samplePointer = parsePointer(await readFile(join(out, "latest.json"), "utf8"));
    await until("the first catalog", async () => ((await node.title("ai-agents")) === "AI Agents" ? true : undefined));
    const ready = await node.get("/readyz");
    expect(ready.status).toBe(200);
    expect(JSON.stringify(ready.body.data)).toContain(samplePointer.hash.slice(0, 12));
    // The same content again changes nothing, the pointer included.
    expect(await publishWithCli(sample, out)).toMatch(/^already published /);

    // Taken: from now on the pointer is asked for with its ETag, and an unchanged one costs a 304
    // while the catalog stays served.
    const taken = host.requests.length;
    const notModified = await until("a 304 for the unchanged pointer", async () =>
      host.requests.slice(taken).find((r) => r.path === "/site/latest.json" && r.status === 304));
    expect(notModified.ifNoneMatch).toMatch(/^"[0-9a-f]{40}"$/);
    expect(host.requests.slice(taken).filter((r) => r.path.endsWith(".tar.gz"))).toEqual([]);
    expect(await node.title("ai-agents")).toBe("AI Agents");
    const stillReady = await node.get("/readyz");
    expect([stillReady.status, stillReady.body.data?.lastCatalogError]).toEqual([200, undefined]);

    await publishBundle({ catalog: await titled(MINIMAL_CONTENT, "Web Apps A"), out });
    await until("a catalog of the minimal content", async () => ((await node.title()) === "Web Apps A" ? true : undefined));

    // New content, rebuilt and published: served within two poll intervals (plus the time to check it).
    await publishBundle({ catalog: await titled(MINIMAL_CONTENT, "Web Apps B"), out });
    const started = Date.now();
    await until("the new title", async () => ((await node.title()) === "Web Apps B" ? true : undefined)).catch((e) => { throw new Error(`${e.message}\n${node.output.text.split("\n").filter((l) => !l.includes("\"request\"")).join("\n")}`); });
    expect(Date.now() - started).toBeLessThan(2 * POLL_MS + 1500);

    const rejected = async (why: RegExp) => {
      const ready = await until("the error on /readyz", async () => {
        const r = await node.get("/readyz");
        return why.test(String(r.body.data?.lastCatalogError)) ? r : undefined;
      });
      expect(ready.status).toBe(200);
      expect(await node.title()).toBe("Web Apps B");
      expect(node.output.text).toMatch(new RegExp(`catalog from ${site.replace(/[/.]/g, "\\$&")} not taken, still serving [0-9a-f]{12}: .*${why.source}`));
    };

    // A pointer to a bundle the host does not have.
    const c = await publishBundle({ catalog: await titled(MINIMAL_CONTENT, "Web Apps C"), out });
    await rm(join(out, c.pointer.bundle));
    await rejected(/catalog-[0-9a-f]{16}\.tar\.gz answered 404/);

    // A bundle changed after publishing.
    const d = await publishBundle({ catalog: await titled(MINIMAL_CONTENT, "Web Apps D"), out });
    const bundle = join(out, d.pointer.bundle);
    const bytes = await readFile(bundle);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 10) ^ 0xff, bytes.length - 10);
    await writeFile(bundle, bytes);
    await rejected(/does not match the sha256 in latest\.json/);

    // A bundle cut short, with a pointer that vouches for it.
    const e = await publishBundle({ catalog: await titled(MINIMAL_CONTENT, "Web Apps E"), out });
    const cut = (await readFile(join(out, e.pointer.bundle))).subarray(0, 200);
    await writeFile(join(out, e.pointer.bundle), cut);
    const pointer = parsePointer(await readFile(join(out, "latest.json"), "utf8"));
    await writeFile(join(out, "latest.json"), JSON.stringify({ ...pointer, sha256: createHash("sha256").update(cut).digest("hex") }));
    await rejected(/is not a readable bundle/);

    // The host unreachable.
    host.server.close();
    host.server.closeAllConnections();
    await rejected(/cannot be reached/);
  }, 90_000);

  it("takes only bundles signed with the key it is given: unsigned, signed with another key or with a tampered signature, each is refused and named on /readyz", async () => {
    const root = await tempDir();
    const host = await staticHost(root);
    hosts.push(host.server);
    const out = join(root, "site");
    const pem = async (name: string, key: KeyObject) => {
      const file = join(root, name);
      await writeFile(file, key.export({ type: "pkcs8", format: "pem" }));
      return file;
    };
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const signKey = await pem("sign.pem", privateKey);
    const otherKey = await pem("other.pem", generateKeyPairSync("ed25519").privateKey);
    const node = await instance(host.url, { FRONTDESK_CATALOG_PUBLIC_KEY: String(publicKey.export({ type: "spki", format: "pem" })) });

    await publishBundle({ catalog: await titled(MINIMAL_CONTENT, "Unsigned"), out });
    const why = await until("the refusal", async () => (await node.get("/readyz")).body.error?.message.match(/not signed/)?.[0]);
    expect(why).toBe("not signed");
    await publishBundle({ catalog: await titled(MINIMAL_CONTENT, "Signed"), out, signKey });
    await until("the signed catalog", async () => ((await node.title()) === "Signed" ? true : undefined));

    /** Refused for the reason given, named by /readyz, while the signed catalog stays served. */
    const refused = async (bundle: string) => {
      const reason = `the signature of ${bundle} does not hold for FRONTDESK_CATALOG_PUBLIC_KEY`;
      const ready = await until(`the refusal of ${bundle}`, async () => {
        const r = await node.get("/readyz");
        return r.body.data?.lastCatalogError === reason ? r : undefined;
      });
      expect(ready.status).toBe(200);
      expect(await node.title()).toBe("Signed");
      expect(node.output.text).toContain(`not taken, still serving`);
      expect(node.output.text).toContain(reason);
    };

    // Signed, but with a key the instance does not trust.
    const other = await publishBundle({ catalog: await titled(MINIMAL_CONTENT, "Other key"), out, signKey: otherKey });
    await refused(other.pointer.bundle);

    // Signed with the right key, then the signature changed by one byte.
    const tampered = await publishBundle({ catalog: await titled(MINIMAL_CONTENT, "Tampered"), out, signKey });
    const sigFile = join(out, tampered.pointer.signature!);
    const signature = Buffer.from(await readFile(sigFile, "utf8"), "base64");
    signature.writeUInt8(signature.readUInt8(10) ^ 0x01, 10);
    await writeFile(sigFile, `${signature.toString("base64")}\n`);
    await refused(tampered.pointer.bundle);
  }, 60_000);
});
