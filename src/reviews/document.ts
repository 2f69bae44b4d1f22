import { Lexer, type Token, type Tokens } from "marked";
import { AMOUNT_PATTERN, COLUMNS, CURRENCIES, CURRENCY_SIGN, FIGURE_ONLY, isAction, pastStep, saysWhatHappens } from "./facts.js";
import { prepare } from "./formats.js";
import { hollowLine } from "./quality.js";

/**
 * A pasted ticket or quote as labelled sections of lines. The Markdown lexer (marked) finds
 * headings, lists, code blocks, quotes and tables; labels written inside paragraphs are found
 * line by line: "Expected result: ...", "**Steps:**", "SCOPE", "2. Scope: ...", "Scope | ...".
 * A label names a criterion when the rubric knows it; unknown labels still end the section
 * before them, so their content is read as prose.
 */
export type LineKind = "text" | "item" | "code" | "cell";

export interface Line {
  text: string;
  kind: LineKind;
  /** For items: part of a numbered list. */
  ordered?: boolean;
  /** The block (paragraph, list, code block, table) the line belongs to. */
  block: number;
}

export interface Section {
  /** The label as written, cleaned ("expected result"); empty for text before any label. */
  label: string;
  /** The criterion the label names, when the rubric knows it. */
  criterion?: string;
  /** The currency the label names, for the bare figures under it. */
  currency?: string;
  /** Taken up again after a label inside it ("Timing: ..."), rather than opened by its heading. */
  resumed?: true;
  lines: Line[];
}

/** Names the criterion a cleaned label stands for, if any. */
export type LabelResolver = (label: string) => string | undefined;

export interface ReadDocument {
  sections: Section[];
  /** Every line in order, labels left out. */
  lines: Line[];
}

