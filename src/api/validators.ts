import { createRequire } from "node:module";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import type { FastifySchemaCompiler, FastifyServerOptions } from "fastify";

/**
 * Fastify's validator compiler (ajv with fastify's own options and ajv-formats), made lazy: ajv
 * is loaded, and a route's schema compiled, when a request first needs it (or when `compileAll`
 * runs after the server listens). Done before listening, that work was a quarter of the cold start.
 * The options differ from fastify's defaults: every error is reported, so one answer names every
 * field to fix (the body limit and each field's maxLength bound the work), unknown properties are
 * never silently removed (bodies refuse them), and bodies are not coerced (see ajv below). Route
 * schemas are self-contained (no $id, no app.addSchema), so no shared schemas are handed over.
 */
const load = createRequire(import.meta.url);

let forBodies: Ajv | undefined;
let forUrls: Ajv | undefined;
let answers: Ajv | undefined;

function newAjv(options: import("ajv").Options): Ajv {
  const { Ajv: AjvClass } = load("ajv") as typeof import("ajv");
  const addFormats = load("ajv-formats") as typeof import("ajv-formats").default;
  return addFormats(new AjvClass(options));
}

/**
 * A JSON body is validated as it was sent: a number where the document says text is refused, as
 * a client generated from the document expects. A query string or path holds only text, so what
 * the document declares as a number there (limit) is read as one.
 */
function ajv(part: string): Ajv {
  const options = { allErrors: true, verbose: true, useDefaults: true, removeAdditional: false } as const;
  return part === "body" ? (forBodies ??= newAjv({ ...options, coerceTypes: false })) : (forUrls ??= newAjv({ ...options, coerceTypes: true }));
}

/** A validator that takes a value exactly as it is: no coercion, no defaults (MCP tool arguments). */
export function strictValidator(schema: object): ValidateFunction {
  return ajv("body").compile(schema);
}

/**
 * A validator for what the server sends, compiled once per schema: no coercion and no defaults,
 * so an answer is checked as it is, never changed.
 */
export function answerValidator(schema: object): ValidateFunction {
  return (answers ??= newAjv({ strict: false })).compile(schema);
}

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions["schemaController"]>["compilersFactory"]>;

export interface LazyValidators {
  /** For fastify's `schemaController.compilersFactory.buildValidator`. */
  factory: NonNullable<CompilersFactory["buildValidator"]>;
  /** Compiles every validator not compiled yet, one per turn of the event loop. */
  compileAll(): Promise<void>;
}

export function lazyValidators(): LazyValidators {
  const pending = new Set<() => ValidateFunction>();
  const compiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
    let compiled: ValidateFunction | undefined;
    const compile = () => {
      if (compiled === undefined) {
        compiled = ajv(httpPart ?? "body").compile(schema as object);
        pending.delete(compile);
      }
      return compiled;
    };
    pending.add(compile);
    // Fastify reads the errors from the function it was given.
    const validate = Object.assign(
      (data: unknown) => {
        const run = compile();
        const valid = run(data) as boolean;
        validate.errors = run.errors as ErrorObject[] | null | undefined;
        return valid;
      },
      { errors: null as ErrorObject[] | null | undefined },
    );
    return validate;
  };
  return {
    // Fastify's type describes its own ajv factory; at run time any schema compiler is accepted.
    factory: (() => compiler) as unknown as LazyValidators["factory"],
    compileAll: async () => {
      for (const compile of [...pending]) {
        await nextTurn();
        compile();
      }
    },
  };
}
