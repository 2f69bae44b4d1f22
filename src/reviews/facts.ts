import type { Evidence } from "../catalog/types.js";
import { contentWords, HELP_ONLY } from "./quality.js";

/**
 * Facts recognised by what they are, with or without a label: versions, platforms, URLs, stack
 * traces and log lines, step sequences, "should"/"instead" sentences (the discourse patterns of
 * Chaparro et al.), Given/When/Then, questions, user stories, amounts, dates, durations and
 * percentages. Each detector returns the text that proves it, or undefined. Every pattern is
 * anchored on a word or bounded in length, so a detector is linear in its input.
 */
// A month's name or its abbreviation, not a word it starts ("2-3 junior developers", "4 march-ready").
export const MONTH = "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\b\\.?";
/** A date in figures, day first or month first: "11.03.2025", "3/14/25", "11-03-2025" (a hyphen only with the full year: "10-12" is a range). */
export const DAY_MONTH_YEAR = "\\b\\d{1,2}[./]\\d{1,2}[./]\\d{2,4}\\b|\\b\\d{1,2}-\\d{1,2}-\\d{4}\\b";
const CURRENCY_SYMBOLS = "€|\\$|£|₹|¥";
// Codes that are no English word ("TRY", "PHP", "COP", "RUB" are: "try 3 times", "PHP 8.2", "rub 2 coats").
const CURRENCY_ISO = "EUR|USD|GBP|CHF|AUD|CAD|SEK|NOK|DKK|PLN|INR|JPY|CNY|SGD|HKD|NZD|ZAR|BRL|MXN|CZK|HUF|RON|AED|SAR|QAR|KWD|BHD|OMR|ILS|UAH|KRW|TWD|THB|MYR|IDR|VND|NGN|KES|EGP|ARS|CLP|ISK|BGN|RSD";
/** Every currency a review knows, as symbols and ISO codes, for other patterns to build on. */
export const CURRENCIES = `${CURRENCY_SYMBOLS}|${CURRENCY_ISO}`;
/** A value that is only a figure, perhaps with its currency: "3,600", "EUR 4,500", "€ 1.200,-". */
export const FIGURE_ONLY = new RegExp(`^(?:${CURRENCIES})?\\s?\\d[\\d.,' ]*(?:-|\\s?(?:${CURRENCIES}))?$`, "u");
// "A$ 12,000" and "NZ$" are their own dollars; "Rs. 1,40,000", "12 500 kr", "540 000 Kč", "KSh 600,000"
// name their currency in a word; "R145,000" is in rand.
export const CURRENCY_SIGN = `(?:\\b(?:AU?|CA?|NZ|US|S|HK|R)\\$|${CURRENCY_SYMBOLS}|\\b(?:${CURRENCY_ISO})\\b|\\beuros?\\b|\\bdollars?\\b|\\bpounds?\\b|\\brs\\b\\.?|\\brupees\\b|\\bkr\\b\\.?|\\bkč|\\bzł|\\bksh\\b|\\bR(?=\\s?\\d{1,3}(?:[ ,.]\\d{3})+))`;
// Bounded: "1 1 1 1 ..." must not make every start scan to the end of the text.
// A space groups thousands ("12 500") only between a digit and three more: "$11,500, 6 weeks" and
// "$2,000, 120 hours" are 11,500 and 2,000.
const NUMBER = "\\d(?:[\\d.,']|(?<=\\d)\\s(?=\\d{3}(?!\\d))){0,24}\\d(?:\\s?[kKmM]\\b)?|\\d(?:\\s?[kKmM]\\b)?";
// "€   600,00", "CHF   800.–" and "TOTAL GBP             12,516.00": a price column aligned with spaces after its currency.
// "at milestone 2 EUR 17.670,00": a currency between a number and a sum written with thousands
// prices the sum; "2.000 €   10 days" is 2,000 euros.
export const AMOUNT_PATTERN = new RegExp(`${CURRENCY_SIGN}[ \\t]{0,24}(${NUMBER})|(${NUMBER})\\s?${CURRENCY_SIGN}(?![ \\t]*\\d{1,3}(?:[.,' ]\\d{3})+)`, "gi");

/** Abbreviations whose full stop ends no sentence ("e.g.", "approx. 3", "excl. VAT", "Rs. 1,40,000"). */
export const ABBREVIATIONS = "e\\.g|i\\.e|etc|vs|approx|est|incl|excl|no|nr|fig|ca|mr|mrs|ms|dr|st|v|rs";

/** "Description        Qty    Unit price    Amount": a line laid out in columns with spaces. */
export const COLUMNS = /\S {3,}\S/;

