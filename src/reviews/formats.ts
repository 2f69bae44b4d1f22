import { COLUMNS, FIGURE_ONLY } from "./facts.js";

/**
 * Turns what people paste into something the Markdown lexer reads: Unicode, bullet glyphs and
 * line-break clean-up; a PDF's page chrome dropped and its wrapped lines joined; ASCII tables as
 * Markdown tables; a user story told a line a part as one sentence; e-mail headers, reply lines
 * and signatures dropped; Jira wiki markup rewritten as Markdown. Every step is one pass over the
 * lines, so the cost grows with the text's length only.
 */

/** A text unwrapped from what carried it; NFKC fixes PDF ligatures and odd spaces; hyphenated line breaks are rejoined. */
export function normalize(text: string): string {
  return unwrapped(text)
    .normalize("NFKC")
    .replace(/\r\n?/g, "\n")
    // Invisible characters web pages, chat apps and hyphenating PDFs leave in copied text (soft
    // hyphen, zero-width space and joiners, direction marks, word joiner, byte-order mark) sit
    // inside words: they go, so "Ex\u00adpected" is the word it shows. An emoji's joiner goes too;
    // its pictographs stay.
    .replace(/[\u00ad\u200b-\u200f\u2060\ufeff]/g, "")
    .replace(/[\u00a0\u2000-\u200a\u2028\u2029]/g, " ")
    // Word's and Google Docs' typographic quotes are the plain ones every pattern here is written with.
    .replace(/[‘’‛′]/g, "'")
    .replace(/[“”„″]/g, '"')
    .replace(/\t/g, "    ")
    // A reply's or forward's quote markers ("> > text"): every later step reads the lines they
    // mark, a table or list inside them as much as a line of prose.
    .replace(/^[ \t]*(?:>[ \t]?)+/gm, "")
    .replace(/(\p{L})-\n[ \t]*(\p{Ll})/gu, "$1$2")
    // Word's and PDFs' bullet glyphs ("•", "▪", "➢", the symbol font's "", a second level "o")
    // as the Markdown list items they are, so each item is read as one.
    .replace(/^([ \t]*)(?:[•◦▪▫‣⁃●○■□➢►▶✓✔–—\uf0a7\uf0b7\uf076\uf0d8]|o(?=[ \t]{2}))[ \t]+(?=\S)/gmu, "$1- ")
    // "✅ **Sign-off** — ...", "🗓️ Timeline": an emoji in front of a line is decoration, not its first word.
    .replace(/^([ \t]*)\p{Extended_Pictographic}[\p{Extended_Pictographic}\uFE0F]*[ \t]*/gmu, "$1")
    // "Discovery ........ USD 4,500": a dot leader joins a name to its figure; it ends no sentence.
    .replace(/(\S)[ \t]*\.{4,}[ \t]*(?=\S)/g, "$1 – ");
}

/**
 * What an agent, a client library or a web form may do to a text on its way here: break its lines
 * with the two characters "\n" (a string escaped twice) or with HTML's <br>, or fence the whole of
 * it as code ("```text" ... "```", or between triple quotes) under a line such as "The user
 * wrote:". Undone, so the text is read as its author wrote it.
 */
function unwrapped(text: string): string {
  const escaped = text.split("\\n").length - 1;
  const breaks = escaped >= 3 && escaped > 4 * (text.split("\n").length - 1) ? text.replace(/\\r\\n|\\n/g, "\n").replace(/\\t/g, "\t") : text;
  const lines = breaks.replace(/<br\s*\/?>[ \t]*\r?\n?/gi, "\n").split(/\r?\n/);
  const joined = lines.join("\n");
  const open = lines.findIndex((line) => FENCE.test(line));
  if (open < 0) return joined;
  // The fences of the same kind as the first ("```" inside '"""' is the text's own).
  const marker = lines[open]!.trim().slice(0, 3);
  const fences = lines.flatMap((line, at) => (at >= open && FENCE.test(line) && line.trim().startsWith(marker) ? [at] : []));
  const close = fences[fences.length - 1]!;
  // Only a fence around everything: one labelled as text ("```text", "```markdown"), or one whose
  // inner blocks open with their language ("```js" ... "```"). "```" log "```" text "```" log "```"
  // is two blocks, and a log fenced inside a ticket stays code.
  const prose = /^[ \t]*(?:```|~~~|""")[ \t]*(?:text|txt|plain|plaintext|markdown|md|email)[ \t]*$/i.test(lines[open]!);
  const nested = prose || fences.slice(1, -1).every((at, i) => (i % 2 === 0) === /^[ \t]*(?:```|~~~)[ \t]*[\w+-]/.test(lines[at]!));
  if (fences.length % 2 !== 0 || !nested || close - open < 2) return joined;
  // Nothing after it, and before it nothing or a sender's lead-in ("The user wrote:"), which goes too.
  const before = lines.slice(0, open).join(" ").trim();
  const after = lines.slice(close + 1).join(" ").trim();
  if (after !== "" || (before !== "" && !(before.length <= 120 && before.endsWith(":")))) return joined;
  return lines.slice(open + 1, close).join("\n");
}

