import type { ErrorObject } from "ajv";
import type { FastifyRequest } from "fastify";
import { explain, fieldName, pointerToPath, relevantErrors } from "../validation/explain.js";
import type { ErrorDetail } from "./envelope.js";

/**
 * Maps fastify's schema failures to the error details an agent can act on: one entry per field,
 * every field at once, each saying the rule and what to send instead.
 */
const WHERE: Record<string, { name: string; read: (r: FastifyRequest) => unknown }> = {
  body: { name: "body", read: (r) => r.body },
  querystring: { name: "query", read: (r) => r.query },
  params: { name: "path", read: (r) => r.params },
  headers: { name: "header", read: (r) => r.headers },
};

export function validationDetails(errors: readonly unknown[], context: string, request: FastifyRequest): ErrorDetail[] {
  const where = WHERE[context] ?? WHERE.body!;
  const data = where.read(request);
  return relevantErrors(errors as ErrorObject[]).map((error) => {
    const path = pointerToPath(error.instancePath);
    const missing = error.keyword === "required" ? [String((error.params as { missingProperty: string }).missingProperty)] : [];
    const field = fieldName([...path, ...missing]);
    const message = error.keyword === "required"
      ? `${field} is required: send it in the ${where.name}`
      : explain(error, path, data, where.name);
    return { path: field ? `${where.name}.${field}` : where.name, message };
  });
}

/**
 * A NUL character is never meaningful in a text and PostgreSQL cannot store one: it is refused
 * up front, naming the field, for every store alike.
 */
export function nulCharacterDetails(value: unknown, path = "body"): ErrorDetail[] {
  if (typeof value === "string") return value.includes("\u0000") ? [{ path, message: `${path.replace(/^body\.?/, "") || "body"} contains a NUL character (\\u0000): remove it` }] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => nulCharacterDetails(item, `${path}[${i}]`));
  if (value !== null && typeof value === "object") return Object.entries(value).flatMap(([key, item]) => nulCharacterDetails(item, `${path}.${key}`));
  return [];
}

/**
 * A lone UTF-16 surrogate (half of a pair, which JSON's \ud800 escapes can carry) is not Unicode
 * text: PostgreSQL cannot store it, and no reader could show it. Both stores get the same answer:
 * 400 naming the field. Write bodies are flat (texts and lists of texts; their schemas say so).
 */
export function loneSurrogateDetails(body: Record<string, unknown>): ErrorDetail[] {
  return Object.entries(body).flatMap(([field, value]) => {
    const texts = Array.isArray(value) ? value : [value];
    return texts.some((text) => typeof text === "string" && LONE_SURROGATE.test(text))
      ? [{ path: `body.${field}`, message: `${field} contains a lone UTF-16 surrogate (such as \\ud800), which is not text: send valid Unicode (a character outside the Basic Multilingual Plane needs both halves of its pair)` }]
      : [];
  });
}

const LONE_SURROGATE = /\p{Cs}/u;
