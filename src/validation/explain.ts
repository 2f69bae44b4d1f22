import type { ErrorObject } from "ajv";
import { closest, distance } from "fastest-levenshtein";

/**
 * Turns an ajv error into one sentence a person or an agent can act on: the field, the rule,
 * what was sent and, for near misses, the likely fix. Shared by the content build (editors) and
 * the runtime (API callers), so both speak the same language.
 */
export type PathSegment = string | number;

/** Quote a value the way it appeared, shortened so a long paragraph does not flood the report. */
export function show(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export function pointerToPath(pointer: string): PathSegment[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** One message per real mistake: ajv can report the same failure twice. */
export function relevantErrors(errors: ErrorObject[]): ErrorObject[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const key = `${e.instancePath}|${e.keyword}|${JSON.stringify(e.params)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    // A URL that fails its format also fails the "http(s)" pattern, and an empty text fails its
    // pattern too: one message is enough.
    return !(e.keyword === "pattern" && errors.some((o) => o.instancePath === e.instancePath && (o.keyword === "format" || o.keyword === "minLength")));
  });
}

export function fieldName(path: readonly PathSegment[]): string {
  return path.reduce<string>((out, seg) => (typeof seg === "number" ? `${out}[${seg}]` : out ? `${out}.${seg}` : seg), "");
}

function valueAt(data: unknown, path: readonly PathSegment[]): unknown {
  return path.reduce<unknown>((v, seg) => (v !== null && typeof v === "object" ? (v as Record<PathSegment, unknown>)[seg] : undefined), data);
}

function typeOf(value: unknown): string {
  if (value === null) return "nothing (an empty value)";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a group of fields";
  if (typeof value === "string") return `text ${show(value)}`;
  return `${typeof value} ${show(value)}`;
}

const TYPE_WORDS: Record<string, string> = {
  string: "text",
  number: "a number",
  integer: "a whole number",
  boolean: "true or false",
  array: "a list",
  object: "a group of fields",
};

const PATTERN_HINTS: Record<string, string> = {
  "^[a-z0-9]+(-[a-z0-9]+)*$": 'an id: lowercase words joined by hyphens, like "ai-agents"',
  "^[A-Z]{3}$": 'a three-letter currency code, like "EUR"',
  "\\?$": 'a question ending with "?"',
  "^https?://": "an address starting with https://",
  "^[a-zA-Z][a-zA-Z0-9]*$": 'a name made of letters and digits, like "quoteReview"',
  "\\S": "text that is not blank",
};

const FORMAT_HINTS: Record<string, string> = {
  email: 'an e-mail address, like "hello@example.com"',
  uri: 'a full address, like "https://example.com/page"',
  date: 'a date written YYYY-MM-DD, like "2026-03-01" (in quotes)',
};

export function explain(error: ErrorObject, path: PathSegment[], data: unknown, whole = "the document"): string {
  const field = fieldName(path) || whole;
  const value = valueAt(data, path);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required": {
      const missing = String(params.missingProperty);
      const want = describeField((error.parentSchema as { properties?: Record<string, FieldSchema> } | undefined)?.properties?.[missing]);
      return `${field === whole ? "" : `${field}: `}missing required field "${missing}": add it${want ? ` (${want})` : ""}`;
    }
    case "additionalProperties": {
      const key = String(params.additionalProperty);
      const allowed = Object.keys((error.parentSchema as { properties?: object }).properties ?? {});
      const near = nearestName(key, allowed);
      const hint = near ? `did you mean "${near}"?` : `allowed fields: ${allowed.join(", ")}`;
      return `unknown field "${fieldName([...path, key])}": ${hint}`;
    }
    case "type": {
      const want = String(params.type).split(",").map((t) => TYPE_WORDS[t] ?? t).join(" or ");
      return `${field} must be ${want} (got ${typeOf(value)})`;
    }
    case "enum": {
      const allowed = (params.allowedValues as unknown[]).map(String);
      const near = typeof value === "string" ? closest(value.toLowerCase(), allowed) : undefined;
      const hint = near && typeof value === "string" && distance(value.toLowerCase(), near) <= 3 ? `; did you mean "${near}"?` : "";
      return `${field} must be one of ${allowed.join(", ")} (got ${show(value)})${hint}`;
    }
    case "maxLength":
      return `${field} is ${String(value).length} characters long; the limit is ${String(params.limit)}: shorten it`;
    case "minLength":
      return `${field} is empty: write some text or remove the field`;
    case "pattern":
      return `${field} must be ${PATTERN_HINTS[String(params.pattern)] ?? `text matching ${String(params.pattern)}`} (got ${show(value)})`;
    case "format":
      return `${field} must be ${FORMAT_HINTS[String(params.format)] ?? `a valid ${String(params.format)}`} (got ${show(value)})`;
    case "minItems":
      return `${field} needs at least ${String(params.limit)} item${params.limit === 1 ? "" : "s"}`;
    case "maxItems":
      return `${field} may have at most ${String(params.limit)} items`;
    case "uniqueItems":
      return `${field} lists the same entry twice (items ${String(params.j)} and ${String(params.i)}): remove one`;
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return `${field} must be ${describeBound(error.keyword, params.limit)} (got ${show(value)})`;
    case "multipleOf":
      return `${field} must be a multiple of ${String(params.multipleOf)} (got ${show(value)})`;
    default:
      return `${field} ${error.message ?? "is invalid"}`;
  }
}

interface FieldSchema {
  type?: string | string[];
  enum?: unknown[];
  pattern?: string;
}

/** What a missing field should hold, so the fix can be written without opening the schema. */
function describeField(schema: FieldSchema | undefined): string | undefined {
  if (schema?.enum) return `one of ${schema.enum.map(String).join(", ")}`;
  if (schema?.pattern && PATTERN_HINTS[schema.pattern]) return PATTERN_HINTS[schema.pattern];
  const types = [schema?.type ?? []].flat();
  return types.length ? types.map((t) => TYPE_WORDS[t] ?? t).join(" or ") : undefined;
}

/**
 * The known name a misspelt or shortened one most likely meant: a few letters off ("sumary"), or
 * one holding the other ("tools" for "toolsInterested"); undefined when none is close.
 */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const holding = known.filter((k) => k.toLowerCase().includes(lower) || lower.includes(k.toLowerCase()));
  if (lower.length >= 3 && holding.length > 0) return closest(name, holding);
  const near = known.length ? closest(name, known) : undefined;
  return near && distance(lower, near.toLowerCase()) <= Math.max(2, Math.floor(near.length / 3)) ? near : undefined;
}

function describeBound(keyword: string, limit: unknown): string {
  const words: Record<string, string> = {
    minimum: "at least",
    maximum: "at most",
    exclusiveMinimum: "more than",
    exclusiveMaximum: "less than",
  };
  return `${words[keyword]} ${String(limit)}`;
}