const PLATFORMS =
  "chrome|chromium|firefox|safari|edge|opera|internet explorer|ie ?11|webview|ios|ipados|android|windows|macos|mac os|os x|linux|ubuntu|debian|fedora|centos|rhel|alpine|iphone|ipad|pixel|samsung|galaxy|huawei|xiaomi|oneplus|node(?:\\.js)?|deno|python|java|jdk|jre|\\.net|dotnet|php|ruby|rust|postgres(?:ql)?|mysql|mariadb|mongodb|redis|kafka|docker|kubernetes|k8s|terraform|nginx|apache|tomcat|react|angular|vue|next\\.js|django|laravel|aws|azure|gcp|heroku|vercel";
// English words too ("go to", "a brave user", "in spring"): a platform only with a version ("Go 1.22").
const WORD_PLATFORMS = "go|brave|spring|rails|helm|electron";
const ENVIRONMENTS = "localhost|on-prem(?:ises)?|self-hosted|tenant|desktop app|mobile app|web app";
// "production" or "staging" says which copy of the system, not which version, browser, device or
// tenant: named alone it leaves the developer asking where; with its region ("prod EU",
// "production, UK region", "prod eu-west-1") it names one.
const STAGED = "(?:production|prod|staging|pre-?prod|uat|sandbox)[ ,/(-]+(?:(?:eu|uk|us|apac|emea|latam)\\b|[a-z]{2}-[a-z]+-\\d|(?:the )?\\p{L}+ (?:region|tenant|instance|cluster|shard))";

const ACTION_VERBS =
  "open|go|navigate|scan|swipe|long-press|visit|browse|click|tap|press|select|choose|pick|enter|type|fill|paste|upload|download|submit|save|log ?in|login|log ?out|sign ?in|sign ?out|sign up|register|create|add|remove|delete|edit|change|set|switch|toggle|enable|disable|turn|run|execute|call|send|post|request|start|restart|stop|install|uninstall|update|upgrade|deploy|import|export|refresh|reload|scroll|drag|drop|hover|search|filter|sort|apply|checkout|pay|book|cancel|close|wait|use|make|invite|share|print|attach|connect|disconnect|trigger|schedule|configure|resize|rotate|zoom|copy|move|rename|load|reset|view|check|mark|assign|approve|reject|return|merge|push|pull|sync|generate|publish|archive|restore|complete|confirm|accept|decline|reply|forward|answer|order|buy|plug|unplug|charge|reopen|rebook|duplicate|replace|revoke|redeploy|store|migrate|bump|document|verify|notify|allow|provide|build|implement|introduce|extend|split|clean up|decommission|play|pause|seek|resume|skip|rewind|stream";
const PAST_ACTIONS =
  "opened|went|navigated|scanned|swiped|visited|clicked|tapped|pressed|selected|chose|entered|typed|filled|pasted|uploaded|downloaded|submitted|saved|logged|signed|registered|created|added|removed|deleted|edited|changed|set|switched|toggled|enabled|disabled|turned|ran|executed|called|sent|posted|requested|started|restarted|stopped|installed|updated|upgraded|deployed|imported|exported|refreshed|reloaded|scrolled|dragged|searched|filtered|sorted|applied|paid|booked|cancelled|canceled|closed|waited|used|made|invited|shared|printed|attached|connected|triggered|scheduled|configured|copied|moved|renamed|tried|loaded|reset|viewed|checked|marked|assigned|approved|rejected|returned|merged|pushed|pulled|synced|generated|published|archived|restored|completed|confirmed|accepted|declined|replied|forwarded|answered|ordered|bought|plugged|unplugged|charged|reopened|rebooked|duplicated|played|paused|resumed|skipped|rewound|streamed";

