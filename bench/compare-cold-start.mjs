// Cold start of several builds of Frontdesk, alternated in one run: process start to the first 200
// on GET /api/v1/services. Usage: node bench/compare-cold-start.mjs <checkout>=<catalog> ... (each checkout
// built with tsup, each catalog built by that checkout). Prints the median of nine starts each.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
const [,, ...pairs] = process.argv; // dir=catalog ...
const targets = pairs.map((p) => { const [dir, catalog] = p.split("="); return { dir, catalog, times: [] }; });
let port = 4100;
async function once(t) {
  const data = mkdtempSync(`${tmpdir()}/frontdesk-cold-`);
  const started = performance.now();
  const child = spawn("node", ["dist/cli.js", "serve"], { cwd: t.dir, env: { ...process.env, PORT: String(++port), FRONTDESK_CATALOG: t.catalog, FRONTDESK_DATA: `${data}/f.json`, LOG_LEVEL: "warn", FRONTDESK_CATALOG_POLL_MS: "0" }, stdio: "ignore" });
  for (;;) {
    try { const r = await fetch(`http://127.0.0.1:${port}/api/v1/services`); if (r.status === 200) break; } catch {}
    await new Promise((r) => setTimeout(r, 2));
  }
  t.times.push(performance.now() - started);
  child.kill("SIGKILL");
  await new Promise((r) => child.on("exit", r));
  rmSync(data, { recursive: true, force: true });
}
for (let i = 0; i < 9; i++) for (const t of (i % 2 ? [...targets].reverse() : targets)) await once(t);
for (const t of targets) { const s = [...t.times].sort((a, b) => a - b); console.log(t.dir, "median", s[4].toFixed(0), "ms", s.map((x) => x.toFixed(0)).join(" ")); }