const FENCE = /^[ \t]*(?:```|~~~|""")[\w+-]*[ \t]*$/;

// Jira wiki markup is told apart from Markdown by constructs Markdown does not have.
// ("** item" is a nested bullet: Markdown has no line that starts so.)
const JIRA_SIGNS = /^h[1-6]\.\s|\{(?:code|noformat|quote|panel)[:}]|^\|\|.*\|\|\s*$|^\*[^*\n]{1,60}:\*\s*$|^#{1,3} \S.*$\n^#{1,3} \S|^\*{2,3} \S/m;

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

// "**Date:** 2025-06-16" under a quotation's title is a header line too.
const HEADER = /^[*_]{0,2}(?:from|sent|to|cc|bcc|date|reply-to|subject)\s*:/i;
// A quotation's own fields ("Quote number:", "Quote date:", "Bill to:") name the paper, not a term of it.
// Only with a short value: "Order number: 55120 was charged twice" says what happened.
const PAPER_FIELD = /^[*_]{0,2}(?:(?:quote|quotation|offer|proposal|invoice|customer|client|our|your) (?:number|no\.?|date|ref(?:erence)?)|reference|ref|bill to|invoice to|ship to|issue date|vat (?:reg(?:istration)?\.? )?(?:no\.?|number))[*_]{0,2}\s*:[*_]{0,2}\s*(?:\S+(?:\s+\S+){0,2})?\s*$/i;
const FORWARD = /^(?:-{2,}\s*(?:original message|forwarded message)\s*-{2,}|begin forwarded message:?)\s*$/i;
const WROTE = /^on .{4,120}\bwrote:\s*$/i;
// "Respected Sir/Madam,", "Hi team,", "Dear Ms. Ashby,": a greeting, no summary of what follows
// (but "Hello World app crashes!" is one).
const GREETING = /^(?:hi|hello|hey|dear|respected|greetings|good (?:morning|afternoon|evening))\b(?:(?:\s+[\p{L}.'’/&-]+){0,3}\s*,|(?:\s+[\p{L}.'’/&-]+){0,2})$/iu;
// "Please see below.", "FYI", "Forwarding this from our finance team.": a note that passes the text on.
const FORWARD_NOTE = /^(?=\S)(?:(?:fyi|fwiw)\b[\s,:;.!–—-]*)?(?:(?:(?:please|pls|kindly) )?(?:see|find|read) (?:(?:the|my|our) )?(?:\w+'s )?(?:below|(?:request|message|e-?mail|mail|note|ticket|issue|thread|details) below)|forwarding (?:this|the (?:below|request|message|e-?mail)|below)\b[^.\n]{0,60})?[.!:]*$/i;
// A subject that names no thing of its own: "request", "Issue", "Question about the app".
const GENERIC_SUBJECT = /^(?:(?:a |an |the |new |quick |urgent |small )?(?:request|issue|problem|question|query|help|bug|ticket|support|follow[- ]?up|update|info(?:rmation)?|feedback|enquiry|inquiry)s?[.!?]*)?$/i;
const CLOSING = /^(?:best|kind|warm|many thanks|thanks|thank you|cheers|regards|best regards|kind regards|warm regards|with best regards|sincerely|yours sincerely|yours|groeten|met vriendelijke groet(?:en)?|mit freundlichen grüßen|viele grüße)[,!.]?\s*$/i;
const SENT_FROM = /^sent from my \w+/i;

/**
 * E-mail wrapping removed: header blocks (From/To/Sent, kept: Subject), "On ... wrote:" lines,
 * forward markers, and signatures: everything after a "-- " line, and a
 * closing line ("Kind regards,") with the short lines under it (name, role, phone).
 */
export function unwrapEmail(text: string): string {
  const lines = text.split("\n");
  const out: string[] = [];
  let signature = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
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
    if (PAPER_FIELD.test(trimmed)) continue;
    if (HEADER.test(trimmed) && isHeaderBlock(lines, i)) {
      const subject = /^subject\s*:\s*(?:(?:re|fw|fwd)\s*:\s*)*(.*)$/i.exec(trimmed);
      // "Subject: FW: request" names nothing: the text under it is the report.
      if (subject && !GENERIC_SUBJECT.test(subject[1]!.trim())) out.push(`Subject: ${subject[1]!.trim()}`, "");
      continue;
    }
    if (GREETING.test(trimmed) || FORWARD_NOTE.test(trimmed)) continue;
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
  const near = (j: number) => j >= 0 && j < lines.length && HEADER.test(lines[j]!.trim());
  return near(i - 1) || near(i + 1);
}

// "Page 2 of 4", "QT-1187 · Page 1 of 2 · confidential", "Offer 2025-0417            Page 2 of 2",
// "[page 2]": a page footer or header of a pasted PDF.
const PAGE_LINE = /^(?:[^\n]{0,60}?[\s·|–—-]\s*)?page\s+\d+\s*(?:of|\/)\s*\d+\b[^\n]{0,40}$|^[[(]?\s*page\s+\d{1,3}\s*[\])]?$/i;
// Anchored on the run's first space: a pattern free to start anywhere in a long run of spaces is quadratic.
const PAGE_NUMBER = /(?<!\s)(?:\s{2,}(?:page\s+)?\d{1,3}\s*\/\s*\d{1,3}$|\s{2,}-\s*\d{1,3}\s*-$)/i;
/** "3 Schedule": a numbered section's title, without the full stop Markdown would need. */
const SECTION_NUMBER_LINE = /^\d{1,2}\s+\p{Lu}[\p{L}'’ &/-]{0,40}$/u;
/** A page's marking printed beside its number ("CONFIDENTIAL", "Draft"), which is no heading. */
const MARKING = /^(?:(?:strictly |private and |private & )?confidential|commercial in confidence|draft|proprietary|internal(?: use)? only|not for distribution)$/i;
/** A line that opens with its label ("Deliverables - The ...", "Price: ..."). */
const LABEL_START = /^\p{Lu}[\p{L}' ]{0,30}?(?::|\s[-–]\s)/u;
const ANY_LABEL_START = /^[\p{L}][\p{L}' ]{0,30}?:(?:\s|$)/u;
const TRAILING_AMOUNT = /(?<![\d.,'])[.,']*\d[\d.,']*\s*(?:[\p{Sc}]|[A-Z]{3})?$/u;
const MONTH_START = /^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b/i;

/** A list item's kind of marker ("1.", "-", "•", "o"), if the line is one. */
function marker(line: string): string | undefined {
  const m = /^(?:(\d{1,2})[.)]|([-*•o]))\s+\S/.exec(line);
  return m ? (m[1] !== undefined ? "number" : m[2]) : undefined;
}

/**
 * The lines a PDF's page break left in the text: the page footer or header ("Page 2 of 4"), the
 * running lines next to it (a marking such as "CONFIDENTIAL", or a line that recurs elsewhere, such
 * as the sender's name). The blank lines around them go too when a sentence or a table goes on over
 * the page, so what the page broke is whole again.
 */
function pageChrome(lines: readonly string[]): Set<number> {
  const drop = new Set<number>();
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(line.trim(), (counts.get(line.trim()) ?? 0) + 1);
  // The document's first line is its own header ("ACME  SOW-2025-003 | Valid through March 31"),
  // kept once though it recurs on every page.
  const top = lines.findIndex((line) => line.trim() !== "");
  const running = (i: number) => {
    const line = lines[i]?.trim();
    return line !== undefined && (line === "" || MARKING.test(line) || (i !== top && (counts.get(line) ?? 0) >= 2 && line.split(/\s+/).length <= 14 && !/[.:]$/.test(line)));
  };
  // "Harrowgate Security Ltd · Registered in England 09876543      2/3": a footer that recurs
  // with its page number.
  const stem = (line: string) => line.trim().replace(PAGE_NUMBER, "");
  const stems = new Map<string, number>();
  for (const line of lines) if (PAGE_NUMBER.test(line.trim())) stems.set(stem(line), (stems.get(stem(line)) ?? 0) + 1);
  const pageLine = (line: string) => PAGE_LINE.test(line.trim()) || (PAGE_NUMBER.test(line.trim()) && (stems.get(stem(line)) ?? 0) >= 2);
  lines.forEach((line, i) => {
    if (!pageLine(line) || line.trim().split(/\s+/).length > 12) return;
    let start = i;
    let end = i;
    while (start - 1 >= 0 && i - (start - 1) <= 3 && running(start - 1)) start--;
    while (end + 1 < lines.length && end + 1 - i <= 3 && running(end + 1)) end++;
    // The nearest text on either side, looked for line by line (not by copying the rest of the text per page).
    let b = start - 1;
    while (b >= 0 && lines[b]!.trim() === "") b--;
    let a = end + 1;
    while (a < lines.length && lines[a]!.trim() === "") a++;
    const before = lines[b]?.trim() ?? "";
    const after = lines[a]?.trim() ?? "";
    // A sentence goes on in lower case or with a figure, not with a numbered heading ("6. Fees").
    const continues = /^[\p{Ll}(]/u.test(after) || (/^\d/.test(after) && !/^\d{1,2}(?:\.\d{1,2})*[.)]?\s+\p{Lu}/u.test(after));
    // A list goes on over the page ("1. Design document" ... "2. Configured sandbox"): no blank line parts it.
    const listGoesOn = marker(before) !== undefined && marker(before) === marker(after);
    const goesOn = (!/[.!?:]$/.test(before) && continues) || (TRAILING_AMOUNT.test(before) && TRAILING_AMOUNT.test(after)) || listGoesOn;
    // One blank line stays between sections; none where the text goes on.
    let blankKept = goesOn;
    for (let j = start; j <= end; j++) {
      if (j !== i && lines[j]!.trim() === "" && !blankKept) blankKept = true;
      else drop.add(j);
    }
  });
  return drop;
}

/**
 * The width a text was hard-wrapped at (by a PDF or a mail client), when it was: at least three
 * lines, and a quarter of the lines of some length, end within a few columns of the longest.
 */
function wrapWidth(lines: readonly string[]): number | undefined {
  const lengths = lines.filter((line) => !/^\s*\|/.test(line)).map((line) => line.trimEnd().length);
  const width = Math.max(0, ...lengths.filter((n) => n <= 130));
  if (width < 40) return undefined;
  const long = lengths.filter((n) => n >= 30).length;
  const near = lengths.filter((n) => n >= width - 10 && n <= width).length;
  return near >= 3 && near * 4 >= long ? width : undefined;
}

/**
 * Text pasted from a PDF: page headers and footers dropped, and a sentence the PDF broke across
 * lines ("... all four hotels live on 15\nJuly.") joined again. A line is joined to the next when
 * it is long (a wrapped line), does not end a sentence or a label, the next line is not a list
 * item, and either the next line goes on in lower case, with a number or a month, or the text is
 * wrapped at a width and the next line starts with a word that would not have fitted on the line
 * ("30 engineer days\n(GBP 19,500)", "sending it;\ntwo, the manager"), unless that line opens with
 * a label or is short and capitalized like a heading. A line wrapped at a width may end a clause.
 */
export function unwrapPdf(text: string): string {
  const out: string[] = [];
  const lines = text.split("\n");
  const width = wrapWidth(lines);
  const chrome = pageChrome(lines);
  let fenced = false;
  for (const [i, line] of lines.entries()) {
    if (/^\s*(?:```|~~~)/.test(line)) fenced = !fenced;
    if (!fenced && chrome.has(i)) continue;
    const prev = out[out.length - 1];
    const next = line.trim();
    // A row laid out in columns ("Visual design     1     1,850.00") and a numbered title ("3 Schedule")
    // are lines of their own, never a wrapped one's end.
    if (fenced || prev === undefined || next === "" || prev.trim().length < 50 || COLUMNS.test(prev.trim()) || COLUMNS.test(next) || SECTION_NUMBER_LINE.test(next) || /^\s*(?:[-*•+|>#]|\d{1,2}[.)]\s|\d{1,2}(?:\.\d{1,2})+\.?\s|[a-h][.)]\s|\([a-z]\)\s)/.test(line) || /[.!?:|]\s*$/.test(prev)) {
      out.push(line);
      continue;
    }
    // "who: ward managers ...\nproblem: today a swap ...": lines that each open with a label, in any case, are a list; in a
    // text not wrapped at a width, one line opening with a label ("should be: one row per record") is a field of its own.
    const labels = ANY_LABEL_START.test(next) && (width === undefined || ANY_LABEL_START.test(lines[i - 1]!.trim()));
    const goesOn = !labels && !/;\s*$/.test(prev) && (/^\p{Ll}/u.test(next) || /^\d/.test(next) || MONTH_START.test(next));
    const wrapped =
      width !== undefined &&
      prev.trimEnd().length + 1 + next.split(" ")[0]!.length > width &&
      !(/^\p{Lu}/u.test(next) && next.split(/\s+/).length <= 5 && !/[.,;]$/.test(next)) &&
      !LABEL_START.test(next);
    if (goesOn || wrapped) out[out.length - 1] = `${prev.trimEnd()} ${next}`;
    else out.push(line);
  }
  return out.join("\n");
}

