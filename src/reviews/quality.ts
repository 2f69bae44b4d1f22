import { stemmer } from "stemmer";

/**
 * Text that looks like content but says nothing: placeholders and template text left in,
 * negations ("no steps", "N/A"), filler (lorem ipsum, repeated words, no ordinary words at all)
 * and keyword stuffing (mostly the rubric's own section names). Such text earns nothing.
 */
export type Hollow = "placeholder" | "template" | "negated" | "filler" | "stuffing";

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

export function words(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []) as string[];
}

// Words that carry no content of their own (and the words of Given/When/Then skeletons).
const STOP = new Set(
  ("a an the and or but if then than so to of in on at by for from with without into onto about as is are was were be been being am do does did " +
    "have has had having it its this that these those there here i we you he she they me us him her them my our your their it's i'm we're " +
    "what which who whom whose when where why how all any each every some no not can could should would will shall may might must " +
    "up down out over under again just also very too only own same such more most other e g eg etc ie given when then and").split(" "),
);

// Ordinary English that any written sentence has; lorem ipsum or a pile of keywords has none.
const FUNCTION = new Set(
  ("a an the and or but to of in on at by for from with is are was were be it its this that these we i you our your their they he she his her " +
    "not no when if as has have will should can each other both all per into after before over than then so").split(" "),
);

// Words that praise or wish without saying anything a tester could check.
const WISHFUL = new Set(
  // and the words of corporate filler: "ensure synergy and value", "do the needful at the earliest".
  ("synergy synergies holistic leverage empower journey agility passion excellence going forward practices needful earliest " +
    "satisfaction appropriately cooperation " +
    "seamless seamlessly intuitive intuitively easy easier easily simple simpler simply pleasant nice nicer good better best great fast faster " +
    "quick quickly smooth smoothly modern trustworthy friendly user-friendly clean cleaner robust scalable efficient efficiently improved improve " +
    "improvement improvements properly correctly nicely delightful delight delighted world-class experience overall feel feels work works way ways " +
    "well enhance enhanced optimize optimized optimise optimised revamp rework overhaul streamline streamlined everything anything things stuff " +
    "generally intuitive awesome amazing perfect perfectly beautiful fine flexible modernise modernize modernised modernized polished powerful sleek slick").split(" "),
);

const LOREM = new Set(
  ("lorem ipsum dolor amet consectetur adipiscing elit eiusmod tempor incididunt labore dolore magna aliqua enim minim veniam quis nostrud " +
    "exercitation ullamco laboris nisi aliquip commodo consequat duis aute irure reprehenderit voluptate velit esse cillum fugiat nulla " +
    "pariatur excepteur sint occaecat cupidatat proident culpa officia deserunt mollit anim laborum").split(" "),
);

// A whole line that stands for nothing.
const EMPTY =
  /^(?:n\/?a|n\.a|(?:none|nothing)(?: really| at all| in particular| specific)?|nil|null|tbd|tba|tbc|todo|to ?do|unknown|\?+|-+|\.{2,}|…+|x+|_?no response_?|no answer|see (?:above|below|title|subject|description|attached)|same as (?:above|title|summary)|as above|as per (?:title|subject|(?:the )?(?:policy|spec|specification|requirements?|design|documentation|docs|rules|usual))|not (?:applicable|available|included|provided|known|sure|defined|specified|relevant|decided|yet (?:known|defined|decided|clear))|to be (?:defined|determined|confirmed|decided|agreed|discussed|announced|clarified|added)|will (?:add|follow|update) (?:later|soon)|later|pending|ask (?:me|us)|no\.?|nope|idk|\{\{[^}]*\}\})$/i;

