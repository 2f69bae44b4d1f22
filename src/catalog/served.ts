import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { setImmediate as nextTurn } from "node:timers/promises";
import { Serialized } from "../api/envelope.js";
import type { ValidateFunction } from "ajv";
import { API_PREFIX, API_VERSION, faqResult, operations, operationsById } from "../api/operations.js";
import { answerValidator } from "../api/validators.js";
import { SearchEngine } from "../search/engine.js";
import { terms } from "../search/text.js";
import { CatalogError, type LoadedCatalog } from "./load.js";
import { BASE_URL_PLACEHOLDER, CATALOG_FILES, OPENAPI_URL_PLACEHOLDER, type CatalogData, type FaqEntry, type Manifest, type Product, type Service } from "./types.js";

/**
 * A catalog ready to serve: every fixed answer serialized once, the search indexes imported,
 * lookups built. Requests only pick a prepared string (or run a search) and add the timestamp.
 */
export interface RecommendResult {
  kind: "service" | "product";
  id: string;
  title: string;
  summary: string;
  score: number;
  reasons: string[];
  url: string;
}

export interface FaqResult {
  id: string;
  question: string;
  answer: string;
  category: string;
  updated?: string;
  score: number;
  url: string;
  citeAs: string;
}

const OPENAPI_URL = `${API_PREFIX}/openapi.json`;
const ANSWER_CACHE = 2000;
/** Recommendations re-ranked by their problem phrases: this many candidates at least. */
const RERANKED = 10;
/** What each further word of the question in one problem phrase adds to a candidate's rank (scores are 0-1). */
const PHRASE_BONUS = 0.08;
const PRODUCT_OPERATIONS: Record<string, string> = { alpha: "getCoda", beta: "getTesla", "alpha-secure": "getCodaSecure" };

export class ServedCatalog {
  readonly manifest: Manifest;
  readonly data: CatalogData;
  /** Strong validator for every catalog answer: the content and the public address it embeds. */
  readonly etag: string;
  /** Serialized `data` of each fixed GET, by operationId. */
  readonly fixed = new Map<string, Serialized>();
  readonly services: ReadonlyMap<string, Service>;
  private readonly products: ReadonlyMap<string, Product>;
  private readonly answers = new LRUCache<string, Serialized>({ max: ANSWER_CACHE });
  private readonly serviceDetails = new Map<string, Serialized>();
  private faqParts = new Map<string, readonly [string, string]>();
  /** Each item's problem phrases in index form, to explain a recommendation without re-stemming. */
  private readonly problemTerms = new Map<string, { p: string; terms: string[] }[]>();
  // Made on first use (or by warm): the FAQ and the search indexes are most of a large catalog's
  // loading time, and the list and detail answers must not wait for them.
  #recommendEngine?: SearchEngine;
  #faqEngine?: SearchEngine;
  #faqById?: ReadonlyMap<string, FaqEntry>;
  #llmsTxt?: string;
  #llmsFullTxt?: string;
  #warming?: Promise<void>;
  /** Set once warm has made and checked everything: only then may a next catalog take over parts of this one. */
  #warmed = false;
  /** The catalog served before this one, until this one is warm (see reuse). */
  #previous?: ServedCatalog;
  /** Whether the FAQ's search results were checked already, as the same bytes, in the previous catalog. */
  #faqChecked = false;