// "Q3.2 Payment schedule.\nA: 20% on signing ...": a response form's answer under its question.
// "A:" is a capital (a list's "a)" is no answer), and each pattern reads one line, anchored at
// both ends with no two parts able to take the same spaces: a line of tabs costs what it is long.
const ANSWER = /^[ \t]*(?:A|Ans\.?|Answer|ANSWER)[ \t]?(?:\d+(?:\.\d+)*)?[ \t]?[:.][ \t]+(?=\S)/;
const NUMBERED_QUESTION = /^[ \t]*Q(?:uestion)?[ \t]?\d+(?:\.\d+)*[:.)]?[ \t]+(\S(?:[^\n]{0,118}\S)?)$/;
const ASKED = /^[ \t]*([^\s#>*+\-|\d][^\n]{0,118}\?)[ \t]*$/;

/**
 * A response form's question heads its answer: the question names the term ("Payment schedule",
 * "What is excluded?"), and "A:" names nothing. A question already marked (a heading, a list
 * item) keeps its line; its answer only loses the "A:".
 */
function answersUnderQuestions(text: string): string {
  const lines = text.split("\n");
  for (let i = 1; i < lines.length; i++) {
    const answer = ANSWER.exec(lines[i]!);
    if (!answer) continue;
    const q = lines[i - 1]!.trim() === "" && i >= 2 ? i - 2 : i - 1;
    const question = NUMBERED_QUESTION.exec(lines[q]!) ?? ASKED.exec(lines[q]!);
    if (question) lines[q] = `### ${question[1]!.replace(/[.:]$/, "")}`;
    else if (!/\?[ \t]*$/.test(lines[q]!)) continue;
    lines[i] = lines[i]!.slice(answer[0].length);
  }
  return lines.join("\n");
}

// "As a dispatcher / I want to save my filter / So that ...": a user story told a line a part.
const STORY_LINES = /^([ \t]*)((?:\*\*|_)?As an? [^\n]{1,80})\n[ \t]*((?:\*\*|_)?I (?:want|need|would like|'d like|wish|can)\b[^\n]*)(?:\n[ \t]*((?:\*\*|_)?(?:so that|in order to)\b[^\n]*))?$/gim;

/** A user story written over several lines, read as the one sentence it is. */
function joinStory(text: string): string {
  return text.replace(STORY_LINES, (_all, indent: string, who: string, want: string, why?: string) =>
    `${indent}${[who, want, why].filter((part) => part !== undefined).map((part) => part.trim().replace(/[,.]$/, "")).join(", ")}`,
  );
}

const BORDER = /^\s*\+(?:[-=]+\+)+\s*$/;
const PIPE_ROW = /^\s*\|.*\|\s*$/;

/**
 * An ASCII table ("+------+------+" borders, a cell's text wrapped onto rows whose first cell is
 * empty) as the Markdown table it is: its first row the header, each wrapped cell whole again.
 */
export function asciiTables(text: string): string {
  const lines = text.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!BORDER.test(lines[i]!) && !(PIPE_ROW.test(lines[i]!) && BORDER.test(lines[i + 1] ?? ""))) {
      out.push(lines[i]!);
      continue;
    }
    const rows: string[][] = [];
    // A row whose first cell is empty goes on with the row above (a wrapped cell), unless a border
    // line stands between them: "|    | TOTAL excl. VAT | 540 000 |" under the items is a row of its own.
    let bordered = true;
    for (; i < lines.length && (BORDER.test(lines[i]!) || PIPE_ROW.test(lines[i]!)); i++) {
      if (BORDER.test(lines[i]!)) {
        bordered = true;
        continue;
      }
      const cells = lines[i]!.trim().slice(1, -1).split("|").map((cell) => cell.trim());
      const previous = rows[rows.length - 1];
      if (previous && !bordered && cells[0] === "" && cells.length === previous.length) cells.forEach((cell, k) => (previous[k] = `${previous[k]} ${cell}`.trim()));
      else rows.push(cells);
      bordered = false;
    }
    i--;
    if (rows.length === 0) continue;
    const row = (cells: string[]) => `| ${cells.join(" | ")} |`;
    out.push("", row(rows[0]!), row(rows[0]!.map(() => "---")), ...rows.slice(1).map(row), "");
  }
  return out.join("\n");
}

// "[16:21] nadia (PM): ", "09:14 dana.k: ": a chat message's time and speaker.
// WhatsApp's exports put the date first ("[14/03/25, 10:42:05] Leo:", "14/03/2025, 10:42 - Leo:").
// A handle a line opens with, as a chat copied without times has it ("lena: ", "tomasz.k: "), in
// lower case: "Expected:" and "Price:" repeated for three cases or phases are labels.
const NAME_PREFIX = /^[ \t]*(\p{Ll}[\p{L}\d._-]{2,20}):[ \t]+(?=\S)/gmu;
// Labels a list or a forwarded e-mail's headers may repeat in lower case: they name no speaker.
const NOT_A_SPEAKER = /^(?:step|steps|note|notes|todo|update|edit|fix|ps|question|answer|item|task|q\d*|a\d*|from|to|cc|bcc|subject|date|sent|reply-to)$/i;
const CHAT_PREFIX = /^[ \t]*\[?(?:\d{1,2}[./-]\d{1,2}[./-]\d{2,4},?[ \t]+\d{1,2}:\d{2}(?::\d{2})?|\d{1,2}:\d{2})(?:[ \t]?[AaPp][Mm])?\]?(?:[ \t]+-)?[ \t]+(?!(?:ERROR|WARN|WARNING|INFO|DEBUG|FATAL|TRACE)\b)[\p{L}@][^:\n]{0,40}?:[ \t]+(?=\S)/gmu;

/**
 * A chat log ("[16:27] nadia (PM): acceptance: driver with 45 min left ..."): each message is a
 * paragraph of its own, without its time and speaker, so a label it starts with is read as one.
 * Only a text with two such lines or more is a chat; a log line's time has seconds (unless a
 * chat export's date is in front of it) and no speaker.
 */
export function unwrapChat(text: string): string {
  // Slack and Teams copy the speaker and time on a line of their own ("Aroha Ngata (Kōwhai Studio)  10:07 AM").
  // The channel's name copied above them ("#payments-eng") is no more of the message than they are.
  const spoken = (text.match(SPEAKER_LINE) ?? []).length >= 2 ? text.replace(SPEAKER_LINE, "").replace(CHANNEL_LINE, "") : text;
  if ((spoken.match(CHAT_PREFIX) ?? []).length >= 2) return spoken.replace(CHAT_PREFIX, "\n");
  // "lena: add index on orders ...\nlena: why: ...\nlena: done = ...": a chat copied without times
  // names its speaker at the start of each line; a name that opens three lines or more is one.
  const speakers = new Map<string, number>();
  for (const m of spoken.matchAll(NAME_PREFIX)) speakers.set(m[1]!, (speakers.get(m[1]!) ?? 0) + 1);
  const names = new Set([...speakers].filter(([name, n]) => n >= 3 && !NOT_A_SPEAKER.test(name)).map(([name]) => name));
  return names.size === 0 ? spoken : spoken.replace(NAME_PREFIX, (prefix, name: string) => (names.has(name) ? "\n" : prefix));
}
const CHANNEL_LINE = /^[ \t]*#[\p{Ll}\d][\p{Ll}\d_-]{1,79}[ \t]*$/gmu;
// A person's name (two capitalised words or more) or a Slack handle ("dan.o  10:42"), not a
// timetable's "Backup  02:00".
const SPEAKER_LINE = /^[ \t]*(?:\*\*)?(?:\p{Lu}[\p{L}.'’-]*(?: \p{Lu}[\p{L}.'’-]*){1,3}|\p{Ll}[\p{Ll}\d]*[._][\p{Ll}\d._]*)(?:\*\*)?(?: \([^)\n]{1,40}\))?[ \t]+(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?[ \t]+|[Yy]esterday,?[ \t]+|[Tt]oday,?[ \t]+|\d{1,2}[./-]\d{1,2}(?:[./-]\d{2,4})?,?[ \t]+)?\d{1,2}:\d{2}(?:[ \t]?[AaPp][Mm])?[ \t]*$/gmu;

