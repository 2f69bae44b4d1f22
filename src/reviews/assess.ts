import type { Criterion, RubricLimits } from "../catalog/types.js";
import { readDocument, type Line, type Section } from "./document.js";
import { ABBREVIATIONS, DATA_KINDS, findFact, isAction, vagueComplaint, type Span } from "./facts.js";
import { labelIndex, type LabelIndex } from "./labels.js";
import { concreteData, contentWords, hollowLine, isFiller, isNegatedFor, ordinaryUse, phraseForm, putOff, saysUnknown, untestable, verdictOnly, vocabularyShare, words, type Hollow } from "./quality.js";

/**
 * Scores a text against a rubric, the same way for tickets and quotes. The text is read into
 * spans (clauses, lists, code blocks, table rows) under the labels that name a criterion; each
 * criterion is then proven by a span under its own label, by a fact that shows it on its own (a
 * stack trace, a version, a numbered list of steps, a "should" sentence), or by its wording
 * with the data it needs. One span credits one criterion (and one more by a fact that criterion
 * takes `alongside`): spans are matched to criteria so that the most criteria, the required and
 * heavier first, are met. Hollow text (placeholders,
 * template text, negations, filler, keyword stuffing) earns nothing. Pure and deterministic;
 * the work grows linearly with the text's length.
 */
export type Status = "met" | "partial" | "missing";

export interface CriterionResult {
  id: string;
  title: string;
  weight: number;
  status: Status;
  points: number;
  /** A short quote of what was found, or why it does not count. */
  evidence: string;
  advice: string;
  /** The author's own content for this criterion, when found (used to rewrite the text). */
  content?: string;
  /** Set when a required criterion's own section is there but says nothing, or is contradicted. */
  hollow?: Hollow | "contradicted";
}

/** A criterion as the API answers it: without the author's text and the internal flags. */
export type PublicCriterion = Omit<CriterionResult, "content" | "hollow">;

export function publicCriterion({ content: _content, hollow: _hollow, ...rest }: CriterionResult): PublicCriterion {
  return rest;
}

export interface Assessment {
  score: number;
  threshold: number;
  passed: boolean;
  words: number;
  /** Set when a cap lowered the score, with the reason. */
  cappedAt?: number;
  capReason?: string;
  criteria: CriterionResult[];
}

interface ReadSpan extends Span {
  /** The criterion named by the label the span is under. */
  label?: string;
  sectionLabel: string;
  /** The section's label as phrases are compared with it. */
  plainLabel: string;
  hollow?: Hollow;
  words: number;
  /** The text in lower case with contractions spelled out, as phrases are compared with it. */
  plain: string;
  /** The sentence of prose the span is a clause of. */
  sentence?: number;
  /** The paragraph, list or table the span is read from. */
  block: number;
  /** A verdict with nothing to check ("export is not correct"). */
  verdict: boolean;
  /** Mostly wishes with no figure ("users feel more confident"), for `testable` criteria. */
  wish: boolean;
  /** A tracker's line of fields ("Ticket #230588 | Status: Open"), which opens nothing. */
  fields: boolean;
}

type Strength = "met" | "partial";
interface Edge {
  span: number;
  strength: Strength;
  found: string;
  /** 0: under the criterion's own label, 1: unlabelled, 2: under another criterion's label. */
  rank: number;
  /** Proven by a fact the criterion takes even from a span that proves another (its `alongside`). */
  shared?: boolean;
}

/** The criteria found in a text, before caps and the score. */
export interface Judgement {
  criteria: CriterionResult[];
  required: ReadonlySet<string>;
  words: number;
  stuffing: boolean;
  filler: boolean;
  /** Concrete data (numbers, names, paths, quoted values) in the text's own words. */
  concrete: number;
  /** The text of every span under a label of the criterion, or that proved it (for consistency checks). */
  textOf: (criterion: string) => string;
  /** The whole paragraph, list or table of the span that proved the criterion ("" when none did). */
  blockOf: (criterion: string) => string;
}

export interface JudgeOptions {
  /** Read an unlabelled sentence's comma- and dash-joined clauses apart, each one crediting its own term. */
  splitClauses?: boolean;
}

