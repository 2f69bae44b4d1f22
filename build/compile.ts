import { createHash } from "node:crypto";
import { buildIndex, indexConcepts, type Concept, type ExportedConcept } from "../src/search/engine.js";
import {
  CATALOG_FILES, CATALOG_FORMAT, MANIFEST_FILE,
  type Advisor, type CatalogData, type Company, type FaqEntry, type Manifest, type Product, type QuoteRubric,
  type Service, type Technique, type TicketRubric, type Tool,
} from "../src/catalog/types.js";
import { llmsFaqSection, llmsFullTxt, llmsTxt } from "./llms.js";
import { compileOpenApi } from "./openapi.js";
import { SourceCache, type SourceFile } from "./source.js";

/**
 * Turns validated source files into the catalog's files. Pure and deterministic: items sorted by
 * id, no clocks, so the same content gives byte-identical output (and the same ETags).
 */
const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function items<T>(files: SourceFile[], kind: SourceFile["kind"], shape: (data: Record<string, unknown>, file: SourceFile) => T): T[] {
  return files.filter((f) => f.kind === kind).map((f) => shape(f.data as Record<string, unknown>, f));
}

function single<T>(files: SourceFile[], kind: SourceFile["kind"]): T {
  const file = files.find((f) => f.kind === kind);
  if (!file) throw new Error(`compile: ${kind} is missing (validation should have caught this)`);
  return file.data as T;
}

/** A catalog file's text and hash, made once for a value that is kept between builds (SourceCache.reuse). */
class Serialized {
  constructor(readonly text: string, readonly hash = sha256(text)) {}
}

function serialized(value: unknown): Serialized {
  return new Serialized(typeof value === "string" ? value : JSON.stringify(value));
}

/** Catalog data whose parts may come already serialized. */
type PartsOf<T> = { [K in keyof T]: T[K] | Serialized };

const list = (value: unknown): string[] => (Array.isArray(value) ? (value as string[]) : []);

