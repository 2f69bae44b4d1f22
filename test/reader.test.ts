import { execFile } from "node:child_process";
import * as fs from "node:fs/promises";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import type { TicketRubric, TicketType } from "../src/catalog/types.js";
import { tally } from "../src/eval/agreement.js";
import { loadLabelled, type LabelledItem } from "../src/eval/labelled.js";
import { judgeTickets } from "../src/eval/reviews.js";
import { trainTicketReader, writeReader } from "../src/eval/train-reader.js";
import { likeness, readerFeatures, trainReader, type ReaderModel } from "../src/reviews/reader.js";
import { reviewTicket } from "../src/reviews/ticket.js";
import committed from "../src/reviews/ticket-reader.json" with { type: "json" };
import { testApp } from "./helpers/app.js";
import { SAMPLE_CONTENT, tempDir } from "./helpers/content.js";

/**
 * The ticket reader (src/reviews/reader.ts): a model of the labelled tickets read as a whole that
 * may lower a passing rating the rules gave a ticket that reads thin.
 */
const FIXTURES = fileURLToPath(new URL("./fixtures", import.meta.url));
let rubric: TicketRubric;
let rulesAlone: TicketRubric;
let tickets: LabelledItem[];

beforeAll(async () => {
  rubric = YAML.parse(await readFile(join(SAMPLE_CONTENT, "rubrics/ticket.yaml"), "utf8"));
  rulesAlone = { ...rubric, readerReach: 0 };
  tickets = await loadLabelled(FIXTURES, "tickets");
});

// A task whose parts are all labelled and filled, but whose "What" says nothing a developer could
// start on (tickets-v.yaml v-44, labelled fail): the rules find every part, the reader does not
// believe it.
const THIN_TASK = `Task: Video pipeline clean-up
Why: Coursewise's S3 bill for video went from EUR 2.1k to EUR 3.4k a month since January; we keep the original upload plus five renditions for every lecture, including 1080p for courses where instructors uploaded 720p. Learners on mobile also complain about buffering.
What: go through the transcoding setup and sort out whatever's off.
Done when: monthly video storage cost is below EUR 2.5k on the March bill and the existing 4,800 lecture videos all still play on web, iOS and Android (spot check 50 per platform).`;