const INDENTED = /^ {4,}\S/;
const LIST_ITEM = /^\s*(?:[-*+•]|\d{1,2}[.)])\s/;
// What a line of code or machine output has and a sentence does not. A sentence has brackets
// after a space ("the old VM (stg-02)") and semicolons inside it; code has calls ("run(") and ends
// a statement with one.
const CODE_SIGNS = /[{}<>=`\\]|\S\(|\(\)|;\s*$|^\s*(?:at |#|\$ |>>>|\d{1,2}:\d{2})|\b\w+\.\w+\(|^\s*\S+$/;

/**
 * Indentation that is only layout: a text pasted with every line indented (a PDF's margin, a
 * quoted block) loses it, and an indented paragraph of sentences is a paragraph, not the code
 * block Markdown would make of it. Indented code and output ("at Foo.bar(Foo.java:12)", JSON, a
 * log line) keep their indentation.
 */
function unindent(text: string): string {
  const lines = text.split("\n");
  const margin = lines.reduce((least, l) => (l.trim() === "" ? least : Math.min(least, l.length - l.trimStart().length)), Infinity);
  const body = Number.isFinite(margin) && margin > 0 ? lines.map((l) => l.slice(margin)) : lines;
  let fenced = false;
  let above = "";
  const out = [...body];
  for (let i = 0; i < body.length; i++) {
    if (/^\s*(?:```|~~~)/.test(body[i]!)) fenced = !fenced;
    if (fenced || !INDENTED.test(body[i]!)) {
      if (body[i]!.trim() !== "") above = body[i]!;
      continue;
    }
    let end = i;
    while (end + 1 < body.length && INDENTED.test(body[end + 1]!)) end++;
    const block = body.slice(i, end + 1);
    // "- Included\n    - 12 months of data": items nested under a list item stay nested.
    const nested = LIST_ITEM.test(body[i]!) && LIST_ITEM.test(above);
    above = body[end]!;
    if (nested) {
      i = end;
      continue;
    }
    const prose = block.filter((l) => !CODE_SIGNS.test(l) && l.trim().split(/\s+/).length >= 3).length;
    if (prose * 2 >= block.length) for (let k = i; k <= end; k++) out[k] = body[k]!.trimStart();
    i = end;
  }
  return out.join("\n");
}

