import type { ExportedIndex } from "../search/engine.js";

/**
 * The compiled catalog: what `frontdesk build` writes to dist/catalog and the runtime reads.
 * Field names follow the content's front matter; `description` is the Markdown body.
 */
export interface Pricing {
  model: "fixed" | "time-and-materials" | "retainer" | "subscription";
  from: number;
  currency: string;
  unit?: "project" | "month" | "day" | "sprint";
}

export interface Service {
  id: string;
  title: string;
  summary: string;
  category: string;
  tags: string[];
  problems: string[];
  deliverables: string[];
  pricing: Pricing;
  duration?: string;
  techniques: string[];
  products: string[];
  description: string;
}

export interface Technique {
  id: string;
  title: string;
  summary: string;
  category: string;
  tags: string[];
  since?: number;
  description: string;
}

export interface Plan {
  name: string;
  price: number;
  currency: string;
  period: "month" | "year" | "one-off" | "custom";
  description?: string;
  features: string[];
}

export interface Product {
  id: string;
  title: string;
  tagline?: string;
  summary: string;
  problems: string[];
  capabilities: string[];
  features: { name: string; description: string }[];
  plans: Plan[];
  services: string[];
  description: string;
}

export interface FaqEntry {
  id: string;
  question: string;
  answer: string;
  category: string;
  tags: string[];
  updated?: string;
  /** Citation without the address, which the runtime adds from its public base URL. */
  citeAs: string;
}

export interface Tool {
  id: string;
  title: string;
  summary: string;
  status: "available" | "upcoming";
  url?: string;
  expected?: string;
  description: string;
}

export interface Company {
  name: string;
  tagline: string;
  description: string;
  founded?: number;
  headquarters?: string;
  timezone?: string;
  languages?: string[];
  skills: string[];
  contact: {
    email: string;
    phone?: string;
    preferred: "email" | "phone" | "booking";
    bookingUrl?: string;
    website: string;
    responseTime?: string;
    ui?: Record<string, string>;
  };
  documentation?: string;
  apiLicense?: { name: string; url: string };
}

export interface Advisor {
  name: string;
  description: string;
  /** May contain {{openapiUrl}}, replaced by the runtime with the document's public address. */
  setupSteps: string[];
  systemPrompt: string;
}

/** Facts a review recognises by what they are (src/reviews/facts.ts). */
export type Evidence =
  | "numbered-list" | "bullet-list" | "steps" | "given-when-then" | "checklist" | "code" | "stack-trace" | "log"
  | "error-message" | "version" | "platform" | "url" | "expected-wording" | "observed-wording" | "question"
  | "user-story" | "so-that" | "opening" | "amount" | "percentage" | "date" | "duration" | "reason" | "instruction"
  | "attempt" | "conditions" | "schedule" | "ownership" | "instalments";

export interface Criterion {
  id: string;
  title: string;
  weight: number;
  /** Labels (headings, inline labels, table cells) that name this criterion. */
  headings: string[];
  /** Wording that points at this criterion in unlabelled prose. */
  phrases?: string[];
  /**
   * Wording by which the author says the criterion cannot be had ("could not reproduce it", "only
   * happened once"): anywhere in the text, it leaves only the criterion's own section to prove it.
   */
  denials?: string[];
  /**
   * Its text must name what a tester can check: when most of its items only wish ("users feel
   * more confident", "approval times go down") with no number, it is too vague.
   */
  testable?: boolean;
  /** Facts that show this criterion on their own, with no label or wording. */
  evidence?: Evidence[];
  /**
   * Those of the evidence that count even inside a sentence that proves another criterion: a
   * version in "On app 6.3.1 the photo is rotated" is where it happens as well as what happens.
   */
  alongside?: Evidence[];
  /**
   * Wording that makes a sentence about something else, so neither the criterion's phrases nor its
   * evidence find it there: "50% on 1 June, payable within 15 days" is a payment term, not the timeline.
   */
  notWith?: string[];
  /** Concrete data a label's or a phrase's text needs to count in full; without one it is partial. */
  data?: Evidence[];
  /** The ticket or quote cannot pass without this criterion met. */
  required?: boolean;
  /** Words a label's text needs to count in full when no data is asked for (default 3). */
  minWords?: number;
  advice: string;
}

export interface RubricLimits {
  threshold: number;
  minWords: number;
  shortTextCap: number;
  /** Cap when a required part is hollow (placeholder, template, negated, filler), contradicted, or the text is keyword stuffing. */
  hollowCap?: number;
  /** Cap when a required part is missing or vague (default: half a point below the threshold). */
  requiredCap?: number;
}

export type TicketType = "bug" | "feature" | "question" | "task";

export interface TicketRubric extends RubricLimits {
  /**
   * How far the reader may lower a passing rating (0 or absent: not at all): a ticket rated 8 with
   * a likeness of 0 loses this much, one with a likeness of 0.4 or more loses nothing.
   */
  readerReach?: number;
  types: Record<TicketType, { description?: string; signals: string[]; criteria: (Criterion & { template: string })[] }>;
}

export interface QuoteRubric extends RubricLimits {
  /** A quote passes only with every required criterion met and at least this many of the other scored criteria. */
  minOptional?: number;
  criteria: (Criterion & { clause: string; services: string[] })[];
}

export interface Capabilities {
  company: { name: string; tagline: string; description: string };
  skills: string[];
  services: { id: string; title: string; summary: string }[];
  techniques: { id: string; title: string; category: string }[];
  products: { id: string; title: string; tagline?: string }[];
}

export interface Manifest {
  format: number;
  contentHash: string;
  counts: Record<string, number>;
  /** sha256 of every other file of the catalog, checked when the runtime loads it. */
  files: Record<string, string>;
}

export interface CatalogData {
  company: Company;
  capabilities: Capabilities;
  services: Service[];
  techniques: Technique[];
  products: Product[];
  faq: FaqEntry[];
  tools: Tool[];
  advisor: Advisor;
  rubrics: { ticket: TicketRubric; quote: QuoteRubric };
  openapi: Record<string, unknown>;
  recommendIndex: ExportedIndex;
  faqIndex: ExportedIndex;
  /** Markdown for LLMs (llmstxt.org), with BASE_URL_PLACEHOLDER where the public address goes. */
  llmsTxt: string;
  llmsFullTxt: string;
}

/** File name of each part of the catalog. */
export const CATALOG_FILES: Record<keyof CatalogData, string> = {
  company: "company.json",
  capabilities: "capabilities.json",
  services: "services.json",
  techniques: "techniques.json",
  products: "products.json",
  faq: "faq.json",
  tools: "tools.json",
  advisor: "advisor.json",
  rubrics: "rubrics.json",
  openapi: "openapi.json",
  recommendIndex: "index-recommend.json",
  faqIndex: "index-faq.json",
  llmsTxt: "llms.txt",
  llmsFullTxt: "llms-full.txt",
};

export const MANIFEST_FILE = "manifest.json";
export const CATALOG_FORMAT = 1;

/** Stands for the server's public address in compiled text; replaced when the catalog is loaded. */
export const BASE_URL_PLACEHOLDER = "{{baseUrl}}";

/** Written in the advisor's set-up steps; the runtime replaces it by the OpenAPI document's address. */
export const OPENAPI_URL_PLACEHOLDER = "{{openapiUrl}}";
