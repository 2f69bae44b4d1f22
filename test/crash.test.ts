import { spawn, type ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { builtCatalog } from "./helpers/app.js";
import { tempDir } from "./helpers/content.js";

/** The real server, as `frontdesk serve` runs it, on a free port. */
async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli.ts", "serve"], {
    env: { ...process.env, ...env, PORT: "0", LOG_LEVEL: "info", FRONTDESK_CATALOG_POLL_MS: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
  return { child, url };
}

describe("crash safety", () => {
  it("keeps every acknowledged lead when the server is killed mid-burst", async () => {
    const catalog = await builtCatalog();
    const dataFile = join(await tempDir("frontdesk-crash-"), "frontdesk.json");
    const env = { FRONTDESK_CATALOG: catalog, FRONTDESK_DATA: dataFile };
    const { child, url } = await startServer(env);

    const acknowledged: string[] = [];
    let stop = false;
    const client = async (n: number) => {
      for (let i = 0; !stop; i++) {
        try {
          const res = await fetch(`${url}/api/v1/leads/intent`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ description: `lead ${n}-${i}`, conversationId: `c-${n}-${i}` }),
          });
          if (res.status === 200) acknowledged.push(((await res.json()) as { data: { reference: string } }).data.reference);
        } catch {
          return; // the server is gone
        }
      }
    };
    const clients = Array.from({ length: 16 }, (_, n) => client(n));
    while (acknowledged.length < 200) await new Promise((r) => setTimeout(r, 5));
    child.kill("SIGKILL");
    stop = true;
    await Promise.all(clients);

    const saved = JSON.parse(await readFile(dataFile, "utf8")) as { leads: { reference: string }[] };
    const stored = new Set(saved.leads.map((l) => l.reference));
    expect(acknowledged.filter((r) => !stored.has(r))).toEqual([]);

    // A restart takes over the stale lock and serves the same data.
    const again = await startServer(env);
    const res = await fetch(`${again.url}/api/v1/leads/intent`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ description: "again", conversationId: "c-0-0" }),
    });
    expect(((await res.json()) as { data: { duplicate: boolean } }).data.duplicate).toBe(true);
    again.child.kill("SIGTERM");
    await new Promise((r) => again.child.once("exit", r));
  }, 60_000);
});