describe("the ticket reader", () => {
  it("is what the labelled dev parts train: retraining gives the committed model", async () => {
    const fresh = await trainTicketReader(FIXTURES);
    const model = committed as ReaderModel;
    expect(fresh.trainedOn).toEqual(model.trainedOn);
    expect(Object.keys(fresh.weights)).toEqual(Object.keys(model.weights));
    // Rounded to 4 places; a last digit may differ where another Node computes exp() apart.
    const drift = Object.entries(fresh.weights).filter(([f, w]) => Math.abs(w - model.weights[f]!) > 2e-4);
    expect(drift, 'run "frontdesk train reader" after changing the labelled tickets').toEqual([]);
  }, 60_000);

  it("reads a ticket the same however it is pasted: quoted, in Jira markup, with marks or digits changed", () => {
    const markdown = "## Steps to reproduce\n1. Open **Invoices** and click `Export`\n\n## Expected\nVersion 2.31 quoted the amounts.";
    const jira = "h2. Steps to reproduce\n# Open *Invoices* and click {{Export}}\n\nh2. Expected\nVersion 2.31 quoted the amounts.";
    const quoted = markdown.split("\n").map((line) => `> ${line}`).join("\n");
    const features = readerFeatures(markdown, "bug").sort();
    expect(readerFeatures(jira, "bug").sort()).toEqual(features);
    expect(readerFeatures(quoted, "bug").sort()).toEqual(features);
    expect(readerFeatures(markdown.replace("2.31", "3.4"), "bug").sort()).toEqual(features);
    expect(features).toContain("click export");
    expect(features).toContain("type:bug");
  });

  it("learns which words go with the passes", () => {
    const model = trainReader([
      { text: "Steps: open the export, click CSV. Expected: quoted amounts. Version 2.3", pass: true },
      { text: "Steps: open the invoice list, click Save. Expected: the draft is saved. Version 4.1", pass: true },
      { text: "Please fix the export soon, it is broken somehow", pass: false },
      { text: "Please look at the invoice list, something is off somehow", pass: false },
    ]);
    expect(model.trainedOn).toEqual({ items: 4, passes: 2 });
    expect(likeness(model, "Steps: open the report, click PDF. Expected: a file. Version 1.2")).toBeGreaterThan(0.5);
    expect(likeness(model, "The report is broken somehow, please fix it soon")).toBeLessThan(0.5);
    // A word in one example only is its wording, not a pattern: it is left out of the model.
    expect(model.weights).not.toHaveProperty("pdf");
    expect(model.weights).not.toHaveProperty("draft");
  });

  it("lowers a passing rating that reads thin below the threshold, and says why", () => {
    const ruled = reviewTicket({ ticketText: THIN_TASK, type: "task" }, rulesAlone);
    expect(ruled).toMatchObject({ passed: true, rating: 8 });
    const read = reviewTicket({ ticketText: THIN_TASK, type: "task" }, rubric);
    expect(read.passed).toBe(false);
    expect(read.rating).toBeLessThan(8);
    expect(read.rating).toBeGreaterThanOrEqual(8 - rubric.readerReach!);
    expect(read.summary).toMatch(/resembles tickets that were sent back for more detail \(likeness 0\.\d\d of 1\), so the rating drops from 8 to \d\.\d: make each part concrete/);
    // The criteria stay the rules' findings.
    expect(read.criteria).toEqual(ruled.criteria);
  });

  it("has its say at POST /api/v1/tickets/review, with the sample rubric's reach", async () => {
    const t = await testApp({ content: SAMPLE_CONTENT });
    try {
      const response = await t.app.inject({ method: "POST", url: "/api/v1/tickets/review", payload: { ticketText: THIN_TASK, type: "task", clientId: "reader-test" } });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({ passed: false, summary: expect.stringContaining("resembles tickets that were sent back") });
    } finally {
      await t.close();
    }
  }, 60_000);

  it("never takes a rating below 0, whatever the rubric's threshold and reach", () => {
    // A rubric whose weights are a tenth of the sample's, passing at 0.5, with the widest reach.
    const tiny: TicketRubric = {
      ...rubric, threshold: 0.5, requiredCap: 0.4, readerReach: 3,
      types: { ...rubric.types, task: { ...rubric.types.task, criteria: rubric.types.task.criteria.map((c) => ({ ...c, weight: c.weight / 10 })) } },
    };
    const read = reviewTicket({ ticketText: THIN_TASK, type: "task" }, tiny);
    expect(reviewTicket({ ticketText: THIN_TASK, type: "task" }, { ...tiny, readerReach: 0 })).toMatchObject({ passed: true, rating: 0.8 });
    expect(read.rating).toBe(0);
    expect(read.summary).toContain("so the rating drops from 0.8 to 0");
  });

  it("never raises a rating, never moves a failing one or one under 80 words, and stays within its reach (every labelled ticket)", () => {
    const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
    let lowered = 0;
    for (const item of tickets) {
      const input = { ticketText: item.text, ...(item.type ? { type: item.type as TicketType } : {}) };
      const ruled = reviewTicket(input, rulesAlone);
      const read = reviewTicket(input, rubric);
      expect(read.rating, item.id).toBeLessThanOrEqual(ruled.rating);
      expect(read.rating, item.id).toBeGreaterThanOrEqual(ruled.rating - rubric.readerReach! - 1e-9);
      // Under 60 words as pasted is under 80 as the rules count them (headers and marks gone).
      if (!ruled.passed || words(item.text) < 60) expect(read.rating, item.id).toBe(ruled.rating);
      if (read.rating < ruled.rating) lowered++;
    }
    expect(lowered).toBeGreaterThan(20);
  }, 60_000);

  it("earns its place: on the test parts, which it never saw, it agrees with the labels more often than the rules alone", () => {
    const test = tickets.filter((t) => t.split === "test");
    const withReader = tally(judgeTickets(test, rubric));
    const alone = tally(judgeTickets(test, rulesAlone));
    // Measured: 555 and 548 of 636 (README, "How reviews are judged").
    expect(withReader.agree - alone.agree).toBeGreaterThanOrEqual(5);
  }, 60_000);

  it("leaves the old model whole when the disk fills half-way through writing the new one", async () => {
    const dir = await tempDir("frontdesk-train-");
    const file = join(dir, "reader.json");
    await writeFile(file, "the old model\n");
    const full: typeof fs.writeFile = async (path, data) => {
      await fs.writeFile(path, String(data).slice(0, 100));
      throw Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
    };
    const model = trainReader([{ text: "steps and version", pass: true }, { text: "broken somehow", pass: false }]);
    await expect(writeReader(model, file, { ...fs, writeFile: full })).rejects.toThrow(`cannot write the model to ${file} (ENOSPC): give --out a file in a folder that exists and is writable, on a disk with room`);
    expect(await readFile(file, "utf8")).toBe("the old model\n");
    expect(await readdir(dir)).toEqual(["reader.json"]);
    await writeReader(model, file);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual(model);
  });

  it("is retrained by `frontdesk train reader`, which names what it can train when asked for something else", async () => {
    const run = promisify(execFile);
    const root = join(SAMPLE_CONTENT, "..");
    const cli = [`--import`, pathToFileURL(join(root, "node_modules/tsx/dist/loader.mjs")).href, join(root, "src/cli.ts"), "train"];
    const dir = await tempDir("frontdesk-train-");
    await writeFile(join(dir, "tickets-a.yaml"), YAML.stringify([
      { id: "a1", type: "bug", format: "prose", expected: "pass", split: "dev", text: "Steps: open the export, click CSV. Expected: quoted amounts. Version 2.3" },
      { id: "a2", type: "bug", format: "prose", expected: "fail", split: "dev", text: "The export is broken, please fix it" },
      { id: "a3", type: "bug", format: "prose", expected: "pass", split: "test", text: "Never trained on: a test item" },
    ]));
    const out = join(dir, "reader.json");
    const { stdout } = await run(process.execPath, [...cli, "reader", "--fixtures", dir, "--out", out]);
    expect(stdout).toContain(`Trained the ticket reader on 2 tickets (1 passes)`);
    expect(JSON.parse(await readFile(out, "utf8"))).toMatchObject({ trainedOn: { items: 2, passes: 1 } });
    const failed = (args: string[]) => run(process.execPath, [...cli, ...args]).then(() => ({ code: 0, stderr: "" }), (error: { code: number; stderr: string }) => error);
    expect(await failed(["recommender"])).toMatchObject({ code: 1, stderr: expect.stringContaining('nothing to train called "recommender": the one learned part is "reader"') });
    expect(await failed(["reader", "--fixtures", dir, "--out", join(dir, "no-such-folder", "reader.json")])).toMatchObject({
      code: 1, stderr: expect.stringContaining(`cannot write the model to ${join(dir, "no-such-folder", "reader.json")} (ENOENT): give --out a file in a folder that exists`),
    });
    const onlyFails = await tempDir("frontdesk-train-");
    await writeFile(join(onlyFails, "tickets-b.yaml"), YAML.stringify([{ id: "b1", type: "bug", format: "prose", expected: "fail", split: "dev", text: "It is broken" }]));
    expect(await failed(["reader", "--fixtures", onlyFails, "--out", join(onlyFails, "reader.json")])).toMatchObject({
      code: 1, stderr: expect.stringContaining("holds 1 labelled dev tickets (attacks aside), 0 of them passes: the reader needs both passes and fails"),
    });
  }, 60_000);
});