export function judge(raw: string, criteria: readonly Criterion[], options: JudgeOptions = {}): Judgement {
  const index = labelIndex(criteria);
  const doc = readDocument(raw, index.resolve);
  // A run of the rubric's own words in a comma list ("User value, customer problem, business value,
  // pain point, persona-driven, ...") is keyword stuffing, even when the rest of the text is real.
  const spans = readSpans(doc.sections, options.splitClauses === true).map((s): ReadSpan => {
    if ((s.hollow && s.hollow !== "filler") || s.code || (s.text.match(/,/g) ?? []).length < 6) return s;
    const share = vocabularyShare(s.text, index.vocabulary);
    return share.share >= 0.4 && concreteData(s.text) === 0 ? { ...s, hollow: "stuffing" } : s;
  });
  const totalWords = spans.reduce((sum, s) => sum + s.words, 0);
  const fillerWords = spans.filter((s) => s.hollow === "filler").reduce((sum, s) => sum + s.words, 0);
  const allText = spans.map((s) => s.text).join("\n");
  const share = vocabularyShare(allText, index.vocabulary);

  // "The schedule is TBD", "Payment terms are to be agreed": a term named in prose and left open is
  // as good as its section left empty.
  const leftOpenInProse = new Set(spans.flatMap((s) => {
    if (s.label !== undefined || (s.hollow !== "placeholder" && !putOff(s.text))) return [];
    const subject = PROSE_SUBJECT.exec(s.text.trim());
    const id = subject ? index.resolve(subject[1]!) : undefined;
    return id ? [id] : [];
  }));
  // A criterion its own section denies ("Steps: I could not reproduce it"; "no idea how" first)
  // or leaves open ("Timeline: TBD", all of it) is missing, whatever the rest of the text seems to
  // imply: the author said so.
  const denied = (c: Criterion) => {
    const own = spans.filter((s) => s.label === c.id);
    const denies = (s: ReadSpan) => s.hollow === "negated" || negated(s, index.vocabularyOf.get(c.id)!);
    // "Timeline: To be confirmed after the kick-off; we will share a plan then", "Deliverables: the
    // usual bits. We'll work out the exact list as we go": the answer is put off, unless the section
    // gives figures ("exact dates to be confirmed. Design 2 June to 13 June, ...").
    const putOffHere = own.some((s) => putOff(s.text)) && own.every((s) => findFact(s, DATA_KINDS) === undefined);
    // "What's needed: Nothing really. No decision depends on this": an empty answer first, explained after.
    // ("Steps: N/A. It happens on every load of /checkout" answers after all; "Nothing" does not.)
    const emptyFirst = own.length > 0 && own[0]!.hollow === "negated" && own[0]!.words <= 3 && /^(?:nothing|none)\b/i.test(own[0]!.text) && own.every((s) => s.sectionLabel === own[0]!.sectionLabel);
    return (own.length > 0 && (saysUnknown(own[0]!.text) || emptyFirst || putOffHere || own.every((s) => denies(s) || s.hollow === "placeholder"))) || leftOpenInProse.has(c.id);
  };
  const lowerText = spans.map((s) => s.plain).join("\n");
  const disowned = (c: Criterion) => (c.denials ?? []).some((d) => containsPhrase(lowerText, phraseForm(d.toLowerCase())));
  const edges = new Map(criteria.map((c) => {
    if (denied(c)) return [c.id, []];
    const all = edgesOf(c, spans, index);
    return [c.id, disowned(c) ? all.filter((e) => e.rank === 0) : all];
  }));
  const matched = match(criteria, edges);

  const results = criteria.map((c): CriterionResult => {
    const base = { id: c.id, title: c.title, weight: c.weight, advice: c.advice };
    const hit = matched.get(c.id);
    if (hit) {
      const span = spans[hit.span]!;
      const content = span.label === c.id ? sectionText(spans, span) : span.text;
      const where = hit.rank === 0 ? "" : hit.rank === 1 ? "found without a label: " : `found under "${span.sectionLabel}": `;
      if (hit.strength === "met") return { ...base, status: "met", points: c.weight, evidence: excerpt(`${where}${hit.found}`), content };
      const why = hit.rank === 0 ? `"${span.sectionLabel}" is too thin or has no concrete detail: ` : "mentioned in passing: ";
      return { ...base, status: "partial", points: c.weight / 2, evidence: excerpt(`${why}${span.text}`, 120), content };
    }
    const own = spans.filter((s) => s.label === c.id);
    const hollow = own.find((s) => s.hollow)?.hollow ?? (own.length > 0 && own.every((s) => negated(s, index.vocabularyOf.get(c.id)!)) ? "negated" : undefined);
    if (own.length > 0) {
      const label = own[0]!.sectionLabel;
      return { ...base, status: "missing", points: 0, evidence: `"${label}" is there but ${HOLLOW_WHY[hollow ?? "placeholder"]}`, ...(hollow ? { hollow } : { hollow: "placeholder" as const }) };
    }
    return { ...base, status: "missing", points: 0, evidence: "not found" };
  });

  return {
    criteria: results,
    required: new Set(criteria.filter((c) => c.required).map((c) => c.id)),
    words: words(doc.lines.map((l) => l.text).join("\n")).length,
    stuffing: (share.count >= 8 && share.share >= 0.3) || spans.some((s) => s.hollow === "stuffing"),
    filler: totalWords >= 20 && fillerWords / totalWords >= 0.4,
    concrete: concreteData(spans.filter((s) => !s.hollow).map((s) => s.text).join("\n")),
    blockOf: (id) => {
      const hit = matched.get(id);
      return hit ? spans.filter((s) => s.block === spans[hit.span]!.block).map((s) => s.text).join("\n") : "";
    },
    textOf: (id) => {
      const own = spans.filter((s) => s.label === id).map((s) => s.text);
      const hit = matched.get(id);
      if (!hit || spans[hit.span]!.label === id) return own.join("\n");
      // A clause read apart from its sentence ("40% on signing, 30% on delivery, and 30% at
      // go-live") is checked with the rest of the sentence: its figures go together.
      const { sentence, block } = spans[hit.span]!;
      const whole = sentence === undefined ? [spans[hit.span]!.text] : spans.filter((s) => s.sentence === sentence && s.block === block).map((s) => s.text);
      return [...own, whole.join(", ")].join("\n");
    },
  };
}

