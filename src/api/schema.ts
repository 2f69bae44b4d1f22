/**
 * Small JSON Schema builders shared by the operation table. Plain objects: fastify validates
 * with them, and the build copies them into openapi.json.
 */
export type JsonSchema = Record<string, unknown>;

export const str = (maxLength: number, description?: string, extra: JsonSchema = {}): JsonSchema => ({
  type: "string",
  maxLength,
  ...(description ? { description } : {}),
  ...extra,
});

/** A required text: at least one non-blank character. */
export const requiredText = (maxLength: number, description: string): JsonSchema =>
  str(maxLength, description, { minLength: 1, pattern: "\\S" });

export const email = (description = "Contact e-mail address."): JsonSchema =>
  str(254, description, { format: "email" });

export const obj = (properties: Record<string, JsonSchema>, required: string[] = [], extra: JsonSchema = {}): JsonSchema => ({
  type: "object",
  properties,
  ...(required.length ? { required } : {}),
  ...extra,
});

/**
 * A request body: exactly these fields. A field the API does not know is refused with 400 naming
 * it and the closest known one: a client that misspells a field must not lose what it sent.
 */
export const body = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema =>
  obj(properties, required, { additionalProperties: false });

/**
 * An object whose properties are all present in every answer but the optional ones named: the
 * served document promises them, and the tests that validate answers against it hold us to it.
 */
export const always = (properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema =>
  obj(properties, Object.keys(properties).filter((name) => !optional.includes(name)));

export const arr = (items: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({ type: "array", items, ...extra });

export const num: JsonSchema = { type: "number" };
export const int: JsonSchema = { type: "integer" };
export const bool: JsonSchema = { type: "boolean" };
export const text: JsonSchema = { type: "string" };
export const texts: JsonSchema = arr(text);
