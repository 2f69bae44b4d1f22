import { closest, distance } from "fastest-levenshtein";
import { OPENAPI_URL_PLACEHOLDER } from "../src/catalog/types.js";
import type { Diagnostic } from "./diagnostics.js";
import { operations } from "../src/api/operations.js";
import type { SchemaName } from "./schemas.js";
import type { SourceFile } from "./source.js";

import { fieldName, type PathSegment } from "../src/validation/explain.js";

/**
 * Rules that span files or that JSON Schema cannot say: references to other items, ids that must
 * be unique, rubric weights, and the limits of a custom GPT's set-up.
 */
export const PRODUCT_IDS = ["alpha", "beta", "alpha-secure"] as const;
/** ChatGPT refuses GPT instructions longer than this. */
export const SYSTEM_PROMPT_MAX = 8000;
const RUBRIC_TOTAL = 10;

type Report = (file: SourceFile, path: readonly PathSegment[], message: string, severity?: Diagnostic["severity"]) => void;

/**
 * `files` are the files that passed schema validation; `known` names every item, valid or not,
 * so a reference to an item with a mistake of its own is not reported a second time.
 */
/** The advisor actions whose name (fixed by the spec) is not their operationId, by that name. */
const ACTION_NAMES = Object.fromEntries(operations.filter((o) => o.action && o.action.name !== o.operationId).map((o) => [o.action!.name, o.operationId]));

export function crossCheck(files: SourceFile[], contentLabel: string, known: { kind: SchemaName; id: string }[] = files): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const report: Report = (file, path, message, severity = "error") =>
    diagnostics.push({ file: file.file, ...file.locate(path), severity, message });
  const of = (kind: SchemaName) => files.filter((f) => f.kind === kind);
  const ids = (kind: SchemaName) => known.filter((f) => f.kind === kind).map((f) => f.id);

  const references: { from: SchemaName; list: (data: Record<string, unknown>) => [PathSegment[], unknown][]; to: SchemaName; folder: string }[] = [
    { from: "service", list: (d) => listAt(d, ["techniques"]), to: "technique", folder: "techniques" },
    { from: "service", list: (d) => listAt(d, ["products"]), to: "product", folder: "products" },
    { from: "product", list: (d) => listAt(d, ["services"]), to: "service", folder: "services" },
    {
      from: "quoteRubric",
      list: (d) => (Array.isArray(d.criteria) ? d.criteria.flatMap((c, i) => listAt(c as Record<string, unknown>, ["services"], ["criteria", i])) : []),
      to: "service",
      folder: "services",
    },
  ];
  for (const ref of references) {
    const targets = ids(ref.to);
    for (const file of of(ref.from)) {
      for (const [path, value] of ref.list(record(file.data))) {
        if (typeof value !== "string" || targets.includes(value)) continue;
        const near = targets.length ? closest(value, targets) : undefined;
        const hint = near && distance(value, near) <= 3 ? `did you mean "${near}"?` : `known ids are the file names in ${contentLabel}/${ref.folder}/`;
        report(file, path, `${fieldName(path)} names "${value}", but there is no ${ref.to} with that id: ${hint}`);
      }
    }
  }

  // Recommendations rank services and products together, so an id must name one thing only.
  const products = new Set(ids("product"));
  for (const service of of("service")) {
    if (products.has(service.id)) report(service, [], `id "${service.id}" is also a product id: rename one of the two files`);
  }
  for (const product of of("product")) {
    if (!(PRODUCT_IDS as readonly string[]).includes(product.id)) {
      report(product, [], `the API serves exactly the products ${PRODUCT_IDS.join(", ")}: rename or remove "${product.id}"`);
    }
  }
  for (const id of PRODUCT_IDS) {
    if (!products.has(id)) {
      diagnostics.push({ file: `${contentLabel}/products/${id}.md`, line: 1, column: 1, severity: "error", message: `required product "${id}" is missing: create this file` });
    }
  }

  const questions = new Map<string, SourceFile>();
  for (const faq of of("faq")) {
    const question = record(faq.data).question;
    if (typeof question === "string") {
      const key = question.trim().toLowerCase();
      const first = questions.get(key);
      if (first) report(faq, ["question"], `the same question is already answered in ${first.file}: merge the two answers`);
      else questions.set(key, faq);
    }
    if (faq.body.trim() === "") report(faq, [], "the answer is missing: write it below the closing ---");
  }
  for (const kind of ["service", "technique", "product", "tool"] as const) {
    for (const file of of(kind)) if (file.body.trim() === "") report(file, [], `no description: write one below the closing ---`, "warning");
  }

  for (const tool of of("tool")) {
    const data = record(tool.data);
    if (data.status === "available" && data.url === undefined) report(tool, ["status"], `an available tool needs a "url" where people can use it: add one, or set status to upcoming`);
  }

  for (const advisor of of("advisor")) {
    const data = record(advisor.data);
    if (advisor.body.length > SYSTEM_PROMPT_MAX) {
      diagnostics.push({ file: advisor.file, line: advisor.bodyLine, column: 1, severity: "error", message: `the system prompt is ${advisor.body.length} characters long; ChatGPT accepts at most ${SYSTEM_PROMPT_MAX}: shorten it` });
    }
    if (advisor.body.trim() === "") report(advisor, [], "the system prompt is missing: write it below the closing ---");
    else if (!/requestedBy/.test(advisor.body)) report(advisor, [], `the system prompt must tell the GPT to send leads with requestedBy set to "gpt"`);
    const steps = Array.isArray(data.setupSteps) ? data.setupSteps : [];
    if (!steps.some((s) => typeof s === "string" && s.includes(OPENAPI_URL_PLACEHOLDER))) {
      report(advisor, ["setupSteps"], `one set-up step must say where to import the OpenAPI document: write ${OPENAPI_URL_PLACEHOLDER}, which is replaced by its address`);
    }
    // A GPT and an MCP client see the operations by operationId; an action's other name (the
    // spec's faqSearch for searchFaq) named in the prompt or the steps is one they cannot find.
    const wrongName = (text: string) => Object.entries(ACTION_NAMES).filter(([name]) => new RegExp(`\\b${name}\\b`).test(text));
    for (const [name, operationId] of wrongName(advisor.body)) report(advisor, [], `the system prompt names the action ${name}, which a GPT sees as ${operationId}: write ${operationId}`);
    steps.forEach((step, i) => {
      if (typeof step === "string") for (const [name, operationId] of wrongName(step)) report(advisor, ["setupSteps", i], `this step names the action ${name}, which a GPT sees as ${operationId}: write ${operationId}`);
    });
  }

  for (const rubric of of("ticketRubric")) {
    const types = record(record(rubric.data).types);
    for (const [type, spec] of Object.entries(types)) checkCriteria(rubric, record(spec).criteria, ["types", type, "criteria"], report);
  }
  for (const rubric of of("quoteRubric")) checkCriteria(rubric, record(rubric.data).criteria, ["criteria"], report);
  return diagnostics;
}

