import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";
import { readConfig } from "../src/config.js";
import { exportRecords } from "../src/data-commands.js";
import { scrub } from "../src/questions.js";
import { testApp } from "./helpers/app.js";
import { SAMPLE_CONTENT } from "./helpers/content.js";

/** The query log: questions that found little, kept for editors, without what could name a person. */
describe("the query log", () => {
  it("replaces e-mail addresses, phone numbers and long digit runs before anything is stored", () => {
    expect(scrub("mail me at Jo.Smith+cv@mail.example.co.uk or call +31 (0)20 794 3120, order 88213577")).toBe("mail me at [email] or call [phone], order [number]");
    expect(scrub("we have 12 apps and 3 teams since 2019")).toBe("we have 12 apps and 3 teams since 2019");
  });

  it("is off unless FRONTDESK_QUERY_LOG=on", () => {
    expect(readConfig({}).queryLog).toBe(false);
    expect(readConfig({ FRONTDESK_QUERY_LOG: "on" }).queryLog).toBe(true);
    expect(() => readConfig({ FRONTDESK_QUERY_LOG: "yes" })).toThrow('FRONTDESK_QUERY_LOG must be on or off (got "yes")');
  });

  it("keeps the recommend and FAQ questions that found little, every time they are asked, and lists them with counts", async () => {
    const t = await testApp({ content: SAMPLE_CONTENT });
    const ask = (app: Awaited<ReturnType<typeof createApp>>, url: string) => app.inject({ method: "GET", url });
    const weak = "/api/v1/faq/search?q=" + encodeURIComponent("do you sell zebra food, mail zed@zoo.example");
    const strong = "/api/v1/recommend?q=" + encodeURIComponent("security audit and penetration test of our web app");

    // Off: nothing is kept.
    await ask(t.app, weak);
    expect(await t.store.list("questions")).toEqual([]);

    const logging = await createApp({ catalog: t.catalog, store: t.store, config: { publicBaseUrl: "http://x", queryLog: true } });
    for (const url of [weak, weak, strong, "/api/v1/recommend?q=zebra+giraffe"]) expect((await ask(logging, url)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 50)); // the log is written in the background
    const logged = await t.store.list("questions");
    expect(logged.map((r) => [r.kind, r.question])).toEqual([
      ["faq", "do you sell zebra food, mail [email]"],
      ["faq", "do you sell zebra food, mail [email]"],
      ["recommend", "zebra giraffe"],
    ]);

    let csv = "";
    const out = new Writable({ write: (chunk, _encoding, done) => ((csv += String(chunk)), done()) });
    expect(await exportRecords(t.store, "questions", "csv", out)).toBe(2);
    const [header, first, second] = csv.trim().split("\r\n");
    expect(header).toBe("kind,question,count,best,lastAsked");
    expect(first).toMatch(/^faq,"do you sell zebra food, mail \[email\]",2,[\d.]*,2\d{3}-/);
    expect(second).toMatch(/^recommend,zebra giraffe,1,,2\d{3}-/);
    await logging.close();
    await t.close();
  });
});
