/**
 * One JSON Schema per content kind. They are the single source of truth for what an editor may
 * write: the build validates with them, and `frontdesk schemas` publishes them to `schemas/` so an
 * editor's YAML tooling checks files while typing.
 */
type Schema = Record<string, unknown>;

/** GPT Actions reject descriptions over 300 characters; summaries are served as such. */
export const SUMMARY_MAX = 280;
const SLUG_PATTERN = "^[a-z0-9]+(-[a-z0-9]+)*$";

const text = (maxLength: number): Schema => ({ type: "string", minLength: 1, maxLength });
const slug: Schema = { type: "string", pattern: SLUG_PATTERN };
const slugList: Schema = { type: "array", items: slug, uniqueItems: true };
const textList = (maxLength: number, minItems = 0): Schema => ({
  type: "array",
  items: text(maxLength),
  uniqueItems: true,
  minItems,
});
const url: Schema = { type: "string", format: "uri", pattern: "^https?://" };
const object = (properties: Record<string, Schema>, required: string[]): Schema => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

/** Facts a review recognises by what they are (src/reviews/facts.ts). */
const EVIDENCE = [
  "numbered-list",
  "bullet-list",
  "steps",
  "given-when-then",
  "checklist",
  "code",
  "stack-trace",
  "log",
  "error-message",
  "version",
  "platform",
  "url",
  "expected-wording",
  "observed-wording",
  "question",
  "user-story",
  "so-that",
  "opening",
  "reason",
  "instruction",
  "attempt",
  "conditions",
  "schedule",
  "ownership",
  "instalments",
  "amount",
  "percentage",
  "date",
  "duration",
];
const evidenceList: Schema = { type: "array", items: { enum: EVIDENCE }, uniqueItems: true };

const criterionProperties = {
  id: slug,
  title: text(80),
  // 0: reported with its advice, not scored.
  weight: { type: "number", minimum: 0, maximum: 10, multipleOf: 0.5 },
  headings: textList(60, 1),
  phrases: textList(80),
  denials: textList(80),
  notWith: textList(80),
  evidence: evidenceList,
  alongside: evidenceList,
  data: evidenceList,
  required: { type: "boolean" },
  testable: { type: "boolean" },
  minWords: { type: "integer", minimum: 1, maximum: 100 },
  advice: text(400),
};
const criterionRequired = ["id", "title", "weight", "headings", "advice"];
const rubricLimits = {
  threshold: { type: "number", minimum: 0, maximum: 10 },
  minWords: { type: "integer", minimum: 0 },
  shortTextCap: { type: "number", minimum: 0, maximum: 10 },
  hollowCap: { type: "number", minimum: 0, maximum: 10 },
  requiredCap: { type: "number", minimum: 0, maximum: 10 },
};

