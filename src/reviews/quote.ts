import type { QuoteRubric, Service } from "../catalog/types.js";
import { judge, publicCriterion, score, tooVague, type Assessment, type Judgement, type PublicCriterion } from "./assess.js";
import { ABBREVIATIONS, AMOUNT_PATTERN, COLUMNS, CURRENCY_SIGN, DAY_MONTH_YEAR, findFact, MONTH } from "./facts.js";
import { normalize } from "./formats.js";
import { leftIn } from "./quality.js";

/**
 * Quote review: completeness against the statement-of-work rubric, consistency of the numbers,
 * and a counter proposal that keeps what is there, asks about what is vague and adds what is
 * missing from the clause library, never inventing the vendor's amounts.
 */
export interface ConsistencyCheck {
  check: "currency" | "total" | "payment-shares" | "computation" | "payment-amounts";
  ok: boolean;
  message: string;
}

export interface QuoteReview {
  score: number;
  threshold: number;
  passed: boolean;
  summary: string;
  criteria: PublicCriterion[];
  consistency: ConsistencyCheck[];
  counterProposal: {
    keep: string[];
    clarify: string[];
    add: { section: string; clause: string }[];
    services: { id: string; title: string; from: number; currency: string; url: string }[];
  };
}

const CURRENCY: Record<string, string> = {
  "€": "EUR", $: "USD", "£": "GBP", EURO: "EUR", EUROS: "EUR", DOLLAR: "USD", DOLLARS: "USD", POUND: "GBP", POUNDS: "GBP", "₹": "INR", "¥": "JPY",
  "A$": "AUD", "AU$": "AUD", "C$": "CAD", "CA$": "CAD", "NZ$": "NZD", "US$": "USD", "S$": "SGD", "HK$": "HKD", "R$": "BRL", RS: "INR", RUPEES: "INR", KR: "KR", "KČ": "CZK", "ZŁ": "PLN", KSH: "KES", R: "ZAR",
};