const MAX_LABEL_WORDS = 10;
/** A title line: capitalised, one to five words, no sentence end, colon or figure. */
const TITLE = /^(?!(?:We|I|You|Our|Your|This|These|It|They|He|She|There|Please)\b)\p{Lu}[\p{L}'’&/-]*(?: [\p{L}'’&/-]+){0,4}$/u;
/** A section's title over its paragraph may also number it and remark on it: "PHASE 2 – Client intake portal (optional)". */
const NUMBERED_TITLE = /^(?!(?:We|I|You|Our|Your|This|These|It|They|He|She|There|Please)\b)\p{Lu}[\p{L}'’&/-]*(?: (?:[\p{L}'’&/-]+|\d{1,2}[.:]?|[–—]))*(?: \([\p{L} ,]{1,40}\))?$/u;
// The columns of a table of fields, named for what they are, not what they hold.
const GENERIC_COLUMN = /^(?:fields?|propert(?:y|ies)|attributes?|key|name|values?|details?|info|information|content)$/;
/** A section's number in front of its title: "6 ", "6. ", "6.2 ". */
const SECTION_NUMBER = /^\d{1,2}(?:\.\d{1,2})*\.?\s+(?=\p{Lu})/u;
// "Safari 17 crashes on login", "Open Settings", "Logged in as admin" are a report's line and steps, not titles.
const isTitle = (line: string) => (TITLE.test(line) || (line.split(" ").length <= 8 && /\d|\(/.test(line) && NUMBERED_TITLE.test(line))) && !isAction(line) && !pastStep(line) && !saysWhatHappens(line);
/** A list item over a list of its own names that list: "You get", "Small print, in plain words". */
const isGroupTitle = (line: string) => line.split(/\s+/).length <= 6 && !/[.!?;:]$/.test(line) && !/\d{2}/.test(line) && !isAction(line) && !pastStep(line) && !saysWhatHappens(line);
/** A short label after a sentence's end on the same line: ". Why: ...". */
// Chat writes them in lower case, or with '=' ("... export). done = new password in vault"), a
// document in bold ("... final quiz. **Not included:** LMS administration").
const RUN_ON_LABEL = /(?<=[.!?)]\s{1,4})[*_]{0,2}(\p{L}[\p{L} '’]{1,30}?)(?::[*_]{0,2}|\s=)\s/gu;
const CURRENCY_ONLY = new RegExp(`^\\(?(${CURRENCIES})\\)?(?:\\s*\\([^)]{1,20}\\)|\\s+(?:net|gross))?$`, "iu");
const CURRENCY_HEADER = new RegExp(`(?:^|[^\\p{L}])(${CURRENCIES})(?:[^\\p{L}]|$)`, "u");
/** A currency named in a section's label, in brackets, after a comma or "in" ("fees (gbp, fixed)", "price in eur"), not "notes from ron". */
const LABEL_CURRENCY = new RegExp(`(?:\\(\\s*|,\\s*|\\bin\\s+)(${CURRENCIES})(?:[^\\p{L}]|$)`, "iu");
/** A figure that ends a line, written as money is ("12,000", "2.750,00", "1,80,000.00", "19750"), not "Phase 2". */
// Not a phone number's last digits ("403-555-0182").
const TRAILING_FIGURE = /(?<![\d.,'-])(?<![A-Za-z€$£¥₹])(?<!\d )(?!(?:19|20)\d\d\s*$)(\d{1,3}(?:,\d{2})+,\d{3}(?:\.\d{2})?|\d{1,3}(?:[.,' ]\d{3})+(?:[.,]\d{2})?|\d{3,}(?:[.,]\d{2})?)\s*$/;
/** A figure written with cents ("24,600.00", "1.950,00") and no currency ("R1 150,00") or unit ("2.50 s") beside it. */
const CENTS_FIGURE = new RegExp(`(?<!${CURRENCY_SIGN}\\s?)(?<![\\d.,']\\s?)\\d{1,3}(?:[.,' ]\\d{3})*[.,]\\d{2}(?![\\d.,%])(?!\\s?(?:${CURRENCIES}|\\p{L}))`, "giu");
/** A figure grouped in thousands ("8,40,000", "12.500") in a line that adds up ("... = 9,91,200"), without a currency or a percent sign beside it. */
const SUMMED_FIGURE = new RegExp(`(?<!${CURRENCY_SIGN}\\s?)(?<![\\d.,'])(?:\\d{1,3}(?:,\\d{2})+,\\d{3}|\\d{1,3}(?:[.,']\\d{3})+)(?:[.,]\\d{2})?(?![\\d.,'%])(?!\\s?(?:${CURRENCIES}|%))`, "giu");
/** A line that adds figures up: a "+" between figures, then "=" and a result ("8,40,000 + GST 18% (1,51,200) = 9,91,200"). */
function addsUp(line: string): boolean {
  const equals = line.lastIndexOf("=");
  const plus = line.indexOf("+");
  return plus >= 0 && plus < equals && /\d/.test(line.slice(0, plus)) && /\d/.test(line.slice(equals));
}
/** A quantity times a rate and what it makes: "6 days × 11 500 kr = 69 000 kr". */
const COMPUTED = new RegExp(`^\\d[^=\\n]{0,40}?(?:×|\\bx\\b|\\*|@)[^=\\n]{0,40}=\\s*(?:${AMOUNT_PATTERN.source})\\s*\\.?$`, "i");
/** A currency just before a figure ("GBP 21,000", "€ 3,400"): the figure is priced already. */
const PRICED_BEFORE = new RegExp(`(?:${CURRENCY_SIGN})\\s*$`, "iu");
const BOLD_END = /(?:\*\*|__)(\d[\d.,' ]*)(?:\*\*|__)\s*$/;
const BARE_NUMBER = /^([*_]{0,2})\s*(\d[\d.,' ]*)\s*([*_]{0,2})$/;
const HTML_TAG = /<\/?(?:div|p|br|span|img|a|details|summary|b|i|u|s|strong|em|table|thead|tbody|tr|td|th|ul|ol|li|h[1-6]|pre|code|sub|sup|kbd|hr|input|blockquote|font|center)\b[^>]*>/gi;

export function readDocument(raw: string, resolve: LabelResolver): ReadDocument {
  // A document asks about the same few labels (table cells, repeated rows) again and again.
  const known = new Map<string, string | undefined>();
  const builder = new SectionBuilder((label) => {
    if (!known.has(label)) known.set(label, resolve(label));
    return known.get(label);
  });
  walk(Lexer.lex(prepare(raw), { gfm: true }), builder);
  return builder.result();
}

function walk(tokens: readonly Token[], out: SectionBuilder): void {
  tokens.forEach((token, i) => {
    switch (token.type) {
      case "heading":
        out.heading((token as Tokens.Heading).text);
        break;
      case "paragraph":
      case "text": {
        // "The small print" over a list, "Term" or "PHASE 2 – Portal (optional)" over its paragraph:
        // a short title line heads what is under it, known name or not, so its text is not read as
        // the section before it. A ticket's first line is its title, the author's summary: it stays.
        const [first, ...rest] = token.raw.trim().split("\n").map((l) => l.trim());
        const next = tokens[i + 1]?.type === "space" ? tokens[i + 2]?.type : tokens[i + 1]?.type;
        const heads = next === "list" ? TITLE.test(first!) : i > 0 && (rest.length > 0 || next === "paragraph" || next === "table") && isTitle(first!);
        // "... payment term 30 days.\n6 Conditions" over a list, as a PDF pastes it: the numbered
        // title on the paragraph's last line heads the list.
        const last = rest.at(-1);
        if (heads) {
          out.heading(first!);
          if (rest.length > 0) out.paragraph(rest.join("\n"));
        } else if (next === "list" && last !== undefined && SECTION_NUMBER.test(last) && isTitle(last.replace(SECTION_NUMBER, ""))) {
          out.paragraph([first!, ...rest.slice(0, -1)].join("\n"));
          out.heading(last);
        } else out.paragraph(token.raw);
        break;
      }
      case "list":
        list(token as Tokens.List, out);
        break;
      case "code":
        out.code((token as Tokens.Code).text);
        break;
      case "blockquote":
        walk((token as Tokens.Blockquote).tokens, out);
        break;
      case "table": {
        const table = token as Tokens.Table;
        out.table([table.header.map((c) => c.text), ...table.rows.map((r) => r.map((c) => c.text))]);
        break;
      }
      case "html":
        // Template comments (<!-- ... -->) and HTML tags are not the author's words; a template's
        // "<describe what happened>" is kept, to be read as the placeholder it is.
        out.paragraph(token.raw.replace(/<!--[\s\S]*?(?:-->|$)/g, "").replace(HTML_TAG, " "));
        break;
      case "hr":
        // A rule ends the part above it: a page footer under it is no part of the last section.
        out.rule();
        break;
      default:
        // space, def: nothing to read, but they end an inline label's reach.
        out.endBlock();
    }
  });
}

function list(token: Tokens.List, out: SectionBuilder): void {
  out.endBlock();
  // Numbered items set apart by blank lines, one of them a known section ("5. Payment", "6. Other
  // terms"), are a document's numbered sections; "1. Logged in as admin" in a list of steps is none.
  const firstLine = (item: Tokens.ListItem) => item.text.split("\n")[0]!;
  const sections = token.ordered && token.loose && token.items.some((item) => out.knows(firstLine(item)) && isTitle(firstLine(item)));
  for (const item of token.items) {
    const [first, ...rest] = item.tokens.filter((t) => t.type !== "checkbox");
    const head = first && (first.type === "text" || first.type === "paragraph") ? first.raw : "";
    // A line after an item that is a label of its own ("2. Click Pay\nExpected: ...") is lazily
    // continued into the item by Markdown; here it starts its section again.
    const nested = rest.some((t) => t.type === "list");
    out.listItem(head.split("\n"), token.ordered, item.task ? item.checked === true : undefined, nested || rest.some((t) => t.type !== "space") || token.items.length === 1 || sections, nested);
    walk(first && head === "" ? [first, ...rest] : rest, out);
  }
  out.endList();
}

class SectionBuilder {
  private readonly sections: Section[] = [{ label: "", lines: [] }];
  private readonly lines: Line[] = [];
  /** The section a heading opened; an inline label's section lasts until its block ends. */
  private outer: Section = this.sections[0]!;
  private inline = false;
  /** The inline label's text ends with a colon: what comes next, a list, is what it introduces. */
  private introducing = false;
  private block = 0;
  /** The currency each column of the current table is headed by. */
  private currencies: (string | undefined)[] = [];
  /** The currency a column header line names ("Item        Amount (INR)"), for the figures under it in its section. */
  private blockCurrency: string | undefined;

  constructor(private readonly resolve: LabelResolver) {}

  result(): ReadDocument {
    return { sections: this.sections.filter((s) => s.lines.length > 0 || s.label !== ""), lines: this.lines };
  }

  /** A line that is a known section's name on its own ("4. Payment terms"). */
  knows(line: string): boolean {
    return isKnownBare(line, this.resolve);
  }

  heading(text: string): void {
    this.endBlock();
    const inline = inlineLabel(text, this.resolve);
    if (inline?.rest) {
      this.open(inline.label, false);
      this.add(inline.rest, "text");
      return;
    }
    this.open(cleanLabel(text), true);
  }

  rule(): void {
    this.endBlock();
    this.open("", true);
  }

  paragraph(raw: string): void {
    this.endBlock();
    for (const line of raw.split("\n")) this.textLine(line);
    this.endBlock();
  }

  code(text: string): void {
    this.endBlock();
    if (text.trim() !== "") this.add(text, "code");
    this.endBlock();
  }

  table(rows: string[][]): void {
    this.endBlock();
    // "| Item | Price |", "| Payment | Share | Amount |": a header of short names, one of which names
    // a criterion, puts the whole table under it; its rows ("Testing and launch | £2,800") are
    // lines of that table, not labels of their own.
    const header = (rows[0] ?? []).map((c) => cleanLabel(c));
    const isHeader = header.length >= 2 && header.every((c) => !/\d/.test(c) && wordsOf(c) <= 4);
    // A table of labels and their values ("| Field | Detail |" over "| Problem | ... |") is not one,
    // unless its first column is headed by a section's name ("| Payment schedule | Share |" over
    // "| On delivery of draft plan | 40% |", a row that only seems to name the timeline).
    const labelRows = rows.slice(1).filter((cells) => this.resolve(cleanLabel(cells[0] ?? "")) !== undefined).length;
    const firstNamed = header[0] !== undefined && header[0] !== "" && this.resolve(header[0]) !== undefined;
    const headed = isHeader && (labelRows < 2 || firstNamed);
    // Right under the label that introduces it ("**Payment schedule**" over "| Milestone | % | Amount |"),
    // a table is that label's, whatever its columns are called.
    const last = this.sections[this.sections.length - 1]!;
    const introduced = headed && last.criterion !== undefined && last.lines.length === 0;
    // "| Phase | Amount |" under "💰 Investment" is the price's table, though "Phase" could name the timeline.
    const named = headed && !introduced ? (header.find((c) => last.criterion !== undefined && this.resolve(c) === last.criterion) ?? header.find((c) => c !== "" && !GENERIC_COLUMN.test(c) && this.resolve(c) !== undefined)) : undefined;
    if (named !== undefined) this.open(named, false);
    // A table of labels, or one whose columns are only called so ("| Property | Value |"), says
    // nothing in its header: it is no line of the text.
    const saysNothing = isHeader && (!headed || header.every((c) => GENERIC_COLUMN.test(c)));
    for (const cells of saysNothing ? rows.slice(1) : rows) this.row(cells.map((c) => c.trim()), named !== undefined || introduced);
    this.endBlock();
  }

  item(text: string, ordered: boolean, checked: boolean | undefined, nested = false): void {
    // "- browser: Safari 18" labels its own item, not the items after it.
    if (!this.introducing) this.closeInline();
    // "3. Deliverables. A gap report with a rating per control, a\n   prioritised roadmap, ...": the
    // label is on the item's first line; the lines the item wraps onto go on with its text.
    const [head, ...wrapped] = text.split("\n");
    const inline = inlineLabel(head!, this.resolve);
    // "- Monitoring and handover: 3,600" under a price is a line item, whatever its name says, and
    // so is "- Tracking plan & implementation: 6 days × 11 500 kr = 69 000 kr".
    if (inline && (inline.rest || inline.known) && !FIGURE_ONLY.test(inline.rest) && !COMPUTED.test(inline.rest)) {
      const rest = [inline.rest, ...wrapped.map((l) => l.trim())].filter((l) => l !== "").join(" ");
      // "- Deliverables:" over a list nested in it names that list alone: the items after it at its
      // own level ("- Dates: Mar 10 – Apr 11") are no longer its own.
      this.open(inline.label, rest === "" && !nested);
      if (rest) this.add(rest, "text");
      if (nested) this.introducing = true;
      return;
    }
    // A numbered line that is a known section name ("4. Payment terms") is a heading.
    if (ordered && isKnownBare(text, this.resolve)) {
      this.open(cleanLabel(text), true);
      return;
    }
    this.add(checked === undefined ? text : `${checked ? "[x]" : "[ ]"} ${text}`, "item", ordered);
  }

  /**
   * An item's lines: continuation lines belong to it ("Given ...\n When ...\n Then ..."), but
   * for a label. An item that is itself a section name ("9. ACCEPTANCE PROCEDURE") is a heading,
   * and the lines under it are its text.
   */
  listItem(lines: string[], ordered: boolean, checked: boolean | undefined, holds = false, nested = false): void {
    // Markdown leaves a line break after an item's text when a list is nested in it: no line of its own.
    const trimmed = lines.map((l) => l.trim());
    while (trimmed.length > 1 && trimmed.at(-1) === "") trimmed.pop();
    const [first, ...more] = trimmed;
    // "4. Acceptance." over its numbered points is a section heading, full stop and all, and so is
    // "6. Other terms" over what it holds, alone in its list or among numbered sections set apart by
    // blank lines, known name or not; a step with a name nobody knows ("1. Open Settings", "1. Went
    // to Reports") is no title (isTitle).
    const heading =
      ((ordered && isKnownBare(/^[\p{L} ]{1,40}\.$/u.test(first!) ? first!.slice(0, -1) : first!, this.resolve)) ||
        (ordered && (more.length > 0 || holds) && isTitle(first!)) ||
        (nested && isGroupTitle(first!)) ||
        (more.length > 0 && standaloneLabel(first!, this.resolve) !== undefined));
    if (heading) {
      this.open(cleanLabel(first!), true);
      for (const line of more) this.textLine(line);
      return;
    }
    const labelAt = more.findIndex((l) => inlineLabel(l, this.resolve)?.known === true || isKnownBare(l, this.resolve));
    const own = labelAt < 0 ? more : more.slice(0, labelAt);
    this.item([first!, ...own].filter((l) => l !== "").join("\n"), ordered, checked, nested);
    if (labelAt >= 0) for (const line of more.slice(labelAt)) this.textLine(line);
  }

  endList(): void {
    this.introducing = false;
    this.endBlock();
  }

  endBlock(): void {
    this.block++;
    this.currencies = [];
    // "Proposed solution: Distinct exit codes:" introduces the list under it, which is its section's too.
    if (!this.introducing) this.closeInline();
  }

  private textLine(raw: string): void {
    const line = raw.trim();
    if (line === "") {
      this.endBlock();
      return;
    }
    // "Price item\nEUR (net)\nDesign   2,900": a currency alone under a section's name, as a table's
    // header cells come out of a PDF a line each, prices the figures under it.
    const current = this.sections[this.sections.length - 1]!;
    const currency = current.criterion !== undefined && current.lines.length <= 1 ? CURRENCY_ONLY.exec(line)?.[1] : undefined;
    if (currency) {
      this.blockCurrency = currency;
      return;
    }
    // "What: add the codes. Why: the catalogue applies from 1 January. Done when: ...": labels the
    // rubric knows, run together on one line, each start a line of their own.
    const cuts = [...line.matchAll(RUN_ON_LABEL)].filter((m) => m.index > 0 && this.resolve(cleanLabel(m[1]!)) !== undefined).map((m) => m.index);
    if (cuts.length > 0) {
      [0, ...cuts].forEach((from, i) => this.labelledLine(line.slice(from, cuts[i] ?? line.length).trim()));
      return;
    }
    this.labelledLine(line);
  }

  /** A line with no other label run on into it. */
  private labelledLine(line: string): void {
    // "a. lists its 2 upstream columns": lettered items are numbered ones.
    const listMarker = /^(?:(\d{1,2}[.)]|[a-h]\.)|[-*•+]|\(?[a-z]\))\s+(\S.*)$/i.exec(line);
    if (listMarker && !/^\d{1,2}\.\d/.test(line)) {
      this.item(listMarker[2]!, listMarker[1] !== undefined, undefined);
      return;
    }
    if (/^step\s*\d+\s*[:.)-]\s*\S/i.test(line)) {
      this.add(line.replace(/^step\s*\d+\s*[:.)-]\s*/i, ""), "item", true);
      return;
    }
    // "Env: prod, 7.3.0 | Repro: Settings → Invite | Expected: ..." (or with dashes between):
    // labelled fields one after another on a line, each its own section.
    const fields = /\||\s[—–]\s/.test(line) ? line.replace(/^\||\|$/g, "").split(/(?<!\s)\s*\|\s*|(?<=\S)\s+[—–]\s+/) : [line];
    if (fields.length >= 2 && fields.filter((f) => inlineLabel(f, this.resolve)?.known === true).length >= 2) {
      for (const field of fields) if (field.trim() !== "") this.labelledLine(field.trim());
      return;
    }
    if (line.includes("|")) {
      const cells = line.replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
      if (cells.length >= 2 && cells.every((c) => c.length < 300)) {
        this.row(cells);
        return;
      }
    }
    const inline = inlineLabel(line, this.resolve);
    // "### Proposed solution\nDistinct exit codes:\n- 0 success ...": an unknown name right under a
    // known heading introduces that section's content; it does not end it. After "Payment: ..." has
    // ended, "A few other things:" opens a section of its own.
    const current = this.sections[this.sections.length - 1]!;
    const leadIn = inline !== undefined && !inline.known && current.criterion !== undefined && current.lines.length === 0 && !current.resumed;
    // "4.5 Total fixed price: £58,500 excluding VAT" under "4. Price" is the price's total line, its word "total" and all.
    const totalLine = inline !== undefined && /\btotal\b/.test(inline.label) && current.criterion !== undefined && this.resolve(inline.label) === current.criterion;
    if (inline && !leadIn && !totalLine && (inline.rest === "" || inline.known) && !FIGURE_ONLY.test(inline.rest)) {
      // "Price item        EUR (net)": a known name over a column of figures in the currency it names.
      const currency = CURRENCY_ONLY.exec(inline.rest)?.[1];
      this.open(inline.label, inline.rest === "" || currency !== undefined);
      if (currency) this.blockCurrency = currency;
      else if (inline.rest) this.add(inline.rest, "text");
      this.introducing = this.inline && inline.rest.endsWith(":");
      return;
    }
    // A column header ("Phase        EUR", "Item        Amount (INR)") heads the rows under it, not a
    // section; the currency it names prices their figures (a sentence, "All amounts are in EUR", does not).
    const header = !/\d/.test(line) && COLUMNS.test(line);
    const standalone = header ? undefined : standaloneLabel(line, this.resolve);
    if (standalone !== undefined) {
      this.open(standalone, true);
      return;
    }
    if (header) this.blockCurrency = CURRENCY_HEADER.exec(line)?.[1] ?? this.blockCurrency;
    this.add(line, "text");
  }

  /**
   * "Scope | We build ..." credits the scope; any other row is a line of cells, and belongs to
   * the labelled row above it in the same table ("| Price item | EUR |" over "| Design | 2,900 |").
   * A bare number in a column headed by a currency is an amount in it.
   */
  private row(raw: string[], locked = false): void {
    const cells = raw.filter((c) => !/^:?-{3,}:?$/.test(c));
    if (cells.some((c) => CURRENCY_HEADER.test(c) && !/\d/.test(c))) {
      this.currencies = cells.map((c) => (/\d/.test(c) ? undefined : CURRENCY_HEADER.exec(c)?.[1]));
    } else {
      cells.forEach((cell, i) => {
        const m = this.currencies[i] ? BARE_NUMBER.exec(cell) : null;
        if (m) cells[i] = `${m[1]}${this.currencies[i]} ${m[2]!.trim()}${m[3]}`;
      });
    }
    const [first, ...rest] = cells.filter((c) => c !== "");
    if (first === undefined) return;
    const label = cleanLabel(first);
    // "Type: Question | Group: Product Specialists": a line of fields, whose first cell is a field of its own, not a label.
    if (!locked && rest.length > 0 && !/:\s*\S/.test(first) && wordsOf(label) <= MAX_LABEL_WORDS && this.resolve(label) !== undefined) {
      this.closeInline();
      this.open(label, false);
      // "| Acceptance | 1) Delete fails. 2) A retention job skips it. |": a numbered list in a cell.
      const value = rest.join(" | ");
      const numbered = value.split(/(?:^|\s)\d{1,2}[.)]\s+/).map((p) => p.trim()).filter((p) => p !== "");
      if ((value.match(/(?:^|\s)\d{1,2}[.)]\s+/g) ?? []).length >= 2 && /^\d{1,2}[.)]\s/.test(value)) {
        this.block++;
        for (const item of numbered) this.add(item, "item", true);
      } else this.add(value, "cell");
      return;
    }
    this.add([first, ...rest].join(" | "), "cell");
  }

  /** Back to the heading's section: text after a blank line belongs to it again. */
  private closeInline(): void {
    if (!this.inline) return;
    this.inline = false;
    const resumed: Section = { ...this.outer, resumed: true, lines: [] };
    this.sections.push(resumed);
    this.outer = resumed;
  }

  private open(label: string, heading: boolean): void {
    this.blockCurrency = undefined;
    const criterion = this.resolve(label);
    // A label inside a section ("| Role | Hours | Rate | Estimate |" under "Estimate (CAD)") keeps
    // the currency the section's heading named, unless it names its own.
    const currency = LABEL_CURRENCY.exec(label)?.[1]?.toUpperCase() ?? (heading ? undefined : this.outer.currency);
    const section: Section = { label, ...(criterion !== undefined ? { criterion } : {}), ...(currency ? { currency } : {}), lines: [] };
    this.sections.push(section);
    if (heading) {
      this.outer = section;
      this.inline = false;
    } else this.inline = true;
  }

  private add(raw: string, kind: LineKind, ordered?: boolean): void {
    if (kind === "text") this.introducing = false;
    const section = this.sections[this.sections.length - 1]!;
    // Under "Fees (GBP, excl. VAT)", "Build and deployment ...... 12,000" is GBP 12,000.
    const currency = section.currency ?? this.blockCurrency;
    // A figure after another number ("Phase 1 – 3,500.00") keeps a dash between them: "1 EUR" is no amount.
    // "**Total**   **29,100**": the figure in bold is the row's figure all the same.
    // "Implementation (25 days @ £620)     15,500": a currency elsewhere on the row does not price its last figure.
    const unbold = raw.replace(BOLD_END, "$1");
    const trailing = currency && kind !== "code" ? unbold.replace(TRAILING_FIGURE, (figure, _f, at: number) => (PRICED_BEFORE.test(unbold.slice(0, at)) ? figure : `${/\d\s*$/.test(unbold.slice(0, at)) ? "– " : ""}${currency} ${figure.trim()}`)) : raw;
    // "Total 24,600.00; GST 9% 2,214.00; total payable SGD 26,814.00": a figure with cents is money too, wherever it stands.
    // "Total — 8,40,000 + GST 18% (1,51,200) = 9,91,200": each figure a sum adds is money as well.
    const summed = currency && kind !== "code" && addsUp(trailing) ? trailing.replace(SUMMED_FIGURE, (figure) => `${currency} ${figure}`) : trailing;
    const text = currency && kind !== "code" ? summed.replace(CENTS_FIGURE, (figure) => `${currency} ${figure}`) : summed;
    const line: Line = { text, kind, block: this.block, ...(ordered !== undefined && kind === "item" ? { ordered } : {}) };
    section.lines.push(line);
    this.lines.push(line);
  }
}