/**
 * A double-spaced paste (a blank line after every line, as some mail clients and PDF exports send
 * it) is single-spaced again: one blank line joins its lines, two or more still part paragraphs.
 */
export function singleSpaced(text: string): string {
  const lines = text.split("\n");
  let filled = 0;
  let spaced = 0;
  let broken = 0;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() === "") continue;
    filled++;
    if (lines[i + 1]?.trim() !== "" || lines[i + 2] === undefined) continue;
    if (lines[i + 2]!.trim() !== "") spaced++;
    // A sentence that goes on after the blank line: a line break, not a paragraph's end.
    if (/[\p{Ll},]$/u.test(lines[i]!.trim()) && /^\s*\p{Ll}/u.test(lines[i + 2]!)) broken++;
  }
  // One-line paragraphs a blank line apart are common; sentences broken by one are double spacing,
  // and so are paragraphs parted by two blank lines or more (a double-spaced paragraph break).
  if (filled < 6 || spaced < filled * 0.6 || (broken < 2 && !/\n[ \t]*\n[ \t]*\n/.test(text))) return text;
  return text.replace(/\n[ \t]*\n(?![ \t]*\n)/g, "\n").replace(/\n(?:[ \t]*\n){2,}/g, "\n\n");
}

const RULE = /^[ \t]*(?:-{3,}|={3,})[ \t]*$/;