/** "The schedule is ...", "Our payment terms are ...": the subject a sentence is about. */
const PROSE_SUBJECT = /^(?:the|our|your|all)?\s*([\p{L}][\p{L} ]{1,40}?)\s+(?:is|are|will be|remains?|stays?)\b/iu;

/** This many sections that say nothing or deny their term make the whole text hollow. */
const HOLLOW_SECTIONS = 3;

/** From this many words on, a text without a single concrete datum is hollow. */
const VAGUE_WORDS = 30;

const HOLLOW_WHY: Record<Hollow, string> = {
  placeholder: "says nothing (empty, N/A, TBD or a placeholder)",
  template: "holds template text nobody filled in",
  negated: "says it is not there (negated)",
  filler: "is filler (lorem ipsum, repeated or meaningless words)",
  stuffing: "only repeats section names (keyword stuffing)",
};

/** Caps and the score: what the criteria add up to, limited when the text cannot pass. */
export function score(j: Judgement, limits: RubricLimits, contradicted: readonly string[] = []): Assessment {
  const hollowCap = limits.hollowCap ?? limits.shortTextCap;
  const requiredCap = limits.requiredCap ?? limits.threshold - 0.5;
  const criteria = j.criteria.map((c) => (contradicted.includes(c.id) && c.status === "met" ? { ...c, status: "partial" as const, points: c.weight / 2, hollow: "contradicted" as const } : c));
  const raw = round(criteria.reduce((sum, r) => sum + r.points, 0));
  const unmet = criteria.filter((c) => j.required.has(c.id) && c.status !== "met");
  const caps: [number, string][] = [];
  if (j.words < limits.minWords) caps.push([limits.shortTextCap, `the text has ${j.words} words, fewer than ${limits.minWords}`]);
  if (j.stuffing) caps.push([hollowCap, "the text mostly repeats section names (keyword stuffing)"]);
  if (j.filler) caps.push([hollowCap, "much of the text is filler (lorem ipsum, repeated or meaningless words)"]);
  if (j.words >= VAGUE_WORDS && j.concrete === 0) caps.push([hollowCap, "the text names nothing concrete (no number, name, version, path or quoted value)"]);
  const hollow = unmet.filter((c) => c.hollow);
  if (hollow.length > 0) caps.push([hollowCap, `${hollow.map((c) => c.title.toLowerCase()).join(", ")} ${hollow.length === 1 ? "is" : "are"} there in name only or contradicted`]);
  // Section after section saying its term is not there ("Deliverables: not yet specified",
  // "Warranty: none", "Validity: not time-limited") is a form with nothing in it, whatever one
  // section still seems to say. Measured on the dev parts: no passing quote has more than one, no
  // passing ticket more than two; 39 of 92 ticket attacks have three or more.
  const empty = criteria.filter((c) => c.hollow !== undefined && c.hollow !== "contradicted");
  if (empty.length >= HOLLOW_SECTIONS) caps.push([hollowCap, `${empty.length} of its sections say nothing or deny their term`]);
  if (unmet.length > 0) caps.push([requiredCap, `required: ${unmet.map((c) => c.title.toLowerCase()).join(", ")}`]);
  // The lowest cap that applies is reported even when the criteria add up to less: it says why.
  const cap = caps.sort((a, b) => a[0] - b[0])[0];
  const final = cap ? Math.min(cap[0], raw) : raw;
  return {
    score: final,
    threshold: limits.threshold,
    passed: final >= limits.threshold && unmet.length === 0,
    words: j.words,
    ...(cap ? { cappedAt: cap[0], capReason: cap[1] } : {}),
    criteria,
  };
}