// "None yet - we'll look at it once design is done", "TBD (waiting for legal)", "n/a — an ongoing
// thing, no fixed end point": an empty answer with a remark after it is still empty.
const EMPTY_HEAD = /^(?:none|nothing|not yet|n\/?a|tbd|tbc|tba|todo|unknown|pending)(?:\s+(?:yet|for now|so far|at the moment|right now))?\s*[-–—:;(,]\s*(?=[^\n]{0,80}?\b(?:later|yet|tbd|tbc|to be|will|once|until|waiting|pending|figure|decide|agree|discuss|at some point|ongoing|no (?:fixed|clear|real|set|hard|specific))\b)/i;

// Text of issue and document templates, left in when nobody filled them in.
const TEMPLATE = [
  /\ba clear and concise description\b/i,
  /\bif applicable,? add\b/i,
  /\badd any other (?:context|information)\b/i,
  /^(?:describe|explain|list|provide|add|enter|insert|write|fill in|paste|include|tell us)\b.{0,80}\b(?:here|below)\s*[.:]?$/i,
  /^please (?:describe|explain|list|provide|add|enter|insert|write|fill in|paste|include|complete|specify)\b/i,
  /^see error\.?$/i,
  /^(?:steps to reproduce the behaviou?r|to reproduce):?$/i,
  /\blorem ipsum\b/i,
  /\(optional\)\s*$/i,
];

// "Have a look at the onboarding emails and improve them": a thing to look at, not what to do to it.
const LOOK_AND_IMPROVE = /^(?:please |could you |can you )?(?:(?:have|take) a (?:quick |closer )?look (?:at|into)|look into) [^.;:]{1,60}? and (?:improve|fix|sort out|tidy up|clean up|optimi[sz]e|update) (?:it|them|this|that|things|what(?:ever)? (?:is|'s) needed|where (?:it makes sense|needed|possible|appropriate))\b[^.;:]{0,30}$/i;
// "This was requested by management in last week's planning": who asked, not why.
const ORDERED_BY = /^(?:this |it )?(?:was |is |has been )?(?:requested|asked for|decided|wanted|mandated|ordered) by (?:management|leadership|the (?:boss|management|leadership|board|client|customer|business)|my (?:manager|boss|lead)|someone|them)\b(?:(?!\b(?:so|because|since|as|to|for|within)\b)[^,;:\d]){0,60}$/i;
// "Use the app normally for a while", "do the usual flow": a step anyone could write for any bug.
const ORDINARY_USE = /^(?:then |and |just )?(?:(?:use|keep using|work (?:with|in)|play (?:with|around with)|click around(?: in)?) (?:the |our |your |this |my )?(?:app|application|site|website|system|product|platform|tool|software|it|portal|dashboard)(?: (?:normally|as usual|as normal|like normal|like (?:you|we|I) (?:always|normally|usually) do|for a while|for some time|a bit|regularly))+|(?:do|follow|go through|run) (?:the |your |our )?(?:usual|normal|standard|regular) (?:flow|workflow|process|steps|stuff|things|routine))\b[^.;:]{0,40}$/i;
// "Done: when it's done, ping me": a definition of done that only says it is done.
const DONE_WHEN_DONE = /^(?:(?:close|resolve|mark|move)(?: (?:the|this|it) ?(?:ticket|task|issue|story|card)?)?(?: (?:as )?(?:done|closed|resolved))? )?(?:when|once|after) (?:it'?s|it is|it's all|everything(?:'s| is)|all is|we'?re|we are|i'?m|i am) (?:done|finished|complete(?:d)?|ready|over)\b(?!\s*:)/i;

const PUT_OFF = /^(?:[\p{L}-]+\s+){0,3}?(?:to be|still to be|will be|is to be|are to be)\s+(?:agreed|defined|determined|confirmed|decided|discussed|clarified|announced|scheduled|planned|fixed|set|figured out|worked out)(?:\s+(?:later|together|jointly|at|during|in|after|once|when|with|by)\b|\s*$)/iu;

// "To be shaped by an assessment": a section that opens so has no answer yet ("Reporting will be
// scoped later as phase 2" names what is left out, and stays).
const TO_BE_SHAPED = /^(?:still )?to be (?:shaped|scoped|worked out|established|identified)\b/i;

// "Flexible – we will agree the dates together once ...", "the parties will settle the schedule
// later": what should be stated is left for later, with no figure given.
const AGREED_LATER =
  /\b(?:we|i|they|you)(?:'ll| will| can| shall)? (?:figure|work|sort|find) (?:it|this|that|them) out (?:later|then|once|when|after|as we go)\b|\b(?:figure|work|sort|find) out (?:the |a )?(?:exact |final |full |detailed )?(?:list|details|dates|scope|plan|price|deliverables) (?:later|then|once|when|after|as we go|along the way)\b|^(?:flexible|open|tbd|tbc)\s*(?:[–—:,(-]|$)|\b(?:we|you|both (?:of us|parties|sides)|the parties|together we)\s+(?:will|shall|can|would|are going to)\s+(?:jointly\s+|then\s+|later\s+)?(?:agree|decide|confirm|fix|set|settle|plan|schedule|determine|discuss|define|work out)\s+(?:on\s+|upon\s+)?(?:the\s+|a\s+|all\s+)?(?:exact\s+|final\s+|concrete\s+|detailed\s+)?(?:dates?|timeline|timing|schedule|planning|milestones?|deadlines?|start(?: date)?|price|fees?|scope|deliverables|payment)\b/i;

// Words that name nothing of their own: "everything needed, as discussed in our meetings".
const VAGUE = new Set(
  ("everything anything whatever all needed necessary required relevant appropriate usual standard etc stuff things thing work project meetings meeting call calls " +
    "discussed agreed previously earlier before later mentioned talked spoke deliverables items necessary whatsoever else").split(" "),
);
// What any project hands over, named by no thing of its own: "The supplier will deliver the
// solution", "The solution, delivered and working".
const GENERIC = new Set(
  ("deliver delivers delivered delivering provide provides provided supply supplied hand handed over supplier vendor contractor solution solutions system " +
    "software product project result results outcome outcomes deliverable complete completed finished full final fully functional functioning " +
    "operational running ready tested installed configured working").split(" "),
);
const VAGUE_HEAD = /\b(?:everything|anything|whatever|all (?:that is|that's|things|the (?:usual|necessary|required)))\b/i;

// A template's gap left in a sentence: <describe>, [e.g. iOS], [insert date], "within [X] days", [DD.MM.2025], {{name}}, TBD
// ("< 4 hours" and "> 99.5%" are comparisons: a gap's brackets hold it without spaces). A
// deck's "[Slide 5]" and a chat's "[29/9 18:03]" are where the text came from, not gaps ("[0,000]"
// and "[00/00]", all zeros, are).
const LEFT_IN = /<(?=\S)[^<>\n]{1,60}(?<=\S)>|\[(?![ xX]\]|\s*(?=[\w.#-]*\d)[\w.#-]*\s*\]|\s*(?:slide|page|p\.)\s*\d{1,3}\s*\]|(?=[^\]\n]{0,30}[1-9])[\d/.:, -]{0,20}\d(?:\s?[ap]m)?\s*\])[^\[\]\n]{1,80}\](?!\()|(?<=\S )\[[xX]\]|\[[^\]\n]{0,20}\b(?:DD|MM|YYYY|YY|HH)\b[^\]\n]{0,20}\]|\[\s*\]|\{\{[^}\n]*\}\}|\bXX+\b|\b(?:tbd|tba|tbc)\b/i;

/** The first gap a template left in the text, if any. */
export function leftIn(text: string): string | undefined {
  return LEFT_IN.exec(text)?.[0];
}

// Placeholder tokens inside a line: the gaps above, a line that is one, '...', x.y.z, "as discussed".
const PLACEHOLDER_TOKENS = new RegExp(
  String.raw`${LEFT_IN.source}|\btodo\b(?::?\s*(?:add|fill in|write|describe|insert|complete|expand)\b[^)\n]*)?|^\[[^\]\n]{1,120}$|(['"‘“])(?:\.{2,}|…)\1|\.{3,}|…|\bx\.y(?:\.z)?\b|\b(?:same as (?:before|above|last time|previous(?:ly)?|usual|always)|as (?:discussed|agreed|before|usual|always)|see (?:previous|earlier|my|last|the|the previous|the last|our) (?:mail|e-?mail|message|ticket|thread|call|conversation)(?: (?:from|of) (?:last|this|yesterday|earlier)(?: week| month| sprint)?)?)\b`,
  "gi",
);

/** "To be confirmed after the kick-off", "we will agree the dates later": the answer put off, with no figure. */
export function putOff(line: string): boolean {
  const bare = line.replace(MARKER, "").trim().replace(/[.!;,]+$/, "");
  const put = PUT_OFF.exec(bare) ?? AGREED_LATER.exec(bare) ?? TO_BE_SHAPED.exec(bare);
  // A figure before it is an answer ("8 weeks, exact dates to be confirmed"); one after says when it will come ("defined in the workshop in week 1").
  return put !== null && !/\d/.test(bare.slice(0, put.index + put[0].length));
}

/** A list item's or a clause's marker: "- ", "3) ", "3.1 " (a numbered document's clause), "[x] ". */
const MARKER = /^\s*(?:[-*•]|\d+(?:\.\d+)*[.)]?(?=\s)|\d+[.)]|\[[ xX]\])\s*/;

/** A step that is only ordinary use ("Use the app normally for a while"): a list with one reproduces nothing. */
export function ordinaryUse(line: string): boolean {
  return ORDINARY_USE.test(line.replace(MARKER, "").replace(/[.!;,]+$/, "").trim());
}

// "Can someone help with this?", "Any ideas?", "Thoughts on the caching?", "So my question is:
// anything we should know?": a call for help that asks nothing in particular.
export const HELP_ONLY = /^(?:(?:hi|hey|hello|so|ok|okay)[,!.…]*\s+)?(?:(?:my|our|the) (?:question|ask) (?:is|was)\s*[:,]?\s+|q\s*:\s*)?(?:(?:can|could|would|will) (?:some(?:one|body)|any(?:one|body)|you(?: guys| all)?)(?: please)? (?:help|assist|advise|have a look|take a look|look into (?:it|this|that))(?: (?:me|us|here|out))?(?: (?:with|on) (?:this|that|it|the above))?(?: please)?|(?:any )?(?:ideas|thoughts|suggestions|advice|help|pointers|opinions|input)(?: (?:on|about|regarding) (?:this|that|it|the [a-z -]{1,30}))?|anything (?:(?:we|i) (?:should|could) (?:be doing|do|change|try)|to (?:do|change|try)) differently|(?:is there )?anything (?:(?:else )?(?:we|i) (?:should|need to) (?:know|be aware of|watch out for|consider))(?: (?:about|for|with|regarding) [a-z -]{1,40})?|what do (?:you|we) (?:all |guys )?think(?: (?:about|of) (?:this|that|it|all (?:of )?(?:this|that)))?|what(?:'s| is) your (?:view|take|opinion|thinking) (?:on|of|about) (?:this|that|it|the (?:overall )?(?:approach|plan|situation|direction|proposal|options))(?: going forward)?|what are your thoughts|opinions|(?:(?:can|could|would) you (?:please )?)?(?:send|give|share|provide) (?:us|me)? ?(?:some|any|more)? ?(?:info|information|details|input|advice|guidance)(?: (?:on|about|regarding) (?:this|it|that)(?: topic| issue| matter)?)?)\s*\?$/i;

/** Why a line says nothing, or undefined when it has content of its own. */
export function hollowLine(line: string): Hollow | undefined {
  const bare = line.replace(MARKER, "").replace(/[.!;,]+$/, "").trim();
  // "Names pending", "Dates TBC": a gap named by what should fill it.
  if (bare === "" || /^(?:[\p{L}-]+\s+){0,2}(?:pending|tbd|tbc|tba|to follow|to come)$/iu.test(bare)) return "placeholder";
  if (EMPTY.test(bare) || EMPTY_HEAD.test(bare)) return /^(?:not|no\b|none|nothing|nope|n\/?a|n\.a)/i.test(bare) ? "negated" : "placeholder";
  // "Given ..." or "Then …": a word and an ellipsis where the content should be.
  if (/(?:\.{3,}|…)\s*$/.test(line) && contentWords(bare).length === 0) return "placeholder";
  if (TEMPLATE.some((t) => t.test(bare))) return "template";
  if (HELP_ONLY.test(bare)) return "placeholder";
  // "To be agreed at the kick-off", "dates to be confirmed later": put off, with no figure given.
  if (putOff(bare) || DONE_WHEN_DONE.test(bare) || ORDERED_BY.test(bare) || LOOK_AND_IMPROVE.test(bare) || ORDINARY_USE.test(bare)) return "placeholder";
  const left = bare.replace(PLACEHOLDER_TOKENS, " ");
  if (left !== bare && contentWords(left).length < 2) return "placeholder";
  // Only vague words left once "as discussed" is taken out, or a line of vague words led by "everything".
  const vague = contentWords(left).every((w) => VAGUE.has(w));
  if (vague && (left !== bare || VAGUE_HEAD.test(bare))) return "placeholder";
  const named = contentWords(bare);
  if (named.every((w) => VAGUE.has(w) || GENERIC.has(w)) && named.some((w) => GENERIC.has(w))) return "placeholder";
  return undefined;
}

export function contentWords(text: string): string[] {
  return words(text).filter((w) => !STOP.has(w));
}

/** Lorem ipsum, one word over and over, or no ordinary word in a longer line without data. */
export function isFiller(text: string, hasData: boolean): boolean {
  const all = words(text);
  if (all.length === 0) return false;
  const lorem = all.filter((w) => LOREM.has(w)).length;
  if (lorem >= 2 && lorem / all.length >= 0.2) return true;
  if (all.length >= 4) {
    const counts = new Map<string, number>();
    for (const w of all) counts.set(w, (counts.get(w) ?? 0) + 1);
    const top = Math.max(...counts.values());
    if (top >= 3 && top / all.length >= 0.4 && !FUNCTION.has([...counts].find(([, n]) => n === top)![0])) return true;
    if (all.length >= 12 && counts.size / all.length < 0.35) return true;
  }
  // "The experience should be seamless and feel trustworthy": wishes nobody can test.
  const content = contentWords(text);
  if (!hasData && content.length >= 3 && content.filter((w) => WISHFUL.has(w)).length / content.length >= 0.5 && concreteData(text) === 0) return true;
  // Terse notes ("open class 7B gradebook -> Term 2 -> rows show 0.0") name things; piles of words do not.
  return !hasData && all.length >= 10 && !all.some((w) => FUNCTION.has(w)) && concreteData(text) === 0;
}

// Spelling variants folded before stemming.
const SPELLING: Record<string, string> = { behaviour: "behavior", colour: "color", licence: "license", organisation: "organization", analyse: "analyze", cancelled: "canceled" };

/** The stem a word is compared by (labels, rubric vocabulary). */
export function stemOf(word: string): string {
  return stemmer(SPELLING[word] ?? word);
}

/** Share of a text's content words that are the rubric's own vocabulary (section names). */
export function vocabularyShare(text: string, vocabulary: ReadonlySet<string>): { share: number; count: number } {
  const content = contentWords(text);
  if (content.length === 0) return { share: 0, count: 0 };
  const hits = content.filter((w) => vocabulary.has(stemOf(w))).length;
  return { share: hits / content.length, count: content.length };
}

const NEGATION = /\b(?:no|not|none|nothing|without|never|n\/a|can't|cannot|couldn't|could not|unable to|don't|do not|didn't|did not|haven't|have not|hasn't|has not|isn't|is not|won't|will not|unknown|unclear|excluded)\b/i;
// The author does not know ("no idea", "I can't tell"); "dispatchers can't tell which driver ..." is a problem told.
const NOT_KNOWN = /\b(?:no idea|not sure|no clue|dunno)\b|(?:^|\b(?:i|we)\s+)(?:don't know|do not know|can't tell|cannot tell)\b/i;
// What does not happen, said with a verb of something happening: "nothing happens", "no file is
// downloaded", "no e-mail arrives". "No trigger identified", "nothing depends on it" deny.
const EVENT = "(?:happen|appear|load|arrive|show|display|open|respond|react|change|sav|download|upload|send|sent|print|sync|refresh|render|start|pop)(?:s|es|ed|d|n|ped)?";
const NEGATED_EVENT = new RegExp(`\\b(?:nothing|no\\s+[\\p{L}-]+(?:\\s+[\\p{L}-]+)?)\\s+(?:(?:is|are|was|were|gets?|got|has been|have been)\\s+)?${EVENT}\\b`, "iu");
// Where a denial's verb ends: its clause's end, or a "yet", "now", "at this stage", "up front", "in this quote".
const DENIAL_END = String.raw`(?=\s*(?:$|[.;,!)]|\b(?:yet|now|for now|so far|here|at (?:this|the moment|present)\b|up ?front|in advance|in this (?:quote|proposal|offer|document)|before (?:the )?(?:discovery|assessment|workshop|kick-?off|poc|proof of concept|first sprint))))`;
// "A price cannot be given yet", "the team is not decided", "we are not able to define the scope",
// "we do not fix a scope", "no transfer of rights is offered", "we have not agreed any
// confidentiality terms": the term is said to be not stated, wherever the negation stands in a
// short sentence naming it. "We will not build the admin panel" and "the price does not include
// VAT" state a boundary.
const NOT_STATED = new RegExp(
  [
    // "... cannot be given yet", "the team is not decided.": the participle ends its clause or puts it off; "not given
    // to third parties", "not confirmed until payment succeeds", "not defined for imported users" say how things are.
    String.raw`(?:can ?not|can't|could not|couldn't|will not|won't|is not|are not|isn't|aren't|has not|have not|hasn't|haven't|not)\s+(?:yet\s+)?(?:been\s+|be\s+)?(?:given|defined|decided|agreed|committed|confirmed|specified|determined|estimated|known|addressed|planned|settled|discussed|proposed)${DENIAL_END}`,
    String.raw`(?:is|are|remains?) (?:still )?(?:undecided|unknown|unclear|open)${DENIAL_END}`,
    String.raw`(?:not able to|unable to|can ?not|can't)\s+(?:give|define|commit to|confirm|specify|determine|estimate|quote|say|promise|name|plan)\b`,
    String.raw`(?:have not|has not|haven't|hasn't) (?:yet )?(?:agreed|defined|decided|planned|discussed|covered)\b`,
    String.raw`(?:nothing|none) (?:is|are|will be|can be) (?:yet )?(?:promised|committed|guaranteed|defined|fixed|agreed|planned)\b`,
    String.raw`(?:do|does|did|will) not (?:define|specify|promise|commit to|list)\b`,
    String.raw`(?:do|does|did) not fix (?:a|the|any) [\p{L}-]+${DENIAL_END}`,
    String.raw`no (?:transfer|assignment) of [\p{L} ]{1,30}? (?:is|are) (?:offered|included|planned|foreseen|intended)\b`,
  ].map((branch) => String.raw`\b${branch}`).join("|"),
  "iu",
);
// "ReferenceError: process is not defined": an error's own words, not the author's.
const ERROR_NAME = /\w(?:Error|Exception)\b/;
const NEGATED_START = /^(?:no|not|none|nothing|unknown|unclear|n\/a|can't say|cannot say|don't know|do not know|no idea|not sure|unsure)\b/i;
// "Nothing really, just flagging it": a hedged nothing denies its section however long it goes on.
// "No fixed end - let's keep chipping away at it": an end nobody set.
const HEDGED_NOTHING = /^(?:(?:nothing|none)[ ,]+(?:really|yet|for now|right now|at the moment|in particular|specific(?:ally)?|urgent|needed|required)|no (?:fixed|clear|real|set|hard|specific) (?:end|end date|deadline|finish line|definition|target)|there (?:isn't|is not|won't be|will not be|is no|'s no)(?: really)?(?: an?| any)? (?:fixed |clear |real |set |hard |specific )?(?:end|end date|end state|finish line|deadline|definition of done))\b/i;

// Words that judge without saying how: "export is not correct", "it should work properly".
const VERDICT = new Set(
  ("wrong correct correctly incorrect incorrectly right broken work works working worked fine ok okay good bad badly issue issues problem problems " +
    "weird strange odd properly messed buggy expected intended normal normally usual supposed fixed").split(" "),
);

// Words that ask for help rather than say anything: "Please fix, it should work".
const REQUEST = new Set("please fix asap urgently kindly help thanks thank".split(" "));
// Hedges of someone who cannot say what they saw: "looks kind of weird, hard to describe, I think".
const HEDGE = /\b(?:kind of|sort of|somehow|something (?:is|was|seems|looks) (?:off|wrong|weird|strange)|hard to (?:describe|explain|say)|(?:i|we) (?:think|guess)|not sure (?:what|how|why)|weird|strange|odd)\b/gi;

/**
 * A verdict and at most one other word ("Actual: export is not correct", "Please fix, it should
 * work"), or hedges with nothing concrete ("the chart looks kind of weird, hard to describe"):
 * nothing a developer could check.
 */
export function verdictOnly(text: string): boolean {
  if (concreteData(text) > 0) return false;
  const content = contentWords(text).filter((w) => !REQUEST.has(w));
  const verdicts = content.filter((w) => VERDICT.has(w)).length;
  return (verdicts > 0 && content.length - verdicts <= 1) || (text.match(HEDGE) ?? []).length >= 2;
}

// How someone feels about a result, a trend with no figure, or "we'll know it when we see it":
// nothing a tester can check.
const SUBJECTIVE =
  /\b(?:feels?|felt|confident|confidence|good (?:results?|experience|quality)|helpful|more or less|happ(?:y|ier)|love|loves|delight\w*|satisf\w*|frustrat\w*|looks? (?:good|nice|great|better|clean|modern)|better|easier|nicer|faster|quicker|snappy|snappier|noticeabl[ey]|(?:stop|stops|less) complaining|smooth\w*|seamless\w*|intuitive\w*|polished|(?:go|goes|went) (?:down|up)|(?:is|are|be|gets?) improved|fewer|positive feedback|works? well|in control|less (?:confusion|friction|effort)|notice (?:a|any) difference|more (?:engaging|usable|flexible|efficient|productive)|(?:fast|quick|good|smart|accurate|reliable|stable) enough|know it when (?:we|i|you|they) see it|(?:we|i)(?:'ll| will) (?:just )?see|take it from there|see how it goes|play it by ear|some (?:kind|sort) of|open to (?:ideas|suggestions)|(?:build|make|create|do) something|whatever (?:approach|solution|way|you (?:think|prefer|suggest))|less manual)\b/i;

// A quoted value ('"Export" is greyed out'), not the apostrophes of "we'll know it's done".
const QUOTED = /(?<!\p{L})["“'‘][^"“”'‘’\n]{2,}["”'’](?!\p{L})/u;

// What a check states: a verb, a state or a figure ("shows", "is listed", "within 2 s", "= 0").
const CHECKS = /\b(?:is|are|was|were|be|been|can|cannot|can't|must|should|shall|will|does|do|has|have|gets?|shows?|shown|appears?|returns?|sees?|lists?|listed|displays?|sends?|sent|receives?|matches?|contains?|works?|loads?|opens?|fails?|succeeds?|equals?|exists?|within|under|after|before|when|if|only|no|never|every|each)\b|\d|[=<>]/i;

/**
 * Most of a list's items (or a text's sentences) say how it should feel, with no figure to check;
 * or a list names features instead of checking them ("Reconciliation page / Payout import / Export").
 * Of a Given/When/Then scenario only the outcome is checked: its Then lines.
 */
export function untestable(text: string, items: readonly string[]): boolean {
  const lines = text.split(/(?<=[.!?;])\s+|\n+/).filter((p) => p.trim() !== "");
  const then = /^\s*given\b/i.test(text) ? lines.findIndex((line) => /^\s*then\b/i.test(line)) : -1;
  const parts = items.length > 0 ? items : then >= 0 ? lines.slice(then) : lines;
  const vague = parts.filter((p) => SUBJECTIVE.test(p) && !/\d/.test(p) && !QUOTED.test(p)).length;
  const featureNames = items.length >= 3 && items.every((item) => words(item).length <= 5 && !CHECKS.test(item));
  return (parts.length > 0 && vague * 2 > parts.length) || featureNames;
}

/** "Happened once yesterday, no idea how": a short answer that says the author does not know. */
export function saysUnknown(line: string): boolean {
  return words(line).length <= 12 && NOT_KNOWN.test(line);
}

/**
 * A line that denies the criterion it stands for: short and negative ("Not sure", "None yet"),
 * or a negation close before the criterion's own words ("I could not reproduce it and have no
 * steps", "no version info"). "Cannot log in after the update" says what is observed, not that
 * anything is missing, so it is not negated.
 */
export function isNegatedFor(line: string, vocabulary: ReadonlySet<string>): boolean {
  // "Nothing happens", "no file is downloaded", "when I click it, no e-mail arrives": what does not
  // happen is what is observed, not a denial that anything is stated.
  if (NEGATED_EVENT.test(line)) return false;
  const bare = line.replace(MARKER, "").trim();
  const all = words(bare);
  if ((all.length <= 4 && NEGATED_START.test(bare)) || HEDGED_NOTHING.test(bare)) return true;
  if (saysUnknown(line)) return true;
  const negation = NEGATION.exec(line);
  if (!negation) return false;
  // "USD 8k flat (8 days × $1,000), no expenses": a figure before the negation is the answer given.
  if (/\d/.test(line.slice(0, negation.index))) return false;
  // "Nothing is promised in this document", "We haven't discussed this yet": a short denial names
  // no term; it denies whichever it stands under.
  if (all.length <= 20 && NOT_STATED.test(line) && !ERROR_NAME.test(line) && (all.length <= 8 || /^(?:nothing|none)\b/i.test(bare) || all.some((word) => vocabulary.has(stemOf(word))))) return true;
  for (let i = 0; i < all.length; i++) {
    if (!vocabulary.has(stemOf(all[i]!))) continue;
    // Right before the word: "no steps", "not reproducible"; "we never copy customer data" is a
    // promise about the data, not a denial that it is handled.
    const before = all.slice(Math.max(0, i - 2), i).join(" ");
    const after = all.slice(i + 1, i + 3).join(" ");
    if (NEGATION.test(before) || /^(?:not|unknown|unclear|n\/a|none)\b/.test(after)) return true;
  }
  return false;
}

/**
 * How many concrete data a text names: numbers and versions, paths, addresses and identifiers
 * (a token with a dot, slash, underscore or @), names (a capital inside a sentence) and quoted
 * values. A ticket of thirty words without one ("the page does not work properly, please fix it
 * as soon as possible ...") cannot be started on, however it is laid out.
 */
export function concreteData(text: string): number {
  let count = 0;
  for (const sentence of text.split(/(?<=[.!?:;])\s+|\n+/)) {
    const tokens = sentence.match(/[\p{L}\p{N}][\p{L}\p{N}._/@%-]*/gu) ?? [];
    tokens.forEach((token, i) => {
      const bare = token.replace(/[.-]+$/, "");
      if (/\d/.test(bare) || /[._/@]/.test(bare) || (i > 0 && /^\p{Lu}/u.test(bare) && bare !== "I")) count++;
    });
    if (/["“`][^"”`\n]{2,80}["”`]/.test(sentence)) count++;
  }
  return count;
}

/**
 * The form phrases are compared in: "we'll build", "won't", "you’re", "we would" read as "we will
 * build", "will not", "you are", "we will"; and a freelancer's "I'll need", "my rate" as "we will
 * need", "our rate", so the rubric's phrases need not be written for one author and for several.
 */
export function phraseForm(text: string): string {
  return text
    .replace(/[’‘]/g, "'")
    // 'what does "done" look like' has the phrase's words, quoted or not.
    .replace(/["“”`]/g, "")
    .replace(/\bwon't\b/g, "will not")
    .replace(/\bcan't\b/g, "cannot")
    .replace(/\b(\p{L}+)n't\b/gu, "$1 not")
    .replace(/\bi'm\b|\bi am\b/g, "we are")
    .replace(/\b(\p{L}+)'ll\b/gu, "$1 will")
    .replace(/\b(we|you|they)'re\b/g, "$1 are")
    .replace(/\b(i|we|you|they)'ve\b/g, "$1 have")
    // An offer told in the conditional ("we would review ...", "you'd receive ...") says what will be done.
    .replace(/\b(i|we|you|they)(?:'d| would)\b/g, "$1 will")
    .replace(/\bi\b(?![.'])/g, "we")
    .replace(/\bmy\b/g, "our")
    .replace(/\bme\b/g, "us");
}
