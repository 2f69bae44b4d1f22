import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { loadLabelled } from "../src/eval/labelled.js";
import { evaluateReviews, reviewReport } from "../src/eval/reviews.js";
import { SAMPLE_CONTENT, tempDir } from "./helpers/content.js";

/** `frontdesk eval reviews` on a small labelled folder: what it prints and what it refuses. */
let dir: string;

const GOOD_BUG = `## Steps to reproduce
1. Open Invoices > Export
2. Choose CSV and click Download
## Expected
Amounts with a comma are quoted, as in version 2.31.
## Actual
The amount 1,250.00 is split over two columns.
## Environment
Admin portal 2.32.0 in production, Firefox 128`;

beforeAll(async () => {
  dir = await tempDir("frontdesk-eval-");
  await writeFile(join(dir, "tickets-x.yaml"), YAML.stringify([
    { id: "good-bug", type: "bug", format: "markdown-headings", expected: "pass", split: "test", text: GOOD_BUG },
    { id: "mislabelled", type: "bug", format: "prose", expected: "pass", split: "test", text: "The export is broken, please fix it soon because finance needs it for the month end." },
    { id: "stuffed", type: "bug", format: "prose", expected: "fail", split: "test", adversarial: "stuffing", text: "steps to reproduce expected behaviour actual behaviour environment version ".repeat(4) },
    { id: "dev-only", type: "task", format: "prose", expected: "fail", split: "dev", text: "Clean up the repo." },
  ]));
  await writeFile(join(dir, "quotes-x.yaml"), YAML.stringify([
    { id: "email-price", format: "email", expected: "fail", split: "test", text: "Hi Mark, the new website will be EUR 18,500 excl. VAT, we can start next month. Best, Tom" },
  ]));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("frontdesk eval reviews", () => {
  it("prints the figures alone when asked, so a test part can be read without seeing its items", async () => {
    const report = reviewReport(await evaluateReviews({ content: SAMPLE_CONTENT, fixtures: dir, split: "test" }), "test", false);
    expect(report).toContain("all: 66.7% agreement (2 of 3)");
    expect(report).toContain("disagreements: 1");
    expect(report).not.toContain("mislabelled");
  });


  it("prints agreement per set, a confusion matrix per type and per format, adversarial ratings and each disagreement with the criteria that decided it", async () => {
    const report = reviewReport(await evaluateReviews({ content: SAMPLE_CONTENT, fixtures: dir, split: "test" }), "test");
    expect(report).toContain("## Ticket reviews (split: test)");
    expect(report).toContain("all: 66.7% agreement (2 of 3)");
    expect(report).toContain("tickets-x.yaml test: 66.7% agreement (2 of 3)");
    expect(report).toMatch(/^type\s+n\s+agree\s+pass→pass\s+pass→fail\s+fail→pass\s+fail→fail$/m);
    expect(report).toMatch(/^bug\s+3\s+66\.7%\s+1\s+1\s+0\s+1$/m);
    expect(report).toMatch(/^format\s+n/m);
    expect(report).toMatch(/^prose\s+2\s+50\.0%/m);
    expect(report).toContain("adversarial items: 1, rated 4 or more: 0");
    expect(report).toContain("- tickets-x.yaml mislabelled (bug, prose; test): expected pass, got fail at");
    expect(report).toMatch(/ {4}missing steps-to-reproduce: not found/);
    expect(report).not.toContain("dev-only");
    expect(report).toContain("## Quote reviews (split: test)");
    expect(report).toContain("all: 100.0% agreement (1 of 1)");
  });

  it("takes the dev part, or all of it, when asked", async () => {
    const [tickets] = await evaluateReviews({ content: SAMPLE_CONTENT, fixtures: dir, split: "dev" });
    expect(tickets!.verdicts.map((v) => v.item.id)).toEqual(["dev-only"]);
    const [everything] = await evaluateReviews({ content: SAMPLE_CONTENT, fixtures: dir, split: "all" });
    expect(everything!.verdicts).toHaveLength(4);
  });

  it("refuses an item without a valid split, naming the file, the item and the field", async () => {
    await writeFile(join(dir, "tickets-y.yaml"), YAML.stringify([{ id: "no-split", format: "prose", expected: "pass", text: "x" }]));
    await expect(loadLabelled(dir, "tickets")).rejects.toThrow('tickets-y.yaml: item 1 (no-split): "split" must be a non-empty string');
    await writeFile(join(dir, "tickets-y.yaml"), YAML.stringify([{ id: "good-bug", format: "prose", expected: "pass", split: "test", text: "x" }]));
    await expect(loadLabelled(dir, "tickets")).rejects.toThrow('id "good-bug" is used twice');
    await rm(join(dir, "tickets-y.yaml"));
  });

  it("says which folder is missing and what to give instead", async () => {
    await expect(loadLabelled(join(dir, "nowhere"), "tickets")).rejects.toThrow(`${join(dir, "nowhere")} is not a folder: give --fixtures the folder that holds the tickets*.yaml sets`);
  });
});