// ---- spans ---------------------------------------------------------------------------------

function readSpans(sections: readonly Section[], split: boolean): ReadSpan[] {
  const spans: ReadSpan[] = [];
  let opening = true;
  // The first span with content of its own opens the text; a line of fields above it does not.
  const took = () => {
    const last = spans[spans.length - 1]!;
    if (last.hollow === undefined && !last.fields) opening = false;
  };
  let sentenceCount = 0;
  for (const section of sections) {
    const lines = section.lines;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.kind === "item") {
        const items: Line[] = [line];
        while (i + 1 < lines.length && lines[i + 1]!.kind === "item" && lines[i + 1]!.block === line.block) items.push(lines[++i]!);
        const { list, loose } = splitList(items, section.criterion !== undefined);
        if (list.length > 0) {
          const real = list.filter((text) => hollowLine(text) === undefined);
          const hollow = real.length === 0 ? hollowLine(list[0]!) : list.some(ordinaryUse) ? "placeholder" : undefined;
          spans.push(makeSpan(section, line.block, (real.length ? real : list).join("\n"), real, items.every((it) => it.ordered), false, opening, hollow));
          took();
        }
        for (const clause of loose.flatMap(clauses)) {
          spans.push(makeSpan(section, line.block, clause, [], false, false, opening, hollowLine(clause)));
          took();
        }
        continue;
      } else if (line.kind === "code") {
        spans.push(makeSpan(section, line.block, line.text, [], false, true, false, undefined));
      } else if (GHERKIN_GIVEN.test(line.text)) {
        // Given / When / Then lines are one scenario: one span, as a list is.
        const steps: Line[] = [line];
        while (i + 1 < lines.length && lines[i + 1]!.kind === "text" && lines[i + 1]!.block === line.block && GHERKIN_NEXT.test(lines[i + 1]!.text)) steps.push(lines[++i]!);
        // "Given ...\nWhen ...\nThen ..." is a template nobody filled in.
        const hollow = steps.every((l) => hollowLine(l.text) !== undefined) ? "placeholder" : undefined;
        spans.push(makeSpan(section, line.block, steps.map((l) => l.text).join("\n"), [], false, false, opening, hollow));
        // Its outcome ("Then the repayment should be £1,374.86 / But it shows £1,389.58") is also
        // read on its own: in a bug it is what should happen and what does.
        const then = steps.findIndex((l) => /^then\b/i.test(l.text));
        if (then > 0) spans.push(makeSpan(section, line.block, steps.slice(then).map((l) => l.text).join("\n"), [], false, false, false, hollow));
      } else {
        const read = split && section.criterion === undefined && line.kind === "text" ? (t: string) => turns(t).flatMap(parts) : turns;
        for (const sentence of sentences(line.text)) {
          sentenceCount++;
          for (const clause of read(sentence)) {
            spans.push({ ...makeSpan(section, line.block, clause, [], false, false, opening, hollowLine(clause)), sentence: sentenceCount });
            took();
          }
        }
        continue;
      }
      took();
    }
  }
  return spans;
}

/**
 * A list under a criterion's label, or a checklist, is one span: the list is the proof (steps,
 * scope, acceptance criteria). An unlabelled list is often a ticket written as bullets, one fact
 * an item ("- v4.12 on Chrome 126", "- open a shipment > Print", "- should fit on one label"):
 * its step-like items (numbered, or actions) stay one span of steps, and every other item, and
 * every line Markdown lazily continued into a step ("3. Clear filter\n→ pins sit at 0,0"), is
 * read on its own, as prose is.
 */
