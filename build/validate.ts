import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { Diagnostic } from "./diagnostics.js";
import { explain, pointerToPath, relevantErrors } from "../src/validation/explain.js";
import { schemas, type SchemaName } from "./schemas.js";
import type { SourceFile } from "./source.js";

/**
 * Schema validation of every file's fields, with messages written for the marketing editors who
 * make the changes: the field, the rule, the value they wrote and, for typos, the likely fix.
 */
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

let compiled: Record<SchemaName, ValidateFunction> | undefined;
function validators(): Record<SchemaName, ValidateFunction> {
  if (!compiled) {
    const ajv = addFormats(new Ajv({ allErrors: true, strict: true, verbose: true }));
    compiled = Object.fromEntries(
      Object.entries(schemas).map(([name, schema]) => [name, ajv.compile(schema)]),
    ) as Record<SchemaName, ValidateFunction>;
  }
  return compiled;
}

/** Files made by `frontdesk new` carry this placeholder where the description goes. */
export const TODO_MARKER = "<!-- TODO:";

export function validateFile(file: SourceFile): Diagnostic[] {
  const placeholder: Diagnostic[] = file.body.includes(TODO_MARKER)
    ? [{ file: file.file, line: file.bodyLine, column: 1, severity: "error", message: "the text below the closing --- is still the placeholder: replace it with your own" }]
    : [];
  return [...placeholder, ...fieldErrors(file)];
}

function fieldErrors(file: SourceFile): Diagnostic[] {
  const validate = validators()[file.kind];
  if (validate(file.data)) return [];
  const errors = relevantErrors(validate.errors ?? []);
  return errors.map((error) => {
    const path = pointerToPath(error.instancePath);
    const extra = error.keyword === "additionalProperties" ? (error.params as { additionalProperty: string }).additionalProperty : undefined;
    const where = file.locate(extra === undefined ? path : [...path, extra], extra === undefined ? "value" : "key");
    return { file: file.file, ...where, severity: "error" as const, message: explain(error, path, file.data, "the file") };
  });
}
