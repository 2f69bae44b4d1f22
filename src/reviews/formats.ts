/**
 * Turns what people paste into something the Markdown lexer reads: Unicode and line-break
 * clean-up, Jira wiki markup rewritten as Markdown, e-mail headers, reply lines and signatures
 * dropped. Every step is one pass over the lines, so the cost grows with the text's length only.
 */

/** NFKC fixes PDF ligatures and odd spaces; hyphenated line breaks are rejoined. */
export function normalize(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/\r\n?/g, "\n")
    .replace(/[\u00a0\u2000-\u200b\u2028\u2029\ufeff]/g, " ")
    .replace(/\t/g, "    ")
    .replace(/(\p{L})-\n(\p{Ll})/gu, "$1$2")
    // "Discovery ........ USD 4,500": a dot leader joins a name to its figure; it ends no sentence.
    .replace(/(\S)[ \t]*\.{4,}[ \t]*(?=\S)/g, "$1 – ");
}

// Jira wiki markup is told apart from Markdown by constructs Markdown does not have.
const JIRA_SIGNS = /^h[1-6]\.\s|\{(?:code|noformat|quote|panel)[:}]|^\|\|.*\|\|\s*$|^\*[^*\n]{1,60}:\*\s*$|^#{1,3} \S.*$\n^#{1,3} \S/m;

/** Jira wiki markup as Markdown: headings, code and quote blocks, numbered lists, tables, bold. */
export function jiraToMarkdown(text: string): string {
  if (!JIRA_SIGNS.test(text)) return text;
  let inCode = false;
  return text
    .split("\n")
    .map((line) => {
      const fence = /^\s*\{(code|noformat)(?::[^}]*)?\}\s*(.*)$/.exec(line);
      if (fence) {
        inCode = !inCode;
        // "{code}text{code}" on one line, or text right after the opening marker.
        const rest = fence[2]!.replace(/\{(?:code|noformat)\}\s*$/, "");
        return inCode ? `\`\`\`\n${rest}` : "```";
      }
      if (/\{(?:code|noformat)\}\s*$/.test(line) && inCode) {
        inCode = false;
        return `${line.replace(/\{(?:code|noformat)\}\s*$/, "")}\n\`\`\``;
      }
      if (inCode) return line;
      const heading = /^h([1-6])\.\s+(.*)$/.exec(line);
      if (heading) return `${"#".repeat(Number(heading[1]))} ${heading[2]}`;
      if (/^\s*\{(?:quote|panel[^}]*)\}\s*$/.test(line)) return "";
      // '#' items are numbered lists in Jira; in Markdown they would be headings.
      const numbered = /^(#+)\s+(.*)$/.exec(line);
      if (numbered) return `${"   ".repeat(numbered[1]!.length - 1)}1. ${numbered[2]}`;
      const bullet = /^(\*+)\s+(.*)$/.exec(line);
      if (bullet && bullet[1]!.length > 1) return `${"  ".repeat(bullet[1]!.length - 1)}- ${bullet[2]}`;
      const table = /^\|\|(.*)\|\|\s*$/.exec(line);
      if (table) {
        const cells = table[1]!.split("||");
        return `| ${cells.join(" | ")} |\n|${cells.map(() => "---").join("|")}|`;
      }
      // *Label:* is Jira's bold; Markdown's is **Label:**.
      return line.replace(/(^|\s)\*([^*\n]{1,80}?)\*(?=\s|$|[:.,])/g, "$1**$2**").replace(/\{\{([^}]*)\}\}/g, "`$1`");
    })
    .join("\n");
}

const HEADER = /^(?:from|sent|to|cc|bcc|date|reply-to|subject)\s*:/i;
const FORWARD = /^(?:-{2,}\s*(?:original message|forwarded message)\s*-{2,}|begin forwarded message:?)\s*$/i;
const WROTE = /^on .{4,120}\bwrote:\s*$/i;
const CLOSING = /^(?:best|kind|warm|many thanks|thanks|thank you|cheers|regards|best regards|kind regards|warm regards|with best regards|sincerely|yours sincerely|yours|groeten|met vriendelijke groet(?:en)?|mit freundlichen grüßen|viele grüße)[,!.]?\s*$/i;
const SENT_FROM = /^sent from my \w+/i;

