import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../build/diagnostics.js";
import { checkContent } from "../build/pipeline.js";
import { contentTree, MINIMAL_CONTENT } from "./helpers/content.js";

/** Each rule, proven on a broken copy of the minimal content: file, line, column and message. */
async function report(changes: Record<string, string | null>): Promise<string[]> {
  const dir = await contentTree(changes);
  const result = await checkContent(dir, "content");
  return result.diagnostics.map((d) => formatDiagnostic(d, "text"));
}

const service = (front: string, body = "Body text.") => `---\n${front}\n---\n${body}\n`;
const VALID_SERVICE = `title: Web Apps
summary: We build web applications.
category: engineering
problems:
  - "our website is slow"
deliverables:
  - A web application
pricing:
  model: fixed
  from: 10000
  currency: EUR`;

describe("content validation", () => {
  it("accepts the minimal content with no findings", async () => {
    const result = await checkContent(MINIMAL_CONTENT, "content");
    expect(result.diagnostics).toEqual([]);
  });

  it("reports a wrong type at the value, showing it", async () => {
    const lines = await report({ "services/web-apps.md": service(VALID_SERVICE.replace("from: 10000", 'from: "abc"')) });
    expect(lines).toEqual(['content/services/web-apps.md:11:9 pricing.from must be a number (got text "abc")']);
  });

  it("reports an unknown key at the key, with a did-you-mean for a near miss", async () => {
    const lines = await report({ "services/web-apps.md": service(`${VALID_SERVICE}\nsumary: typo`) });
    expect(lines).toEqual(['content/services/web-apps.md:13:1 unknown field "sumary": did you mean "summary"?']);
  });

  it("lists the allowed fields when an unknown key is nothing like them", async () => {
    const lines = await report({ "services/web-apps.md": service(`${VALID_SERVICE}\nzzz: 1`) });
    expect(lines[0]).toMatch(/^content\/services\/web-apps\.md:13:1 unknown field "zzz": allowed fields: title, summary, category/);
  });

  it("reports a missing required field at the object that lacks it", async () => {
    const lines = await report({ "services/web-apps.md": service(VALID_SERVICE.replace("  currency: EUR", "")) });
    expect(lines).toEqual(['content/services/web-apps.md:10:3 pricing: missing required field "currency": add it (a three-letter currency code, like "EUR")']);
  });

  it("reports an enum mistake with the allowed values and a suggestion", async () => {
    const lines = await report({ "services/web-apps.md": service(VALID_SERVICE.replace("category: engineering", "category: Enginering")) });
    expect(lines).toEqual([
      'content/services/web-apps.md:4:11 category must be one of engineering, ai, platform, security, design, data, advisory, support (got "Enginering"); did you mean "engineering"?',
    ]);
  });

  it("reports text over the GPT length limit with its length", async () => {
    const long = "x".repeat(300);
    const lines = await report({ "services/web-apps.md": service(VALID_SERVICE.replace("summary: We build web applications.", `summary: ${long}`)) });
    expect(lines).toEqual(["content/services/web-apps.md:3:10 summary is 300 characters long; the limit is 280: shorten it"]);
  });

  it("reports broken YAML at its own line", async () => {
    const lines = await report({ "services/web-apps.md": service(VALID_SERVICE.replace("summary: We build", "summary: We: build")) });
    expect(lines).toEqual(["content/services/web-apps.md:3:10 YAML syntax error: Nested mappings are not allowed in compact mappings"]);
  });

  it("names the line where an unclosed list, map or quote opened, and what closes it", async () => {
    const unclosed = async (from: string, to: string) => report({ "services/web-apps.md": service(`${VALID_SERVICE.replace(from, to)}\ntags: [web]`) });
    expect(await unclosed("category: engineering", "category: engineering\ntags2: [web, api")).toEqual([
      'content/services/web-apps.md:5:8 "[" opens a list here that is never closed: add "]" after its last item',
    ]);
    expect(await unclosed("  model: fixed", "  model: {kind: fixed")).toEqual([
      'content/services/web-apps.md:10:10 "{" opens a group of fields here that is never closed: add "}" after its last field',
    ]);
    expect(await unclosed("summary: We build web applications.", 'summary: "We build web applications.')).toEqual([
      'content/services/web-apps.md:3:10 this " opens a quoted text that is never closed: add " at the end of the text',
    ]);
  });

  it("lists the allowed values of a missing field", async () => {
    const lines = await report({ "services/web-apps.md": service(VALID_SERVICE.replace("category: engineering\n", "")) });
    expect(lines).toEqual([
      'content/services/web-apps.md:2:1 missing required field "category": add it (one of engineering, ai, platform, security, design, data, advisory, support)',
    ]);
  });

  it("refuses executable front matter", async () => {
    const lines = await report({ "services/web-apps.md": "---js\n{ title: 'x' }\n---\nbody\n" });
    expect(lines).toEqual([
      'content/services/web-apps.md:1:1 front matter must be YAML: "---js" selects another engine (JavaScript front matter would run code at build time); start the file with a plain "---" line',
    ]);
  });

  it("reports a file name that is not a slug, with the fix", async () => {
    const lines = await report({ "services/Web Apps.md": service(VALID_SERVICE) });
    expect(lines).toEqual(['content/services/Web Apps.md:1:1 file name "Web Apps" is not a valid id: use lowercase words joined by hyphens, e.g. rename it to "web-apps.md"']);
  });

  it("reports references to unknown slugs inside lists", async () => {
    const lines = await report({ "services/web-apps.md": service(`${VALID_SERVICE}\ntechniques: [typescript, typscript]`) });
    expect(lines).toEqual(['content/services/web-apps.md:13:26 techniques[1] names "typscript", but there is no technique with that id: did you mean "typescript"?']);
  });

  it("reports an id used by a service and a product", async () => {
    const lines = await report({ "services/alpha.md": service(VALID_SERVICE) });
    expect(lines).toContain('content/services/alpha.md:2:1 id "alpha" is also a product id: rename one of the two files');
  });

  it("reports a missing required product and an unexpected one", async () => {
    const gamma = await readFile(join(MINIMAL_CONTENT, "products/beta.md"), "utf8");
    const lines = await report({ "products/beta.md": null, "products/gamma.md": gamma });
    expect(lines).toEqual([
      'content/products/beta.md:1:1 required product "beta" is missing: create this file',
      'content/products/gamma.md:2:1 the API serves exactly the products alpha, beta, alpha-secure: rename or remove "gamma"',
    ]);
  });

  it("reports rubric weights that do not sum to 10", async () => {
    const rubric = await readFile(join(MINIMAL_CONTENT, "rubrics/quote.yaml"), "utf8");
    const lines = await report({ "rubrics/quote.yaml": rubric.replace("weight: 5", "weight: 4") });
    expect(lines).toEqual(["content/rubrics/quote.yaml:5:3 criteria: the weights add up to 9; they must add up to 10 so the score is out of 10"]);
  });

  it("reports a 'testable' that is not true or false", async () => {
    const rubric = await readFile(join(MINIMAL_CONTENT, "rubrics/quote.yaml"), "utf8");
    const lines = await report({ "rubrics/quote.yaml": rubric.replace("evidence: [amount]", "evidence: [amount]\n    testable: yes please") });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^content\/rubrics\/quote\.yaml:17:\d+ .*testable.*(true|false|boolean)/);
  });

  it("reports an 'alongside' fact a criterion does not look for", async () => {
    const rubric = await readFile(join(MINIMAL_CONTENT, "rubrics/quote.yaml"), "utf8");
    const lines = await report({ "rubrics/quote.yaml": rubric.replace("evidence: [amount]", "evidence: [amount]\n    alongside: [date]") });
    expect(lines).toEqual(['content/rubrics/quote.yaml:17:17 "date" is not in this criterion\'s evidence: add it to evidence, or remove it from alongside']);
  });

  it("reports a FAQ question without a question mark, and a bad date", async () => {
    const lines = await report({ "faq/what-do-you-cost.md": '---\nquestion: What do you cost\ncategory: pricing\nupdated: "2nd of May"\n---\nAnswer.\n' });
    expect(lines).toEqual([
      'content/faq/what-do-you-cost.md:2:11 question must be a question ending with "?" (got "What do you cost")',
      'content/faq/what-do-you-cost.md:4:10 updated must be a date written YYYY-MM-DD, like "2026-03-01" (in quotes) (got "2nd of May")',
    ]);
  });

  it("reports a duplicate FAQ question and an empty answer", async () => {
    const lines = await report({ "faq/how-much.md": "---\nquestion: what do you cost?\ncategory: pricing\n---\n" });
    expect(lines).toEqual([
      "content/faq/how-much.md:2:1 the answer is missing: write it below the closing ---",
      "content/faq/what-do-you-cost.md:2:11 the same question is already answered in content/faq/how-much.md: merge the two answers",
    ]);
  });

  it("reports a content file in a place no kind lives", async () => {
    const lines = await report({ "service/web.md": service(VALID_SERVICE) });
    expect(lines[0]).toMatch(/^content\/service\/web\.md:1:1 this file is not part of any content kind; content files live at company\.yaml, services\/<slug>\.md/);
  });

  it("requires a url for available tools and requestedBy in the system prompt", async () => {
    const lines = await report({
      "tools/quote-reviewer.md": "---\ntitle: Q\nsummary: S.\nstatus: available\n---\nBody.\n",
      "gpt/advisor.md": '---\nname: A\ndescription: D.\nsetupSteps:\n  - "Import {{openapiUrl}}"\n---\nYou help visitors.\n',
    });
    expect(lines).toEqual([
      'content/gpt/advisor.md:2:1 the system prompt must tell the GPT to send leads with requestedBy set to "gpt"',
      'content/tools/quote-reviewer.md:4:9 an available tool needs a "url" where people can use it: add one, or set status to upcoming',
    ]);
  });

  it("refuses an action named otherwise than its operationId in the system prompt or the set-up steps", async () => {
    const lines = await report({
      "gpt/advisor.md": '---\nname: A\ndescription: D.\nsetupSteps:\n  - "Import {{openapiUrl}} and check that faqSearch appears"\n---\nUse submitLead with requestedBy set to "gpt".\n',
    });
    expect(lines).toEqual([
      "content/gpt/advisor.md:2:1 the system prompt names the action submitLead, which a GPT sees as submitLeadIntent: write submitLeadIntent",
      "content/gpt/advisor.md:5:5 this step names the action faqSearch, which a GPT sees as searchFaq: write searchFaq",
    ]);
  });

  it("reports every mistake of every file in one run", async () => {
    const dir = await contentTree({
      "services/web-apps.md": service(VALID_SERVICE.replace("from: 10000", "from: lots")),
      "techniques/typescript.md": "---\ntitle: TypeScript\nsummary: Typed.\ncategory: langauge\n---\nBody.\n",
      "company.yaml": (await readFile(join(MINIMAL_CONTENT, "company.yaml"), "utf8")).replace("hello@test.example", "not-an-email"),
    });
    const result = await checkContent(dir, "content");
    expect(result.errors).toBe(3);
    expect(result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column}`)).toEqual([
      "content/company.yaml:6:10",
      "content/services/web-apps.md:11:9",
      "content/techniques/typescript.md:4:11",
    ]);
  });
});