/** "42,000", "12.500,00", "1 250", "42k" → number; the last separator followed by two digits is decimal. */
export function parseAmount(text: string): number {
  const scale = /k$/i.test(text.trim()) ? 1000 : /m$/i.test(text.trim()) ? 1_000_000 : 1;
  const compact = text.replace(/[' kKmM]/g, "");
  const decimal = /[.,](\d{1,2})$/.exec(compact);
  const whole = (decimal ? compact.slice(0, -decimal[0].length) : compact).replace(/[.,]/g, "");
  return (Number(whole) + (decimal ? Number(decimal[1]) / 10 ** decimal[1]!.length : 0)) * scale;
}

interface Amount {
  currency: string;
  value: number;
  line: string;
  /** The amount as written. */
  raw: string;
  /** Where in its line it stands. */
  at: number;
  /** A rate a quantity is priced at ("25 × 420 €", "20 tester-days at £1,150"), not what an item costs. */
  rate: boolean;
}

// "12 * €900" multiplies; "**€900**" is bold.
// Looked for just before each amount (sticky, from the amount's place), not by copying the line up to it.
const RATE_BEFORE = /(?<=(?:×|\bx|(?<!\*)\*|@|\bat|\brate(?: of)?)\s*)/iy;

function rateAt(line: string, at: number): boolean {
  RATE_BEFORE.lastIndex = at;
  return RATE_BEFORE.test(line);
}

// "Fixed fee of USD 96,000, as follows:" and "fixed £4,350, broken down as" state the total the
// lines under them make; "..., consisting of Rs. 1,40,000 for ..." goes on with an item.
const LEAD_IN_WORDS = "\\b(?:as follows|broken down(?: as)?|breaks down(?: as)?|made up of|consisting of|comprising|split (?:as|into))\\s*(?::\\s*)?";
const LEAD_IN = `${LEAD_IN_WORDS}$`;
// A table row ("Design | EUR 2,900") is one piece; "design €6,000 | build €9,000" is two. A full
// stop ends a piece, but for an abbreviation's ("Total (excl. VAT) | £32,400"), and so does a
// comma (a lead-in after one goes back to the amount before it: leadsIn).
const PIECE_END = new RegExp(`;\\s*|,\\s+(?=\\D)|(?<!\\b(?:${ABBREVIATIONS}))\\.\\s+`, "i");

const AN_AMOUNT = new RegExp(AMOUNT_PATTERN.source, "iu");

/**
 * "design €6,000 | build €9,000" and "design €6,000 and build €9,000" are two items; a table row
 * "Dell WD19S dock | 25 | CAD 240.00 | CAD 6,000.00" is one, priced at its last amount.
 */
function itemsOf(line: string): string[] {
  if ((line.match(AMOUNT_PATTERN) ?? []).length < 2) return [line];
  const pieces = line.split(/(?<=\S)\s[|·•]\s|(?<=\S)\s+and\s+|(?<=\bin total)\s*\(/i).flatMap(goesOn);
  const named = pieces.every((piece) => !AN_AMOUNT.test(piece) || /\p{L}{3,}/u.test(piece.replace(AMOUNT_PATTERN, "")));
  return named ? pieces : [line];
}

// "Our fixed price is KES 800,000 excluding VAT: KES 180,000 for design, ...", "48 000 Kč in total —
// illustrations ...": after an amount, a colon or a dash goes on with the items it is made of.
// Amounts and separators are found once each and walked together: a line of thousands stays linear.
const GOES_ON = /:\s+|\s[—–-]\s/g;
function goesOn(piece: string): string[] {
  const found = [...piece.matchAll(AMOUNT_PATTERN)].map((m) => [m.index, m.index + m[0].length] as const);
  if (found.length < 2) return [piece];
  const lastStart = found[found.length - 1]![0];
  const out: string[] = [];
  let from = 0;
  let next = 0;
  for (const m of piece.matchAll(GOES_ON)) {
    while (next < found.length && found[next]![0] < from) next++;
    const before = next < found.length && found[next]![1] <= m.index;
    if (before && lastStart >= m.index + m[0].length) {
      out.push(piece.slice(from, m.index));
      from = m.index + m[0].length;
    }
  }
  return [...out, piece.slice(from)];
}

/**
 * "USD 96,000, as follows:", "Our fee is ₹4,50,000, made up of ₹90,000 for design, ...": the lead-in
 * words go with the amount before them, which they make a total, and what follows them is an item.
 */
function leadsIn(pieces: string[]): string[] {
  for (let i = 1; i < pieces.length; i++) {
    const lead = LEAD_IN_START.exec(pieces[i]!);
    if (lead && AN_AMOUNT.test(pieces[i - 1]!)) [pieces[i - 1], pieces[i]] = [`${pieces[i - 1]}, ${lead[0].trim()}`, pieces[i]!.slice(lead[0].length)];
  }
  return pieces;
}
const LEAD_IN_START = new RegExp(`^${LEAD_IN_WORDS}`, "i");

/** Amounts with the part of the text they stand in: a line, or a piece of one ("design EUR 6,000; build ..."). */
function amounts(text: string): Amount[] {
  const out: Amount[] = [];
  // A row laid out in columns or cells ("Total fixed price, net        27.530,00", "Total fixed fee,
  // excl. VAT | GBP 21,000") is one piece, commas and all.
  const pieces = text.split("\n").flatMap((line) => (COLUMNS.test(line.trim()) || line.includes(" | ") ? [line] : leadsIn(line.split(PIECE_END)))).flatMap(itemsOf);
  for (const line of pieces) {
    for (const m of line.matchAll(AMOUNT_PATTERN)) {
      const symbol = m[0].replace(/[\d.,' ]|(?<=\d\s?)[kKmM](?!\p{L})/gu, "").trim().toUpperCase();
      out.push({ currency: CURRENCY[symbol] ?? symbol, value: parseAmount(m[1] ?? m[2] ?? "0"), line, raw: m[0], at: m.index, rate: rateAt(line, m.index) });
    }
  }
  return out;
}

const UNIT = "(?:[\\p{L}-]+\\s+){0,2}?(?:days?|hours?|hrs?|weeks?|months?|sprints?|licen[cs]es?|seats?|users?|units?|pages?|items?)";
// "= ", ", which comes to ", ", which gives a fixed price of ", ", making ": what leads to the result.
const RESULT_IS = "(?:\\s*(?:=|→|:)|,?\\s*(?:which\\s+)?(?:comes?|amounts?)\\s+to|,?\\s*(?:which\\s+)?(?:gives?|makes?)\\s+(?:(?:a|an|the)\\s+)?(?:(?:fixed|total|project)\\s+)?(?:price|fee|total|cost)\\s+of|,?\\s*(?:making|totall?ing|in total))";
const AMOUNT = AMOUNT_PATTERN.source;
/**
 * "12 days × €850 = €11,050", "48 consultant days at a day rate of EUR 1,050, which comes to EUR
 * 50,400", "2 devs × 15 days × $800/day = $24,000": a count in front, on the same line, multiplies
 * it; when the rate is per what that count counts ("3 sprints × 2 weeks at €8,000 per sprint"), it
 * is the quantity.
 */
const COMPUTATION = new RegExp(
  `(?<!\\+\\s?)\\b(?:(?<times>\\d{1,3})[ \\t]*(?<counted>\\p{L}+)?[ \\t]*(?:×|x)[ \\t]+)?(?<count>\\d+(?:[.,]\\d+)?)\\s*${UNIT}?\\s*(?:×|x|\\*|@|at)\\s*(?:an?\\s+(?:\\p{L}+\\s+)?rate\\s+of\\s+)?(?<rate>${AMOUNT})(?:\\s*(?:per|/|a|an)\\s*(?<per>\\p{L}+))?\\s*${RESULT_IS}\\s*(?<result>${AMOUNT})`,
  "giu",
);

// "+ 12 × ", "- ", "+ 10 days × ": how a term joins the sum, and how many times it counts.
const JOINS = /^\s*([+\-−–])\s*(?:(\d{1,3})\s*(?:[\p{L}-]+\s+){0,2}?[×x*]\s*)?$/u;
const COUNTED = /(\d{1,3})\s*(?:[\p{L}-]+\s+){0,2}?[×x*]\s*$/u;

/**
 * "R 36 000,00 + 12 × R 28 500,00 = R 378 000,00": a sum of amounts, each perhaps counted, against
 * its result. Read amount by amount along each line, so a line of thousands of "+" stays linear.
 */
function sums(text: string): { stated: number; computed: number; found: string }[] {
  const out: { stated: number; computed: number; found: string }[] = [];
  for (const line of text.split("\n")) {
    if (!line.includes("+") || !line.includes("=")) continue;
    let terms: number[] = [];
    let from = 0;
    let end = 0;
    for (const m of line.matchAll(AMOUNT_PATTERN)) {
      const gap = line.slice(end, m.index);
      const value = parseAmount(m[1] ?? m[2] ?? "0");
      const joins = JOINS.exec(gap);
      if (terms.length >= 2 && /^\s*=\s*$/.test(gap) && line.slice(from, m.index).includes("+")) {
        out.push({ stated: value, computed: terms.reduce((a, n) => a + n, 0), found: line.slice(from, m.index + m[0].length).replace(/\s+/g, " ") });
        terms = [];
      } else if (joins && terms.length > 0) terms.push((joins[1] === "+" ? 1 : -1) * value * Number(joins[2] ?? 1));
      else {
        const counted = COUNTED.exec(line.slice(Math.max(0, m.index - 30), m.index));
        terms = [value * Number(counted?.[1] ?? 1)];
        from = m.index - (counted?.[0].length ?? 0);
      }
      end = m.index + m[0].length;
    }
  }
  return out;
}

function valueOf(amount: string): number {
  const m = new RegExp(AMOUNT, "i").exec(amount);
  return parseAmount(m?.[1] ?? m?.[2] ?? "0");
}

/** Quantity times rate against the result the quote states; lines stay apart, for a count in front is on its line. */
function computations(text: string): { stated: number; computed: number; found: string }[] {
  const singular = (word: string | undefined) => word?.toLowerCase().replace(/s$/, "");
  const flat = text.replace(/[ \t]+/g, " ");
  // "€720 per day for 4 weeks" counts in another unit than it is priced in: nothing to check. A
  // text with no "for <count>" has none, and a run of figures is not searched for one.
  const rateFirst = (/\bfor \d/i.test(flat) ? [...flat.matchAll(RATE_FIRST)] : [])
    .filter((m) => singular(m.groups!.per) === singular(m.groups!.counted))
    .map((m) => ({ stated: valueOf(m.groups!.result!), computed: Number(m.groups!.count) * valueOf(m.groups!.rate!), found: m[0].replace(/\s+/g, " ").trim() }));
  return [...flat.matchAll(COMPUTATION)].map((m) => {
    const { times, counted, count, rate, per, result } = m.groups!;
    const perCounted = counted !== undefined && singular(counted) === singular(per);
    // "3 sprints × 2 weeks at €8,000 per sprint": the rate is per sprint, so the sprints are what it multiplies.
    const quantity = perCounted ? Number(times) : Number(times ?? 1) * Number(count!.replace(",", "."));
    return { stated: valueOf(result!), computed: quantity * valueOf(rate!), found: m[0].replace(/\s+/g, " ") };
  }).concat(rateFirst, sums(text));
}

const TOTAL = new RegExp(`\\b(?:total|sum|grand total|in total|total price|total fee)\\b|${LEAD_IN}`, "i");
/** Taxes, rates, caps, totals and optional extras: amounts on a price line that say what no item of the price costs. */
const NO_ITEM = "total|subtotal|sub-total|gross|ttc|brutto|optional|vat|tax|btw|mwst|iva|gst|hst|mva|moms|tva|discount|not (?:to )?exceed|capped at|at most|maximum|per (?:day|hour|month|week|year)|a (?:day|month|year)|daily|hourly|monthly|rate|each(?! (?:payable|due|invoiced|paid|billed|within|net)\\b)";
// "the rest (24 000 Kč) on delivery" is when a share of the price is paid, not one of its items.
const PAID_WHEN = "deposit|instal?ments?|balance|the rest|remainder|upon|on (?:signing|signature|order|confirmation|acceptance|delivery|completion|go-live|launch)";
const NOT_AN_ITEM = new RegExp(`\\b(?:${NO_ITEM}|${PAID_WHEN})\\b|\\/(?:day|h|hour|month)\\b|%|${LEAD_IN}`, "i");
const SHARE_OF_TOTAL = /%\s+of\s+(?:the\s+|our\s+|your\s+)?(?:[\p{L}-]+\s+){0,2}?(?:total|price|fee|amount)\b/giu;
// "50% of the total fee of $5,750 ($2,875)": the amount the share is taken of is not paid again.
const SHARE_TAKEN_OF = /%\s+of\s+[^%\n]{0,40}?\b(?:total|price|fee|amount|sum)\b(?:\s+\p{L}+){0,2}?\s+(?:of|is)\s*$/iu;
// "| **Project total** | 100% |", "Total: 100%": a row that a total heads.
const TOTAL_ROW = /^[\s|*_]*(?:[\p{L}-]+\s+)?(?:sub-?)?total\b/iu;
// The names of a sales tax, and the words that leave it out of an amount.
const TAX_NAMES = "vat|tax|gst|hst|mwst|btw|iva|tva|moms|mva";
/**
 * "£3,250 per month + VAT for 6 months, total £18,500": the rate first, then how many times. A
 * total with its tax ("total £23,400 incl. VAT") is not what the months make.
 */
const RATE_FIRST = new RegExp(`(?<rate>${AMOUNT})\\s*(?:per|/|a|an)\\s*(?<per>day|hour|week|month|sprint)s?\\b(?:\\s*\\+\\s*(?:${TAX_NAMES}))?,?\\s+for\\s+(?<count>\\d{1,3})\\s+(?<counted>days|hours|weeks|months|sprints)\\b(?:${RESULT_IS}|,?\\s*total)\\s*(?<result>${AMOUNT})(?![\\d.,'])(?!\\s*(?:incl|including|inclusive|gross|with (?:${TAX_NAMES})))`, "giu");
const LEAVING_OUT = "excl\\.?|excluding|exclusive of|ex\\.?|net of|before";
// "Instalments (excl. GST): NZ$24,000 on discovery sign-off": what the amounts leave out is no tax line.
// (A price stated "excluding VAT" in the payment terms is what they split, and stays out.)
const TAX_LEFT_OUT = new RegExp(`\\(\\s*(?:${LEAVING_OUT}|without)\\s*(?:${TAX_NAMES})\\s*\\)\\s*:`, "gi");
// "Fixed price NZD 86,000.00 excl. GST; GST 15% NZD 12,900.00; total NZD 98,900.00", "Net PLN
// 310,000.00", "€14,500 net + 19% MwSt.": instalments may split the price before tax ("all amounts plus GST"). After a colon
// ("14,500 EUR, fixed, excluding VAT: 3,500 EUR for exploration, ...") come the items.
const TAX_AFTER = new RegExp(`^\\s*(?:net\\s*)?\\(?\\s*(?:${LEAVING_OUT}|plus|\\+)\\s*(?:\\d{1,2}(?:[.,]\\d+)?\\s?%\\s*)?(?:${TAX_NAMES}|sales tax)\\b`, "i");
const NET_BEFORE = new RegExp(`\\b(?:net\\b(?:\\s+(?:price|fee|total|amount))?|(?:${LEAVING_OUT})\\s*(?:${TAX_NAMES}|sales tax))[^\\d\\n:]{0,12}$`, "i");

const WITH_TAX = /\b(?:incl\.?|including|inclusive of|gross|with (?:vat|gst|tax))\b/i;

function netOfTax(inBlock: readonly Amount[]): number[] {
  return inBlock
    .filter((a) => !a.rate && (TAX_AFTER.test(a.line.slice(a.at + a.raw.length, a.at + a.raw.length + 30)) || NET_BEFORE.test(a.line.slice(Math.max(0, a.at - 30), a.at))))
    .map((a) => a.value);
}
const NOT_AN_INSTALMENT = new RegExp(`\\b(?:${NO_ITEM})\\b|\\/(?:day|h|hour|month)\\b`, "i");

/** Line items against the total, payment shares against 100%, and a single currency. */
export function consistency(all: string, priceText: string, paymentText: string, priceBlock = priceText): ConsistencyCheck[] {
  const checks: ConsistencyCheck[] = [];
  const currencies = [...new Set(amounts(all).map((a) => a.currency))];
  if (currencies.length > 0) {
    checks.push({
      check: "currency",
      ok: currencies.length === 1,
      message: currencies.length === 1 ? `All amounts are in ${currencies[0]}.` : `Amounts mix currencies (${currencies.join(", ")}): ask for one currency or a stated exchange rate.`,
    });
  }
  // "Phase one is EUR 18,000, phase two EUR 16,500 ... for a total of EUR 48,000": a price found
  // in prose is one clause, or one row of a table; its items are in the paragraph or table around it.
  const found = amounts(priceText);
  const item = onceper((line) => !NOT_AN_ITEM.test(line) && !SUBTOTAL.test(line));
  const totalLine = onceper((line) => TOTAL.test(line));
  // The price's whole block, read once and only when asked for.
  let blockAmounts: Amount[] | undefined;
  const inBlock = () => (blockAmounts ??= amounts(priceBlock));
  const lines = found.filter((a) => item(a.line)).length < 2 || !found.some((a) => totalLine(a.line)) ? inBlock() : found;
  // The total the items should add up to: a subtotal when there is one (VAT comes after it),
  // else a total that is not the amount including VAT.
  // On a line with other amounts ("boards at €2,600: total €52,000"), the total is the one after the word.
  // Each line's amounts, gathered once: a line of thousands of amounts stays linear.
  const byLine = groupByLine(lines);
  const totals = [...byLine]
    .filter(([line]) => SUBTOTAL.test(line))
    .concat([...byLine].filter(([line]) => totalLine(line) && !SUBTOTAL.test(line) && !/\bincl/i.test(line)))
    // "Total (day rate CHF 1'800.–" with its amount in the next cell: a rate alone states no total.
    .filter(([, on]) => on.some((a) => !a.rate))
    .map(([line, on]) => totalOf(on, line));
  // "40 days × EUR 900 = EUR 36,000": the line's last amount that is no rate is what it costs.
  const pricedItems = (rows: readonly [string, Amount[]][]) => rows.filter(([line]) => item(line)).flatMap(([, on]) => on.filter((a) => !a.rate).slice(-1));
  const rows = [...byLine];
  const items = pricedItems(rows);
  // "10% discount on the total: -€2,000" names the total it comes off; it is no total itself.
  // "Our fixed price is KES 800,000 excluding VAT: ..." states what the items make, as a total does.
  const isTotal = onceper((line) => ((totalLine(line) || SUBTOTAL.test(line)) && !DISCOUNT_LINE.test(line.slice(0, Math.max(0, line.search(/\b(?:sub-?)?total\b/i))))) || PRICE_IS.test(line));
  // Tax and discounts stated on lines of their own: the steps from the items to a total after them.
  const stepAt = rows.map(([line, on]) => (isTotal(line) ? undefined : stepLine(line, on)));
  const steps = stepAt.map((n) => n ?? 0);
  // "Year 1 total: R 36 000,00 + 12 × R 28 500,00 = R 378 000,00": a total its line sums is checked as that sum.
  if (totals.length > 0 && items.length >= 2 && sums(totals[0]!.line).length === 0) {
    const sum = sumOf(items);
    // The quote adds up when one plain reading does: the items, or only those over a total line
    // (what follows the first, "Optional add-ons, not part of the total above", is no part of it;
    // a price that leads its items in, "Our fixed price is £38,400 plus VAT: £5,600 for discovery,
    // ...", is made by those up to the next total, not by the instalments after it), make a total
    // it states, as they are or with the discount and tax on its lines.
    const totalRows = rows.flatMap(([line], i) => (isTotal(line) ? [i] : []));
    const stretches = totalRows.map((end, k) => pricedItems(rows.slice(k === 0 ? 0 : totalRows[k - 1]! + 1, end))).filter((part) => part.length > 0);
    const readings = [sum, ...stretches.map(sumOf)];
    const discount = steps.filter((n) => n < 0).reduce((a, n) => a + n, 0);
    const tax = steps.filter((n) => n > 0).reduce((a, n) => a + n, 0);
    // "A fixed ₹3,60,000 plus 18% GST of ₹64,800, so ₹4,24,800 in total": a total's line that
    // names the tax states the price before it as well.
    const stated = rows
      .filter(([line, on]) => isTotal(line) && on.some((a) => !a.rate))
      .flatMap(([line, on]) => [totalOf(on, line).value, ...(TAX_LINE.test(line) ? [on.find((a) => !a.rate)!.value] : [])]);
    const made = stated.find((t) => readings.some((added) => [0, discount, tax, discount + tax].some((step) => Math.abs(added + step - t) < 1)));
    checks.push({
      check: "total",
      ok: made !== undefined,
      message: made !== undefined ? `The line items add up to the total (${made}).` : `The line items add up to ${sum}, but the total says ${totals[0]!.value}: ask which is right.`,
    });
  }
  // "Sub-total 4,50,000 / GST @ 18% 81,000 / Grand total 5,41,000": a total, then only discount and
  // tax lines, then a total: the steps must make the difference. Anything else between them (more
  // items, a note, a payment line) ends the chain; a total due on signing or a share is no total.
  let running: number | undefined;
  let step = 0;
  rows.forEach(([line, on], i) => {
    if (!isTotal(line)) {
      const at = stepAt[i];
      if (at === undefined) running = undefined;
      else {
        // "Returning-client discount (10%): −£3,500" under "Subtotal: £30,000": a rate must make its amount,
        // of the total above it or of that total with the steps before (VAT on the discounted price).
        const rate = running === undefined ? undefined : ONE_RATE.exec(line);
        const bases = running === undefined ? [] : [running, running + step];
        const share = rate ? Number(rate[1]!.replace(",", ".")) / 100 : undefined;
        if (share !== undefined && !bases.some((base) => Math.abs(base * share - Math.abs(at)) < 1)) {
          const expected = Math.round(bases.at(-1)! * share * 100) / 100;
          checks.push({ check: "total", ok: false, message: `${rate![1]}% of ${bases.at(-1)} is ${expected}, but the line says ${Math.abs(at)}: ask which is right.` });
        }
        step += at;
      }
      return;
    }
    const value = on.some((a) => !a.rate) && !INSTALMENT_TOTAL.test(line) ? totalOf(on, line).value : undefined;
    if (value !== undefined && running !== undefined && step !== 0) {
      const expected = Math.round((running + step) * 100) / 100;
      const ok = Math.abs(expected - value) < 1;
      checks.push({
        check: "total",
        ok,
        message: ok ? `With the discount and tax stated, ${running} makes the total (${value}).` : `With the discount and tax stated, ${running} makes ${expected}, but the total says ${value}: ask which is right.`,
      });
    }
    running = value;
    step = 0;
  });
  const stated = computations(priceText);
  // "9 days @ €1,050 = €9,350" is wrong wherever it stands: in a list over the total, an e-mail's
  // lines, a support section. Every one in the quote is checked.
  for (const c of computations(all)) {
    const ok = Math.abs(c.computed - c.stated) < 1;
    checks.push({
      check: "computation",
      ok,
      message: ok ? `${c.found.trim()} is computed correctly.` : `"${c.found.trim()}" does not add up: it makes ${Math.round(c.computed * 100) / 100}: ask which is right.`,
    });
  }
  // "Fixed fee of £72,000, payable in six equal monthly instalments of £11,000": a count times an amount.
  // The price and payment sections can hold the same sentence: each is read once.
  for (const m of [...new Set(`${priceText}\n${paymentText}`.split("\n"))].join(" ").replace(/\s+/g, " ").matchAll(EQUAL_INSTALMENTS)) {
    const price = valueOf(m.groups!.price!);
    const count = COUNT[m.groups!.count!.toLowerCase()] ?? Number(m.groups!.count);
    const each = valueOf(m.groups!.each!);
    const ok = Math.abs(count * each - price) < 1;
    checks.push({ check: "payment-amounts", ok, message: ok ? `${count} instalments of ${each} make the price (${price}).` : `${count} instalments of ${each} make ${count * each}, but the price is ${price}: ask which is right.` });
  }
  // Instalments stated as amounts ("EUR 15,120 on signing, ...") against the price they split.
  // "Price: £14,700 fixed": a price stated as one amount is what the instalments split; "the price
  // breaks down as €3,200 for design" is one of its items.
  const priced = found.filter((a) => !a.rate);
  const single = priced.length === 1 && /\b(?:fixed|price|fee|total|cost|budget)\b/i.test(priced[0]!.line) && !/\d\S*\s+for\b|\b(?:breaks? down|broken down|consist|made up|compris)/i.test(priced[0]!.line) ? priced[0]!.value : undefined;
  // "Fixed price, excl. VAT – EUR 72,000 / VAT 21% / Total incl. VAT – EUR 87,120": with no total
  // to split, the price before tax is one, and so is the price with its tax ("incl. VAT", "gross",
  // "= €14,760" after "€12,000 + IVA 23% (€2,760)").
  const beforeTax = netOfTax(inBlock());
  const given = totals[0]?.value ?? (stated.length === 1 ? stated[0]!.stated : single);
  const total = given ?? beforeTax[0];
  const withTax = given === undefined && total !== undefined
    ? inBlock().filter((a) => !a.rate && (WITH_TAX.test(a.line) || /=\s*[^\d\n]{0,6}$/.test(a.line.slice(Math.max(0, a.at - 10), a.at)))).map((a) => a.value)
    : [];
  // A share's row ("At launch | 30% | £8,720") is an instalment; a rate, a total or VAT is not.
  // "50% of the one-time total on signing ($2,875)": a share of the total is an instalment all the same.
  const instalment = onceper((line) => !NOT_AN_INSTALMENT.test(line.replace(SHARE_OF_TOTAL, "%").replace(TAX_LEFT_OUT, " ")));
  const instalments = amounts(paymentText).filter((a) => instalment(a.line) && !SHARE_TAKEN_OF.test(a.line.slice(Math.max(0, a.at - 80), a.at)));
  // Checked with shares given too ("At launch | 30% | £8,720"): a share's amount can be wrong.
  if (total !== undefined && instalments.length >= 2) {
    const sum = Math.round(instalments.reduce((s, a) => s + a.value, 0) * 100) / 100;
    // Instalments may split the price with its tax: "Sub-total 3,90,000 / Grand Total 4,60,200".
    // A total stated in the next sentence ("GST adds ₹81,000, for a total of ₹5,31,000") counts too.
    const nearby = lines === found ? [...byLine, ...groupByLine(inBlock())] : [...byLine];
    // "Build: 50% ($14,000) at kickoff and 50% ($14,000) at go-live" splits the item it names ("| Build (fixed) | $28,000 |").
    const named = new Set(instalments.map((a) => nameOf(a.line)));
    const namedItems = items.filter((a) => named.has(nameOf(a.line))).map((a) => a.value);
    // "Phase 2 is invoiced as £34,000 at its mid-point and £34,000 on acceptance; Phase 3 as ...": the phases it names, together.
    const namedTogether = namedItems.length >= 2 ? [namedItems.reduce((s, v) => s + v, 0)] : [];
    // "set-up £9,000 on signature and £9,000 after cut-over; retainer invoiced monthly": the
    // instalments split what is paid once, beside a fee paid by the month.
    const recurring = RECURRING_PAYMENT.test(paymentText) ? rows.filter(([line]) => RECURRING_ITEM.test(line) && !isTotal(line)).flatMap(([, on]) => on.filter((a) => !a.rate).slice(-1)) : [];
    const once = total !== undefined && recurring.length > 0 ? [total - sumOf(recurring)] : [];
    const price = [total, ...nearby.filter(([line, on]) => totalLine(line) && on.some((a) => !a.rate)).map(([line, on]) => totalOf(on, line).value), ...namedItems, ...namedTogether, ...once, ...beforeTax, ...withTax].find((t) => Math.abs(sum - t) < 1);
    const split = price !== total && price === namedTogether[0] ? "the items they name" : price !== total && price === once[0] ? "what is paid once" : "the price";
    checks.push({
      check: "payment-amounts",
      ok: price !== undefined,
      message: price !== undefined ? `The payment instalments add up to ${split} (${price}).` : `The payment instalments add up to ${sum}, but the price is ${total}: ask which is right.`,
    });
    // "50% upfront = €7,500, the other 50% = €7,000" on €14,500: the amounts make the price, but
    // each share's amount must be that share of it too (to a whole unit, or 1% of the price:
    // "33%, 33%, 34%" may be thirds).
    const wrongShare = price === undefined ? undefined : instalments.map((a) => ({ a, share: shareBefore(a) })).find(({ a, share }) => share !== undefined && Math.abs((share / 100) * price - a.value) > Math.max(1, price * 0.01));
    if (wrongShare) {
      const expected = Math.round(wrongShare.share! * price!) / 100;
      checks.push({ check: "payment-amounts", ok: false, message: `${wrongShare.share}% of ${price} is ${expected}, but the instalment says ${wrongShare.a.value}: ask which is right.` });
    }
  }
  // "20% after each of the three sprints" is three instalments of 20%.
  // "| **Total** | 100% | 55,000 |": the total row's share is the sum, not one more share ("30% of
  // the total on signing" is one). Read line by line: a share never spans two.
  const shares = paymentText
    .split("\n")
    .filter((line) => !TOTAL_ROW.test(line))
    .flatMap((line) => [...line.matchAll(SHARES)].filter((m) => !NOT_A_SHARE.test(near(line, m.index, m[0].length))))
    .map((m) => Number(m[1]!.replace(",", ".")) * (m[2] === undefined ? 1 : (COUNT[m[2].toLowerCase()] ?? Number(m[2]))));
  if (shares.length >= 2) {
    const sum = Math.round(shares.reduce((s, n) => s + n, 0) * 100) / 100;
    checks.push({
      check: "payment-shares",
      ok: sum === 100,
      message: sum === 100 ? "The payment instalments add up to 100%." : `The payment instalments add up to ${sum}%, not 100%: ask for the missing or extra share.`,
    });
  }
  return checks;
}

/** The share an instalment's amount is stated for, just before it and with no other figure between ("30% at signing (€6,480)"). */
function shareBefore(a: Amount): number | undefined {
  // Only the words just before it, so a line of thousands of amounts stays linear; a share the
  // window cuts ("...5%") is none. "50% of the design fee (€5,000)" is a share of one item, and in
  // "€4,350 upon signing (30%) / €5,800" the share before this amount is the last one's.
  const before = a.line.slice(Math.max(0, a.at - 40), a.at);
  const share = [...before.matchAll(/\b(\d{1,3}(?:[.,]\d+)?)\s?%/g)].at(-1);
  if (!share || (share.index === 0 && a.at > 40) || /\d|\bof\b|[)/;,]/.test(before.slice(share.index + share[0].length))) return undefined;
  return Number(share[1]!.replace(",", "."));
}

const RECURRING_PAYMENT = /\b(?:monthly|per month|each month|every month|a month|quarterly|annually|per year|yearly)\b/i;
const RECURRING_ITEM = /\b(?:per (?:month|year|quarter)|monthly|a month|\/\s?(?:month|mo|year|yr)|× ?12\b|x ?12\b|annual|yearly|retainer|subscription)\b/i;

const COUNT: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12 };
const COUNT_WORDS = Object.keys(COUNT).join("|");
/** "30%", and "20% after each of the three sprints": a share, times how many times it is paid. */
const SHARES = new RegExp(`\\b(\\d{1,3}(?:[.,]\\d+)?)\\s?(?:%|percent\\b)(?:[^%\\n;]{0,30}?\\beach of (?:the |our |your )?(\\d|${COUNT_WORDS})\\b)?`, "gi");
// "GST at 9% is added to each invoice", "1.5% a month on late payments": a rate on top, not a share.
const NOT_A_SHARE = new RegExp(`\\b(?:${TAX_NAMES}|discount|interest|late|overdue|penalty|surcharge)\\b`, "i");
const EQUAL_INSTALMENTS = new RegExp(
  `\\b(?:fee|price|total|cost|sum|budget)\\b[^.;\\d]{0,30}?(?<price>${AMOUNT})[^.;]{0,80}?\\b(?<count>\\d{1,2}|${COUNT_WORDS}) (?:equal )?(?:monthly |quarterly |annual |yearly )?(?:instal?ments|payments|invoices|parts) of (?<each>${AMOUNT})`,
  "giu",
);

/** The first word a line names, past its table bars and emphasis: "| Build (fixed) | $28,000 |" is "build". */
// "Phase 2 Strangler APIs" is named "phase 2": a numbered phase is told apart from the others by its number.
const nameOf = (line: string) => /\p{L}{3,}(?:\s+\d{1,2}\b)?/u.exec(line)?.[0].toLowerCase();
const sumOf = (list: readonly Amount[]) => Math.round(list.reduce((s, a) => s + a.value, 0) * 100) / 100;
// "| **Net** | **18** | **EUR 15.840,00** |", "Netto: 15.840,00": the sum before tax, named as a row's label, is a subtotal.
const SUBTOTAL = /\bsub-?total\b|^[\s|*_]*(?:tax(?:able)? base|base imponible|(?:\*\*|__)base(?:\*\*|__))[\s*_]*(?:\||:)|^[\s|*_]*(?:total )?net(?:to|t)?(?: (?:total|amount|price|sum))?[\s*_]*(?:\||:)/i;
// "Our fixed price is ...", "the price is ...", not "the licence cost is €1,000" (an item).
const PRICE_IS = /\b(?:my|our|the|this|your) (?:total |overall |fixed |project )?(?:price|fee) (?:is|comes to|amounts to)\b|\bfixed (?:price|fee) of\b/i;
/**
 * A tax or discount line's signed amount: "VAT 20%: €4,000", "Plus GST at 9% (S$3,240)",
 * "Early-signature discount -€2,000": the line's one amount. A line that states a price without or
 * after it ("Our fee is S$36,000 before GST", "Price after 10% discount: €18,000", "of which VAT")
 * or names its base too ("VAT 20% on €20,000: €4,000") is no step.
 */
function stepLine(line: string, on: readonly Amount[]): number | undefined {
  const priced = on.filter((a) => !a.rate);
  if (priced.length !== 1 || NOT_A_STEP.test(line)) return undefined;
  if (DISCOUNT_LINE.test(line)) return -Math.abs(priced[0]!.value);
  return TAX_LINE.test(line) ? priced[0]!.value : undefined;
}

// The one rate a tax or discount line states ("VAT 21%", "discount (10 %)"); a line with two is read as written.
const ONE_RATE = /^(?!.*%.*%)[^%]*?(\d{1,2}(?:[.,]\d{1,2})?)\s?%/;
const TAX_LINE = /\b(?:vat|tax|taxes|gst|hst|pst|mwst|ust|btw|iva|tva|moms|mva)\b/i;
const DISCOUNT_LINE = /\b(?:discount|rebate|reduction)\b/i;
const NOT_A_STEP = /\b(?:excl|excluding|exclusive of|before|after|without|net of|not including|of which|price|fee|cost|list)\b/i;
// "Total due on signing (50%): €6,050" is the first instalment, not a total the steps lead to.
const INSTALMENT_TOTAL = /%|\b(?:due|deposit|on signing|on signature|upfront|up front|instal?ment)\b/i;

function groupByLine(amounts: readonly Amount[]): Map<string, Amount[]> {
  const byLine = new Map<string, Amount[]>();
  for (const a of amounts) {
    const on = byLine.get(a.line);
    if (on) on.push(a);
    else byLine.set(a.line, [a]);
  }
  return byLine;
}

/** The words just around a match, on its own line, looked for in a window: a long line of matches stays linear. */
function near(text: string, at: number, length: number): string {
  const from = Math.max(0, at - 25);
  const before = text.slice(from, at);
  const after = text.slice(at, at + length + 15);
  const lineEnd = after.indexOf("\n", length);
  return before.slice(before.lastIndexOf("\n") + 1) + (lineEnd < 0 ? after : after.slice(0, lineEnd));
}

/** A test of a line, run once per distinct line: a line can hold thousands of amounts. */
function onceper(test: (line: string) => boolean): (line: string) => boolean {
  const seen = new Map<string, boolean>();
  return (line) => {
    let result = seen.get(line);
    if (result === undefined) seen.set(line, (result = test(line)));
    return result;
  };
}

/** The amount a total line states: the one before "in total", else the first after "total", else its last. */
function totalOf(on: readonly Amount[], line: string): Amount {
  // "€7,800 in total (design €1,800, ...)".
  const before = on.find((a) => /^\s+in total\b/i.test(line.slice(a.at + a.raw.length, a.at + a.raw.length + 12)));
  if (before) return before;
  // "Total: R 36 000,00 + 12 × R 28 500,00 = R 378 000,00": what the line's sum makes.
  const result = sums(line).length > 0 ? on.filter((a) => !a.rate && /=\s*$/.test(line.slice(0, a.at))).at(-1) : undefined;
  if (result) return result;
  const at = line.search(/\b(?:sub-?)?total\b/i);
  // "Total (day rate CHF 1'800.–) | 7 | CHF 12'600.–": a rate on the total's line is not it.
  // "Total (fixed price) | 51 | CHF 70'100": a table's total row sums each column; the money is in the last.
  const after = at < 0 || line.includes(" | ") ? undefined : on.find((a) => a.at > at && !a.rate);
  return after ?? on.filter((a) => !a.rate).at(-1)!;
}

/**
 * The labelling rule as the rubric states it: every essential met, and at least `minOptional` of
 * the other scored terms met (a term mentioned in passing does not count). A quote without a
 * single amount, date or duration has nothing concrete to sign, however well it is laid out.
 */
function passRule(result: Assessment, rubric: QuoteRubric, text: string /* normalized */): Assessment {
  const caps: [number, string][] = [];
  const required = new Set(rubric.criteria.filter((c) => c.required).map((c) => c.id));
  const others = result.criteria.filter((c) => !required.has(c.id) && c.weight > 0);
  const met = others.filter((c) => c.status === "met").length;
  if (rubric.minOptional !== undefined && met < rubric.minOptional) {
    caps.push([rubric.requiredCap ?? rubric.threshold - 0.5, `only ${met} of the ${others.length} other terms are stated, fewer than ${rubric.minOptional}`]);
  }
  const figures = findFact({ text, items: [], ordered: false, code: false, opening: false }, ["amount", "date", "duration"]);
  if (figures === undefined) caps.push([rubric.hollowCap ?? rubric.shortTextCap, "the quote states no amount, date or duration at all"]);
  if (caps.length === 0) return result;
  if (result.cappedAt !== undefined) caps.push([result.cappedAt, result.capReason!]);
  const [cap, reason] = caps.sort((x, y) => x[0] - y[0])[0]!;
  const score = Math.min(result.score, cap);
  return { ...result, score, passed: false, cappedAt: cap, capReason: reason };
}

// Scope with no boundary: "... and whatever other HR functions come up during the project".
const OPEN_ENDED =
  /\b(?:whatever (?:else|other)|anything else (?:that|you|we)|any (?:other|further|additional) [\p{L} -]{0,40}?(?:that |which )?(?:comes?|arises?|may arise|turns? up|crops? up|(?:is|are|may be|might be) (?:needed|required|requested|wanted))|any (?:other|further|additional) [\p{L} -]{0,30}?(?:you|we|they|the team) (?:may |might |will )?(?:need|want|require|ask for)|any (?:other|further|additional) [^.;\n]{0,60}?along the way|(?:come|comes|crop|crops|turn|turns) up (?:during|along|later|in the course)|as (?:needed|required|requested) (?:during|throughout|along)|any (?:other|further|additional|new) [^.;\n]{0,60}?\b(?:during|throughout|over|in the course of) (?:the |this )?(?:project|engagement|build|work)|(?:scope|it) (?:will|can|may) (?:grow|expand|evolve) (?:with|as|during|over)|(?:as|when|whenever) (?:new |further )?(?:needs|requirements|ideas|requests) (?:come|arise|crop|emerge|appear)|nothing [^.;\n]{0,30}?\bis left out|and so on|(?:no|without) (?:fixed |clear )?(?:limits?|boundar(?:y|ies)) (?:on|to) (?:the )?scope|unlimited (?:features|changes|requests|revisions|scope))\b/iu;

// What is left out, said anywhere: "Not included: ...", "out of scope", "excludes", "is not part of this offer".
const BOUNDARY =
  /\|\s*(?:out|not included|excluded|out of scope)\s*\||(?:^|[.;,(·]\s|\s{2})out:\s|(?:\*\*|__)out\s*[*_]{0,2}:|\bleft out\b|\bup to \d+\s*(?:hours|days|person-days)\b[^.;\n]{0,30}?\b(?:per|a|each) (?:month|week|sprint)\b|\(\s*(?:out|not included|excluded|out of scope)\s*\)|\b(?:what(?:'s|’s| is) (?:out|not in)\b|boundar(?:y|ies)|not (?:included|in scope|part of|covered|in this|within)|out of (?:the )?scope|outside (?:the |this |of )?(?:scope|engagement|offer|project|quote|proposal)|(?:excluded|excludes|exclusions?)(?!\s+(?:vat|tax|iva|gst|mwst))|(?:does|do|will|shall|is|are) not (?:include|cover|contain|be part)|(?:we are|we're|i am|i'm) not (?:including|covering|doing|building|providing|taking on|handling)|(?:isn't|aren't|is not|are not) (?:part of|included|covered)|(?:anything|everything) (?:beyond|outside)|(?:anything|everything) else (?:is|will be|would be|we quote|needs)|(?:we|i|this offer|this quote|the (?:project|app|system|platform|site|website|tool|solution|service|portal|integration|connector|engagement|work)) (?:will not|won't|would not|wouldn't|does not|doesn't|do not|don't|cannot|can't) (?:[•*-] )?(?:touch|cover|include|build|migrate|do|work on|re-?(?:train|write|design|build|place)|replace|change|design|write|audit|assess|review|fix|test|look at|provide|handle|perform|deliver|support|host|run|access|manage|maintain|operate|integrate|supply)|beyond (?:the |this )?scope|(?:quoted|priced|billed|charged) separately|separate (?:offer|quote|agreement|contract)|not (?:part of )?this (?:mvp|phase|offer|quote|project))\b/i;

// "In    Audit of 40 templates / Out   PDFs uploaded by the libraries": a row of scope laid out in
// columns, labelled ("Out: checkout steps 2+"), or a heading "Out" over a list ("### In ... ### Out").
const OUT_ROW = /^[ \t]*(?:[-*•][ \t]+)?(?:out|excluded|not included|out of scope)(?: {2,}|:\s*)\S|^[ \t]*(?:#{1,6}[ \t]*)?(?:\*\*|__)?out(?:\*\*|__)?[ \t]*:?[ \t]*$/im;

// "between DKK 780,000 and DKK 940,000", "EUR 20–30k", "EUR 42,000 - 58,000", "from $9k to $12k", "CHF 5'000.– to 6'000.–",
// "starts from €9,500": a range, or a floor, is not a price to sign.
const PRICE_RANGE = new RegExp(`\\b(?:starts? (?:at|from)|starting (?:at|from)|from as little as|as low as)\\s+(?:${AMOUNT})|\\bbetween\\s+(?:${AMOUNT})\\s+and\\s+(?:${AMOUNT})|(?:${AMOUNT})(?:\\.[–-])?\\s+to\\s+\\d[\\d.,']*\\d|(?:${AMOUNT})\\s?[–-]\\s?\\d{1,3}(?:[.,']\\d{3})+(?![\\d.,']*\\s?(?:${CURRENCY_SIGN}|=|(?:\\p{L}+\\s+){0,2}(?:discount|rebate|credit|off)\\b))|\\bfrom\\s+(?:${AMOUNT})\\s+to\\s+(?:${AMOUNT})|(?:${AMOUNT})\\s?(?:–|-|to)\\s?(?:${AMOUNT})|${CURRENCY_SIGN}\\s?\\d+(?:[.,]\\d+)?\\s?[kK]?\\s?[–-]\\s?\\d+(?:[.,]\\d+)?\\s?[kK]\\b`, "giu");

// "The total cost depends on final scope, which we will confirm after the discovery workshop":
// what the client signs for is still to be found out.
const PRICE_OPEN = /\b(?:cost|costs|price|fee|fees|total|budget|amount)\b[^.;\n]{0,30}?\b(?:depends?|will depend|depending) on (?:the )?(?:final|actual|exact|agreed|confirmed|detailed)\b|\b(?:cost|costs|price|fee|fees|total|budget)\b (?:will be|is to be|are to be|to be) (?:confirmed|determined|calculated|estimated|quoted|set) (?:after|once|when|at|following)\b/i;
// "Phase 2: to be agreed after Phase 1", "the price of the second phase will be agreed together after
// the first phase": part of what is offered has no price yet, so there is no total to sign. Said
// anywhere in the quote, often in a paragraph of its own.
const PRICED_LATER = /(?:\b(?:price|cost|fee|fees)\b(?: (?:of|for) [^.;:\n]{1,30}?)?|\b(?:phase|stage|part|module)\s*\d+\b[^.;:\n]{0,30}?(?::|\s))\s*(?:will be|is to be|are to be|to be) (?:\w+ly |together |jointly )?(?:agreed|quoted|estimated|determined|negotiated|defined) (?:\w+ly |together |jointly )?(?:after|once|following|on the basis of|based on|later)\b/gi;
// ... unless the sentence is about a change, an extra, a third party's fee or work outside this offer.
const NOT_THIS_WORK = /\b(?:changes?|extras?|additional|further|licen[cs]es?|third[- ]party|you pay|not part of this|separate|optional|out of scope|not included|if you want)\b/i;

function pricedLater(flat: string): RegExpExecArray | null {
  for (const m of flat.matchAll(PRICED_LATER)) {
    const from = Math.max(flat.lastIndexOf(".", m.index), flat.lastIndexOf(";", m.index)) + 1;
    const ends = [".", ";"].map((c) => flat.indexOf(c, m.index + m[0].length)).filter((n) => n >= 0);
    if (!NOT_THIS_WORK.test(flat.slice(from, ends.length ? Math.min(...ends) : flat.length))) return m as RegExpExecArray;
  }
  return null;
}

const EFFORT_RANGE = /\b\d+\s?(?:[–-]|to)\s?\d+\s?(?:hours|hrs|h|days|person-days|man-days|sprints|weeks of work)\b/i;
const CAPPED = /\b(?:cap|capped|not (?:to )?exceed|maximum|at most|no more than|ceiling|upper limit)\b/i;

/**
 * A price given as a range, or left to depend on what is not known yet, leaves the one number to
 * sign open: it counts as vague. A part of the work priced later is read in the whole quote, as
 * quotes often say so in a paragraph of its own, away from the figures.
 */
function ranged(found: Judgement, priceId: string | undefined, flat: string): Judgement {
  const text = priceId === undefined ? "" : found.textOf(priceId);
  // "36 points @ R1 150,00 .... R41 400,00": a rate and what it makes, not a range.
  const range = [...text.matchAll(PRICE_RANGE)].find((m) => !/(?:@|×|\bx)\s*$/i.test(text.slice(Math.max(0, m.index - 3), m.index)));
  if (range) return tooVague(found, priceId!, `a range, not a price ("${range[0]}")`);
  // "€95/h, somewhere around 220–340 hours": a rate times an open effort, with no cap over it.
  const open = PRICE_OPEN.exec(text) ?? pricedLater(flat) ?? (CAPPED.test(text) ? null : EFFORT_RANGE.exec(text));
  return open ? tooVague(found, priceId!, `left open ("${open[0]}")`) : found;
}

/**
 * A scope the client can sign has a boundary: it leaves nothing open ("and any other features you
 * need") and says what it leaves out. Without either it counts as vague.
 */
function bounded(found: Judgement, scopeId: string | undefined, text: string, flat: string): Judgement {
  if (scopeId === undefined) return found;
  // "... moved across. Beyond that, we take on whatever else the team would like": said in the scope's paragraph.
  const open = OPEN_ENDED.exec(`${found.textOf(scopeId)}\n${found.blockOf(scopeId)}`);
  const why = open ? `open-ended ("${open[0]}")` : BOUNDARY.test(flat) || OUT_ROW.test(text) ? undefined : "no exclusions or boundary stated";
  return why === undefined ? found : tooVague(found, scopeId, why);
}

// "Spring 2027, roughly 10–12 weeks once we have a team slot", "Q3 2025": a season, a quarter or a
// span of weeks, with no date and no fixed duration, is no schedule to sign.
const LOOSE_TIME = /\b(?:spring|summer|autumn|fall|winter)\b(?=,?\s+\d{4})|\b(?:in|by|early|late|mid|this|next)[- ](?:spring|summer|autumn|fall|winter)\b(?! boot)|\b(?:q[1-4]|h[12]|(?:first|second|1st|2nd) half|(?:early|mid|late)[- ](?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*)\b|\b\d+\s?(?:[–-]|to)\s?\d+\s?(?:working |business )?(?:days|weeks|months|sprints)\b/i;
const EXACT_DATE = new RegExp(`\\b\\d{4}-\\d{2}-\\d{2}\\b|${DAY_MONTH_YEAR}|\\b${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?\\b|\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH}`, "i");
const EXACT_DURATION = new RegExp(`(?<!\\d\\s?(?:[–-]|to)\\s?)\\b(?:\\d+|${COUNT_WORDS})[\\s-]?(?:working |business |calendar )?(?:days?|weeks?|months?|sprints?)\\b(?!\\s?(?:[–-]|to)\\s?\\d)`, "i");

function scheduled(found: Judgement, timelineId: string | undefined): Judgement {
  if (timelineId === undefined) return found;
  const text = found.textOf(timelineId);
  const loose = LOOSE_TIME.exec(text);
  return loose && !EXACT_DATE.test(text) && !EXACT_DURATION.test(text) ? tooVague(found, timelineId, `no date or fixed duration ("${loose[0]}")`) : found;
}

/** A term with a template's gap left in ("payable within [X] days", "go-live: TBD") is not stated yet. */
function gapsFilled(found: Judgement): Judgement {
  return found.criteria.reduce((j, c) => {
    const gap = c.status === "met" ? leftIn(found.textOf(c.id)) : undefined;
    return gap === undefined ? j : tooVague(j, c.id, `a gap left in ("${gap}")`);
  }, found);
}


export function reviewQuote(quoteText: string, rubric: QuoteRubric, services: ReadonlyMap<string, Service>, serviceUrl: (id: string) => string): QuoteReview {
  const scopeId = rubric.criteria.find((c) => /scope/.test(c.id))?.id;
  const priceId = rubric.criteria.find((c) => /price|cost|fee/.test(c.id))?.id;
  // The pasted text cleaned once, for the checks that read it whole.
  const text = normalize(quoteText);
  const timelineId = rubric.criteria.find((c) => /timeline|schedule/.test(c.id))?.id;
  // The same text on one line, for the checks that read across its line breaks.
  const flat = text.replace(/\s+/g, " ");
  const found = gapsFilled(scheduled(ranged(bounded(judge(quoteText, rubric.criteria, { splitClauses: true }), scopeId, text, flat), priceId, flat), timelineId));
  const paymentId = rubric.criteria.find((c) => /payment/.test(c.id))?.id;
  const checks = consistency(text, priceId ? found.textOf(priceId) : "", paymentId ? found.textOf(paymentId) : "", priceId ? found.blockOf(priceId) : "");
  // Numbers that do not add up make the price (or the payment terms) unreliable: it cannot be signed.
  const contradictedBy: Record<ConsistencyCheck["check"], string | undefined> = { currency: priceId, total: priceId, computation: priceId, "payment-shares": paymentId, "payment-amounts": paymentId };
  const contradicted = checks.filter((c) => !c.ok).map((c) => contradictedBy[c.check]).filter((id): id is string => id !== undefined);
  const result = passRule(score(found, rubric, contradicted), rubric, text);
  const byId = new Map(rubric.criteria.map((c) => [c.id, c]));
  const lacking = result.criteria.filter((c) => c.status !== "met");
  const related = [...new Set(lacking.flatMap((c) => byId.get(c.id)!.services))].flatMap((id) => {
    const s = services.get(id);
    return s ? [{ id, title: s.title, from: s.pricing.from, currency: s.pricing.currency, url: serviceUrl(id) }] : [];
  });
  const problems = checks.filter((c) => !c.ok);
  const summary = [
    `Completeness ${result.score}/10 (threshold ${result.threshold}): ${result.passed ? "the quote covers what a statement of work needs" : "the quote leaves important terms open"}.`,
    lacking.length ? `Missing or vague: ${lacking.map((c) => c.title.toLowerCase()).join(", ")}.` : "",
    problems.length ? `Numbers to check: ${problems.map((p) => p.message).join(" ")}` : "",
    result.cappedAt !== undefined ? `The score is capped at ${result.cappedAt}: ${result.capReason}.` : "",
  ].filter(Boolean).join(" ");
  return {
    score: result.score,
    threshold: result.threshold,
    passed: result.passed,
    summary,
    criteria: result.criteria.map(publicCriterion),
    consistency: checks,
    counterProposal: {
      keep: result.criteria.filter((c) => c.status === "met").map((c) => `${c.title}: ${c.evidence}`),
      clarify: [
        ...result.criteria.filter((c) => c.status === "partial").map((c) => `${c.title}: ${c.advice}`),
        ...problems.map((p) => p.message),
      ],
      add: result.criteria.filter((c) => c.status === "missing").map((c) => ({ section: c.title, clause: byId.get(c.id)!.clause })),
      services: related,
    },
  };
}