function checkCriteria(file: SourceFile, criteria: unknown, path: PathSegment[], report: Report): void {
  if (!Array.isArray(criteria)) return;
  const total = criteria.reduce<number>((sum, c) => sum + (typeof record(c).weight === "number" ? (record(c).weight as number) : 0), 0);
  if (Math.abs(total - RUBRIC_TOTAL) > 1e-9) {
    report(file, path, `${fieldName(path)}: the weights add up to ${total}; they must add up to ${RUBRIC_TOTAL} so the score is out of 10`);
  }
  const seen = new Set<unknown>();
  criteria.forEach((c, i) => {
    const id = record(c).id;
    if (seen.has(id)) report(file, [...path, i, "id"], `criterion id "${String(id)}" is used twice in ${fieldName(path)}: give each criterion its own id`);
    seen.add(id);
    // `alongside` picks from the criterion's own evidence: a kind it does not look for is never found.
    const evidence = Array.isArray(record(c).evidence) ? (record(c).evidence as unknown[]) : [];
    const alongside = Array.isArray(record(c).alongside) ? (record(c).alongside as unknown[]) : [];
    alongside.forEach((kind, k) => {
      if (!evidence.includes(kind)) report(file, [...path, i, "alongside", k], `"${String(kind)}" is not in this criterion's evidence: add it to evidence, or remove it from alongside`);
    });
  });
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function listAt(data: Record<string, unknown>, key: [string], prefix: PathSegment[] = []): [PathSegment[], unknown][] {
  const list = data[key[0]];
  return Array.isArray(list) ? list.map((value, i) => [[...prefix, key[0], i], value]) : [];
}