function splitList(items: readonly Line[], labelled: boolean): { list: string[]; loose: string[] } {
  if (labelled || items.some((it) => /^\[[ xX]\]/.test(it.text))) return { list: items.map((it) => it.text), loose: [] };
  const first = (it: Line) => it.text.split("\n")[0]!;
  const actions = items.filter((it) => isAction(first(it)));
  // A numbered list is steps; when two or more of its items are actions, an item that is not
  // ("5. Done when the mail arrives") is read on its own.
  const steps = actions.length >= 2 ? actions : items.every((it) => it.ordered) && items.length >= 2 ? items : [];
  const inSteps = new Set(steps);
  return {
    // "1. Replace the key; the old one leaked on 4 June": the step is before the semicolon.
    list: steps.map((it) => first(it).split("; ")[0]!),
    loose: items.flatMap((it) => (inSteps.has(it) ? [first(it).split("; ").slice(1).join("; "), ...it.text.split("\n").slice(1)] : [it.text])).filter((t) => t.trim() !== ""),
  };
}

const GHERKIN_GIVEN = /^given\b/i;
const GHERKIN_NEXT = /^(?:given|when|then|and|but)\b/i;

function makeSpan(section: Section, block: number, text: string, items: string[], ordered: boolean, code: boolean, opening: boolean, hollow: Hollow | undefined): ReadSpan {
  // The opening line is the author's own summary; a first line under a label ("Where: prod") is that label's.
  const fields = fieldsLine(text);
  const span: ReadSpan = {
    block, text, plain: phraseForm(text.toLowerCase()), items, ordered: ordered && items.length > 0, code, opening: opening && section.criterion === undefined && !fields, fields,
    sectionLabel: section.label, plainLabel: phraseForm(section.label.toLowerCase()), words: words(text).length, ...(section.criterion ? { label: section.criterion } : {}),
    // Judged once here rather than once per criterion.
    verdict: !code && (verdictOnly(text) || vagueComplaint(text)), wish: !code && untestable(text, items),
  };
  if (hollow) return { ...span, hollow };
  if (code) return span;
  const hasData = findFact(span, DATA_KINDS) !== undefined;
  if (isFiller(text, hasData)) return { ...span, hollow: "filler" };
  return span;
}

/**
 * A tracker's or helpdesk's line of fields ("Ticket #230588 | Status: Open | Priority: High",
 * "Group: Product Specialists | Agent: Nadia Rossi"): what the tool records, not what the author
 * says first. (A single "Feature: ..." or "Title: ..." line often is what the author says first.)
 */