const RE = {
  version: new RegExp(
    [
      "\\bv\\d+(?:\\.\\d+)+(?:[-+][\\w.]+)?\\b",
      "\\b\\d+\\.\\d+\\.\\d+(?:\\.\\d+)?(?:[-+][\\w.]+)?\\b",
      "\\b(?:version|ver\\.?|build|release|rev|revision|commit|sha|tag|app|sdk|api|plugin|package|firmware|patch)\\s*:?\\s*#?v?(?:\\d+(?:\\.\\d+)*|[0-9a-f]{7,40})\\b",
      `\\b(?:${PLATFORMS}|${WORD_PLATFORMS})\\s+v?\\d+(?:\\.\\d+)*\\b`,
    ].join("|"),
    "i",
  ),
  platform: new RegExp(`\\b(?:${PLATFORMS}|${ENVIRONMENTS}|${STAGED})\\b`, "iu"),
  url: /\bhttps?:\/\/[^\s)>\]]+|(?:^|\s)\/[a-z0-9_-]+(?:\/[a-z0-9_{}:.-]+)+\/?(?=[\s,.;)]|$)|\b[\w-]+\.(?:ts|js|tsx|jsx|py|java|go|rb|php|cs|kt|swift|yaml|yml|json|sql|tf|sh)\b(?::\d+)?/i,
  stackTrace:
    /Traceback \(most recent call last\)|^\s*at [\w$.<>[\]/]+ ?\(?[^\n]*:\d+(?::\d+)?\)?\s*$|\bat [\w$.<>]+ \([^()\n]*:\d+(?::\d+)?\)|\bFile "[^"\n]+", line \d+|\b\w+(?:Error|Exception)\b:?[^\n]*\n\s+at\b|\bpanic: |\bgoroutine \d+ \[/m,
  log: /^\s*\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|^\s*\[?\d{2}:\d{2}:\d{2}|\b(?:ERROR|WARN(?:ING)?|FATAL|CRITICAL|SEVERE)\b[\s:\]]|^\s*\[(?:error|warn|warning|fatal|info|debug)\]|\b(?:level|severity)=(?:error|warn|fatal)\b/im,
  errorMessage:
    /\b(?:HTTP|status(?: code)?|error code|response(?: code)?)\s*:?\s*[1-5]\d\d\b|\b[45]\d\d\s+(?:error|internal server error|bad request|not found|forbidden|unauthori[sz]ed|bad gateway|service unavailable|gateway time-?out|conflict|too many requests|unprocessable)\b|\b[A-Z][a-zA-Z]*(?:Error|Exception|Fault)\b|\b(?:ORA|SQLSTATE|ERR|E)[-_ ]?\d{3,}\b|\berror(?: message)?\s*[:"“'«]|["“'«][^"”'»\n]{0,120}\b(?:error|failed|failure|invalid|unable|cannot|can't|not found|denied|timed? ?out|went wrong|unexpected|exception|refused|rejected|forbidden|unavailable)\b[^"”'»\n]{0,120}["”'»]/,
  code: /```[\s\S]+?```|`[^`\n]{3,}`/,
  givenWhenThen: /\bgiven\b[\s\S]{0,400}?\bwhen\b[\s\S]{0,400}?\bthen\b/i,
  expectedWording:
    /\b(?:should(?:n't| not)?|shall(?: not)? (?:show|display|be|return|list|include|allow|support|appear|send|keep)|expected|expecting|expect(?:s|ed)? (?:it|that|to|the|a)|would expect|(?:we|i) (?:also )?expect|before the (?:update|upgrade|release|migration|deploy(?:ment)?|change)|(?:always|previously) (?:matched|worked|showed|displayed|sent|loaded|saved|synced|printed|arrived|came)|supposed to|ought to|instead of|used to|as (?:it did|before|in (?:version|v?\d))|worked (?:fine |correctly |as expected )?(?:in|on|before|until|with)|needs? to (?:show|return|be|display|stay|keep)|must (?:show|return|be|display|stay|keep|not))\b/i,
  observedWording:
    /\b(?:(?:do|does)(?:n't| not)|did(?:n't| not)|nothing (?:arrive[sd]?|came|comes|changed?|changes|showed|shows|loads|loaded|got)|is(?:n't| not)|are(?:n't| not)|was(?:n't| not)|won't|can't|cannot|could(?:n't| not)|never|no longer|fails?|failed|failing|failure|errors?|crash(?:es|ed|ing)?|freez(?:es|ing)|froze|hangs?|hung|stuck|broken|breaks|wrong|incorrect(?:ly)?|missing|disappear(?:s|ed)?|blank|empty|nothing happens|times? out(?! of\b)|timed out|timeout|throws?|thrown|returns?|returned|shows?|showed|shown|displays?|displayed|got|instead|duplicates?|duplicated|twice|ignored|rejected|spins?|spinner|loops?|redirects?|null|undefined|NaN)\b/i,
  // Asked indirectly: "our DPO has asked whether attachments stay in the EU", "what I need to know is:
  // do we ..." (a "?" is found by directQuestion).
  indirectQuestion: /\b(?:ask(?:s|ed)?|wonder(?:s|ed|ing)?|wants? to know|would like to know|needs? to know|(?:please )?(?:confirm|clarify|tell us)) (?:whether|if|how|which|what|when|why|where)\b[^.!?\n]{12,}|\b(?:wants?|needs?|would like) to know(?: is)?:? (?:do|does|did|should|shall|can|could|will|would|is|are)\b[^.!?\n]{12,}/i,
  userStory: /\bas an? [\p{L}\s-]{2,60}?,? (?:i|we) (?:want|need|would like|wish|can)\b/iu,
  // "so I can prioritise paying customers": a purpose told without "that".
  soThat: /\bso that\b|\bin order to\b|\bso (?:i|we|they|you|he|she|users?|customers?|agents?|staff|people|everyone|the \p{L}+) (?:can|could|will|would|do not|don't|no longer|never|stop|avoid)\b/iu,
  checklist: /\[[ xX]\]/,
  amount: AMOUNT_PATTERN,
  percentage: /\b\d{1,3}(?:[.,]\d+)?\s?(?:%|percent\b)/i,
  date: new RegExp(
    `\\b\\d{4}-\\d{2}-\\d{2}\\b|\\b\\d{4}\\/\\d{1,2}\\/\\d{1,2}\\b|${DAY_MONTH_YEAR}|\\b${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?\\b|\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH}|\\b${MONTH}\\s+\\d{4}\\b|\\bQ[1-4]\\s*\\d{4}\\b|\\b(?:weeks?|sprints?|months?)\\s+\\d+(?:\\s*(?:-|–|to|and)\\s*\\d+)?\\b|\\b(?:monday|tuesday|wednesday|thursday|friday|end of (?:the )?(?:week|month|quarter|year|sprint)|next (?:week|month|sprint|release))\\b`,
    "i",
  ),
  // "net 30" is a payment period: thirty days.
  duration: /\bnet\s?\d{1,3}\b|\b\d+(?:[.,]\d+)?(?:[ \t]{0,3}(?:-|–|to)[ \t]{0,3}\d+)?[ \t]{0,3}(?:business |working |calendar |man[- ]|person[- ])?(?:hours?|hrs?|days?|weeks?|wks?|months?|years?|sprints?|story points?|points|sp)\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty|sixty|ninety)\s+(?:business |working |calendar )?(?:days?|weeks?|months?|years?|sprints?)\b/i,
  // Why something matters: a cause, a deadline or risk, a cost, or the pain of how it is done today.
  reason:
    /\b(?:because|since (?:the|our|we|it|they|this)|so that|cve-\d{4}-\d+|cves?|(?:(?:the|a|main|whole) )?reason (?:for|is|why|being)|(?:that|which) is (?:\w+ )?why|otherwise|if we don't|unless we|in order to|expir(?:es|ed|ing)(?= (?:on|in|at|next|soon|this|by|within|last|yesterday|today|tomorrow|\d))|(?:has|have|had) expired|expired and|expir(?:y|ation) (?:date|is|on)|end[- ]of[- ](?:life|support)|eol|(?:ends?|out of) (?:standard |extended |mainstream |vendor )?support|(?:audit|security|pen-?test|compliance) findings?|no longer (?:supported|maintained|works?|needed|used)|unsupported|deprecated|outdated|dead code|vulnerab\w*|penalt(?:y|ies)|chargebacks?|leak(?:ed|s)?|exposed|compromised|flagged|security (?:scan|finding|risk|issue|review)|complian\w+|regulat\w+|(?:is|are|was|will be|gets?|being) (?:being )?(?:decommissioned|retired|shut down|switched off|turned off)|(?:would|could) (?:be|get) (?:rejected|blocked|removed|suspended|fined|delisted)|\b(?:rules?|laws?|polic(?:y|ies)|standards?|contracts?|guidelines?)\b[^.;\n]{0,60}?\brequires? (?:us|that)\b|(?:up to|over|more than) \d+\s?(?:h|hours|days|minutes) (?:later|late)|auditors?|gdpr|hipaa|pci|(?:costs?|costing|paying|spend(?:ing)?|pay) (?:us )?(?:\w+ ){0,3}?(?:~|about |around |roughly |over |up to )?(?:per|a|every|each|[$€£]|eur|usd|\d)|wastes?|wasted|by hand|manually|(?:takes?|took|taking) (?:us |them |me )?(?:~|about|around|up to|over )?\d|every (?:day|week|month|minute|hour|morning|night|monday|tuesday|wednesday|thursday|friday|time|release|sprint|quarter)|keeps? (?:\w+ing)|(?:we|they|users?|customers?|staff|people|everyone|i|agents?|managers?|teams?) (?:still )?(?:have|has|had) to|(?:our|the) \p{L}+s(?: (?:on|in|at|of|from|with) (?:the |our )?[\p{L}\d-]+(?: [\p{L}\d-]+)?)? (?:still )?have to (?!be\b)|only find out|there is no way|no way to|can(?:not|'t) (?:see|tell|find|know|track|use)|complain\w*|lose|losing|lost|miss(?:es|ed|ing)? (?:the|their|our|deadlines?|shifts?|orders?)|blocks?|blocking|blocked|ask(?:s|ed|ing)? (?:us|for)|(?:\d+|half|most) of (?:our|the|their)|(?:today|currently|right now|at the moment),? (?:we|they|users?|customers?|staff|people|everyone|[\p{L}-]+s)\b|(?:is|are|was|were) (?:currently|still) \p{L}+ing|visible to (?:all|everyone|anyone|the public)|(?:printed|committed|pushed|posted|pasted|leaked) (?:in|to|into) (?:a |the |our )?(?:public|ci|build|job|log|chat|slack|repo)|re-?(?:enter|type|key)(?:s|ed|ing)?|copy(?:ing)? and past(?:e|ing)|double entry|\d+(?:[.,]\d+)?\s?(?:hours?|hrs?|minutes?|mins?|days?) (?:a|per|each|every) (?:day|week|month|shift|order|person))\b/iu,
  // A change asked for: "we'd like to offer webhooks", "let dispatchers duplicate a route".
  instruction:
    /\b(?:we(?:'d| would) like (?:to|a|an|the)|we want (?:to|a|an|the)|i(?:'d| would) like (?:to|a|an|the)|please (?:add|make|let|allow|show|support|build|create|provide|change)|(?:let|allow|enable) (?:users?|admins?|customers?|dispatchers?|managers?|agents?|us|them|people|partners?|staff|clients?)\b|(?:users?|admins?|customers?|they|we|partners?) should be able to|there should be|add (?:a|an|the|support)\b)/i,
  // What the asker already knows of their setup or tried: "we're on v2", "we tried", "the docs say".
  attempt:
    // "I tried the chat but it kept timing out, so I'm calling": reaching support is no attempt at the answer.
    /\b(?:(?:i|we) (?:have |'ve |already |also |then )?(?:tried|checked|looked|read|tested|benchmarked|searched|asked|followed|compared|measured|found)(?! (?:the |your |you )?(?:chat|live chat|phone|hotline|support line|calling|ringing|emailing|e-mailing|to (?:call|reach|contact|email|e-mail|phone|ring))\b)|according to (?:the )?docs|(?:the )?docs (?:say|says|mention|don't|do not|only)|in (?:the )?(?:sandbox|staging)|(?:we|i)(?:'re| are| am) (?:on|using|running|building|migrating)|(?:we|i) (?:use|run|call|host)\b|our (?:setup|stack|system|app|service|cluster|tenant|plan|account|contract))/i,
  trigger:
    /\b(?:every time|each time|any time|whenever|reproducible|reproduces|reproduced|reproduce (?:it|this) by|can be reproduced|always happens|only happens|happens (?:when|if|on|after|for|with)|as soon as (?:i|you|we|a user|the user|someone)|consistently|100% of the time|(?:\d+|ten|five) (?:out )?of (?:\d+|ten|five)(?: tries| attempts| times)?)\b|\b(?:every|each|any)\s+(?:[\p{L}-]+\s+){0,2}?[\p{L}-]+\s+(?:that|which|whose|where|with|created|made|placed|sent|booked|saved|after|before|since|from)\b|\b(?:it is|it's|this is|happens (?:for|with|on|to)|affects) (?:every|each|all|any) [\p{L}-]+/iu,
};

const IMPERATIVE_START = new RegExp(`^(?:then |and |now |first,? |next,? |finally,? |please )?(?:${ACTION_VERBS})\\b`, "i");
// "Tapping Book again crashes the app": an action as the subject of what goes wrong.
const GERUND_START = new RegExp(`^(?:${ACTION_VERBS.split("|").map(gerund).join("|")})\\b`, "i");
// "Reset password → open app → enter new password": a path walked one arrow at a time.
const ARROWS = /(?:→|->|=>|›|»|\s>\s)/g;

/** The -ing form of a plain action verb ("tap" → "tapping", "save" → "saving"). */
function gerund(verb: string): string {
  // "log ?in" → "logging ?in": the -ing goes on the verb, not on its particle.
  const [word, ...particle] = verb.split(" ");
  const rest = particle.length > 0 ? ` ${particle.join(" ")}` : "";
  if (/[^aeiou]e$/.test(word!)) return `${word!.slice(0, -1)}ing${rest}`;
  if (/^[^aeiou]*[aeiou][bdgmnprt]$/.test(word!)) return `${word}${word!.at(-1)}ing${rest}`;
  return `${word}ing${rest}`;
}
// "can someone rotate the staging creds today?": a change asked for as a question.
const ASKED = new RegExp(`\\b(?:can|could|would) (?:someone|somebody|anyone|you|we) (?:please )?(?:${ACTION_VERBS})\\b[^?\\n]{8,}`, "i");
// "I tested it: filled in the form, clicked Send": steps told in the past, the teller left out.
const PAST_START = new RegExp(`^(?:${PAST_ACTIONS})\\b`, "i");
// "only for some accounts - we haven't figured out which": nobody can pick one that fails.
const UNRELIABLE = /\b(?:random(?:ly)?|sometimes|occasionally|intermittent(?:ly)?|sporadic(?:ally)?|not every time|now and then|from time to time|(?:have(?:n't| not)|not yet|never) (?:figured|worked) out|for some (?:accounts|users|customers|devices|tenants|orders|people)\b(?!\s+(?:when|with|who|whose|that|if|on|using|after)\b))/i;
const ACTION_ANYWHERE = new RegExp(`\\b(?:${ACTION_VERBS}|${PAST_ACTIONS})\\b`, "gi");
const I_PAST = new RegExp(`\\b(?:i|we|you|user|they)\\s+(?:then\\s+|first\\s+|just\\s+)?(?:${PAST_ACTIONS})\\b`, "gi");

/** Does one line read like an instruction ("Open Settings", "Click Pay")? */
export function isAction(line: string): boolean {
  return IMPERATIVE_START.test(line.trim());
}

/** A step told in the past: "Logged in as admin", "Went to Reports". */
export function pastStep(line: string): boolean {
  return PAST_START.test(line.trim());
}

/**
 * A step sequence: numbered items, action items, "Open X, click Y, then Z", "I opened X and
 * clicked Y", or a precise trigger ("every time an order has a gift card").
 */
function steps(text: string, items: readonly string[], ordered: boolean): string | undefined {
  if (items.length >= 2 && (ordered || items.filter(isAction).length >= 2)) return items.slice(0, 3).join(" / ");
  const flat = text.replace(/\s+/g, " ");
  // "How: open Expenses, tap + then Scan" or "You can see it with any shift: create one, publish
  // it, then open My Shifts": the instructions start after the colon.
  const colon = flat.indexOf(": ");
  const after = colon >= 0 ? flat.slice(colon + 2) : flat;
  // "I log in, go to Reports, click Export": the steps of whoever tells them.
  const told = (part: string) => part.replace(/^(?:then )?(?:i|we|you)\s+/i, "");
  for (const part of (colon >= 0 ? [after, flat] : [flat]).map(told)) {
    if ((isAction(part) || PAST_START.test(part)) && (part.match(ACTION_ANYWHERE) ?? []).length >= 2 && /,|\bthen\b|\band\b|→|->|>/.test(part)) return part;
  }
  if ((flat.match(ARROWS) ?? []).length >= 2) return flat;
  if ((flat.match(I_PAST) ?? []).length >= 2 || ((flat.match(I_PAST) ?? []).length >= 1 && (flat.match(ACTION_ANYWHERE) ?? []).length >= 3)) return flat;
  if (GERUND_START.test(after) && after.split(" ").length >= 4) return after;
  // "It happens on random nights", "not every time": a trigger nobody can make happen.
  const trigger = RE.trigger.exec(flat);
  if (trigger && flat.split(" ").length >= 4 && !UNRELIABLE.test(flat)) return flat;
  return undefined;
}

// "curl -X POST https://api.example.com/v2/orders -d '{...}'", "`cd envs/prod-eu && terraform plan`":
// a command to run is a reproduction.
const COMMAND = /^\s*(`)?(?:\$\s+|>\s+)?(?:cd\s+\S+\s*&&\s*)?(?:curl|wget|http|https|grpcurl|npm|npx|pnpm|yarn|node|python3?|pip|kubectl|helm|docker|git|psql|mysql|redis-cli|aws|gcloud|az|terraform|make|go run|cargo|dotnet|java|mvn|gradle|php|ruby|bundle|rails|ssh|openssl)\s+\S/;

