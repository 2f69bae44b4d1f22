import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { SAMPLE_CONTENT } from "./helpers/content.js";
import { startServer } from "./helpers/server.js";

/**
 * The server as `npm start` runs it: tsup's bundle, with the dependencies inside. The other tests
 * run the sources, so this one proves the bundle answers the same, and that building the code
 * again (every `npm start` does) leaves the catalog published beside it alone.
 */
const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TSUP = join(ROOT, "node_modules/.bin/tsup");

await mkdir(join(ROOT, "node_modules", ".cache"), { recursive: true });

it("serves reads, writes, searches, the docs page and MCP from the bundle, after a second code build", async () => {
  // Inside the project, so the packages left out of the bundle (ajv) resolve as they do from dist/.
  const out = await mkdtemp(join(ROOT, "node_modules", ".cache", "frontdesk-dist-"));
  try {
    const cli = join(out, "cli.js");
    const catalog = join(out, "catalog");
    await run(TSUP, ["--out-dir", out], { cwd: ROOT });
    await run(process.execPath, [cli, "build", "--content", SAMPLE_CONTENT, "--catalog", catalog], { cwd: ROOT });
    const published = (await readdir(catalog)).sort();
    await run(TSUP, ["--out-dir", out], { cwd: ROOT });
    expect((await readdir(catalog)).sort()).toEqual(published);

    const { child, url } = await startServer({ FRONTDESK_CATALOG: catalog, FRONTDESK_DATA: join(out, "data.json") }, [cli]);
    try {
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      const services = (await (await fetch(`${url}/api/v1/services`)).json()) as { data: { count: number } };
      expect(services.data.count).toBeGreaterThanOrEqual(16);
      const faq = (await (await fetch(`${url}/api/v1/faq/search?q=how%20fast%20can%20you%20start`)).json()) as { data: { results: { id: string }[] } };
      expect(faq.data.results[0]!.id).toBe("how-fast-can-you-start");
      const invalid = await fetch(`${url}/api/v1/faq/search?q=x&limit=999`);
      expect(invalid.status).toBe(400);
      const lead = await fetch(`${url}/api/v1/leads/intent`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ description: "Needs a platform team" }) });
      expect(lead.status).toBe(200);
      const docs = await fetch(`${url}/docs`);
      expect(docs.status).toBe(200);
      const scripts = [...(await docs.text()).matchAll(/src="([^"]+)"/g)].map((m) => m[1]!);
      expect(scripts.length).toBeGreaterThan(0);
      for (const src of scripts) expect((await fetch(new URL(src, `${url}/docs/`))).status, src).toBe(200);
      const mcp = await fetch(`${url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(mcp.status).toBe(200);
      expect(await mcp.text()).toContain("searchFaq");
    } finally {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    }
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}, 60_000);
