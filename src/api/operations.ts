import { always, arr, body, bool, email, int, num, obj, requiredText, str, text, texts, type JsonSchema } from "./schema.js";

/**
 * The one table of every endpoint. Routes, input validation, openapi.json, the API index, the
 * GPT advisor's actions and the MCP tools are all derived from it; nothing lists endpoints twice.
 */
export interface Operation {
  operationId: string;
  method: "GET" | "POST";
  /** OpenAPI form, e.g. /api/v1/services/{id}. */
  path: string;
  /** ≤ 300 characters (GPT Actions reject longer). */
  summary: string;
  description: string;
  tag: string;
  params?: JsonSchema;
  query?: JsonSchema;
  body?: JsonSchema;
  /** A realistic request body, shown in the OpenAPI document and the docs page. */
  example?: Record<string, unknown>;
  /** Schema of the envelope's `data`. */
  data: JsonSchema;
  /** The envelope's `type`, where the spec names one. */
  type?: string;
  /** Error statuses this operation can answer besides 413/415/429 rate limiting and 500. */
  errors: number[];
  /** Served from the catalog: cacheable, with an ETag. */
  catalog?: boolean;
  /** Answered as a bare document, without the envelope, because importers need the document itself. */
  raw?: boolean;
  /** The GPT advisor action this operation is offered as, with when to use it. */
  action?: { name: string; when: string };
  /** For GPT Actions: ask the user before every call (true) or allow "always allow" (false). */
  consequential?: boolean;
}

export const API_PREFIX = "/api/v1";
export const API_VERSION = "1.0.0";

export const LIMITS = {
  query: 500,
  faqLimitMax: 20,
  quoteText: 50_000,
  ticketText: 20_000,
  description: 10_000,
  shortText: 200,
  mediumText: 2_000,
  listItems: 20,
  bodyBytes: 64 * 1024,
  /** Deepest nesting a body may have (the API's own fields nest two levels). */
  bodyDepth: 32,
  freeTicketReviews: 5,
} as const;

// ---- shared data shapes ---------------------------------------------------------------------

const pricing = always({ model: text, from: num, currency: text, unit: text }, ["unit"]);
const serviceFields = { id: text, title: text, summary: text, category: text, tags: texts, pricing, duration: text, url: text };
const serviceSummary = always(serviceFields, ["duration"]);
const serviceDetail = always({
  ...serviceFields,
  problems: texts, deliverables: texts, techniques: texts, products: texts, description: { type: "string", description: "Markdown." },
}, ["duration"]);
const technique = always({ id: text, title: text, summary: text, category: text, tags: texts, since: int, description: text }, ["since"]);
const product = always({
  id: text, title: text, tagline: text, summary: text, problems: texts, capabilities: texts,
  features: arr(always({ name: text, description: text })),
  plans: arr(always({ name: text, price: num, currency: text, period: text, description: text, features: texts }, ["description"])),
  services: texts, description: text, url: text,
}, ["tagline"]);
const criterion = always({
  id: text, title: text, status: { type: "string", enum: ["met", "partial", "missing"] }, points: num, weight: num,
  evidence: text, advice: text,
});
const ticketUsage = always({ clientId: text, used: int, freeLimit: int, remaining: int, emailRequired: bool });
const proposal = always({
  project: always({ description: text, companyName: text, budget: text, timeline: text }, ["companyName", "budget", "timeline"]),
  services: arr(always({ id: text, title: text, why: text, pricing, duration: text, url: text, rank: int }, ["duration"])),
  phases: arr(always({ name: text, duration: text, outcome: text })),
  estimate: always({ currency: text, low: num, high: num, basis: text }),
  assumptions: texts, openQuestions: texts, nextSteps: texts,
  contact: always({ email: text, bookingUrl: text }, ["bookingUrl"]),
  draft: bool,
}, ["estimate"]);
/** The parts of an OpenAPI 3.1 document a client reads; the rest is the OpenAPI format itself. */
const openApiDocument = always({
  openapi: { type: "string", const: "3.1.0" },
  info: always({ title: text, version: text, description: text, contact: obj({ name: text, email: text, url: text }), license: obj({ name: text, identifier: text, url: text }) }, ["description", "contact", "license"]),
  servers: arr(always({ url: text, description: text }, ["description"])),
  tags: arr(always({ name: text, description: text }, ["description"])),
  paths: { type: "object", additionalProperties: { type: "object", additionalProperties: {} }, description: "Every path of this API with its operations." },
  components: { type: "object", additionalProperties: { type: "object", additionalProperties: {} }, description: "Reusable schemas and responses." },
}, ["tags", "components"]);
/** One result of searchFaq; ServedCatalog also checks every FAQ entry's result against it. */
export const faqResult = always({ id: text, question: text, answer: text, category: text, updated: text, score: num, url: text, citeAs: text }, ["updated"]);
const limitParam = (max: number): JsonSchema => ({ type: "integer", minimum: 1, maximum: max, default: 5, description: `Number of results, 1-${max}.` });
const searchData = (result: JsonSchema) =>
  obj({ query: text, count: int, results: arr(result), hint: str(300, "Present when nothing matched: what to try instead.") }, ["query", "count", "results"]);