export const schemas = {
  company: object(
    {
      name: text(80),
      tagline: text(160),
      description: text(SUMMARY_MAX),
      founded: { type: "integer", minimum: 1900, maximum: 2100 },
      headquarters: text(120),
      timezone: text(60),
      languages: textList(40, 1),
      skills: textList(80, 1),
      contact: object(
        {
          email: { type: "string", format: "email" },
          phone: text(40),
          preferred: { enum: ["email", "phone", "booking"] },
          bookingUrl: url,
          website: url,
          responseTime: text(80),
          ui: { type: "object", additionalProperties: url, propertyNames: { pattern: "^[a-zA-Z][a-zA-Z0-9]*$" } },
        },
        ["email", "preferred", "website"],
      ),
      documentation: url,
      // The terms under which callers use the API: info.license of the OpenAPI document.
      apiLicense: object({ name: text(80), url }, ["name", "url"]),
    },
    ["name", "tagline", "description", "skills", "contact"],
  ),
  service: object(
    {
      title: text(80),
      summary: text(SUMMARY_MAX),
      category: { enum: ["engineering", "ai", "platform", "security", "design", "data", "advisory", "support"] },
      tags: textList(40),
      problems: textList(200, 1),
      deliverables: textList(200, 1),
      pricing: object(
        {
          model: { enum: ["fixed", "time-and-materials", "retainer", "subscription"] },
          from: { type: "number", minimum: 0 },
          currency: { type: "string", pattern: "^[A-Z]{3}$" },
          unit: { enum: ["project", "month", "day", "sprint"] },
        },
        ["model", "from", "currency"],
      ),
      duration: text(80),
      techniques: slugList,
      products: slugList,
    },
    ["title", "summary", "category", "problems", "deliverables", "pricing"],
  ),
  technique: object(
    {
      title: text(80),
      summary: text(SUMMARY_MAX),
      category: { enum: ["language", "framework", "practice", "infrastructure", "ai-method"] },
      tags: textList(40),
      since: { type: "integer", minimum: 1970, maximum: 2100 },
    },
    ["title", "summary", "category"],
  ),
  product: object(
    {
      title: text(80),
      tagline: text(160),
      summary: text(SUMMARY_MAX),
      problems: textList(200, 1),
      capabilities: textList(200, 1),
      features: {
        type: "array",
        items: object({ name: text(80), description: text(SUMMARY_MAX) }, ["name", "description"]),
      },
      plans: {
        type: "array",
        minItems: 1,
        items: object(
          {
            name: text(60),
            price: { type: "number", minimum: 0 },
            currency: { type: "string", pattern: "^[A-Z]{3}$" },
            period: { enum: ["month", "year", "one-off", "custom"] },
            description: text(SUMMARY_MAX),
            features: textList(120),
          },
          ["name", "price", "currency", "period"],
        ),
      },
      services: slugList,
    },
    ["title", "summary", "problems", "capabilities", "plans"],
  ),
  faq: object(
    {
      question: { type: "string", minLength: 5, maxLength: 200, pattern: "\\?$" },
      category: {
        enum: ["pricing", "process", "legal", "security", "ai", "reviews", "products", "team", "support", "general"],
      },
      tags: textList(40),
      updated: { type: "string", format: "date" },
    },
    ["question", "category"],
  ),
  tool: object(
    {
      title: text(80),
      summary: text(SUMMARY_MAX),
      status: { enum: ["available", "upcoming"] },
      url,
      expected: text(40),
    },
    ["title", "summary", "status"],
  ),
  advisor: object(
    {
      name: text(80),
      description: text(300),
      setupSteps: textList(400, 1),
    },
    ["name", "description", "setupSteps"],
  ),
  ticketRubric: object(
    {
      ...rubricLimits,
      readerReach: { type: "number", minimum: 0, maximum: 3, multipleOf: 0.5 },
      types: object(
        Object.fromEntries(
          ["bug", "feature", "question", "task"].map((type) => [
            type,
            object(
              {
                description: text(200),
                signals: textList(60, 1),
                criteria: {
                  type: "array",
                  minItems: 1,
                  items: object({ ...criterionProperties, template: text(400) }, [...criterionRequired, "template"]),
                },
              },
              ["signals", "criteria"],
            ),
          ]),
        ),
        ["bug", "feature", "question", "task"],
      ),
    },
    ["threshold", "types"],
  ),
  quoteRubric: object(
    {
      ...rubricLimits,
      // The pass rule: every required criterion met, and at least this many of the others that weigh.
      minOptional: { type: "integer", minimum: 0, maximum: 50 },
      criteria: {
        type: "array",
        minItems: 1,
        items: object({ ...criterionProperties, clause: text(600), services: slugList }, [
          ...criterionRequired,
          "clause",
        ]),
      },
    },
    ["threshold", "criteria"],
  ),
  concepts: object(
    {
      concepts: {
        type: "array",
        items: object(
          {
            id: slug,
            // What visitors say, in their own words: any of these phrases found in a problem
            // (each word may list alternatives, "agency|freelancer vanished|disappeared")...
            when: textList(400, 1),
            // ...is also searched as these words of the catalog.
            means: text(200),
          },
          ["id", "when", "means"],
        ),
      },
    },
    ["concepts"],
  ),
} satisfies Record<string, Schema>;

export type SchemaName = keyof typeof schemas;

/** File names of the published schemas, referenced from the YAML files' modelines. */
export const publishedSchemaFiles: Record<SchemaName, string> = {
  company: "company.schema.json",
  service: "service.schema.json",
  technique: "technique.schema.json",
  product: "product.schema.json",
  faq: "faq.schema.json",
  tool: "tool.schema.json",
  advisor: "advisor.schema.json",
  ticketRubric: "ticket-rubric.schema.json",
  quoteRubric: "quote-rubric.schema.json",
  concepts: "concepts.schema.json",
};
