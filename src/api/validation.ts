import type { ErrorObject } from "ajv";
import type { FastifyRequest } from "fastify";
import { explain, fieldName, pointerToPath, relevantErrors } from "../validation/explain.js";
import type { ErrorDetail } from "./envelope.js";
import { LIMITS } from "./operations.js";

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
    // The field itself, not the object that lacks or has it.
    const params = error.params as { missingProperty?: string; additionalProperty?: string };
    const missing = [params.missingProperty ?? params.additionalProperty].filter((key): key is string => key !== undefined);
    const field = fieldName([...path, ...missing]);
    const message = error.keyword === "required"
      ? `${field} is required: send it in the ${where.name}`
      : explain(error, path, data, where.name);
    return { path: field ? `${where.name}.${field}` : where.name, message };
  });
}

/**
 * What no text field may hold, checked before the schema for every store alike: a NUL character
 * (never meaningful, and PostgreSQL cannot store one) and a lone UTF-16 surrogate (not text at
 * all: PostgreSQL refuses it, a JSON file would keep it). A body nested deeper than the API's
 * deepest field is refused too, so nothing that input can drive recurses. Iterative on purpose.
 */
const LONE_SURROGATE = /\p{Cs}/u; // with the u flag, a surrogate pair is one code point and never matches

export function textDetails(body: unknown): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: body, path: "body", depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    const field = path.replace(/^body\.?/, "") || "body";
    if (typeof value === "string") {
      if (value.includes("\u0000")) details.push({ path, message: `${field} contains a NUL character (\\u0000): remove it` });
      if (LONE_SURROGATE.test(value)) details.push({ path, message: `${field} contains a lone UTF-16 surrogate (such as \\ud800), which is not text: send valid Unicode` });
    } else if (value !== null && typeof value === "object") {
      if (depth === LIMITS.bodyDepth) {
        return [{ path, message: `the body is nested more than ${LIMITS.bodyDepth} levels deep: no field of this API nests that deep, send the documented fields` }];
      }
      const entries = Array.isArray(value) ? value.map((item, i) => [`${path}[${i}]`, item] as const) : Object.entries(value).map(([key, item]) => [`${path}.${key}`, item] as const);
      for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i]![1], path: entries[i]![0], depth: depth + 1 });
    }
  }
  return details;
}