function fieldsLine(text: string): boolean {
  const cells = text.split(/\s+[|·•]\s+/);
  return cells.length >= 2 && cells.every((c) => c.length <= 80) && cells.filter((c) => FIELD.test(c)).length >= 2;
}
const FIELD = /^[\p{L}#][\p{L}\p{N}#./-]*(?: [\p{L}\p{N}#./-]+){0,2}:\s*\S/u;

// Sentence ends, and the turns where prose moves from one fact to the next ("..., instead it").
// Chat messages start their sentences in lower case too ("... android 15). tap pay -> ...").
const SENTENCE_END = /(?<=[.!?])\s+(?=["'(\p{L}\d])/u;
const TURN = /;\s+|(?<=\S)\s[·•]\s+|,\s+(?=(?:but|however|instead|whereas|while|although)\b)|(?<=\S)\s+(?=(?:but instead|but|instead it|instead the|instead of|however|because|so that|in order to|as required by|since)\b)/i;
const ABBREVIATION = new RegExp(`\\b(?:${ABBREVIATIONS})\\.$`, "i");

export function clauses(text: string): string[] {
  return sentences(text).flatMap(turns);
}

function sentences(text: string): string[] {
  const found: string[] = [];
  // Brackets left open by the sentence so far, counted piece by piece so a long text stays linear.
  let open = 0;
  for (const piece of text.split(SENTENCE_END)) {
    const last = found[found.length - 1];
    // A bracket never closed holds a sentence no longer than a template's gap would.
    if (last !== undefined && (ABBREVIATION.test(last) || (open > 0 && last.length < 160))) found[found.length - 1] = `${last} ${piece}`;
    else {
      found.push(piece);
      open = 0;
    }
    open = Math.max(0, open + (piece.match(OPENERS)?.length ?? 0) - (piece.match(CLOSERS)?.length ?? 0));
  }
  return found;
}

// "<why are we doing this? link the incident>", "(see the log. It repeats)": a sentence ends
// only outside brackets, so a template's gap stays one gap and is read as one. A bracket opens
// before a word ("(see", "<why", "[Explain"); "<2s", ":( It" and "a < b" open nothing.
const OPENERS = /[([<](?=\p{L})/gu;
const CLOSERS = /(?<=[\p{L}\p{N}.?!'"’”])[)\]>]/gu;

// A dictated note or a chat message can run on for a paragraph without a full stop ("..., so what
// we want is ..., and we'll call it done when ..."): a clause that long is cut where a new thought
// starts after a comma, or with "so what we need is ..." where there is none.
const RUN_ON = /,\s+(?=(?:so|and|but|then|which|right now|now|okay|ok|also|plus|anyway)\b)|(?<=\S)\s+(?=so (?:what|we|i|the|that|it|basically)\b)/i;
const RUN_ON_WORDS = 60;
// A filler ("um", "so yeah") starts a new thought in speech at any length.
const SPOKEN_TURN = /(?<=\S)\s+(?=(?:so (?:yeah|um|uh)|um|uh|erm)\b)/i;

/** A sentence's clauses, cut where prose turns from one fact to the next. */
function turns(sentence: string): string[] {
  return sentence
    .split(TURN)
    .flatMap((clause) => clause.split(SPOKEN_TURN))
    .flatMap((clause) => (words(clause).length > RUN_ON_WORDS ? clause.split(RUN_ON) : [clause]))
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

// "Warranty is 3 months, your data stays in the EU, and this offer is valid until 31 March": a
// long sentence joins several terms, each a clause of its own. A list ("home, about, 6 treatment
// pages, a blog") is not: a sentence is read apart only when every piece has several words.
const JOINT = /,\s+(?=\D)|\s[–—]\s+|\s-\s+/;
const MIN_PART_WORDS = 4;

export function parts(sentence: string): string[] {
  const pieces = sentence.split(JOINT).map((p) => p.trim().replace(/^(?:and|or|then|plus)\s+/i, ""));
  if (pieces.length < 2 || pieces.some((p) => words(p).length < MIN_PART_WORDS)) return [sentence];
  // "You receive the connector, a field-mapping document, a test report and ...": things listed
  // after a verb are one clause; a piece that is a noun phrase ("a test report") has no verb of its own.
  if (pieces.slice(1).some((p) => /^(?:a|an)\s/i.test(p) && !/\b(?:is|are|was|were|will|be|has|have|can|must|shall)\b/i.test(p))) return [sentence];
  return pieces;
}

// ---- edges and matching ------------------------------------------------------------------------

function edgesOf(c: Criterion, spans: readonly ReadSpan[], index: LabelIndex): Edge[] {
  const data = c.data ?? [];
  const phrases = (c.phrases ?? []).map((p) => phraseForm(p.toLowerCase()));
  const notWith = (c.notWith ?? []).map((p) => phraseForm(p.toLowerCase()));
  const minWords = c.minWords ?? 3;
  const vocabulary = index.vocabularyOf.get(c.id)!;
  const labelled = spans.some((s) => s.label === c.id);
  // "What happens: the discount is not right": the author's own section says it; the text's first
  // line does not stand in for it.
  const evidence = labelled ? (c.evidence ?? []).filter((e) => e !== "opening") : c.evidence ?? [];
  const edges: Edge[] = [];
  // One look at each of the criterion's sections as a whole, however many clauses it has.
  const sections = new Map<string, { fact: ReturnType<typeof findFact>; words: number; complaint: boolean }>();
  const section = (span: ReadSpan) => {
    let seen = sections.get(span.sectionLabel);
    if (!seen) {
      const whole = wholeSection(spans, span, c);
      // "What happens: it doesn't work properly, the invoices come out weird. We tried it a few
      // times": a section that only complains says nothing more for the words around the complaint.
      const own = spans.filter((s) => s.label === c.id && s.sectionLabel === span.sectionLabel);
      const complaint = own.some((s) => vagueComplaint(s.text)) && own.every((s) => s.verdict || findFact(s, evidence) === undefined);
      sections.set(span.sectionLabel, (seen = { fact: findFact(whole, data), words: words(whole.text).length, complaint }));
    }
    return seen;
  };
  spans.forEach((span, i) => {
    if (span.hollow || negated(span, vocabulary)) return;
    const rank = span.label === c.id ? 0 : span.label === undefined ? 1 : 2;
    if (span.verdict || (c.testable && span.wish)) {
      if (rank === 0) edges.push({ span: i, strength: "partial", found: span.text, rank });
      return;
    }
    // "Done when | a filtered export matches the screen; an export over 1M rows is e-mailed; ...":
    // a section's clauses are read apart, but the data it needs may be the clauses together.
    const proof = findFact(span, [...evidence, ...data]) ?? (rank === 0 ? section(span).fact : undefined);
    if (rank === 0) {
      if (proof) edges.push({ span: i, strength: "met", found: span.text, rank });
      // "Deliverables: migrated cloud sites; migration plan; test migration report; admin runbook":
      // short clauses of one section say enough together.
      else if (data.length === 0 && !section(span).complaint && contentWords(span.text).length >= Math.min(minWords, 2) && (span.words >= minWords || section(span).words >= 2 * minWords)) edges.push({ span: i, strength: "met", found: span.text, rank });
      else if (contentWords(span.text).length > 0) edges.push({ span: i, strength: "partial", found: span.text, rank });
      return;
    }
    const lower = span.plain;
    // "Payment terms: 50% at kickoff, 50% on acceptance; net 15": what a section is about is in its label too.
    const about = rank === 2 ? `${lower}\n${span.plainLabel}` : lower;
    const elsewhere = notWith.some((p) => containsPhrase(about, p));
    const self = elsewhere ? undefined : findFact(span, evidence);
    if (self && (span.words >= 2 || DATA_KINDS.includes(self.kind))) {
      // "Actual: it's off / not right" under its own label: the title's "broken" does not make up for it.
      const strength = labelled && verdictOnly(self.found) ? "partial" : "met";
      edges.push({ span: i, strength, found: self.found, rank, ...(c.alongside?.includes(self.kind) ? { shared: true } : {}) });
      return;
    }
    const phrase = elsewhere ? undefined : phrases.find((p) => containsPhrase(lower, p));
    if (!phrase) return;
    const datum = data.length > 0 ? findFact(span, data) ?? findFact(whatFollows(spans, i), data) : undefined;
    // A sentence found by its wording needs four content words, or the criterion's minWords if fewer.
    const substantive = contentWords(span.text).length >= Math.min(4, c.minWords ?? 4);
    const strength: Strength = data.length > 0 ? (datum ? "met" : "partial") : substantive ? "met" : "partial";
    edges.push({ span: i, strength, found: span.text, rank });
  });
  return edges.sort((a, b) => a.rank - b.rank || a.span - b.span);
}

/** A span that denies the criterion; a list only when every item does. */
function negated(span: ReadSpan, vocabulary: ReadonlySet<string>): boolean {
  // A response body's "unknown error" is what happened, not the author denying it.
  if (span.code) return false;
  return span.items.length > 0 ? span.items.every((item) => isNegatedFor(item, vocabulary)) : isNegatedFor(span.text, vocabulary);
}

function containsPhrase(text: string, phrase: string): boolean {
  let at = text.indexOf(phrase);
  while (at >= 0) {
    const before = at === 0 ? " " : text[at - 1]!;
    const after = text[at + phrase.length] ?? " ";
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return true;
    at = text.indexOf(phrase, at + 1);
  }
  return false;
}

/**
 * One span per criterion, and one criterion per span: a bipartite matching found with augmenting
 * paths, criteria taken required first, then by weight, so a span two criteria could use goes
 * where it lets the most (and heaviest) be met. Four phases: required criteria by full proofs
 * under their own label or without one, then under any label, then every criterion by full
 * proofs, then what partial proofs remain. Last, a criterion still open may share a span another
 * took, by a fact of a kind it takes `alongside`.
 */
function match(criteria: readonly Criterion[], edges: ReadonlyMap<string, Edge[]>): Map<string, Edge> {
  const order = [...criteria].sort((a, b) => Number(b.required ?? false) - Number(a.required ?? false) || b.weight - a.weight);
  const owner = new Map<number, string>();
  const chosen = new Map<string, Edge>();
  // Required criteria first; a span under a required criterion's own label goes to it before any
  // other may read it there ("Expected: the CSV should hold the orders shown" is not what is observed).
  let frozen = new Set<number>();
  const phases = [["met", 1, true], ["met", 2, true], ["met", 1, false], ["met", 2, false], ["partial", 2, false]] as const;
  for (const [strength, maxRank, requiredOnly] of phases) {
    // Partial proofs take only what full ones left; a span taken in full may still move to another criterion's full proof.
    if (strength === "partial") frozen = new Set(owner.keys());
    for (const c of order) {
      if (chosen.has(c.id) || (requiredOnly && !c.required)) continue;
      augment(c.id, new Set(), strength, maxRank, frozen, edges, owner, chosen);
    }
  }
  // A span proving one criterion may prove one more by a fact of the kinds that criterion takes alongside.
  const twice = new Set<number>();
  for (const c of order) {
    if (chosen.has(c.id)) continue;
    const edge = edges.get(c.id)!.find((e) => e.shared && e.strength === "met" && owner.has(e.span) && !twice.has(e.span));
    if (!edge) continue;
    twice.add(edge.span);
    chosen.set(c.id, edge);
  }
  return chosen;
}

function augment(id: string, seen: Set<number>, strength: Strength, maxRank: number, frozen: ReadonlySet<number>, edges: ReadonlyMap<string, Edge[]>, owner: Map<number, string>, chosen: Map<string, Edge>): boolean {
  for (const edge of edges.get(id)!) {
    if (edge.strength !== strength || edge.rank > maxRank || seen.has(edge.span) || frozen.has(edge.span)) continue;
    seen.add(edge.span);
    const current = owner.get(edge.span);
    if (current === undefined || augment(current, seen, strength, maxRank, frozen, edges, owner, chosen)) {
      owner.set(edge.span, id);
      chosen.set(id, edge);
      return true;
    }
  }
  return false;
}

// ---- helpers -----------------------------------------------------------------------------------

/**
 * What a phrase introduces: "How we'd know it works — one, ...; two, ...; and four, ..." goes on
 * to the end of its sentence, and "What they will test before signing:" to the list under it.
 */
const FOLLOWING_CLAUSES = 8;

function whatFollows(spans: readonly ReadSpan[], at: number): Span {
  const span = spans[at]!;
  let text = span.text;
  let last = at;
  // A few clauses on: what a phrase introduces is near it (and a long run-on sentence stays linear).
  if (span.sentence !== undefined) {
    for (let i = at + 1; i < Math.min(spans.length, at + 1 + FOLLOWING_CLAUSES) && spans[i]!.sentence === span.sentence; i++, last++) text = `${text}; ${spans[i]!.text}`;
  }
  // "Writing down what "done" would look like — please correct me:" and the list under it, read
  // as one span or, its items long, item by item.
  const next = spans[last + 1];
  if (/:\s*$/.test(spans[last]!.text) && next !== undefined) {
    const items = next.items.length > 0 ? next.items : spans.slice(last + 1, last + 1 + FOLLOWING_CLAUSES).filter((s) => s.block === next.block).map((s) => s.text);
    text = `${text} ${items.join("; ")}`;
  }
  return { text, items: [], ordered: false, code: false, opening: false };
}

/** A labelled section's real clauses as one span; for a `testable` criterion, without its mere wishes. */
function wholeSection(spans: readonly ReadSpan[], span: ReadSpan, c: Criterion): Span {
  const clauses = spans.filter((s) => s.label === span.label && s.sectionLabel === span.sectionLabel && !s.hollow && !(c.testable && s.wish));
  return { text: clauses.map((s) => s.text).join("; "), items: [], ordered: false, code: false, opening: false };
}

/** All of a labelled section's real text, for the skeleton a review rewrites. */
function sectionText(spans: readonly ReadSpan[], span: ReadSpan): string {
  return spans.filter((s) => s.label === span.label && s.sectionLabel === span.sectionLabel && !s.hollow).map((s) => s.text).join("\n");
}

/** A criterion met in name, counted as vague, with the reason in front of its evidence. */
export function tooVague(found: Judgement, id: string, why: string): Judgement {
  const criteria = found.criteria.map((c) => (c.id === id && c.status === "met" ? { ...c, status: "partial" as const, points: c.weight / 2, evidence: excerpt(`${why}: ${c.evidence}`) } : c));
  return { ...found, criteria };
}

export function excerpt(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const round = (n: number) => Math.round(n * 10) / 10;