/**
 * The first line of a code block, when it is a shell command; in prose, only a line that reads as
 * one (a flag or an address after it: "curl -X POST https://...", not "aws support said ...").
 */
function command(text: string, code: boolean): string | undefined {
  const first = text.split("\n").find((line) => line.trim() !== "");
  if (first === undefined) return undefined;
  const found = COMMAND.exec(first);
  if (found === null) return undefined;
  // In backticks it is code, whatever follows it.
  return code || found[1] !== undefined || /\s--?[a-zA-Z]|https?:\/\/|\s\/[\w-]+\//.test(first) ? first.trim() : undefined;
}

export interface Span {
  /** The text to read: a clause, a list's items joined by new lines, or a code block. */
  text: string;
  /** The items, when the span is a list. */
  items: readonly string[];
  ordered: boolean;
  code: boolean;
  /** The span opens the document (its first substantive line). */
  opening: boolean;
}

const DETECTORS: Record<Evidence, (span: Span) => string | undefined> = {
  "numbered-list": (s) => (s.ordered && s.items.length >= 2 ? s.items.slice(0, 3).join(" / ") : undefined),
  "bullet-list": (s) => (s.items.length >= 2 ? s.items.slice(0, 3).join(" / ") : undefined),
  steps: (s) => command(s.text, s.code) ?? (s.code ? undefined : steps(s.text, s.items, s.ordered)),
  "given-when-then": (s) => match(s.text, RE.givenWhenThen),
  checklist: (s) => (s.items.some((i) => RE.checklist.test(i)) ? s.items.slice(0, 3).join(" / ") : undefined),
  code: (s) => (s.code ? s.text.split("\n")[0] : match(s.text, RE.code)),
  "stack-trace": (s) => match(s.text, RE.stackTrace),
  log: (s) => match(s.text, RE.log),
  "error-message": (s) => match(s.text, RE.errorMessage),
  version: (s) => match(s.text, RE.version),
  platform: (s) => (s.code ? undefined : match(s.text, RE.platform)),
  url: (s) => match(s.text, RE.url),
  "expected-wording": (s) => (s.code ? undefined : match(s.text, RE.expectedWording)),
  "observed-wording": (s) => (s.code ? undefined : match(s.text, RE.observedWording)),
  question: (s) => (s.code ? undefined : directQuestion(s.text) ?? match(s.text, RE.indirectQuestion)),
  "user-story": (s) => match(s.text, RE.userStory),
  "so-that": (s) => purpose(s.text, RE.soThat),
  opening: (s) => (s.opening ? s.text : undefined),
  schedule: (s) => (s.code ? undefined : schedule(s.text)),
  amount: (s) => match(s.text, RE.amount),
  percentage: (s) => match(s.text, RE.percentage),
  date: (s) => match(s.text, RE.date),
  duration: (s) => match(s.text, RE.duration),
  // A scenario says what happens ("Given ... Then the hold expires"), not why the feature is wanted,
  // and neither does its two-word title ("Hold expires").
  reason: (s) => (s.code || RE.givenWhenThen.test(s.text) || /^then\b/i.test(s.text) || s.text.split(" ").length < 3 ? undefined : purpose(s.text, RE.reason)),
  // "Steps: open ...", "3.1 Add the shoe to the cart": an instruction after its label or its outline number.
  instruction: (s) => (s.code ? undefined : s.items.length === 0 && isAction(s.text.replace(/^(?:\d{1,2}(?:\.\d{1,2})+\s+|[\p{L} ]{1,24}:\s+)/u, "")) && s.text.split(" ").length >= 4 ? s.text : match(s.text, RE.instruction) ?? match(s.text, ASKED)),
  attempt: (s) => (s.code ? undefined : match(s.text, RE.attempt)),
  ownership: (s) => (s.code ? undefined : match(s.text, OWNERSHIP)),
  // A payment's words or money in the span: "60% at launch and 85% after cut-over" may be a target.
  instalments: (s) => (s.code || !PAYMENT_CONTEXT.test(s.text) ? undefined : match(s.text, INSTALMENTS)),
  // "Done when a partner can register a URL, receives a signed event within 5 s, and failed
  // deliveries are retried": testable conditions listed in one sentence.
  conditions: (s) => (s.code || s.text.split(" ").length < 12 || (s.text.match(/,\s|;\s|\band\b/g) ?? []).length < 2 ? undefined : s.text),
};

