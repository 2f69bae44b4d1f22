import { API_VERSION, LIMITS, operations, type Operation } from "../src/api/operations.js";
import type { JsonSchema } from "../src/api/schema.js";

/**
 * Compiles the operation table into an OpenAPI 3.1.0 document. `servers` is left to the runtime,
 * which knows its public address (PUBLIC_BASE_URL); everything else is fixed at build time.
 */
export interface OpenApiInfo {
  title: string;
  description: string;
  contactName: string;
  contactEmail?: string;
  website?: string;
  license?: { name: string; url: string };
}

const ERROR_TEXT: Record<number, string> = {
  400: "Validation error: error.details names each field and what to send instead.",
  404: "Not found: error.message says where to find valid ids.",
  413: "Body larger than 64 KiB.",
  415: "Content-Type must be application/json.",
  422: "This Idempotency-Key was used with a different body.",
  429: "Too many requests, or the free review allowance is used: error.code says which and what to do.",
  500: "Internal error: retry later.",
  503: "storage_unavailable: the store cannot save right now (disk full or failing, database unreachable or read-only); nothing was saved. Retry after Retry-After seconds, with the same Idempotency-Key.",
};

const TAGS: Record<string, string> = {
  Discovery: "What this API and the company offer, in one call.",
  Catalog: "Services and the development techniques and stack.",
  Products: "The products alpha, beta and alpha-secure.",
  Recommendation: "Services and products ranked for a problem in plain words.",
  FAQ: "Answers with citations.",
  Quotes: "Quote reviews and new quote requests.",
  Tickets: "Ticket reviews and the free-review allowance.",
  "Tools Lab": "Tools Lab tools and the waitlist.",
  Leads: "Hand-over of a lead from a conversation.",
  GPT: "Set-up data for a custom GPT.",
  Meta: "Contact details and this OpenAPI document.",
};

const envelopeProperties = {
  success: { type: "boolean" },
  apiVersion: { type: "string", const: API_VERSION },
  timestamp: { type: "string", format: "date-time" },
  type: { type: "string" },
};

const components = {
  schemas: {
    Error: {
      type: "object",
      required: ["success", "apiVersion", "timestamp", "error"],
      properties: {
        ...envelopeProperties,
        success: { type: "boolean", const: false },
        error: {
          type: "object",
          required: ["code", "message"],
          properties: {
            code: { type: "string", description: "validation_error, not_found, payload_too_large, unsupported_media_type, free_limit_reached, rate_limited, idempotency_conflict, bad_request, headers_too_large, timeout, internal_error, storage_unavailable" },
            message: { type: "string" },
            details: { type: "array", items: { type: "object", properties: { path: { type: "string" }, message: { type: "string" } } } },
          },
        },
      },
    },
  },
  responses: Object.fromEntries(
    Object.entries(ERROR_TEXT).map(([status, description]) => [
      `E${status}`,
      { description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
    ]),
  ),
};

function parameters(op: Operation): JsonSchema[] {
  const list: JsonSchema[] = [];
  for (const [where, schema] of [["path", op.params], ["query", op.query]] as const) {
    const props = (schema?.properties ?? {}) as Record<string, JsonSchema>;
    const required = (schema?.required ?? []) as string[];
    for (const [name, prop] of Object.entries(props)) {
      const { description, ...rest } = prop;
      list.push({ name, in: where, required: where === "path" || required.includes(name), description, schema: rest });
    }
  }
  if (op.method === "POST") {
    list.push({
      name: "Idempotency-Key", in: "header", required: false,
      description: "Optional. A retry with the same key returns the first answer and stores nothing twice (kept 24 h).",
      schema: { type: "string", maxLength: 255 },
    });
  }
  return list;
}

function operationObject(op: Operation): JsonSchema {
  const success = op.raw
    ? { description: "The document itself.", content: { "application/json": { schema: op.data } } }
    : {
        description: "Success.",
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["success", "apiVersion", "timestamp", "data"],
              properties: { ...envelopeProperties, ...(op.type ? { type: { type: "string", const: op.type } } : {}), data: op.data },
            },
          },
        },
      };
  const errors = [...new Set([...op.errors, ...(op.method === "POST" ? [413, 415, 422, 429, 503] : [429]), 500])].sort();
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: op.description,
    tags: [op.tag],
    ...(parameters(op).length ? { parameters: parameters(op) } : {}),
    ...(op.body
      ? { requestBody: { required: true, content: { "application/json": { schema: op.body, ...(op.example ? { example: op.example } : {}) } } } }
      : {}),
    responses: {
      "200": success,
      ...Object.fromEntries(errors.map((s) => [String(s), { $ref: `#/components/responses/E${s}` }])),
    },
    ...(op.method === "POST" ? { "x-openai-isConsequential": op.consequential ?? true } : {}),
  };
}

export function compileOpenApi(info: OpenApiInfo): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of operations) (paths[op.path] ??= {})[op.method.toLowerCase()] = operationObject(op);
  return {
    openapi: "3.1.0",
    info: {
      title: info.title,
      version: API_VERSION,
      description: info.description,
      contact: { name: info.contactName, ...(info.contactEmail ? { email: info.contactEmail } : {}), ...(info.website ? { url: info.website } : {}) },
      ...(info.license ? { license: info.license } : {}),
    },
    tags: [...new Set(operations.map((o) => o.tag))].map((name) => ({ name, description: TAGS[name] ?? name })),
    // No authentication on any operation (GPT set-up: Authentication None).
    security: [],
    paths,
    components,
    "x-limits": { bodyBytes: LIMITS.bodyBytes, freeTicketReviews: LIMITS.freeTicketReviews },
  };
}
