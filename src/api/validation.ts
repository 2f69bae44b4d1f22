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