const reference = (prefix: string) => str(64, `Reference of the stored submission, starting with ${prefix}.`);

const clientIdField = str(LIMITS.shortText, "Client identifier for the free-review allowance. Same as the X-Service-Client-Id header; the body wins when both are sent.");
const idempotencyHint = "Send an Idempotency-Key header to retry safely.";

// ---- the table ------------------------------------------------------------------------------

export const operations: Operation[] = [
  {
    operationId: "getApiIndex", method: "GET", path: "/api/v1", tag: "Discovery", catalog: true, errors: [],
    summary: "API index: endpoints, version and hints for LLMs",
    description: "Machine-readable index of every endpoint with method, path, operationId and summary, plus hints on which to call first.",
    data: always({
      name: text, version: text, description: text, documentation: text, openapi: text,
      endpoints: arr(always({ method: text, path: text, operationId: text, summary: text })), hints: texts,
    }),
  },
  {
    operationId: "getCapabilities", method: "GET", path: "/api/v1/capabilities", tag: "Discovery", catalog: true, errors: [],
    summary: "Compact overview of the company, skills, services, techniques and products",
    description: "Everything the company offers in one small answer, meant as context for an LLM.",
    data: always({
      company: always({ name: text, tagline: text, description: text }), skills: texts,
      services: arr(always({ id: text, title: text, summary: text })),
      techniques: arr(always({ id: text, title: text, category: text })),
      products: arr(always({ id: text, title: text, tagline: text }, ["tagline"])),
    }),
  },
  {
    operationId: "listServices", method: "GET", path: "/api/v1/services", tag: "Catalog", catalog: true, errors: [],
    summary: "List all services",
    description: "Every service with its id, summary, category, starting price and address. Fetch one by id for problems, deliverables and the full description.",
    data: always({ count: int, services: arr(serviceSummary) }),
  },
  {
    operationId: "getService", method: "GET", path: "/api/v1/services/{id}", tag: "Catalog", catalog: true, errors: [404],
    summary: "Get one service by slug or id",
    description: "Full service detail: problems it solves, deliverables, pricing, duration, related techniques and products, description in Markdown.",
    params: obj({ id: str(LIMITS.shortText, "Service slug, e.g. ai-agents (see listServices).") }, ["id"]),
    data: serviceDetail,
  },
  {
    operationId: "listTechniques", method: "GET", path: "/api/v1/techniques", tag: "Catalog", catalog: true, errors: [],
    summary: "List development techniques and stack",
    description: "Languages, frameworks, practices, infrastructure and AI methods the company works with.",
    data: always({ count: int, techniques: arr(technique) }),
  },
  {
    operationId: "getCoda", method: "GET", path: "/api/v1/alpha", tag: "Products", catalog: true, errors: [],
    summary: "alpha: the AI-assisted application development platform",
    description: "Platform information, capabilities, features and plans with prices of alpha.",
    data: product,
  },
  {
    operationId: "getTesla", method: "GET", path: "/api/v1/beta", tag: "Products", catalog: true, errors: [],
    summary: "beta: the management and security platform",
    description: "Information, capabilities, features and plans with prices of beta.",
    data: product,
  },
  {
    operationId: "getCodaSecure", method: "GET", path: "/api/v1/alpha-secure", tag: "Products", catalog: true, errors: [],
    summary: "alpha-secure: the codebase security-scan product",
    description: "Features, capabilities, pricing and plans of alpha-secure.",
    data: product,
  },
  {
    operationId: "recommend", method: "GET", path: "/api/v1/recommend", tag: "Recommendation", catalog: true, errors: [400],
    summary: "Rank services and products for a problem described in plain words",
    description: "Send the visitor's problem or project in their own words as q (or problem). Returns services and products ranked by a 0-1 score, with why each matched.",
    action: { name: "recommend", when: "The visitor describes a problem, project or need and wants to know which services or products fit." },
    query: obj({
      q: str(LIMITS.query, "Problem or project description in plain words. Send q or problem: one of the two is required (400 without)."),
      problem: str(LIMITS.query, "Alias for q: send q or problem."),
      limit: limitParam(10),
    }),
    data: searchData(always({ kind: { type: "string", enum: ["service", "product"] }, id: text, title: text, summary: text, score: num, reasons: texts, url: text })),
  },
  {
    operationId: "searchFaq", method: "GET", path: "/api/v1/faq/search", tag: "FAQ", catalog: true, errors: [400],
    summary: "Search the FAQ; every result carries a citation (citeAs)",
    description: "Full-text search over the FAQ with typo tolerance. Quote the citeAs of each answer you use.",
    action: { name: "faqSearch", when: "The visitor asks about pricing, process, contracts, NDA, IP, security, data privacy, AI use, reviews or products." },
    query: obj({
      q: requiredText(LIMITS.query, "Question or keywords."),
      limit: limitParam(LIMITS.faqLimitMax),
    }, ["q"]),
    data: searchData(faqResult),
  },
  {
    operationId: "reviewQuote", method: "POST", example: { quoteText: "1. SCOPE\nA customer portal with login and booking.\n2. PRICE\nDesign EUR 6,500\nBuild EUR 38,000\nTotal EUR 44,500\n3. PAYMENT\n30% on signature, 70% on acceptance.", companyName: "Van Dijk BV", contactEmail: "it@vandijk.example" }, path: "/api/v1/quotes/review", tag: "Quotes", errors: [400],
    summary: "Review an existing quote: completeness score out of 10 and a counter proposal",
    description: `Paste a quote or statement of work as plain text. Returns a score out of 10 (8 passes), every criterion with evidence and advice, and a counter proposal. ${idempotencyHint}`,
    action: { name: "reviewQuote", when: "The visitor pastes or describes a quote or statement of work from any vendor and wants it checked." },
    consequential: false,
    body: body({
      quoteText: requiredText(LIMITS.quoteText, "The full quote as plain text."),
      companyName: str(LIMITS.shortText, "Company that received the quote."),
      contactEmail: email(),
      context: str(LIMITS.mediumText, "Anything the reviewer should know."),
      fileName: str(LIMITS.shortText, "Name of the original file."),
    }, ["quoteText"]),
    data: always({
      reference: reference("quote-review-"), score: num, threshold: num, passed: bool, summary: text,
      criteria: arr(criterion), consistency: arr(always({ check: text, ok: bool, message: text })),
      counterProposal: always({ keep: texts, clarify: texts, add: arr(always({ section: text, clause: text })), services: arr(always({ id: text, title: text, from: num, currency: text, url: text })) }),
    }),
  },
  {
    operationId: "requestQuote", method: "POST", example: { projectDescription: "An app for our 40 field engineers to see jobs, log hours and upload photos, connected to our planning system.", budget: "EUR 60-90k", timeline: "live before June", contactEmail: "ops@example.com", requestedBy: "gpt" }, path: "/api/v1/quotes/request", tag: "Quotes", errors: [400],
    summary: "Request a new quote and get a draft proposal",
    description: `Describe the project; returns a draft proposal with recommended services, phases, an estimate range from catalog prices, assumptions, open questions and next steps. ${idempotencyHint}`,
    action: { name: "requestQuote", when: "The visitor wants a proposal or price for a new project; collect the description, budget and timeline first." },
    consequential: true,
    body: body({
      projectDescription: requiredText(LIMITS.description, "What should be built or solved."),
      companyName: str(LIMITS.shortText, "Company name."),
      contactEmail: email(),
      budget: str(LIMITS.shortText, "Budget in free text."),
      timeline: str(LIMITS.shortText, "Timeline in free text."),
      servicesInterested: arr(str(LIMITS.shortText), { maxItems: LIMITS.listItems, description: "Service ids (see listServices)." }),
      requestedBy: str(LIMITS.shortText, "Who submits: gpt, agent or human."),
    }, ["projectDescription"]),
    data: always({ reference: reference("quote-"), proposal }),
  },
  {
    operationId: "reviewTicket", method: "POST", example: { ticketText: "## Steps to reproduce\n1. Open Invoices\n2. Click Export > CSV\n## Expected\nValues with commas are quoted.\n## Actual\nRows split into extra columns.", type: "bug", clientId: "gpt-conv-123" }, path: "/api/v1/tickets/review", tag: "Tickets", errors: [400, 429],
    summary: "Rate a ticket 0-10 (8 passes); 5 free reviews per clientId, then contactEmail",
    description: `Rates a bug, feature, question or task ticket with evidence and advice per criterion and a rewritten skeleton. After 5 free reviews per clientId, send contactEmail. ${idempotencyHint}`,
    action: { name: "reviewTicket", when: "The visitor pastes a ticket, issue or bug report and wants it rated. Pass a stable clientId; after 5 free reviews ask for an e-mail." },
    consequential: false,
    body: body({
      ticketText: requiredText(LIMITS.ticketText, "The ticket as plain text or Markdown."),
      clientId: clientIdField,
      contactEmail: email("Required once the 5 free reviews of the clientId are used."),
      title: str(LIMITS.shortText, "Ticket title."),
      type: { type: "string", enum: ["bug", "feature", "question", "task"], description: "Ticket type; inferred from the text when absent." },
    }, ["ticketText"]),
    data: always({
      reference: reference("ticket-review-"), rating: num, threshold: num, passed: bool, type: { type: "string", enum: ["bug", "feature", "question", "task"] }, typeInferred: bool,
      summary: text, criteria: arr(criterion), skeleton: text, usage: ticketUsage,
    }),
  },
  {
    operationId: "getTicketUsage", method: "GET", path: "/api/v1/tickets/usage", tag: "Tickets", errors: [400, 503],
    summary: "Remaining free ticket reviews for a clientId",
    description: "How many of the 5 free ticket reviews a clientId has used and whether an e-mail is now required.",
    query: obj({ clientId: requiredText(LIMITS.shortText, "Client identifier.") }, ["clientId"]),
    data: ticketUsage,
  },
  {
    operationId: "joinWaitlist", method: "POST", example: { name: "Ann de Vries", email: "ann@example.com", company: "Acme", toolsInterested: ["cloud-cost-estimator"] }, path: "/api/v1/waitlist", tag: "Tools Lab", errors: [400],
    summary: "Join the Tools Lab waitlist for early access",
    description: `Signs a person up for early access to Tools Lab tools; the same e-mail again updates the interests. ${idempotencyHint}`,
    action: { name: "joinWaitlist", when: "The visitor wants early access to a Tools Lab tool; ask for name and e-mail and their consent." },
    consequential: true,
    body: body({
      name: requiredText(LIMITS.shortText, "Full name."),
      email: email("E-mail address for the invitation."),
      company: str(LIMITS.shortText, "Company."),
      role: str(LIMITS.shortText, "Role."),
      toolsInterested: arr(str(LIMITS.shortText), { maxItems: LIMITS.listItems, description: "Tool ids (see listWaitlistTools)." }),
      source: str(LIMITS.shortText, "Where the sign-up comes from."),
    }, ["name", "email"]),
    data: always({ reference: reference("waitlist-"), email: text, toolsInterested: texts, updated: { type: "boolean", description: "true when the e-mail was already on the waitlist and its interests were updated." }, message: text }),
  },
  {
    operationId: "listWaitlistTools", method: "GET", path: "/api/v1/waitlist/tools", tag: "Tools Lab", catalog: true, errors: [],
    summary: "Available and upcoming Tools Lab tools",
    description: "Tools Lab tools with status available or upcoming; use their ids in joinWaitlist.",
    data: always({
      available: arr(always({ id: text, title: text, summary: text, url: text, description: text }, ["url"])),
      upcoming: arr(always({ id: text, title: text, summary: text, expected: text, description: text }, ["expected"])),
    }),
  },
  {
    operationId: "submitLeadIntent", method: "POST", example: { description: "Wants an AI agent that turns order e-mails into ERP orders; 900 orders a week.", name: "Ann de Vries", email: "ann@example.com", intent: "demo", requestedBy: "gpt", conversationId: "conv-123" }, path: "/api/v1/leads/intent", tag: "Leads", errors: [400],
    summary: "Hand over a lead from a conversation",
    description: `Records who wants what so a person follows up. The same conversationId again returns the same reference. ${idempotencyHint}`,
    action: { name: "submitLead", when: "The visitor wants to be contacted, a demo, a security check or a partnership; ask consent first and set requestedBy to gpt." },
    consequential: true,
    body: body({
      description: requiredText(LIMITS.description, "What the person needs, in a few sentences."),
      name: str(LIMITS.shortText, "Name."),
      email: email(),
      company: str(LIMITS.shortText, "Company."),
      intent: str(LIMITS.shortText, "One of quote, security, ticket, partnership, demo (any letter case)."),
      budget: str(LIMITS.shortText, "Budget in free text."),
      timeline: str(LIMITS.shortText, "Timeline in free text."),
      requestedBy: str(LIMITS.shortText, "One of gpt, claude, human (any letter case)."),
      conversationId: str(LIMITS.shortText, "Conversation identifier; repeats are de-duplicated."),
      source: str(LIMITS.shortText, "Source."),
      utm: str(LIMITS.mediumText, "Campaign parameters."),
    }, ["description"]),
    data: always({ received: bool, reference: reference("lead-"), duplicate: { type: "boolean", description: "true when this conversationId was handed over before: the reference is the first one's." } }),
  },
  {
    operationId: "getGptAdvisorSetup", method: "GET", path: "/api/v1/gpt/advisor", tag: "GPT", catalog: true, errors: [], type: "gpt_advisor",
    summary: "Everything a custom GPT needs to set itself up",
    description: "Name, description, system prompt, the actions it can call and the set-up steps of the custom GPT advisor.",
    data: always({
      name: text, description: text, openapiUrl: text, systemPrompt: text,
      actions: arr(always({ name: text, operationId: { type: "string", description: "What the GPT's action list and the MCP tools call it (name is the set-up's own name for it)." }, method: text, path: text, when: text })), setupSteps: texts,
    }),
  },
  {
    operationId: "getContact", method: "GET", path: "/api/v1/contact", tag: "Meta", catalog: true, errors: [],
    summary: "Contact details, preferred channel and UI links",
    description: "E-mail, phone, preferred way to reach a person, booking link, website and links to the web tools.",
    data: always(
      { name: text, email: text, phone: text, preferred: text, bookingUrl: text, website: text, responseTime: text, ui: { type: "object", additionalProperties: text, description: "Links to the web tools, by name." }, documentation: text },
      ["phone", "bookingUrl", "responseTime", "ui", "documentation"],
    ),
  },
  {
    operationId: "getOpenApi", method: "GET", path: "/api/v1/openapi.json", tag: "Meta", catalog: true, raw: true, errors: [],
    summary: "This API's OpenAPI 3.1 document",
    description: "The OpenAPI 3.1.0 description of this API, served as the bare document so GPT Actions and other clients can import it from this address.",
    data: openApiDocument,
  },
];

export const operationsById: ReadonlyMap<string, Operation> = new Map(operations.map((op) => [op.operationId, op]));
