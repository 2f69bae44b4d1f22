import MiniSearch from "minisearch";
import type { CatalogData } from "../../src/catalog/types.js";

/**
 * What a team would pick instead of our recommender: stock MiniSearch (BM25, fuzzy 0.2, prefix
 * matching) indexing every text field editors write of the same services and products, with
 * MiniSearch's defaults otherwise. Used by the recommendation test and `npm run bench`.
 */
const text = (value: unknown): string =>
  typeof value === "string" ? value : Array.isArray(value) ? value.map(text).join("\n") : value !== null && typeof value === "object" ? Object.values(value).map(text).join("\n") : "";

export function miniSearchRanker(data: Pick<CatalogData, "services" | "products">): (q: string) => string[] {
  const fields = ["title", "summary", "problems", "tags", "details", "body"];
  const engine = new MiniSearch<{ id: string } & Record<string, string>>({ fields, searchOptions: { fuzzy: 0.2, prefix: true } });
  engine.addAll([
    ...data.services.map((s) => ({
      id: s.id, title: s.title, summary: s.summary, problems: text(s.problems), tags: text([s.tags, s.techniques, s.category]),
      details: text([s.deliverables, s.duration, s.pricing]), body: s.description,
    })),
    ...data.products.map((p) => ({
      id: p.id, title: p.title, summary: text([p.summary, p.tagline]), problems: text(p.problems), tags: p.id,
      details: text([p.capabilities, p.features, p.plans]), body: p.description,
    })),
  ]);
  return (q) => engine.search(q).map((hit) => String(hit.id));
}