/**
 * A rule drawn under a paragraph ("Needed by: 12 March.\n------"), as plain-text reports and PDFs
 * separate their parts, is a separator: Markdown would make the paragraph a heading. A title
 * underlined is kept: one line, no sentence end.
 */
function rulesApart(text: string): string {
  const lines = text.split("\n");
  return lines
    .map((line, i) => {
      const above = lines[i - 1]?.trim() ?? "";
      if (!RULE.test(line) || above === "" || RULE.test(above)) return line;
      const oneLine = (lines[i - 2]?.trim() ?? "") === "";
      return oneLine && !/[.!?:;,]$/.test(above) ? line : `\n${line}`;
    })
    .join("\n");
}

/**
 * A table a PDF gave one cell a line ("Design\n2,900\nBuild\n5,600"): a figure alone on its line
 * goes back on the line of the short name above it, as the row it was.
 */
function cellsJoined(text: string): string {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    const figure = line.trim().replace(/^(?:\*\*|__)(.*)(?:\*\*|__)$/, "$1");
    const prev = out[out.length - 1]?.trim() ?? "";
    const name = prev !== "" && prev.split(/\s+/).length <= 8 && !/[\d.:;,]$|[\d.:;,](?:\*\*|__)$/.test(prev) && !/^\s*(?:[-*+]\s|[|>#]|\d{1,2}[.)]\s)/.test(prev);
    if (name && FIGURE_ONLY.test(figure) && /\d{3}|\d[.,' ]\d{3}|\p{Sc}|[A-Z]{3}/u.test(figure)) out[out.length - 1] = `${out[out.length - 1]!.trimEnd()}   ${line.trim()}`;
    else out.push(line);
  }
  return out.join("\n");
}

const CELL_GAP = / {3,}/;

/**
 * A table laid out with tabs or spaces (a spreadsheet's or a PDF's copy: "Milestone    Date    Invoice"
 * over "Start    7 April 2025    NOK 63 000 (30%)") as the Markdown table it is, so its header
 * decides what its rows are, as a pipe table's does: a row's first cell is no label of its own.
 * Only under a header of short names without figures, with two rows or more; a row with fewer
 * cells keeps its first cell first and its last ones last (a total row leaves a column empty).
 */
function columnTables(text: string): string {
  const lines = text.split("\n");
  const cellsOf = (line: string) => line.trim().split(CELL_GAP);
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const header = cellsOf(lines[i]!);
    // A table has a dozen columns at most: a "header" of hundreds is a line of words, and would make every row as wide.
    const isHeader = header.length >= 2 && header.length <= 12 && !/\d|[|:]\s*$/.test(lines[i]!) && header.every((c) => c.split(" ").length <= 4);
    const rows: string[][] = [];
    for (let at = i + 1; isHeader && at < lines.length && !lines[at]!.includes("|"); at++) {
      const cells = cellsOf(lines[at]!);
      if (cells.length < 2 || cells.length > header.length) break;
      rows.push(cells);
    }
    if (rows.length < 2) {
      out.push(lines[i]!);
      continue;
    }
    const row = (cells: string[]) => `| ${cells.join(" | ")} |`;
    const widened = (cells: string[]) => [cells[0]!, ...Array<string>(header.length - cells.length).fill(""), ...cells.slice(1)];
    out.push("", row(header), row(header.map(() => "---")), ...rows.map((cells) => row(widened(cells))), "");
    i += rows.length;
  }
  return out.join("\n");
}

/** Everything a review reads, before the Markdown lexer. */
export function prepare(raw: string): string {
  return jiraToMarkdown(unwrapEmail(joinStory(answersUnderQuestions(asciiTables(columnTables(rulesApart(cellsJoined(unwrapPdf(unindent(unwrapChat(singleSpaced(normalize(raw)))))))))))));
}