/**
 * E-mail wrapping removed: header blocks (From/To/Sent, kept: Subject), "On ... wrote:" lines,
 * forward markers, quote markers ('>'), and signatures: everything after a "-- " line, and a
 * closing line ("Kind regards,") with the short lines under it (name, role, phone).
 */
export function unwrapEmail(text: string): string {
  const lines = text.split("\n");
  const out: string[] = [];
  let signature = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/^(?:>\s?)+/, "");
    const trimmed = line.trim();
    if (signature > 0) {
      // A closing's signature block ends at a blank line or at a line long enough to be text.
      if (trimmed === "" || trimmed.split(/\s+/).length > 8 || HEADER.test(trimmed) || FORWARD.test(trimmed)) signature = 0;
      else {
        signature--;
        continue;
      }
    }
    if (trimmed === "--" || trimmed === "-- ") {
      signature = 6;
      continue;
    }
    if (FORWARD.test(trimmed) || WROTE.test(trimmed) || SENT_FROM.test(trimmed)) continue;
    if (HEADER.test(trimmed) && isHeaderBlock(lines, i)) {
      const subject = /^subject\s*:\s*(?:(?:re|fw|fwd)\s*:\s*)*(.*)$/i.exec(trimmed);
      if (subject && subject[1]!.trim() !== "") out.push(`Subject: ${subject[1]!.trim()}`, "");
      continue;
    }
    if (CLOSING.test(trimmed)) {
      signature = 4;
      continue;
    }
    out.push(line);
  }
  return out.join("\n");
}

/** A header line belongs to a block of at least two (From + To/Sent/Subject...). */
function isHeaderBlock(lines: string[], i: number): boolean {
  const near = (j: number) => j >= 0 && j < lines.length && HEADER.test(lines[j]!.replace(/^(?:>\s?)+/, "").trim());
  return near(i - 1) || near(i + 1);
}

// "Page 2 of 4", "QT-1187 · Page 1 of 2 · confidential": a page footer or header of a pasted PDF.
const PAGE_LINE = /^(?:[^\n]{0,60}?[\s·|–—-])?page\s+\d+\s*(?:of|\/)\s*\d+\b[^\n]{0,40}$/i;
const MONTH_START = /^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b/i;

/**
 * Text pasted from a PDF: page headers and footers dropped, and a sentence the PDF broke across
 * lines ("... all four hotels live on 15\nJuly.") joined again. A line is joined to the next when
 * it is long (a wrapped line), does not end a sentence or a label, and the next line goes on in
 * lower case, with a number or a month.
 */
export function unwrapPdf(text: string): string {
  const out: string[] = [];
  let fenced = false;
  for (const line of text.split("\n")) {
    if (/^\s*(?:```|~~~)/.test(line)) fenced = !fenced;
    if (!fenced && PAGE_LINE.test(line.trim()) && line.trim().split(/\s+/).length <= 12) continue;
    const prev = out[out.length - 1];
    const next = line.trim();
    if (
      !fenced &&
      prev !== undefined &&
      prev.trim().length >= 50 &&
      !/[.!?:;|]\s*$/.test(prev) &&
      !/^\s*(?:[-*•+|>#]|\d{1,2}[.)]\s|[a-h][.)]\s|\([a-z]\)\s)/.test(line) &&
      (/^\p{Ll}/u.test(next) || /^\d/.test(next) || MONTH_START.test(next))
    ) {
      out[out.length - 1] = `${prev.trimEnd()} ${next}`;
      continue;
    }
    out.push(line);
  }
  return out.join("\n");
}

/** Everything a review reads, before the Markdown lexer. */
export function prepare(raw: string): string {
  return jiraToMarkdown(unwrapEmail(unwrapPdf(normalize(raw))));
}
