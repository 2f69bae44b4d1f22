import { API_PREFIX, operations } from "../src/api/operations.js";
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

export function llmsTxt(c: Parts): string {
  return [
    `# ${c.company.name}`,
    "",
    `> ${c.company.tagline} ${c.company.description}`,
    "",
    `This is the company's public API for LLM agents and custom GPTs: JSON over HTTPS, no authentication. Every answer comes in an envelope { success, apiVersion, timestamp, data }; errors name the field and what to send instead.`,
    "",
    "## API",
    "",
    line("API index", `${base}${API_PREFIX}`, "every endpoint with hints for LLMs"),
    line("OpenAPI 3.1 document", `${base}${API_PREFIX}/openapi.json`, "import it into GPT Actions or any client"),
    line("Capabilities", `${base}${API_PREFIX}/capabilities`, "compact overview of everything offered"),
    ...operations.filter((o) => o.action).map((o) => line(`${o.action!.name} (${o.method} ${o.path})`, `${base}${o.path}`, o.action!.when)),
    line("MCP endpoint", `${base}/mcp`, "the same operations as MCP tools (Streamable HTTP, stateless)"),
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

export function llmsFullTxt(c: Parts): string {
  const out: string[] = [`# ${c.company.name}`, "", `> ${c.company.tagline}`, "", c.company.description, "", "## Services", ""];
  for (const s of c.services) {
    out.push(`### ${s.title}`, "", s.summary, "", `- Id: ${s.id} (${base}${API_PREFIX}/services/${s.id})`, `- Pricing: ${price(s.pricing)}`);
    if (s.duration) out.push(`- Typical duration: ${s.duration}`);
    out.push(`- Problems it solves: ${s.problems.map((p) => `"${p}"`).join("; ")}`, `- Deliverables: ${s.deliverables.join("; ")}`, "", s.description, "");
  }
  out.push("## Products", "");
  for (const p of c.products) {
    out.push(`### ${p.title}`, "", p.summary, "", `- Id: ${p.id} (${base}${API_PREFIX}/${p.id})`);
    for (const plan of p.plans) out.push(`- Plan ${plan.name}: ${plan.currency} ${plan.price.toLocaleString("en-US")} per ${plan.period}${plan.description ? `, ${plan.description}` : ""}`);
    out.push("", p.description, "");
  }
  out.push("## Techniques and stack", "");
  for (const t of c.techniques) out.push(`- **${t.title}** (${t.category}): ${t.summary}`);
  out.push("", "## Tools Lab", "");
  for (const t of c.tools) out.push(`- **${t.title}** (${t.status}${t.expected ? `, expected ${t.expected}` : ""}): ${t.summary}`);
  out.push("", "## FAQ", "");
  for (const f of c.faq) out.push(`### ${f.question}`, "", f.answer, "");
  return `${out.join("\n").trimEnd()}\n`;
}
