import { API_PREFIX, operations, type Operation } from "../src/api/operations.js";
import { BASE_URL_PLACEHOLDER, type CatalogData, type Pricing } from "../src/catalog/types.js";

/**
 * llms.txt (llmstxt.org) and llms-full.txt, written from the catalog at build time. Addresses
 * start with a placeholder the runtime replaces by its public base URL.
 */
type Parts = Pick<CatalogData, "company" | "services" | "techniques" | "products" | "faq" | "tools">;

const base = BASE_URL_PLACEHOLDER;
const line = (title: string, url: string, note?: string) => `- [${title}](${url})${note ? `: ${note}` : ""}`;

export function price(p: Pricing): string {
  return `from ${p.currency} ${p.from.toLocaleString("en-US")}${p.unit ? ` per ${p.unit}` : ""} (${p.model})`;
}

/**
 * A link a GET can follow for each operation: a search with an example question, the reference
 * page for what is sent with POST (a GET on a POST endpoint is 405).
 */
const EXAMPLE_QUERIES: Record<string, string> = { recommend: "q=our+app+keeps+crashing+after+every+release", searchFaq: "q=who+owns+the+code" };
function readable(op: Operation): string {
  if (op.method !== "GET") return `${base}/docs`;
  const example = EXAMPLE_QUERIES[op.operationId];
  return `${base}${op.path}${example ? `?${example}` : ""}`;
}

/**
 * Markdown written for a page of its own, moved below the heading it now sits under: its
 * "## Example" becomes "#### Example" under a "### Service", so it does not start a section of
 * its own. Headings inside code fences are left alone.
 */
export function nestHeadings(markdown: string, under: number): string {
  let fenced = false;
  const lines = markdown.split("\n");
  const top = Math.min(7, ...lines.map((l) => /^(#{1,6})\s/.exec(l)?.[1]!.length ?? 7));
  if (top === 7) return markdown;
  const shift = Math.max(0, under + 1 - top);
  return lines
    .map((l) => {
      if (/^\s*(```|~~~)/.test(l)) fenced = !fenced;
      return fenced || shift === 0 ? l : l.replace(/^(#{1,6})(?=\s)/, (h) => "#".repeat(Math.min(6, h.length + shift)));
    })
    .join("\n");
}

export function llmsTxt(c: Parts): string {
  return [
    `# ${c.company.name}`,
    "",
    `> ${c.company.tagline} ${c.company.description}`,
    "",
    `This is the company's public API for LLM agents and custom GPTs: JSON over HTTP, no authentication. Every answer comes in an envelope { success, apiVersion, timestamp, data }; errors name the field and what to send instead. Operations are named by their operationId, as in the OpenAPI document and the MCP tools; the ones you send data to (POST) link to the reference that shows what to send.`,
    "",
    "## API",
    "",
    line("API index", `${base}${API_PREFIX}`, "every endpoint with hints for LLMs"),
    line("OpenAPI 3.1 document", `${base}${API_PREFIX}/openapi.json`, "import it into GPT Actions or any client"),
    line("Capabilities", `${base}${API_PREFIX}/capabilities`, "compact overview of everything offered"),
    ...operations.filter((o) => o.action).map((o) => line(`${o.operationId} (${o.method} ${o.path})`, readable(o), o.action!.when)),
    line("MCP endpoint (POST JSON-RPC to /mcp; not for a browser)", `${base}/docs`, "the same operations as MCP tools (Streamable HTTP, stateless), at the path /mcp of this server"),
    "",
    "## Services",
    "",
    ...c.services.map((s) => line(s.title, `${base}${API_PREFIX}/services/${s.id}`, `${s.summary} Pricing ${price(s.pricing)}.`)),
    "",
    "## Products",
    "",
    ...c.products.map((p) => line(p.title, `${base}${API_PREFIX}/${p.id}`, p.summary)),
    "",
    "## Optional",
    "",
    line("Everything in one file", `${base}/llms-full.txt`, "the whole catalog and FAQ as Markdown"),
    line("Tools Lab", `${base}${API_PREFIX}/waitlist/tools`, "available and upcoming tools"),
    line("Contact", `${base}${API_PREFIX}/contact`),
    "",
  ].join("\n");
}

export function llmsFullTxt(c: Parts, faqSection?: string): string {
  const out: string[] = [`# ${c.company.name}`, "", `> ${c.company.tagline}`, "", c.company.description, "", "## Services", ""];
  for (const s of c.services) {
    out.push(`### ${s.title}`, "", s.summary, "", `- Id: ${s.id} (${base}${API_PREFIX}/services/${s.id})`, `- Pricing: ${price(s.pricing)}`);
    if (s.duration) out.push(`- Typical duration: ${s.duration}`);
    out.push(`- Problems it solves: ${s.problems.map((p) => `"${p}"`).join("; ")}`, `- Deliverables: ${s.deliverables.join("; ")}`, "", nestHeadings(s.description, 3), "");
  }
  out.push("## Products", "");
  for (const p of c.products) {
    out.push(`### ${p.title}`, "", p.summary, "", `- Id: ${p.id} (${base}${API_PREFIX}/${p.id})`);
    for (const plan of p.plans) out.push(`- Plan ${plan.name}: ${plan.currency} ${plan.price.toLocaleString("en-US")} per ${plan.period}${plan.description ? `, ${plan.description}` : ""}`);
    out.push("", nestHeadings(p.description, 3), "");
  }
  out.push("## Techniques and stack", "");
  for (const t of c.techniques) out.push(`- **${t.title}** (${t.category}): ${t.summary}`);
  out.push("", "## Tools Lab", "");
  for (const t of c.tools) out.push(`- **${t.title}** (${t.status}${t.expected ? `, expected ${t.expected}` : ""}): ${t.summary}`);
  out.push("", "## FAQ", "");
  // The FAQ is most of the file: `frontdesk dev` passes its part as made last time when no FAQ
  // entry changed. Joined as one list would be: the head's lines, then the FAQ's.
  const faq = faqSection ?? llmsFaqSection(c.faq);
  return `${(faq === "" ? out.join("\n") : `${out.join("\n")}\n${faq}`).trimEnd()}\n`;
}

/** The FAQ's lines of llms-full.txt, joined (empty for no entries). */
export function llmsFaqSection(faq: Parts["faq"]): string {
  const out: string[] = [];
  for (const f of faq) out.push(`### ${f.question}`, "", nestHeadings(f.answer, 3), "");
  return out.join("\n");
}