export async function compileCatalog(files: SourceFile[], cache = new SourceCache()): Promise<Record<string, string>> {
  const ofKinds = (...kinds: SourceFile["kind"][]) => files.filter((f) => kinds.includes(f.kind));
  const companyName = single<Company>(files, "company").name;
  const services = items(files, "service", (d, f): Service => ({
    id: f.id, ...(d as Omit<Service, "id" | "tags" | "techniques" | "products" | "description">),
    tags: list(d.tags), techniques: list(d.techniques), products: list(d.products), description: f.body,
  })).sort(byId);
  const techniques = items(files, "technique", (d, f): Technique => ({
    id: f.id, ...(d as Omit<Technique, "id" | "tags" | "description">), tags: list(d.tags), description: f.body,
  })).sort(byId);
  const products = items(files, "product", (d, f): Product => ({
    id: f.id, ...(d as Omit<Product, "id" | "features" | "services" | "description">),
    features: (d.features as Product["features"] | undefined) ?? [],
    plans: (d.plans as Product["plans"]).map((p) => ({ ...p, features: p.features ?? [] })),
    services: list(d.services), description: f.body,
  })).sort(byId);
  // The FAQ (10,000 entries in a large catalog) is most of the work: its entries, their JSON and
  // hash are made again only when an FAQ file or the company's name changed.
  const faqFiles = ofKinds("faq");
  const faqPart = await cache.reuse("faq", [...faqFiles, ...ofKinds("company")], async () => {
    const entries = items(faqFiles, "faq", (d, f): FaqEntry => ({
      id: f.id, question: d.question as string, answer: f.body, category: d.category as string, tags: list(d.tags),
      ...(d.updated ? { updated: d.updated as string } : {}),
      citeAs: `${companyName} FAQ, "${d.question as string}"${d.updated ? ` (updated ${d.updated as string})` : ""}`,
    })).sort(byId);
    return { entries, file: serialized(entries) };
  });
  const faq = faqPart.entries;
  const tools = items(files, "tool", (d, f): Tool => ({ id: f.id, ...(d as Omit<Tool, "id" | "description">), description: f.body })).sort(byId);
  const company = single<Company>(files, "company");
  const advisorFile = files.find((f) => f.kind === "advisor")!;
  const advisor: Advisor = { ...(advisorFile.data as Omit<Advisor, "systemPrompt">), systemPrompt: advisorFile.body };
  const ticket = single<TicketRubric>(files, "ticketRubric");
  const quote = single<QuoteRubric>(files, "quoteRubric");
  const { concepts } = single<{ concepts: Concept[] }>(files, "concepts");
  // Both indexes read the concepts the same way: spelled out and stemmed once, and only when needed.
  let indexed: Promise<ExportedConcept[]> | undefined;
  const conceptIndex = () => (indexed ??= cache.reuse("conceptIndex", ofKinds("concepts"), async () => indexConcepts(concepts)));
  const rubrics = {
    ticket: {
      ...ticket,
      types: Object.fromEntries(
        Object.entries(ticket.types).map(([type, spec]) => [type, { ...spec, criteria: spec.criteria.map(withListDefaults) }]),
      ) as TicketRubric["types"],
    },
    quote: { ...quote, criteria: quote.criteria.map((c) => ({ ...withListDefaults(c), services: c.services ?? [] })) },
  };

  const recommendDocuments = [
    ...services.map((s) => ({
      id: s.id,
      fields: { title: s.title, problems: s.problems, tags: [...s.tags, ...s.techniques], summary: s.summary, details: s.deliverables, body: s.description },
    })),
    ...products.map((p) => ({
      id: p.id,
      fields: {
        title: p.title, problems: p.problems, tags: [p.id], summary: [p.summary, p.tagline ?? ""],
        details: [...p.capabilities, ...p.features.map((x) => `${x.name} ${x.description}`)], body: p.description,
      },
    })),
  ];

  const data: PartsOf<CatalogData> = {
    company,
    capabilities: {
      company: { name: company.name, tagline: company.tagline, description: company.description },
      skills: company.skills,
      services: services.map(({ id, title, summary }) => ({ id, title, summary })),
      techniques: techniques.map(({ id, title, category }) => ({ id, title, category })),
      products: products.map(({ id, title, tagline }) => ({ id, title, ...(tagline ? { tagline } : {}) })),
    },
    services, techniques, products, faq: faqPart.file, tools, advisor, rubrics,
    // The OpenAPI document is made of the operations and the company file alone.
    openapi: await cache.reuse("openapi", ofKinds("company"), async () => serialized(compileOpenApi({
      title: `${company.name} API`,
      description: `${company.tagline} Discover services, techniques and products (alpha, beta, alpha-secure), get recommendations, search the FAQ, have quotes and tickets reviewed, request quotes and hand over leads. No authentication.`,
      contactName: company.name,
      contactEmail: company.contact.email,
      website: company.contact.website,
      ...(company.apiLicense ? { license: company.apiLicense } : {}),
    }))),
    // A change the index does not hold (a price) leaves it as it was: its documents are its key.
    recommendIndex: await cache.reuse("recommendIndex", ofKinds("service", "product", "concepts"), async () => serialized(await buildIndex(RECOMMEND_FIELDS, recommendDocuments, await conceptIndex())),
      () => JSON.stringify([recommendDocuments, concepts])),
    // The FAQ's index holds nothing of the company file: citeAs is not indexed.
    faqIndex: await cache.reuse("faqIndex", ofKinds("faq", "concepts"), async () =>
      serialized(await buildIndex(FAQ_FIELDS, faq.map((e) => ({ id: e.id, fields: { question: e.question, tags: e.tags, answer: e.answer } })), await conceptIndex()))),
    llmsTxt: llmsTxt({ company, services, techniques, products, faq, tools }),
    llmsFullTxt: llmsFullTxt(
      { company, services, techniques, products, faq, tools },
      await cache.reuse("llmsFaqSection", faqFiles, async () => llmsFaqSection(faq)),
    ),
  };

  const out: Record<string, string> = {};
  const fileHashes: Record<string, string> = {};
  for (const [key, file] of Object.entries(CATALOG_FILES)) {
    const value = data[key as keyof PartsOf<CatalogData>];
    const part = value instanceof Serialized ? value : serialized(value);
    out[file] = part.text;
    fileHashes[file] = part.hash;
  }
  const manifest: Manifest = {
    format: CATALOG_FORMAT,
    // Hash of what is served (not of the sources), so a compiler change also changes ETags.
    contentHash: sha256(JSON.stringify(fileHashes)),
    counts: countsOf({ services, techniques, products, faq, tools }),
    files: fileHashes,
  };
  out[MANIFEST_FILE] = JSON.stringify(manifest, null, 2);
  return out;
}

export const RECOMMEND_FIELDS = [
  { name: "problems", weight: 3 },
  { name: "title", weight: 3 },
  { name: "tags", weight: 2 },
  { name: "summary", weight: 2 },
  { name: "details", weight: 1.5 },
  { name: "body", weight: 1 },
];
export const FAQ_FIELDS = [
  { name: "question", weight: 3 },
  { name: "tags", weight: 2 },
  { name: "answer", weight: 1 },
];

function withListDefaults<T extends { phrases?: string[]; evidence?: unknown[] }>(c: T) {
  return { ...c, phrases: c.phrases ?? [], evidence: c.evidence ?? [] };
}

export function countsOf(data: Pick<CatalogData, "services" | "techniques" | "products" | "faq" | "tools">): Record<string, number> {
  return {
    services: data.services.length,
    techniques: data.techniques.length,
    products: data.products.length,
    faq: data.faq.length,
    tools: data.tools.length,
  };
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
