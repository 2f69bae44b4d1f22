import fc from "fast-check";
import FlexSearch from "flexsearch";
import { describe, expect, it, vi } from "vitest";
import { buildIndex, indexConcepts, LENGTH_B, SearchEngine, spelledOut } from "../src/search/engine.js";
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
      ["d4", "cluster", "kubernetes upgrades"],
    ]);
    const { hits } = search.search("kubernetes cluster", 2);
    expect(hits.map((h) => h.id)).toEqual(["d1", "d2"]);
    expect(search.search("kubernetes cluster", 10).hits.map((h) => h.id)).toEqual(["d1", "d2", "d3", "d4"]);
    expect(search.search("kubernetes cluster", 10).hits.map((h) => h.id)).toEqual(["d1", "d2", "d3", "d4"]); // scratch space is reset
  });

  it("ranks, scores and explains exactly as scoring every document from scratch would, ties included", async () => {
    // Small random catalogs over few words, so equal scores from different field mixes (3 = 2 + 1,
    // 3 = 1.5 + 1.5) are common; the reference scores every document from scratch in doubles.
    // Half of them get hundreds of documents that match nothing, so that a search reaches few of
    // the documents and takes the sparse way (see SearchEngine.search) as well as the dense one.
    // Each engine answers two searches, so the second also proves the scratch space was reset.
    const WORDS = ["alpha", "bravo", "delta", "echo", "golf", "hotel"];
    const MIX = [{ name: "title", weight: 3 }, { name: "tags", weight: 2 }, { name: "body", weight: 1.5 }, { name: "note", weight: 1 }];
    type Doc = Record<"title" | "tags" | "body" | "note", string>;
    const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 2 }).map((w) => w.join(" "));
    const matching = fc.array(fc.record({ title: text, tags: text, body: text, note: text }), { minLength: 1, maxLength: 12 });
    const filler: Doc = { title: "zulu", tags: "", body: "", note: "" };
    const catalog = fc.tuple(matching, fc.boolean()).map(([docs, padded]) => (padded ? [...docs, ...Array<Doc>(300).fill(filler)] : docs));
    const query = fc.uniqueArray(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 });
    const limit = fc.integer({ min: 1, max: 14 });

    function reference(docs: Doc[], words: string[], limit: number) {
      const holds = (i: number, field: string, word: string) => docs[i]![field as keyof Doc].split(" ").includes(word);
      const frequency = new Map(words.map((w) => [w, docs.filter((_, i) => MIX.some((f) => holds(i, f.name, w))).length]));
      const df = (word: string) => frequency.get(word)!;
      const idf = (word: string) => Math.log(1 + (docs.length - df(word) + 0.5) / (df(word) + 0.5));
      const present = words.filter((w) => df(w) > 0);
      const rare = present.some((w) => df(w) <= docs.length / 2);
      const used = present.filter((w) => !rare || df(w) <= docs.length / 2);
      const total = used.reduce((sum, w) => sum + idf(w) * 3, 0);
      // BM25's length normalisation, applied to documents longer than the average only.
      const lengths = docs.map((d) => MIX.reduce((n, f) => n + d[f.name as keyof Doc].split(" ").filter(Boolean).length, 0));
      const average = lengths.reduce((a, b) => a + b, 0) / docs.length;
      const norm = (i: number) => Math.min(1, 1 / (1 - LENGTH_B + (LENGTH_B * lengths[i]!) / average));
      return docs
        .map((_, i) => {
          let score = 0;
          for (const w of used) score += Math.max(0, ...MIX.filter((f) => holds(i, f.name, w)).map((f) => f.weight)) * idf(w) * norm(i);
          return { i, score, matched: used.filter((w) => MIX.some((f) => holds(i, f.name, w))) };
        })
        .filter((d) => d.score > 0)
        .sort((x, y) => y.score - x.score || x.i - y.i)
        .slice(0, limit)
        .map((d) => ({ id: `d${d.i}`, score: Math.round((d.score / total) * 1000) / 1000, matched: d.matched }));
    }

    await fc.assert(
      fc.asyncProperty(catalog, query, limit, query, limit, async (docs, words, top, otherWords, otherTop) => {
        const search = new SearchEngine(await buildIndex(MIX, docs.map((fields, i) => ({ id: `d${i}`, fields }))));
        expect(search.search(otherWords.join(" "), otherTop).hits).toEqual(reference(docs, otherWords, otherTop));
        expect(search.search(words.join(" "), top).hits).toEqual(reference(docs, words, top));
      }),
      { numRuns: 1000, seed: 20261123 },
    );
  });

  it("reads a visitor's phrase as the catalog's words when a concept says so, and says it did", async () => {
    const index = await buildIndex(
      FIELDS,
      [
        { id: "cloud", fields: { title: "cloud costs", body: "moving servers and lowering the monthly bill" } },
        { id: "shop", fields: { title: "web shops", body: "selling on marketplaces" } },
      ],
      indexConcepts([{ id: "cloud-bill", when: ["amazon bill", "aws invoice"], means: "cloud costs" }]),
    );
    const search = new SearchEngine(index);
    const understood = search.search("our amazon bill is huge", 5);
    expect(understood.hits.map((h) => h.id)).toEqual(["cloud"]);
    expect(understood.hits[0]!.matched).toEqual(["bill", "cloud", "costs"]);
    expect(understood.understood).toEqual([{ concept: "cloud-bill", phrase: "amazon bill", means: "cloud costs" }]);
    // Every word of a phrase must be there (in any order); "amazon" alone is no concept, and a
    // word only the concepts know is never "corrected" into one of the catalog's.
    expect(search.search("invoice from aws", 5).understood).toEqual([{ concept: "cloud-bill", phrase: "aws invoice", means: "cloud costs" }]);
    expect(search.search("we sell on amazon", 5)).toMatchObject({ understood: [], hits: [{ id: "shop" }] });
  });

  it("reads a concept phrase's alternatives as every phrase they spell out, leaving out words that say nothing", async () => {
    expect(spelledOut("agency|freelancer vanished|disappeared")).toEqual(["agency vanished", "agency disappeared", "freelancer vanished", "freelancer disappeared"]);
    // "has|have" says nothing: the phrase is "nobody access", never "access" alone.
    expect(spelledOut("who|nobody has|have access")).toEqual(["nobody access"]);
    const search = new SearchEngine(
      await buildIndex(FIELDS, [{ id: "support", fields: { title: "maintenance and support", body: "bug fixing" } }], indexConcepts([
        { id: "vendor-gone", when: ["agency|freelancer vanished|disappeared|bankrupt"], means: "maintenance support" },
      ])),
    );
    expect(search.search("the freelancer who made our shop has disappeared", 5).understood).toEqual([{ concept: "vendor-gone", phrase: "freelancer disappeared", means: "maintenance support" }]);
    expect(search.search("the agency went bankrupt", 5).hits.map((h) => h.id)).toEqual(["support"]);
    expect(search.search("our agency is great", 5).understood).toEqual([]);
  });

  it("names every matched word of a query as long as the engine takes (32 words)", async () => {
    const many = Array.from({ length: 33 }, (_, i) => `w${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}x`);
    const search = await engine([
      ["all", many.join(" "), ""],
      ["none", "unrelated", ""],
    ]);
    const [hit] = search.search(many.join(" "), 5).hits;
    // The 33rd word is past the limit; the 32nd has the mask's last bit.
    expect(hit!.matched).toEqual(many.slice(0, 32));
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

describe("a catalog's search index", () => {
  it("is imported as the build exported it, never rebuilt from the documents", async () => {
    const exported = await buildIndex(FIELDS, [{ id: "d0", fields: { title: "kubernetes", body: "cluster upgrades" } }]);
    const add = vi.spyOn(FlexSearch.Index.prototype, "add");
    const imported = vi.spyOn(FlexSearch.Index.prototype, "import");
    try {
      const search = new SearchEngine(JSON.parse(JSON.stringify(exported)));
      expect(search.search("kubernetes clusters", 5).hits.map((h) => h.id)).toEqual(["d0"]);
      expect(add).not.toHaveBeenCalled();
      expect(imported).toHaveBeenCalled();
    } finally {
      add.mockRestore();
      imported.mockRestore();
    }
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
