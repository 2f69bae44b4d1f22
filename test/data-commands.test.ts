import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { storedFiles, testApp } from "./helpers/app.js";
import { SAMPLE_CONTENT } from "./helpers/content.js";

const run = promisify(execFile);
const ROOT = join(SAMPLE_CONTENT, "..");
const TSX = pathToFileURL(join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;
const frontdesk = (args: string[], dataFile: string) =>
  run(process.execPath, ["--import", TSX, join(ROOT, "src/cli.ts"), "data", ...args], { env: { ...process.env, FRONTDESK_DATA: dataFile, DATABASE_URL: "" } });

describe("frontdesk data", () => {
  it("exports and erases beside the running server, leaving no trace of the person in any file", async () => {
    const t = await testApp();
    const post = (url: string, payload: Record<string, unknown>) => t.app.inject({ method: "POST", url, payload });
    await post("/api/v1/leads/intent", { description: 'Needs "an app", soon,\nreally', email: "Erin.Vale@example.com", name: "Erin Vale" });
    await post("/api/v1/leads/intent", { description: "Other person", email: "olaf@example.com" });
    await post("/api/v1/waitlist", { name: "Erin Vale", email: "erin.vale@example.com" });
    await post("/api/v1/tickets/review", { ticketText: "## Steps to reproduce\n1. a\n2. b", clientId: "erin", contactEmail: "erin.vale@example.com" });

    const csv = await frontdesk(["export", "--kind", "leads", "--format", "csv"], t.dataFile);
    const lines = csv.stdout.split("\r\n");
    expect(lines[0]).toBe("reference,createdAt,name,email,company,intent,budget,timeline,requestedBy,conversationId,source,utm,description");
    expect(csv.stdout).toContain(',Erin Vale,Erin.Vale@example.com,,,,,,,,,"Needs ""an app"", soon,\nreally"\r\n');
    expect(csv.stderr).toContain("exported 2 records");
    const jsonl = await frontdesk(["export", "--kind", "tickets", "--format", "jsonl", "--since", "2000-01-01"], t.dataFile);
    expect(JSON.parse(jsonl.stdout.trim())).toMatchObject({ clientId: "erin", contactEmail: "erin.vale@example.com" });

    // The server holds the lock: the command asks it, through its socket, to erase.
    const erased = await frontdesk(["erase", "--email", "ERIN.VALE@example.com"], t.dataFile);
    expect(erased.stdout.trim().split("\n").sort()).toEqual([
      expect.stringMatching(/^anonymised ticketReviews ticket-review-/),
      "anonymised ticketUsage erin",
      expect.stringMatching(/^deleted leads lead-/),
      expect.stringMatching(/^deleted waitlist waitlist-/),
    ]);
    expect((await t.store.list("leads")).map((l) => l.email)).toEqual(["olaf@example.com"]);
    const files = (await storedFiles(t.dataFile)).toLowerCase();
    expect(files).not.toContain("erin.vale");
    expect(files).toContain("olaf@example.com");
    await t.close();
    // With no server running, the command opens the store itself.
    const alone = await frontdesk(["erase", "--email", "olaf@example.com"], t.dataFile);
    expect(alone.stdout.trim()).toMatch(/^deleted leads lead-/);
    const exported = await frontdesk(["export", "--kind", "leads", "--format", "jsonl"], t.dataFile);
    expect(exported.stdout).toBe("");
  }, 30_000);

  it("stops quietly when the reader goes away (| head)", async () => {
    const t = await testApp();
    // More than a pipe holds (64 KiB), so the export is still writing when the reader leaves.
    await Promise.all(
      Array.from({ length: 200 }, (_, i) => t.app.inject({ method: "POST", url: "/api/v1/leads/intent", payload: { description: `Lead ${i} ${"x".repeat(600)}` } })),
    );
    await t.close();
    const child = spawn(process.execPath, ["--import", TSX, join(ROOT, "src/cli.ts"), "data", "export", "--kind", "leads", "--format", "jsonl"], {
      env: { ...process.env, FRONTDESK_DATA: t.dataFile, DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    await once(child.stdout, "data");
    child.stdout.destroy(); // what head does after its lines
    const [code] = (await once(child, "exit")) as [number];
    expect({ code, stderr }).toEqual({ code: 0, stderr: expect.not.stringMatching(/EPIPE|Error|at /) });
  }, 30_000);

  it("refuses a bad --since and an unknown kind", async () => {
    const failure = (args: string[]) => frontdesk(args, "/nonexistent/data.json").then(() => ({ code: 0, stderr: "" }), (e: { code: number; stderr: string }) => e);
    expect(await failure(["export", "--kind", "leads", "--since", "yesterday"])).toMatchObject({ code: 1, stderr: expect.stringContaining("--since must be a date") });
    expect((await failure(["export", "--kind", "people"])).code).toBe(1);
  }, 30_000);
});
