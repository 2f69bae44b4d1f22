/**
 * `frontdesk dev` after one edit on a large content tree, next to `velite dev` (a content
 * pipeline an editor might pick instead) watching the same tree, in the same run.
 *
 * Frontdesk is timed from the save to the edited value in an HTTP answer (rebuild, publish and
 * swap into the running server); velite from the save to its "rebuild finished" line (it writes
 * JSON files, with no search index, OpenAPI document or server). velite is installed on first
 * use into node_modules/.cache, outside the project's dependencies.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

const VELITE = "velite@0.4.0";
const EDITS = 5;

interface Watcher {
  child: ChildProcess;
  output: { text: string };
}

function launch(command: string[], options: { cwd: string; env?: Record<string, string> }): Watcher {
  const child = spawn(process.execPath, command, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
  const output = { text: "" };
  for (const stream of [child.stdout!, child.stderr!]) stream.on("data", (c: Buffer) => (output.text += c.toString()));
  return { child, output };
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** Saves a new price into `file` and returns how long `seen` took to report it. */
async function timeEdits(file: string, seen: (price: number) => Promise<boolean> | boolean): Promise<number[]> {
  const original = await readFile(file, "utf8");
  const times: number[] = [];
  for (let i = 0; i < EDITS; i++) {
    const price = 90_000 + i;
    const started = performance.now();
    await writeFile(file, original.replace(/from: \d+/, `from: ${price}`));
    await until(() => seen(price), `edit ${i} to show`);
    times.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 300)); // let watchers settle between edits
  }
  await writeFile(file, original);
  return times;
}

function installVelite(cacheDir: string): string | undefined {
  const bin = join(cacheDir, "node_modules/velite/bin/velite.js");
  if (!existsSync(bin)) {
    try {
      execFileSync("npm", ["install", "--prefix", cacheDir, "--no-audit", "--no-fund", "--loglevel=error", VELITE], { stdio: "ignore" });
    } catch {
      return undefined;
    }
  }
  return existsSync(bin) ? bin : undefined;
}

export async function devRebuild(options: { root: string; content: string; work: string; port: number }): Promise<{ frontdesk: number[]; velite?: number[]; why?: string }> {
  const { root, content, work, port } = options;
  const edited = join(content, "services/service-500.md");

  const frontdesk = launch(["dist/cli.js", "dev", "--content", content], {
    cwd: root,
    env: { PORT: String(port), FRONTDESK_CATALOG: join(work, "dev-catalog"), FRONTDESK_DATA: join(work, "dev.json"), LOG_LEVEL: "warn" },
  });
  const price = async () => {
    try {
      const answer = await fetch(`http://127.0.0.1:${port}/api/v1/services/service-500`);
      return ((await answer.json()) as { data?: { pricing?: { from?: number } } }).data?.pricing?.from;
    } catch {
      return undefined;
    }
  };
  let frontdeskTimes: number[];
  try {
    await until(async () => frontdesk.output.text.includes("watching") && (await price()) !== undefined, "frontdesk dev to serve and watch", 120_000);
    frontdeskTimes = await timeEdits(edited, async (p) => (await price()) === p);
  } finally {
    frontdesk.child.kill("SIGTERM");
  }

  const cacheDir = join(root, "node_modules/.cache/frontdesk-bench");
  const bin = installVelite(cacheDir);
  if (!bin) return { frontdesk: frontdeskTimes, why: `${VELITE} could not be installed from the npm registry` };
  // Inside the install folder, so the config velite compiles finds velite and esbuild.
  const veliteDir = join(cacheDir, "project");
  await mkdir(veliteDir, { recursive: true });
  // The same two collections, front matter validated and the body kept, as close to what the
  // Frontdesk build checks as a velite schema gets without writing every field out.
  await writeFile(
    join(veliteDir, "velite.config.js"),
    `import { defineConfig, s } from "velite";
export default defineConfig({
  root: ${JSON.stringify(content)},
  output: { data: ${JSON.stringify(join(work, "velite-out"))}, assets: ${JSON.stringify(join(work, "velite-assets"))}, clean: true },
  collections: {
    services: { name: "Service", pattern: "services/*.md", schema: s.object({ title: s.string(), summary: s.string(), category: s.string(), tags: s.array(s.string()).optional(), body: s.raw() }).passthrough() },
    faq: { name: "Faq", pattern: "faq/*.md", schema: s.object({ question: s.string(), category: s.string(), tags: s.array(s.string()).optional(), body: s.raw() }).passthrough() },
  },
});
`,
  );
  const velite = launch([bin, "dev"], { cwd: veliteDir });
  try {
    await until(() => velite.output.text.includes("watching for changes"), "velite dev to watch", 120_000);
    const finished = () => velite.output.text.match(/rebuild finished/g)?.length ?? 0;
    // velite says it is watching before its watcher has scanned the tree, and misses saves until
    // then: touch the file until a rebuild shows, then measure.
    const text = await readFile(edited, "utf8");
    await until(async () => {
      await writeFile(edited, text);
      await new Promise((r) => setTimeout(r, 500));
      return finished() > 0;
    }, "velite dev to see a save", 120_000);
    await new Promise((r) => setTimeout(r, 500));
    let before = finished();
    const times = await timeEdits(edited, () => {
      if (finished() <= before) return false;
      before = finished();
      return true;
    });
    return { frontdesk: frontdeskTimes, velite: times };
  } finally {
    velite.child.kill("SIGTERM");
  }
}
