import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildIndex, SearchEngine } from "../src/search/engine.js";
import { words } from "../src/search/text.js";

/** The search engine on its own: ranking order, what a hit says it matched, and text analysis. */
const FIELDS = [
  { name: "title", weight: 3 },
  { name: "body", weight: 1 },
];

async function engine(documents: [string, string, string][]): Promise<SearchEngine> {
  return new SearchEngine(await buildIndex(FIELDS, documents.map(([id, title, body]) => ({ id, fields: { title, body } }))));
}

describe("SearchEngine", () => {
  it("ranks by score, breaks ties by the earlier document, and keeps exactly the limit", async () => {
    const search = await engine([
      ["d0", "billing", "invoices"],
      ["d1", "kubernetes", "cluster upgrades"],
      ["d2", "kubernetes", "cluster upgrades"],
      ["d3", "kubernetes", "cluster upgrades"],
      ["d4", "cluster", "kubernetes"],
    ]);
    const { hits } = search.search("kubernetes cluster", 2);
    expect(hits.map((h) => h.id)).toEqual(["d1", "d2"]);
    expect(search.search("kubernetes cluster", 10).hits.map((h) => h.id)).toEqual(["d1", "d2", "d3", "d4"]);
    expect(search.search("kubernetes cluster", 10).hits.map((h) => h.id)).toEqual(["d1", "d2", "d3", "d4"]); // scratch space is reset
  });

  it("ties documents whose field weights add up to the same score exactly", async () => {
    // Three terms of equal idf: one in the heaviest field (3) against two in lighter ones (2 + 1).
    for (const [first, second] of [["whole", "split"], ["split", "whole"]]) {
      const documents = { whole: { a: "review" }, split: { b: "product", c: "freelancers" } } as Record<string, Record<string, string>>;
      const search = new SearchEngine(
        await buildIndex(
          [{ name: "a", weight: 3 }, { name: "b", weight: 2 }, { name: "c", weight: 1 }],
          [{ id: first!, fields: documents[first!]! }, { id: second!, fields: documents[second!]! }, { id: "filler", fields: { c: "other" } }],
        ),
      );
      expect(search.search("review product freelancers", 1).hits.map((h) => h.id)).toEqual([first]);
    }
  });

  it("names the words each hit matched, typos corrected, and every term of the query", async () => {
    const search = await engine([
      ["audit", "security audit", "penetration testing of web apps"],
      ["cloud", "cloud migration", "moving servers"],
    ]);
    const { hits, terms } = search.search("secuirty audit for our servers", 5);
    expect(hits).toEqual([
      { id: "audit", score: expect.any(Number), matched: ["security", "audit"] },
      { id: "cloud", score: expect.any(Number), matched: ["servers"] },
    ]);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect([...terms]).toEqual(["secur", "audit", "server"]);
  });
});

describe("words", () => {
  it("gives plain ASCII text the words the Unicode way gives it", () => {
    // A non-ASCII word at the end sends the same text the Unicode way; it adds itself, folded.
    const ascii = fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)) });
    fc.assert(
      fc.property(ascii, (text) => {
        expect(words(`${text} é`)).toEqual([...words(text), "e"]);
      }),
      { numRuns: 2000 },
    );
  });

  it("folds accents and curly apostrophes", () => {
    expect(words("Café’s Ünïcode DEVOPS-team, v2")).toEqual(["cafes", "unicode", "devops", "team", "v2"]);
  });
});