// "The code and model are Vindrose's from the first commit", "the designs become the client's":
// what is made, said to be someone's by name.
const OWNERSHIP = /\b(?:code|source code|model|models|designs?|software|repository|repositories|deliverables|work product|results|app|application|website|data)\b[^.;\n]{0,40}?\b(?:is|are|will be|becomes?|remains?|stays?)\s+(?:entirely\s+|fully\s+|solely\s+)?(?:\p{Lu}[\p{L}&.-]*(?:\s\p{Lu}[\p{L}&.-]*){0,2}(?:'s|’s)|the client's|the customer's|your company's|yours)(?!\s+(?:responsibility|job|task|call|decision))/u;

// "$9,450 at start and $9,450 after cutover", "30% on signature, 70% on go-live": the price split by
// when it is paid, said in the sentence that states the price.
const PAID_PART = `(?:\\d{1,3}\\s?%|${AMOUNT_PATTERN.source})\\s*(?:\\([^)\\n]{1,30}\\)\\s*)?(?:is\\s+)?(?:due\\s+|payable\\s+|invoiced\\s+)?(?:on|at|upon|after|before|when)\\s+(?:the\\s+)?(?:start|signing|signature|kick-?off|order|delivery|go-?live|launch|cut-?over|acceptance|completion|handover|sign-?off)\\b`;
const PAYMENT_CONTEXT = new RegExp(`\\b(?:invoice[sd]?|invoicing|pay|paid|payable|payment|due|billed|instal?ments?|deposit|fee|price|cost)\\b|${AMOUNT_PATTERN.source}`, "i");
const INSTALMENTS = new RegExp(`${PAID_PART}[^.;\\n]{0,60}?(?:,|;|\\band\\b)\\s*${PAID_PART}`, "iu");

const DATES = new RegExp(RE.date.source, "gi");
const DAY_RANGE = new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)?\\s?(?:[–-]|to)\\s?\\d{1,2}(?:st|nd|rd|th)?\\s+${MONTH}|\\b${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?\\s?[–-]\\s?\\d{1,2}\\b`, "i");

/**
 * "Review on 21 and 22 November, report by 27 November", "testing 2–13 November", "weeks 1–2
 * research, weeks 3–5 design": two dates, or a range of days, in one span are a schedule by what
 * they are, whatever label they are under.
 */
function schedule(text: string): string | undefined {
  const found = text.match(DATES) ?? [];
  return found.length >= 2 ? found.slice(0, 2).join(" … ") : match(text, DAY_RANGE);
}

/**
 * "Is the green card available through the API?": a question mark that ends at least twelve
 * characters of its own sentence. Found from each "?" back to the sentence's start, so the work is
 * linear in the text (a pattern that tries every start before failing is quadratic).
 */
function directQuestion(text: string): string | undefined {
  for (let at = text.indexOf("?"); at >= 0; at = text.indexOf("?", at + 1)) {
    const next = text[at + 1];
    if (next !== undefined && !/\s/.test(next)) continue;
    let start = at;
    while (start > 0 && !(".!?\n".includes(text[start - 1]!) && sentenceEnds(text, start - 1))) start--;
    const asked = text.slice(start, at + 1).trim();
    // "MOB-1502 Push notifications + iOS 18 — thoughts?": a topic, then a call for help ("Should we
    // pin Node 20 ... or move to Node 22 now – any thoughts?" asks its question first).
    const parts = asked.split(/\s[—–-]\s|:\s/);
    const topicOnly = parts.length > 1 && parts.slice(0, -1).join(" ").split(/\s+/).length <= 8 && !/\?/.test(parts.slice(0, -1).join(" "));
    if (at - start >= 12 && !HELP_ONLY.test(asked) && !(topicOnly && HELP_ONLY.test(parts.at(-1)!.trim()))) return asked;
  }
  return undefined;
}

/**
 * A full stop inside a token ("20.11", "20.x") or followed by lower case or a digit ("(est. 6
 * weeks)", "approx. 3") ends no sentence.
 */
function sentenceEnds(text: string, at: number): boolean {
  if (text[at] !== ".") return true;
  const after = text.slice(at + 1, at + 3);
  return (after === "" || /^\s/.test(after)) && !/^\s+[\p{Ll}\d]/u.test(after);
}

/** "So that it is there": a "so that", "because" or "in order to" with no reason after it gives none. */
function purpose(whole: string, pattern: RegExp): string | undefined {
  // 'the page shows "This trip link has expired"': words quoted from a screen are the behaviour asked for, not a reason.
  const text = whole.replace(/"[^"\n]{1,160}"/g, " ");
  pattern.lastIndex = 0;
  const m = pattern.exec(text);
  if (!m) return undefined;
  const found = m[0].trim();
  if (!/^(?:so that|in order to|because)$/i.test(found)) return found;
  return contentWords(text.slice(m.index + m[0].length)).length >= 2 ? found : undefined;
}

function match(text: string, pattern: RegExp): string | undefined {
  pattern.lastIndex = 0;
  const m = pattern.exec(text);
  pattern.lastIndex = 0;
  return m?.[0].trim();
}

// "Has not been working correctly", "the import doesn't look right", "something is off", "coming
// wrong / not coming proper": a complaint that something is wrong, without what.
const VAGUE_WRONG =
  /\b(?:(?:is|are|was|were|has|have|had|does|do|did)(?:n't| not)(?: been)?(?: (?:really|quite|always|seem to))? (?:work(?:ing|s)?|look(?:ing|s)?|seem(?:ing|s)?|behav(?:e|es|ing))(?: (?:right|correct(?:ly)?|properly|ok(?:ay)?|fine|as (?:it should|expected|intended)))?|something(?:'s| is| seems| looks)(?: a bit)? (?:off|wrong|weird|strange)|not (?:working|right|correct)(?: correctly| properly)?|(?:coming|showing|displaying) (?:wrong|incorrect(?:ly)?)|not (?:coming|showing|displaying) (?:proper(?:ly)?|correct(?:ly)?|right))\b/gi;

/** A complaint with nothing observable besides it: no symptom, error, figure or value. */
export function vagueComplaint(text: string): boolean {
  const rest = text.replace(VAGUE_WRONG, " ");
  return rest !== text && !RE.observedWording.test(rest) && !RE.errorMessage.test(rest) && !/\d/.test(rest);
}

/** What happens, told as it happens ("crashes", "shows", "is empty"): a report's line, not a section's title. */
export function saysWhatHappens(line: string): boolean {
  return RE.observedWording.test(line);
}

export function findFact(span: Span, kinds: readonly Evidence[]): { kind: Evidence; found: string } | undefined {
  for (const kind of kinds) {
    const found = DETECTORS[kind](span);
    if (found) return { kind, found };
  }
  return undefined;
}

/** Kinds that are concrete data: a span with one of them is not filler. */
export const DATA_KINDS: readonly Evidence[] = ["version", "url", "stack-trace", "log", "error-message", "amount", "percentage", "date", "duration", "code"];