  /**
   * `previous`, the catalog served until now, lends this one what did not change: each file whose
   * hash is the same is taken parsed, its search engine imported, and an answer checked there
   * against its schema as the very same text is not checked again. Everything that changed is
   * parsed, made and checked as in a catalog of its own. A rebuild in `frontdesk dev` after one
   * edit thus leaves a 10,000-entry FAQ alone.
   */
  constructor(loaded: LoadedCatalog, private readonly baseUrl: string, previous?: ServedCatalog) {
    const { data, manifest } = loaded;
    this.manifest = manifest;
    this.data = data;
    if (previous !== undefined && previous.#warmed && previous.baseUrl === baseUrl) this.reuse(previous);
    this.etag = `"${createHash("sha256").update(`${manifest.contentHash}\0${baseUrl}`).digest("hex").slice(0, 32)}"`;
    this.services = new Map(data.services.map((s) => [s.id, s]));
    this.products = new Map(data.products.map((p) => [p.id, p]));

    const put = (operationId: string, value: unknown) => this.fixed.set(operationId, new Serialized(JSON.stringify(value)));
    const { company } = data;
    put("getApiIndex", {
      name: `${company.name} API`,
      version: API_VERSION,
      description: `${company.tagline} Open API for LLM agents and custom GPTs; no authentication.`,
      documentation: `${baseUrl}/docs`,
      openapi: `${baseUrl}${OPENAPI_URL}`,
      endpoints: operations.map(({ method, path, operationId, summary }) => ({ method, path, operationId, summary })),
      hints: [
        "Start with GET /api/v1/capabilities for a compact overview of everything offered.",
        "Pass the visitor's own words to GET /api/v1/recommend?q=... to find fitting services and products.",
        "Answer policy questions from GET /api/v1/faq/search?q=... and quote each answer's citeAs.",
        "Never invent prices: use the pricing of services and the plans of products.",
        "POST bodies are JSON; errors name the field and what to send instead. Send an Idempotency-Key header to retry POSTs safely.",
        "Ticket reviews: 5 free per clientId, then contactEmail is required.",
      ],
    });
    put("getCapabilities", data.capabilities);
    put("listServices", {
      count: data.services.length,
      services: data.services.map((s) => ({
        id: s.id, title: s.title, summary: s.summary, category: s.category, tags: s.tags, pricing: s.pricing,
        ...(s.duration ? { duration: s.duration } : {}), url: this.serviceUrl(s.id),
      })),
    });
    put("listTechniques", { count: data.techniques.length, techniques: data.techniques });
    for (const [id, operationId] of Object.entries(PRODUCT_OPERATIONS)) {
      const product = this.products.get(id);
      if (product) put(operationId, { ...product, url: this.productUrl(id) });
    }
    put("listWaitlistTools", {
      available: data.tools.filter((t) => t.status === "available").map(({ id, title, summary, url, description }) => ({ id, title, summary, url, description })),
      upcoming: data.tools.filter((t) => t.status === "upcoming").map(({ id, title, summary, expected, description }) => ({ id, title, summary, expected, description })),
    });
    const openapiUrl = `${baseUrl}${OPENAPI_URL}`;
    put("getGptAdvisorSetup", {
      name: data.advisor.name,
      description: data.advisor.description,
      openapiUrl,
      systemPrompt: data.advisor.systemPrompt,
      // name is the spec's; operationId is what the GPT's action list and the MCP tools show.
      actions: operations.filter((o) => o.action).map((o) => ({ name: o.action!.name, operationId: o.operationId, method: o.method, path: o.path, when: o.action!.when })),
      setupSteps: data.advisor.setupSteps.map((step) => step.split(OPENAPI_URL_PLACEHOLDER).join(openapiUrl)),
    });
    put("getContact", { name: company.name, ...company.contact, ...(company.documentation ? { documentation: company.documentation } : {}) });
    put("getOpenApi", { ...data.openapi, servers: [{ url: baseUrl, description: "This server" }] });
  }

  /**
   * Prepares everything made on first use, a step per turn of the event loop so that requests
   * are answered meanwhile; once, however often it is asked. Rejects if a file of the catalog
   * is broken.
   */
  warm(): Promise<void> {
    return (this.#warming ??= this.prepare());
  }

  private async prepare(): Promise<void> {
    try {
      for (const step of this.preparation()) {
        step();
        await nextTurn();
      }
      this.#warmed = true;
    } finally {
      this.#previous = undefined; // never a chain of catalogs kept alive
    }
  }

  /** Takes over the unchanged parts of a warm catalog with the same address (see the constructor). */
  private reuse(previous: ServedCatalog): void {
    const same = (key: keyof CatalogData) => {
      const hash = this.manifest.files[CATALOG_FILES[key]];
      return typeof hash === "string" && previous.manifest.files[CATALOG_FILES[key]] === hash;
    };
    for (const key of Object.keys(CATALOG_FILES) as (keyof CatalogData)[]) {
      if (same(key)) Object.defineProperty(this.data, key, { value: previous.data[key], enumerable: true });
    }
    this.#previous = previous;
    if (same("recommendIndex")) this.#recommendEngine = previous.#recommendEngine;
    if (same("faqIndex")) this.#faqEngine = previous.#faqEngine;
    if (same("faq")) {
      this.#faqById = previous.#faqById;
      this.faqParts = previous.faqParts;
      this.#faqChecked = true;
    }
    if (same("llmsTxt")) this.#llmsTxt = previous.#llmsTxt;
    if (same("llmsFullTxt")) this.#llmsFullTxt = previous.#llmsFullTxt;
  }

  /** The steps of warm, a few milliseconds each; made one by one, as later ones need what earlier ones parsed. */
  private *preparation(): Generator<() => unknown> {
    for (const key of Object.keys(this.data) as (keyof CatalogData)[]) yield () => this.data[key];
    yield* this.answerChecks();
    yield () => this.recommendEngine;
    yield () => this.faqById;
    yield () => this.faqEngine;
    yield () => this.llmsTxt;
    yield () => this.llmsFullTxt;
  }

  /**
   * Every answer that does not depend on a question (each fixed answer, each service's detail) is
   * checked against the schema its operation documents, and so is each FAQ entry's search result
   * (the other search results are made of services and products, checked here): a build that
   * compiles data other than this server documents, a new field layout without a new catalog
   * format say, is refused (warm rejects) instead of served.
   */
  private *answerChecks(): Generator<() => void> {
    // An answer the previous catalog checked as this very text passed then and passes now.
    const previous = this.#previous;
    for (const [operationId, answer] of this.fixed) {
      if (previous?.fixed.get(operationId)?.text === answer.text) continue;
      yield () => checkAnswer(answerValidator(operationsById.get(operationId)!.data), answer.text, operationId);
    }
    const detail = answerValidator(operationsById.get("getService")!.data);
    for (const ids of inSteps([...this.services.keys()])) {
      yield () =>
        ids.forEach((id) => {
          const text = this.serviceDetail(id)!.text;
          if (previous?.serviceDetails.get(id)?.text !== text) checkAnswer(detail, text, `getService ${id}`);
        });
    }
    if (this.#faqChecked) return;
    // The parts made here are kept for the searches to come.
    const result = answerValidator(faqResult);
    for (const entries of inSteps(this.data.faq)) {
      yield () =>
        entries.forEach(({ id }) => {
          const [head, tail] = this.faqResultParts(id);
          checkAnswer(result, `${head},"score":1${tail}`, `the search result of FAQ entry ${id}`);
        });
    }
  }

  /** llms.txt and llms-full.txt with this server's address. */
  get llmsTxt(): string {
    return (this.#llmsTxt ??= this.data.llmsTxt.split(BASE_URL_PLACEHOLDER).join(this.baseUrl));
  }

  get llmsFullTxt(): string {
    return (this.#llmsFullTxt ??= this.data.llmsFullTxt.split(BASE_URL_PLACEHOLDER).join(this.baseUrl));
  }

  private get recommendEngine(): SearchEngine {
    return (this.#recommendEngine ??= new SearchEngine(this.data.recommendIndex));
  }

  private get faqEngine(): SearchEngine {
    return (this.#faqEngine ??= new SearchEngine(this.data.faqIndex));
  }

  private get faqById(): ReadonlyMap<string, FaqEntry> {
    return (this.#faqById ??= new Map(this.data.faq.map((f) => [f.id, f])));
  }

  /** Serialized `data` of GET /services/{id}, or undefined for an unknown id. */
  serviceDetail(id: string): Serialized | undefined {
    const known = this.serviceDetails.get(id);
    if (known !== undefined) return known;
    const service = this.services.get(id);
    if (service === undefined) return undefined;
    const json = new Serialized(JSON.stringify({ ...service, url: this.serviceUrl(id) }));
    this.serviceDetails.set(id, json);
    return json;
  }

  serviceUrl(id: string): string {
    return `${this.baseUrl}${API_PREFIX}/services/${id}`;
  }

  private productUrl(id: string): string {
    return `${this.baseUrl}${API_PREFIX}/${id}`;
  }

  /**
   * Search answers by (search, limit, query), least recently used dropped first. People and GPTs
   * ask the same things over and over, and an answer is valid for as long as this catalog is
   * served: a new catalog starts with an empty cache.
   */
  cachedAnswer<T extends Serialized>(key: string, compute: () => T): T {
    const hit = this.answers.get(key);
    if (hit) return hit as T;
    const fresh = compute();
    this.answers.set(key, fresh);
    return fresh;
  }

  recommend(query: string, limit: number): RecommendResult[] {
    // A few more candidates than asked: one whose problem phrase holds several of the question's
    // words moves up past one that only mentions them here and there.
    const { terms: queryTerms, hits, understood } = this.recommendEngine.search(query, Math.max(limit, RERANKED));
    const readAs = understood.map((u) => `read "${u.phrase}" as: ${u.means}`);
    return hits
      .map((hit) => {
        const service = this.services.get(hit.id);
        const item: Service | Product = service ?? this.products.get(hit.id)!;
        const problems = this.problemTerms.get(item.id) ?? item.problems.map((p) => ({ p, terms: terms(p) }));
        this.problemTerms.set(item.id, problems);
        const phrases = problems
          .map(({ p, terms: phraseTerms }) => ({ p, shared: new Set(phraseTerms.filter((t) => queryTerms.has(t))).size }))
          .filter((x) => x.shared > 0)
          .sort((a, b) => b.shared - a.shared);
        const bonus = PHRASE_BONUS * Math.max(0, (phrases[0]?.shared ?? 0) - 1);
        return { hit, item, service, phrases, rank: hit.score + bonus };
      })
      .sort((a, b) => b.rank - a.rank)
      .slice(0, limit)
      .map(({ hit, item, service, phrases }) => ({
        kind: service ? "service" : "product",
        id: item.id,
        title: item.title,
        summary: item.summary,
        score: hit.score,
        // The problems phrased most like the query explain the match best.
        reasons: [...phrases.slice(0, 2).map((x) => `solves: "${x.p}"`), `matched: ${hit.matched.join(", ")}`, ...readAs],
        url: service ? this.serviceUrl(item.id) : this.productUrl(item.id),
      }));
  }


  /** FAQ hits as JSON (FaqResult), best first, and the best score. */
  searchFaq(query: string, limit: number): { results: string[]; best: number | undefined } {
    const { hits } = this.faqEngine.search(query, limit);
    const results = hits.map((hit) => {
      const [head, tail] = this.faqResultParts(hit.id);
      return `${head},"score":${hit.score}${tail}`;
    });
    return { results, best: hits[0]?.score };
  }

  /**
   * An FAQ entry's search result is the same in every answer but for its score: serialized once,
   * as the JSON before the score and after it (a second copy of the FAQ's answers, made while the
   * catalog warms).
   */
  private faqResultParts(id: string): readonly [string, string] {
    const known = this.faqParts.get(id);
    if (known !== undefined) return known;
    const entry = this.faqById.get(id)!;
    const url = `${this.baseUrl}${API_PREFIX}/faq/search?q=${encodeURIComponent(entry.question)}`;
    const fixed: Omit<FaqResult, "score" | "url" | "citeAs"> = {
      id: entry.id,
      question: entry.question,
      answer: entry.answer,
      category: entry.category,
      ...(entry.updated ? { updated: entry.updated } : {}),
    };
    const parts = [JSON.stringify(fixed).slice(0, -1), `,"url":${JSON.stringify(url)},"citeAs":${JSON.stringify(`${entry.citeAs}, ${url}`)}}`] as const;
    this.faqParts.set(id, parts);
    return parts;
  }
}

/** A list in parts small enough for one step of warm (a few milliseconds of checks). */
function* inSteps<T>(list: readonly T[], size = 500): Generator<readonly T[]> {
  for (let at = 0; at < list.length; at += size) yield list.slice(at, at + size);
}

function checkAnswer(validate: ValidateFunction, json: string, what: string): void {
  if (validate(JSON.parse(json))) return;
  const { instancePath, message } = validate.errors![0]!;
  throw new CatalogError(`${what} would not be as documented (${instancePath || "the answer"} ${message}): was the catalog built by another version of Frontdesk? Build it with this one`);
}