/** Lower case, without numbering, emphasis, '#', 'e.g.' remarks or trailing ':' and '?'. */
export function cleanLabel(text: string): string {
  return text
    .toLowerCase()
    .replace(/\((?:e\.g\.|optional|required)[^)]*\)/g, " ")
    .replace(/^\s*(?:\d+(?:\.\d+)*[.)]?|[a-z][.)]|[ivx]+[.)])\s+/, "")
    .replace(/[*_`#:?!.]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

function wordsOf(text: string): number {
  return text === "" ? 0 : text.split(" ").length;
}

/**
 * "Expected result: the order is placed", "**Env:** Chrome 126", "2. Scope: ...", "**Problem** ...".
 * The label part is short and starts with a letter; a time ("10:30") or a URL ("https://") is not a
 * label.
 */
function inlineLabel(line: string, resolve: LabelResolver): { label: string; rest: string; known: boolean } | undefined {
  return colonLabel(line, resolve) ?? softLabel(line, resolve) ?? boldRunIn(line, resolve);
}

function colonLabel(line: string, resolve: LabelResolver): { label: string; rest: string; known: boolean } | undefined {
  const m = /^(?:\d+(?:\.\d+)*[.)]?\s+)?[*_]{0,2}([\p{L}][\p{L}\p{N} /&'’(),.-]{0,60}?\??)[*_]{0,2}\s*[:：]\s*[*_]{0,2}(?!\/\/)\s*(.*)$/u.exec(line.trim()) ?? equalsLabel(line) ?? alignedLabel(line, resolve);
  if (!m) return undefined;
  const label = cleanLabel(m[1]!);
  if (label === "" || wordsOf(label) > MAX_LABEL_WORDS) return undefined;
  const rest = m[2]!.replace(/^[*_]{1,2}\s*/, "").trim();
  // An unknown label with text after it is prose ("Note: ..."); alone on its line it is a heading.
  const known = resolve(label) !== undefined;
  if (!known && rest !== "") return undefined;
  if (!known && wordsOf(label) > 6) return undefined;
  // "USD 64,500 fixed, excl. sales tax:" introduces its lines; an amount is not a section name.
  if (!known && /\d{2}/.test(label)) return undefined;
  return { label, rest, known };
}

/** "Acceptance    M3 is reached when ...": a known name, then its value in a column aligned with spaces. */
function alignedLabel(line: string, resolve: LabelResolver): RegExpExecArray | null {
  const m = /^([\p{L}][\p{L}'’&/-]*(?: [\p{L}'’&/-]+){0,3})[ ]{3,}(\S.*)$/u.exec(line.trim());
  // "Phase        EUR" heads two columns: a value of one word says nothing of its own.
  return m && /\S\s+\S/.test(m[2]!) && resolve(cleanLabel(m[1]!)) !== undefined ? m : null;
}

/** "done = new password in vault, old one revoked": a known name, an equals sign and its value. */
function equalsLabel(line: string): RegExpExecArray | null {
  return /^([\p{L}][\p{L} ]{0,20}?)\s=\s+(\S.*)$/u.exec(line.trim());
}

/**
 * "2. Scope. A gap analysis of ...", "Payment terms - 30 days net": a known section name before a
 * full stop or a spaced dash. Only a name (a few words, no verb or pronoun) counts, so a sentence
 * such as "Pricing is fixed. ..." stays prose.
 */
function softLabel(line: string, resolve: LabelResolver): { label: string; rest: string; known: boolean } | undefined {
  const m = /^(?:\d+(?:\.\d+)*[.)]?\s+)?[*_]{0,2}([\p{L}][\p{L} /&'’-]{0,40}?)[*_]{0,2}(?:\.|\s+[-–—])\s+(\S.*)$/u.exec(line.trim());
  if (!m) return undefined;
  const label = cleanLabel(m[1]!);
  // "What you will get. The source code ...": a title asked as a question may have its verb.
  const titled = /^(?:what|how|when|who)\b/.test(label);
  if (label === "" || wordsOf(label) > (titled ? 5 : 4) || (!titled && /\b(?:is|are|was|were|will|be|been|has|have|had|we|i|it|they|he|she|can|shall|should|would|may|must|do|does|did|this|that|these|those|there)\b/.test(label))) return undefined;
  if (resolve(label) === undefined) return undefined;
  return { label, rest: m[2]!.trim(), known: true };
}

// A few words and the amount they cost, perhaps with its tax: "for the first 12 months €2,400 excl. VAT".
const PRICED_ITEM = new RegExp(`^[^.!?]{0,60}?(?:${AMOUNT_PATTERN.source})(?:\\s*(?:excl|incl|plus|\\+)\\.?\\s*\\p{L}+)?\\s*$`, "iu");

/**
 * "**Problem** Teachers grant ...", "**6. Acceptance** The release ...", "**What did you expect?**
 * The PDF ...": a known name in bold at the start of a line, run in with its text. The bold marks
 * it as a label, so a question or a verb in it is no sign of prose.
 */
function boldRunIn(line: string, resolve: LabelResolver): { label: string; rest: string; known: boolean } | undefined {
  const m = /^(?:\d+(?:\.\d+)*[.)]?\s+)?(?:\*\*|__)(?:\d+(?:\.\d+)*[.)]?\s+)?([\p{L}][^*_]{0,80}?)(?:\*\*|__)\s+(\S.*)$/u.exec(line.trim());
  if (!m) return undefined;
  const label = cleanLabel(m[1]!);
  // "- **Support** for the first 12 months €2,400" is a priced item that names a term, not its section.
  if (label === "" || wordsOf(label) > MAX_LABEL_WORDS || resolve(label) === undefined || PRICED_ITEM.test(m[2]!)) return undefined;
  return { label, rest: m[2]!.trim(), known: true };
}

/** A line that is a label by its form: bold alone, ALL CAPS, or a known name on its own. */
function standaloneLabel(line: string, resolve: LabelResolver): string | undefined {
  // "_No response_" is an issue form's empty answer, not a heading in italics.
  if (hollowLine(line) !== undefined) return undefined;
  // "**Total**   **EUR 29,100**" is a row of two bold cells, not one bold line.
  const bold = /^(?:\*\*|__)((?:(?!\*\*|__).)+)(?:\*\*|__)$|^[*_]([^*_]+)[*_]$/.exec(line);
  if (bold) {
    const label = cleanLabel(bold[1] ?? bold[2]!);
    if (wordsOf(label) <= MAX_LABEL_WORDS && !/[.!]$/.test((bold[1] ?? bold[2]!).trim())) return label;
  }
  const letters = line.replace(/[^\p{L}]/gu, "");
  // "TOTAL 41,000" in capitals is a figure, not a heading.
  if (letters.length >= 3 && letters === letters.toUpperCase() && /\p{Lu}/u.test(letters) && wordsOf(cleanLabel(line)) <= 8 && !/[.!?]$/.test(line) && !/%|\d{2}/.test(line)) {
    return cleanLabel(line);
  }
  if (isKnownBare(line, resolve)) return cleanLabel(line);
  return undefined;
}

/** "Scope", "4. Payment terms", "What happened?": short, no sentence end, and a known name. */
function isKnownBare(line: string, resolve: LabelResolver): boolean {
  // "6. Fees (fixed, excl. VAT; 20 days at £1,150)": a remark in brackets after the name is no text.
  const name = line.trim().replace(/(?<!\s)\s*\([^()]*\)$/, "");
  // "Executive summary for leadership; technical report with findings," is a wrapped line of text.
  if (/[.!,]$/.test(name) || name.includes(";")) return false;
  const label = cleanLabel(name);
  // "30% on final acceptance (EUR 12,600)" is an item that mentions a section, not its name.
  if (/%|\d{2}/.test(label)) return false;
  return wordsOf(label) > 0 && wordsOf(label) <= MAX_LABEL_WORDS && resolve(label) !== undefined;
}
