import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { contentTree, MINIMAL_CONTENT, tempDir } from "./helpers/content.js";

/**
 * `frontdesk dev` as an editor uses it: every way editors and git save a file must reach the
 * served catalog. Node's recursive fs.watch lost a file for good once it was replaced by a rename
 * (sed -i, vim, JetBrains, git checkout), so each kind of save is made several times in a row.
 */
const run = promisify(execFile);
const ROOT = join(MINIMAL_CONTENT, "../../..");
const TSX = pathToFileURL(join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill("SIGTERM");
  child = undefined;
});

async function startDev(content: string) {
  const port = await freePort();
  const catalog = join(await tempDir(), "catalog");
  child = spawn(process.execPath, ["--import", TSX, join(ROOT, "src/cli.ts"), "dev", "--content", content], {
    env: { ...process.env, PORT: String(port), FRONTDESK_CATALOG: catalog, FRONTDESK_DATA: join(await tempDir(), "d.json"), LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const output = { text: "" };
  child.stderr!.on("data", (c: Buffer) => (output.text += c.toString()));
  const service = async (id: string) => {
    try {
      const answer = await fetch(`http://127.0.0.1:${port}/api/v1/services/${id}`);
      return answer.ok ? ((await answer.json()) as { data: { title: string; pricing: { from: number } } }).data : undefined;
    } catch {
      return undefined;
    }
  };
  /** Waits (up to 15 s) for the served catalog to show what an edit wrote. */
  const until = async (what: string, check: () => Promise<boolean>) => {
    for (let i = 0; i < 300 && !(await check()); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await check(), `${what}\n${output.text}`).toBe(true);
  };
  await until("first build served and the watcher ready", async () => output.text.includes("watching") && (await service("web-apps")) !== undefined);
  return { service, until, output, catalog, pid: child.pid! };
}

const priced = (text: string, from: number) => text.replace(/from: \d+/, `from: ${from}`);

describe("frontdesk dev", () => {
  it("serves every save: in place, replaced by rename, deleted and created, and a new file edited again and again", async () => {
    const content = await contentTree();
    const { service, until } = await startDev(content);
    const file = join(content, "services/web-apps.md");
    const original = await readFile(file, "utf8");
    const price = async (id: string, from: number) => until(`${id} at ${from}`, async () => (await service(id))?.pricing.from === from);

    for (const from of [7000, 7100, 7200]) {
      await writeFile(file, priced(original, from)); // an in-place save
      await price("web-apps", from);
    }
    for (const from of [7300, 7400, 7500]) {
      await writeFile(`${file}.tmp`, priced(original, from)); // sed -i, vim, JetBrains safe write
      await rename(`${file}.tmp`, file);
      await price("web-apps", from);
    }
    for (const from of [7600, 7700]) {
      await rm(file);
      await new Promise((r) => setTimeout(r, 100));
      await writeFile(file, priced(original, from));
      await price("web-apps", from);
    }
    const added = join(content, "services/data-platforms.md");
    for (const from of [100, 200, 300, 400, 500, 600, 700, 800]) {
      await writeFile(added, priced(original, from).replace("title: Web Apps", "title: Data Platforms"));
      await price("data-platforms", from);
    }
  }, 120_000);

  it("follows a git checkout of another branch and back", async () => {
    const content = await contentTree();
    const git = (...args: string[]) => run("git", ["-C", content, "-c", "user.email=t@t", "-c", "user.name=t", ...args]);
    await git("init", "-q", "-b", "main");
    await git("add", ".");
    await git("commit", "-qm", "content");
    await git("checkout", "-qb", "retitle");
    const file = join(content, "services/web-apps.md");
    await writeFile(file, (await readFile(file, "utf8")).replace("title: Web Apps", "title: Web Applications"));
    await git("commit", "-qam", "retitle");
    await git("checkout", "-q", "main");

    const { service, until } = await startDev(content);
    const title = (t: string) => until(`title ${t}`, async () => (await service("web-apps"))?.title === t);
    await title("Web Apps");
    for (const [branch, expected] of [["retitle", "Web Applications"], ["main", "Web Apps"], ["retitle", "Web Applications"]] as const) {
      await git("checkout", "-q", branch);
      await title(expected);
    }
  }, 120_000);

  it("keeps serving, and builds again on the next save, when publishing a catalog fails", async () => {
    const content = await contentTree();
    const { service, until, output, catalog, pid } = await startDev(content);
    // A folder where publishing puts its new link: the catalog cannot be put in place (as a
    // full disk or a folder made read-only would), so the rebuild throws.
    const blocker = join(dirname(catalog), `.catalog-link-${pid}`);
    await mkdir(join(blocker, "in-the-way"), { recursive: true });
    const file = join(content, "services/web-apps.md");
    const original = await readFile(file, "utf8");
    await writeFile(file, priced(original, 4200));
    await until("the failure printed", async () => output.text.includes("rebuild failed"));
    expect((await service("web-apps"))?.pricing.from).not.toBe(4200);
    await rm(blocker, { recursive: true });
    await writeFile(file, priced(original, 4300));
    await until("the next save served", async () => (await service("web-apps"))?.pricing.from === 4300);
  }, 60_000);

  it("keeps the last good catalog when an edit breaks the build, and says where", async () => {
    const content = await contentTree();
    const { service, until, output } = await startDev(content);
    const file = join(content, "services/web-apps.md");
    await writeFile(file, (await readFile(file, "utf8")).replace(/from: \d+/, "from: lots"));
    // The watcher can see the file half-written first (a build that fails on something else); the
    // error that names the edit follows with the next event.
    await until("the error printed", async () => /services\/web-apps\.md:\d+:\d+ pricing\.from must be a number/.test(output.text));
    expect(output.text).toContain("build failed");
    expect((await service("web-apps"))?.title).toBe("Web Apps");
  }, 60_000);
});
