import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import type { QuoteRubric, Service, TicketRubric } from "../src/catalog/types.js";
import { vagueComplaint } from "../src/reviews/facts.js";
import { isFiller, saysUnknown } from "../src/reviews/quality.js";
import { prepare, singleSpaced, unwrapChat } from "../src/reviews/formats.js";
import { reviewQuote } from "../src/reviews/quote.js";
import { reviewTicket } from "../src/reviews/ticket.js";
import { SAMPLE_CONTENT } from "./helpers/content.js";

/**
 * What the reviewers read, one format or trick at a time, against the sample rubrics. The
 * agreement with labelled sets is in review-eval.test.ts.
 */
let ticketRubric: TicketRubric;
let quoteRubric: QuoteRubric;
const noServices = new Map<string, Service>();
const url = (id: string) => `/api/v1/services/${id}`;

beforeAll(async () => {
  ticketRubric = YAML.parse(await readFile(join(SAMPLE_CONTENT, "rubrics/ticket.yaml"), "utf8"));
  quoteRubric = YAML.parse(await readFile(join(SAMPLE_CONTENT, "rubrics/quote.yaml"), "utf8"));
});

const bug = (ticketText: string) => reviewTicket({ ticketText, type: "bug" }, ticketRubric);
const status = (review: { criteria: { id: string; status: string }[] }) => Object.fromEntries(review.criteria.map((c) => [c.id, c.status]));
const REQUIRED_BUG = { "steps-to-reproduce": "met", "observed-behaviour": "met", "expected-behaviour": "met", environment: "met" };

describe("ticket review reads any common format", () => {
  it("inline labels and facts stated on one line (the misses quoted in the issue)", () => {
    const review = bug(`Gift card checkout fails with a TypeError.
Repro: add any product, apply gift card GC-1000 at /checkout, then click Place order.
Expected result: the order is placed and the gift card balance drops by the order total.
Actual: the page shows "Something went wrong" and no order is created.
Version 2.8.0 (production), Firefox 133 on Windows 11
Log: TypeError: Cannot read properties of undefined (reading 'amount') at applyGiftCard (checkout/totals.ts:88)`);
    expect(status(review)).toMatchObject({ ...REQUIRED_BUG, evidence: "met" });
    expect(review.passed).toBe(true);
  });

  it("a bug written as bullets, one fact an item, with a label on one item only", () => {
    const review = bug(`- invoicing web 3.2.0, firefox 128 on ubuntu 24.04
- browser: also seen in edge
- open any credit note > Download PDF
- the VAT line is printed twice and the total is doubled
- should show one VAT line, as in 3.1.x`);
    expect(status(review)).toMatchObject(REQUIRED_BUG);
    expect(review.passed).toBe(true);
  });

  it("'it is every reminder' is a trigger that reproduces a bug", () => {
    const review = bug(`Since the update to 3.4.0 the reminder e-mails show the appointment an hour early: Anna's visit on 6 June at 14:30 is announced for 13:30.
It is every reminder, I checked five of them. We use the web version in Edge on Windows 11.
The e-mail should show the same time as the calendar.`);
    expect(status(review)["steps-to-reproduce"]).toBe("met");
  });

  it("a Linear-style bug: the title says what goes wrong, steps walk with arrows, a colon or an -ing action", () => {
    const shapes = [
      "Settings → Team → remove a member → the member still shows in the seat count.",
      "You can see it with any team: open Settings, remove a member, then reload the page.",
      "Removing a member from a team with pending invites always leaves the seat counted.",
    ];
    for (const steps of shapes) {
      const review = bug(`Seat count keeps removed members\n\nAdmin console 5.1.2, Chrome 131 / Windows 11. ${steps} Should drop by one at once.`);
      expect(status(review), steps).toMatchObject(REQUIRED_BUG);
      expect(review.passed, steps).toBe(true);
    }
  });

  it("tasks, features and questions told in prose: the why as a cause or cost, the what as a request, the context as what was tried", () => {
    const task = reviewTicket({ type: "task", ticketText: `The TLS certificate of billing.example.org expires on 2 March and renewing it by hand took a day last year.
Please switch the billing ingress to cert-manager 1.14 with the Let's Encrypt issuer.
Done when the ingress serves a Let's Encrypt certificate and the old secret is deleted.` }, ticketRubric);
    expect(status(task)).toMatchObject({ what: "met", why: "met", "definition-of-done": "met" });
    const feature = reviewTicket({ type: "feature", ticketText: `Let planners copy a week's schedule
Planners rebuild the same 40-shift week by hand every Friday, about an hour each time.
We'd like a "Copy week" button on the schedule page that copies every shift and role to the next week as a draft.
AC:
- [ ] all shifts and roles of the week are copied, people are not
- [ ] the copy is a draft until published` }, ticketRubric);
    expect(status(feature)).toMatchObject({ problem: "met", "proposed-behaviour": "met", "acceptance-criteria": "met" });
    const question = reviewTicket({ type: "question", ticketText: `Does the Orders API keep the idempotency key across regions, or only within one?
We're on API version 2025-02 in the EU and US regions, and the docs only describe a single region.
We need a yes or no by Thursday to decide whether our retry job may switch regions.` }, ticketRubric);
    expect(status(question)).toMatchObject({ question: "met", context: "met", "desired-outcome": "met" });
    for (const review of [task, feature, question]) expect(review.passed).toBe(true);
  });

  it("finds 'done' as people write it: 'done = ...', 'what counts as done?' answered below, 'what \"done\" would look like:' over a list of long items", () => {
    const ac = (text: string) => reviewTicket({ type: "feature", ticketText: text }, ticketRubric).criteria.find((c) => c.id === "acceptance-criteria")!.status;
    const base = "Scan feedback for delivery drivers\n- drivers scan ~180 parcels a shift in gloves and can't see the screen in the sun: 9% duplicate scans\n- on a successful scan, a short vibration (50 ms) and a beep; on a duplicate, two long vibrations and a low tone";
    expect(ac(`${base}\n- done = on TC26 and XCover 7: a successful scan gives 1 short buzz + beep, a duplicate gives 2 long buzzes + low tone, each toggle in settings disables its part`)).toBe("met");
    expect(ac(`${base}\n- done = when it feels better`)).not.toBe("met");
    const zendesk = `Helga Sørensen — Nov 23, 2026\nWe (the IT security team) need a way to stop normal members from creating API tokens: an audit found 63 member tokens, one leaked in a public repo.\nWhat we would like: a workspace setting "Who can create API tokens" with "All members" / "Admins only".\n\nLeo Marchetti (Agent) — Nov 24, 2026\nWriting down what "done" would look like so Product can size it — please correct me:\n- With Admins only, a member's Profile > API tokens page has no Create button, and POST /v2/tokens with a member's session returns 403 with error code token_creation_restricted\n- Existing member tokens keep working; admins see all tokens in Admin > API tokens with owner, created date and last used, and can revoke them\n- Changing the setting writes an audit log event settings.api_token_policy.changed`;
    expect(ac(zendesk)).toBe("met");
  });

  it("'done for me means …' in a dictated memo states the acceptance criteria, as 'done when' does", () => {
    const memo = (done: string) => reviewTicket({ type: "feature", ticketText: `[Voice memo transcript — 24 Nov 2026 08:12]\n\nok so this is for the backlog um customer service gets forty to fifty emails a week from people who bought a gift and right now they have to edit the packing slip by hand which is slow um what we want is at checkout a checkbox this is a gift and a text box for a message max two hundred characters printed on the packing slip uh and ${done} ok that's it thanks` }, ticketRubric).criteria.find((c) => c.id === "acceptance-criteria")!.status;
    expect(memo("done for me means I can place an order on staging with a message of exactly two hundred characters and it prints in full on the packing slip PDF and two hundred and one characters is blocked at checkout")).toBe("met");
    expect(memo("then we ship it")).toBe("missing");
  });

  it("'Requested by:' names who filed it, not what is asked; 'Desired' labels the behaviour; 'rules require us', 'up to 30 h later' are a why", () => {
    const table = (desired: string) => reviewTicket({ type: "feature", ticketText: `Requested by\tReception, Lindenhof practice (via practice manager)\nWhy\tReception phones the doctor's room to say a patient has arrived; doctors miss the calls and patients wait 10-15 minutes longer\n${desired}\nAcceptance\t1. Clicking Arrived stamps the time 2. The doctor's screen shows "waiting since 09:12" within 5 s` }, ticketRubric).criteria.find((c) => c.id === "proposed-behaviour")!.status;
    expect(table(`Desired\tEach appointment row in the Today view gets an "Arrived" button; clicking it stamps the arrival time and shows a green badge on the doctor's screen`)).toBe("met");
    expect(table("")).toBe("missing");
    const why = (text: string) => reviewTicket({ type: "feature", ticketText: `Temperature excursion alerts for pharma shipments\n\n1. Need\n${text}\n\n2. What the system should do\nFleetCore 12 raises an excursion when 3 consecutive reefer readings are outside the class range and sends an e-mail and SMS to the QA contact.\n\n3. Acceptance\n3.1 Replaying shipment SHP-889210 raises exactly one excursion at 14:35.\n3.2 Two out-of-range readings followed by an in-range one raise nothing.` }, ticketRubric).criteria.find((c) => c.id === "problem")!.status;
    expect(why("Today QA reads the logger PDF when the trailer is unloaded, up to 30 h later.")).toBe("met");
    expect(why("Our customer contracts require us to notify any excursion within 1 hour.")).toBe("met");
    expect(why("Quality Assurance, Cold Chain (Helene Brandt).")).not.toBe("met");
  });

  it("a cost told with '~' or 'about' before its figure ('each missed slot costs ~£160') is the why of a feature", () => {
    const feature = (why: string) => reviewTicket({ type: "feature", ticketText: `h2. Appointment reminders by SMS\n\n${why}\n\nh3. Behaviour\n* 48 hours before an outpatient appointment, send an SMS through Twilio: "Reply YES to confirm or NO to cancel."\n* Reply NO cancels the appointment and releases the slot to the waiting list.\n\nh3. Acceptance criteria\n# An appointment on 2026-12-10 10:00 triggers an SMS at 2026-12-08 10:00 in staging.\n# Replying "NO" sets the status to Cancelled by patient.` }, ticketRubric).criteria.find((c) => c.id === "problem")!.status;
    expect(feature("Outpatient clinics missed 11.4% of appointments in October and each missed slot costs ~£160.")).toBe("met");
    expect(feature("Outpatient clinics missed 11.4% of appointments in October and each missed slot costs about £160.")).toBe("met");
    expect(feature("Outpatient clinics use PatientFlow 2.9 and send e-mails from the clinic inbox.")).toBe("missing");
  });

  it("a server out of extended support, an open audit finding, or a release that would be rejected is the why of a change", () => {
    const change = (description: string) => reviewTicket({ type: "task", ticketText: `Short description:\nDecommission legacy lab reporting server LABRPT-SRV02\n\nDescription:\n${description}\n\nImplementation plan:\n1. Copy D:\\LabReports\\Archive to \\\\fs03\\archive\\labrpt.\n2. Remove the server from the domain and shut down the VM.\n\nCompletion criteria:\n- Archive copy verified: file count and size match the source.\n- labrpt.hosp.local no longer resolves.` }, ticketRubric);
    const why = (description: string) => change(description).criteria.find((c) => c.id === "why")!.status;
    expect(why("Windows Server 2012 R2 has been out of extended support since October 2023.")).toBe("met");
    expect(why("This server is the last open audit finding (VULN-7781) of the Q4 review.")).toBe("met");
    expect(why("Without the new certificate chain the January release would be rejected by the Play Console.")).toBe("met");
    expect(why("LABRPT-SRV02 runs Windows Server 2012 R2 at 10.40.12.18 in cluster HOSP-CL2.")).toBe("missing");
  });

  it("Jira wiki markup: h3. headings, *bold:* labels, # numbered lists and {code} blocks", () => {
    const review = bug(`h3. Summary
Exporting a report to PDF hangs for reports with more than 50 charts.

*Steps to reproduce:*
# Open the "Quarterly KPIs" dashboard (62 charts)
# Click Export > PDF
# Wait

*Expected:* the PDF downloads within a minute, as it does for smaller dashboards.
*Actual:* the progress bar stops at 90% and the export never finishes.
*Environment:* Reporting 5.4.2, Chrome 131 on macOS 15

{code}
WARN  pdf-worker  render queue stalled after 50 items (job=8812)
{code}`);
    expect(status(review)).toMatchObject({ ...REQUIRED_BUG, evidence: "met" });
    expect(review.passed).toBe(true);
  });

  it("an inline label whose text ends in a colon ('Proposed solution: Distinct exit codes:') owns the list under it", () => {
    const review = reviewTicket({ type: "feature", ticketText: "Problem / motivation: I run `acme deploy` in CI for ~30 repos; every failure exits with code 1, so our pipeline retries everything and wastes ~40 min/day of runners.\n\nProposed solution: Distinct exit codes:\n- 0 success\n- 2 invalid config / validation\n- 3 authentication\n- 4 remote build failed\n- 5 network/timeout (retryable)\n\nAcceptance criteria:\n- bad `acme.toml` → exit 2\n- expired token → exit 3\n- unreachable API → exit 5" }, ticketRubric);
    expect(status(review)["proposed-behaviour"]).toBe("met");
  });

  it("a known name in bold at the start of a line is a label run in with its text, a question ('**Is your feature request related to a problem?**') too", () => {
    const runIn = reviewTicket({ type: "feature", ticketText: "**Is your feature request related to a problem?** I run 14 door sensors on the hub; a flat battery shows only when a sensor goes offline, days later.\n\n**Describe the solution you'd like** When a device reports battery at or below 15 %, send one push notification and show a battery icon on its card.\n\n**Acceptance criteria**\n- [ ] fires once when a device crosses the threshold\n- [ ] threshold editable per device, 5-50 %" }, ticketRubric);
    expect(status(runIn)).toMatchObject({ problem: "met", "proposed-behaviour": "met", "acceptance-criteria": "met" });
    // The same question before a colon.
    const colon = reviewTicket({ type: "feature", ticketText: "**Is your feature request related to a problem?**: I run 14 door sensors on the hub; a flat battery shows only when a sensor goes offline, days later." }, ticketRubric);
    expect(status(colon).problem).toBe("met");
    // A bold phrase that names no section stays in its line: "**Total HT: 14 400 EUR** — VAT ..." is the total, not a heading.
    const quote = reviewQuote("**Price (excl. VAT / HT):**\nDesign and prompt work — 2 400 EUR\nDevelopment of application and connector — 9 600 EUR\nPilot and tuning — 1 800 EUR\nTraining of the marketing team (half day) — 600 EUR\n**Total HT: 14 400 EUR** — VAT 20%: 2 880 EUR — **Total TTC: 17 280 EUR**\n\n**Payment terms:** deposit of 30% (4 320 EUR HT) on signature, balance of 70% (10 080 EUR HT) on delivery.", quoteRubric, noServices, url);
    expect(quote.consistency.filter((c) => !c.ok)).toEqual([]);
    // Numbered inside the bold, each section ends the one before: payment terms are read alone.
    const numbered = reviewQuote("## 5. Payment\n30% at kickoff, 70% at production release. Payable 21 days from invoice.\n\n**6. Acceptance** The production release is accepted when the assistant answers at least 85% of the golden-set questions correctly.\n\n**7. Validity** Valid until 5 September 2025.", quoteRubric, noServices, url);
    expect(Object.fromEntries(numbered.criteria.map((c) => [c.id, c.status]))).toMatchObject({ "payment-terms": "met", acceptance: "met", validity: "met" });
  });

  it("a list item over a list of its own is that list's title, known name or not ('You get', 'Paying', 'Small print, in plain words')", () => {
    const review = reviewQuote(`Quote Q-0412: booking app, waitlists
• What's in
  – Waitlist for full classes with automatic promotion and a push notification
  – Changes to the existing Laravel API
• What's out
  – Turnstile hardware work
• You get
  – iOS and Android builds submitted to both stores under your accounts
  – API changes merged into your repository, with tests
• When
  – Phase 1, waitlists: 6 May – 31 May 2024
  – Release: 14 June 2024
• Cost (fixed, excl. VAT)
  – Phase 1: £11,200
  – Release support: £1,600
  – Total: £12,800
• Paying
  – £6,400 at kickoff (50%), £6,400 on store approval (50%), due 14 days from invoice
• Small print, in plain words
  – Before we start you send us the turnstile QR spec and access to your developer accounts
  – If something we built breaks in the first 3 months after release, fixing it is on us
  – Anything new you think of mid-project gets priced as its own mini-quote before we touch it
  – The code we write is yours once the last invoice is paid
  – These prices stand for 30 days from today`, quoteRubric, noServices, url);
    expect(status(review)).toMatchObject({ deliverables: "met", "payment-terms": "met", "warranty-support": "met", validity: "met", "intellectual-property": "met" });
    expect(review.passed).toBe(true);
  });

  it("Jira's nested bullets ('* What's included' over '** item') with no other sign of Jira", () => {
    const review = reviewQuote(`Offer: managed AWS support, 6-month term\n* What's included\n** 24/7 monitoring and alerting for the production and staging accounts\n** Monthly OS patching in an agreed maintenance window\n* What's not included\n** Application code changes\n** AWS usage charges\n* Price (NZD, excl. GST)\n** Onboarding, one-off: $3,500\n** Monthly fee: $4,200 × 6 months = $25,200\n** Total for the term: $28,700`, quoteRubric, noServices, url);
    expect(review.criteria.find((c) => c.id === "scope")!.status).toBe("met");
    expect(review.consistency.find((c) => c.check === "total")).toMatchObject({ ok: true });
  });

  it("GitHub issue-form output, where an empty optional field reads _No response_", () => {
    const review = bug(`### What happened?

The CSV import skips every row after the first empty line, without any warning.

### What did you expect to happen?

Empty lines should be ignored and every other row imported.

### Steps to reproduce

1. Go to Contacts > Import
2. Upload a CSV with an empty line in the middle (sample attached)
3. Press Import

### Version

4.12.1

### What browsers are you seeing the problem on?

Chrome, Safari

### Relevant log output

_No response_`);
    expect(status(review)).toMatchObject({ ...REQUIRED_BUG, evidence: "missing" });
    expect(review.passed).toBe(true);
  });

  it("plain prose with no labels: should / instead / every time / a version", () => {
    const review = bug(
      "Since we upgraded to 3.2.0 the invoice list in the admin portal shows amounts without decimals. " +
        "Every time I open Finance > Invoices and filter on last month, an amount like 1,250.50 is displayed as 1,250. " +
        "It should show both decimals, as it did in 3.1.4. We see it in production with Edge and Chrome on Windows 11.",
    );
    expect(status(review)).toMatchObject(REQUIRED_BUG);
    expect(review.passed).toBe(true);
  });

  it("a forwarded customer e-mail: headers, quoting and the signature are left out", () => {
    const review = bug(`---------- Forwarded message ---------
From: Dana Smit <dana@client.example>
Sent: Monday, 3 June 2024 09:12
To: support@kestrel.example
Subject: Mobile app logs me out

> Hi team,
> since the update to version 5.1.0 of the Android app, I am logged out every time I switch to another app and come back.
> To reproduce: log in, open WhatsApp, return to your app after a few seconds.
> I would expect to stay logged in, like before the update.
> Phone: Pixel 8, Android 14.
>
> Kind regards,
> Dana Smit
> Operations manager
> +31 20 555 0101`);
    expect(status(review)).toMatchObject(REQUIRED_BUG);
    expect(review.passed).toBe(true);
  });

  it("a terse Linear-style task and a user story with Gherkin criteria", () => {
    const task = reviewTicket({
      type: "task",
      ticketText: `Upgrade the billing service from Node 18 to Node 20.
Why: Node 18 reaches end of life on 30 April and the security team flags it.
Done when:
- [ ] CI runs on Node 20 and is green
- [ ] production runs Node 20 for a week without new errors`,
    }, ticketRubric);
    expect(task.passed, task.summary).toBe(true);

    const story = reviewTicket({
      type: "feature",
      ticketText: `As a support agent I want to merge duplicate customer records so that order history is not split over two accounts.

Scenario: merging two records
  Given two customers with the same e-mail address
  When I choose Merge on one of them
  Then one record remains with the orders of both

Scenario: different e-mail addresses
  Given two customers with different e-mail addresses
  When I open Merge
  Then the merge is refused with a message

The merge shows a preview of the combined record before it is saved; out of scope: merging companies.`,
    }, ticketRubric);
    expect(story.passed, story.summary).toBe(true);
  });
});

describe("hollow text earns nothing", () => {
  const complete = `## Summary
Saving a draft invoice with a discount of 100% returns HTTP 500.

## Steps to reproduce
1. Open Invoices > New
2. Add one line and set the discount to 100%
3. Click Save draft

## Expected behaviour
The draft is saved with a total of 0.00.

## Actual behaviour
The page shows "Internal Server Error" and the draft is lost.

## Environment
Billing 2.4.1 on staging, Firefox 128`;

  it("the complete report passes", () => {
    expect(bug(complete).passed).toBe(true);
  });

  it("every heading with 'banana banana ...' under it rates below 4", () => {
    const banana = complete.replace(/^(?!#)(.+)$/gm, "Banana banana banana banana banana banana banana banana.");
    expect(bug(banana).rating).toBeLessThan(4);
  });

  it("the same report with every word replaced by lorem rates below 4", () => {
    const lorem = complete.replace(/^(?!#)(.+)$/gm, (line) => line.replace(/[\p{L}\p{N}]+/gu, (_w, i: number) => ["lorem", "ipsum", "dolor", "sit", "amet"][i % 5]!));
    expect(bug(lorem).rating).toBeLessThan(4);
  });

  it("'I could not reproduce it and have no steps' under the steps heading is missing, and caps the rating", () => {
    const review = bug(complete.replace(/1\. Open[\s\S]*?Save draft/, "I could not reproduce it and have no steps."));
    expect(status(review)["steps-to-reproduce"]).toBe("missing");
    expect(review.criteria.find((c) => c.id === "steps-to-reproduce")!.evidence).toContain("negated");
    expect(review.rating).toBeLessThan(4);
  });

  it("a term said to be not there, wherever the negation stands in its sentence, is negated; a boundary is not", () => {
    const quote = reviewQuote(
      "Scope: we deliberately do not fix a scope up front.\nDeliverables: no deliverables are fixed at this stage.\nTimeline: a timeline cannot be given before discovery.\nTeam: the team is not decided.\nIP: no transfer of rights is offered.\nConfidentiality: we have not agreed any confidentiality terms.\nChange requests: we haven't discussed this yet.\nWarranty: defects reported within 90 days of go-live are fixed free of charge.",
      quoteRubric, noServices, url,
    );
    const negated = (id: string) => quote.criteria.find((c) => c.id === id)!.evidence;
    for (const id of ["scope", "deliverables", "timeline-milestones", "team-roles", "intellectual-property", "confidentiality-data", "change-requests"]) expect(negated(id), id).toContain("negated");
    expect(status(quote)["warranty-support"]).toBe("met");
    const boundary = reviewQuote("Scope: a booking portal for 4 clinics with patient login and e-mail reminders. We will not build the mobile app; payments are not in scope.\nPrice: EUR 18,000 fixed; the price does not include VAT.", quoteRubric, noServices, url);
    expect(status(boundary)).toMatchObject({ scope: "met", "price-breakdown": "met" });
    // "n/a — an ongoing thing, no fixed end point" under a task's definition of done is none.
    const task = reviewTicket({ type: "task", ticketText: "## What\nAdd `tenant_id` to every log line of the `billing-api` service, as a structured field.\n\n## Why\nOn-call cannot filter Datadog logs by customer during incidents.\n\n## Definition of done\nn/a — this is more of an ongoing hygiene thing, no fixed end point." }, ticketRubric);
    expect(status(task)["definition-of-done"]).not.toBe("met");
  });

  it("a numbered clause ('10.1 Not covered here.', '11.1 Names pending.', '12.1 To be shaped by an assessment. Nothing is promised') says nothing as it would unnumbered", () => {
    const review = reviewQuote("10. Confidentiality\n10.1 Not covered here.\n\n11. Team\n11.1 Names pending.\n\n12. Deliverables\n12.1 To be shaped by an assessment. Nothing is promised in this document.\n\n13. Validity\n13.1 Open.\n\n14. Acceptance\n14.1 Not yet specified.", quoteRubric, noServices, url);
    expect(status(review)).toMatchObject({ "confidentiality-data": "missing", "team-roles": "missing", deliverables: "missing", validity: "missing", acceptance: "missing" });
  });

  it("three sections or more that say nothing or deny their term make the whole quote hollow, whatever the others say", () => {
    const complete = "Scope: a booking portal for 4 clinics with patient login and e-mail reminders; payments and a mobile app are not included.\nDeliverables: the portal deployed on your Azure tenant, source code in your GitHub, an admin guide.\nTimeline: 8 weeks from 2 June 2025, go-live on 28 July 2025.\nPrice: EUR 24,000 fixed, excl. VAT.\nPayment: 50% on signing, 50% at go-live, 14 days net.\n";
    const terms = ["Acceptance: 10 working days to test against the agreed stories; go-live after your written approval.", "Change requests: written, estimated and approved before work starts.", "Warranty: defects reported within 60 days of go-live are fixed free of charge.", "Intellectual property: the code is yours once paid.", "Validity: until 30 April 2025."];
    const denials = ["Acceptance: not discussed.", "Change requests: none.", "Warranty: no warranty is offered.", "Intellectual property: not decided yet.", "Validity: not time-limited."];
    expect(reviewQuote(complete + terms.join("\n"), quoteRubric, noServices, url).passed).toBe(true);
    const twoDenied = reviewQuote(complete + [...denials.slice(0, 2), ...terms.slice(2)].join("\n"), quoteRubric, noServices, url);
    expect(twoDenied.score).toBeGreaterThanOrEqual(4);
    const threeDenied = reviewQuote(complete + [...denials.slice(0, 3), ...terms.slice(3)].join("\n"), quoteRubric, noServices, url);
    expect(threeDenied.score).toBeLessThan(4);
    expect(threeDenied.summary).toContain("3 of its sections say nothing or deny their term");
  });

  it("ordinary clauses with a negation are no denial, and ordinary sums no contradiction (a second reviewer's read-back of the rules above)", () => {
    const terms = reviewQuote("Confidentiality: Your data will not be given to third parties.\n\nValidity: This quote is open for 30 days and cannot be extended.\n\nAcceptance: Acceptance cannot be given before the sync has run for 3 days without errors.\n\nIntellectual property: No transfer of rights takes place before the final invoice is paid in full.\n\nScope: a booking portal for 4 clinics with patient login. Not included: hosting and a mobile app. Reporting will be scoped later as a separate phase 2.", quoteRubric, noServices, url);
    expect(status(terms)).toMatchObject({ "confidentiality-data": "met", validity: "met", acceptance: "met", "intellectual-property": "met", scope: "met" });
    for (const text of ["Price: 10 days × €800 + €1,000 = €9,000", "Price: €6,000 - €600 + €1,026 = €6,426", "Design €2,000\nBuild €3,000\nThe licence cost is €1,000.\nVAT 20% €1,200\nTotal €7,200", "Price\nDesign  2.000 €  10 days\nBuild  4.000 €  20 days\nTotal  6.000 €"]) {
      expect(reviewQuote(text, quoteRubric, noServices, url).consistency.filter((c) => !c.ok), text).toEqual([]);
    }
    const steps = "## Steps\n1. Import users from users.csv\n2. Open a user\n\n## Environment\nAdmin 3.1.0, Firefox 128\n\n";
    expect(status(bug(`${steps}## Expected\nThe order is not confirmed until payment succeeds.\n\n## Actual\nThe order shows as confirmed.`))).toMatchObject(REQUIRED_BUG);
    expect(status(bug(`${steps}## Expected\nThe user has the company timezone.\n\n## Actual\nThe timezone is not defined for imported users.`))).toMatchObject(REQUIRED_BUG);
    // An error's own words are evidence, not the author denying it.
    expect(status(bug(`${steps}## Expected\nThe payment form opens.\n\n## Actual\nThe page stays blank; the console shows ReferenceError: process is not defined.`)).evidence).toBe("met");
  });

  it("'What I saw:' labels the observed behaviour", () => {
    const review = bug("**Where:** Web dashboard v2.18.1 (prod), Firefox 133 on Ubuntu 24.04.\n\n**What I saw:** On Analytics > Traffic, the axis labels on the line chart are rendered black on the dark-grey background.\n\n**Should be:** Labels use the light text colour (#E6E6E6) like the rest of the dark theme.\n\n**How to trigger**\n- Settings > Appearance > Theme = Dark\n- Open Analytics > Traffic");
    expect(review.criteria.find((c) => c.id === "observed-behaviour")).toMatchObject({ status: "met", evidence: expect.stringMatching(/^On Analytics/) });
  });

  it("a customer's wish told in a dictated note ('so what they want is to upload a CSV ...') is the feature's behaviour", () => {
    const review = reviewTicket({ type: "feature", ticketText: "Right so, notes from the call with the Riverside school district, um, their IT admins manage about 9,000 student Chromebooks through our console and when a device is lost they have to open each one and click lock, one by one, so what they want is to upload a CSV of serial numbers and lock all of those in one go, and get a result back saying which ones were locked. They said they'd consider it done if they can paste 500 serials, hit lock, and within five minutes see all 500 listed as locked in the device list." }, ticketRubric);
    expect(status(review)["proposed-behaviour"]).toBe("met");
  });

  it("placeholders, N/A and TBD under the headings earn nothing", () => {
    const review = bug(
      "The page is broken and it needs fixing as soon as possible please.\n\n## Steps to reproduce\nNo steps to reproduce.\n\n## Expected behaviour\nN/A\n\n## Environment\nTBD\n\n## Actual behaviour\n<describe what happened>\n",
    );
    for (const c of review.criteria.filter((c) => /step|expect|environment/.test(c.id))) {
      expect(c.status, c.id).toBe("missing");
      expect(c.evidence, c.id).toMatch(/is there but (says nothing|says it is not there|holds template text)/);
    }
    expect(review.rating).toBeLessThan(4);
  });

  it("a template's gap holding a question or a full stop is one gap, not two sentences (#18, ticket set fit2)", () => {
    for (const gap of ["<why are we doing this? link the incident / OKR>", "[Explain the reason. Link the incident.]"]) {
      const review = reviewTicket({ type: "task", ticketText: `Task: automate refund scenarios in the e2e suite (payments-api v5, staging)\n\nContext: ${gap}\n\nDone when both scenarios run in the nightly e2e pipeline and pass 5 nights in a row.` }, ticketRubric);
      expect(status(review).why, gap).toBe("missing");
      expect(review.passed, gap).toBe(false);
    }
  });

  it("an unfilled GitHub bug template rates below 4", () => {
    const review = bug(`**Describe the bug**
A clear and concise description of what the bug is.

**To Reproduce**
Steps to reproduce the behavior:
1. Go to '...'
2. Click on '....'
3. Scroll down to '....'
4. See error

**Expected behavior**
A clear and concise description of what you expected to happen.

**Desktop (please complete the following information):**
 - OS: [e.g. iOS]
 - Browser [e.g. chrome, safari]
 - Version [e.g. 22]`);
    expect(review.rating).toBeLessThan(4);
  });

  it("never passes a list of section names without content (keyword stuffing)", () => {
    const stuffed = "steps to reproduce expected behaviour actual behaviour environment version stack trace logs impact severity ".repeat(5);
    expect(bug(stuffed).rating).toBeLessThan(3);
    const sentences = "Steps to reproduce: see the steps. Expected behaviour: the expected behaviour. Actual behaviour: the actual behaviour. Environment: the environment and version.";
    expect(bug(sentences).rating).toBeLessThan(4);
  });

  it("'same as before', 'see previous mail' and 'as discussed' stand for nothing", () => {
    const review = reviewTicket({ ticketText: "Hi,\n\nNew request, details same as before.\n\nWho needs it: same as before\nWhat: see previous mail\nAcceptance: as discussed\n\nThanks", type: "feature" }, ticketRubric);
    expect(review.rating).toBeLessThan(4);
  });

  it("a behaviour with two of its questions left open ('to be decided', 'TBD') is too vague; one open detail is not", () => {
    const feature = (behaviour: string) => reviewTicket({ ticketText: `3.1 Who and why\nSmall-business customers on the Pro plan (about 3,800 accounts) spend 2.5 hours a month re-keying card transactions into their accounting package.\n\n3.2 Behaviour\n${behaviour}\n\n3.3 Acceptance criteria\n- A Pro customer can connect their account in under 3 minutes in a usability test.\n- 100% of cleared transactions for a test month appear with amount, date and VAT matching.`, type: "feature" }, ticketRubric);
    const behaviour = (text: string) => feature(text).criteria.find((c) => c.id === "proposed-behaviour")!;
    expect(behaviour("We will integrate with Xero, QuickBooks Online, Sage or DATEV. The sync could be a file export or a live API connection, to be decided. Mapping of spend categories: TBD.")).toMatchObject({ status: "partial", evidence: expect.stringMatching(/^left undecided/) });
    expect(behaviour("We will export cleared transactions to Xero every night through its API, with spend categories mapped to the customer's chart of accounts. The colour of the Connect button is TBD.").status).toBe("met");
  });

  it("'close the ticket once it's done' defines nothing, and 'Push notifications + iOS 18 — thoughts?' or 'q: what do we think about all this?' asks nothing", () => {
    const task = (done: string) => reviewTicket({ type: "task", ticketText: `Deactivate external Confluence accounts\n\nWhy: our Atlassian Guard licence is billed per user and we're at 1,940 of 2,000 seats.\nWhat: export the user list from admin.atlassian.com and deactivate every external account with no activity since 1 June 2026.\nDone when: ${done}` }, ticketRubric).criteria.find((c) => c.id === "definition-of-done")!.status;
    expect(task("close the ticket once it's done.")).toBe("missing");
    expect(task("no external account without activity since 1 June remains active, and the seat count is below 1,800.")).toBe("met");
    const question = (title: string, q: string) => reviewTicket({ type: "question", ticketText: `${title}\n\n- context: app (iOS 6.4.1, Firebase Messaging 11.4) moved to provisional authorization in Sept; taps on notifications dropped from 7.9% to 4.2%\n- checked: Apple's notification docs and our rich push extension\n- ${q}\n- need: a decision at the mobile guild on 4 Dec so we can plan Q1` }, ticketRubric).criteria.find((c) => c.id === "question")!.status;
    expect(question("MOB-1502 Push notifications + iOS 18 — thoughts?", "q: what do we think about all this?")).toBe("missing");
    expect(question("MOB-1502 Push notifications + iOS 18", "q: should we ask for full authorization again on the third launch?")).toBe("met");
  });

  it("'Look into things and tidy up where it makes sense' is no task, 'What is your view on the overall approach going forward?' no question; a host 'being decommissioned' is a why", () => {
    const task = (what: string, why = "The AWS bill for October was $41,200, up 38% from September.") => Object.fromEntries(reviewTicket({ type: "task", ticketText: `${why}\n\nWhat: ${what}\n\nDone when: the Cost Explorer forecast for December is below $32,000.` }, ticketRubric).criteria.map((c) => [c.id, c.status]));
    expect(task("Look into things and tidy up where it makes sense.").what).not.toBe("met");
    expect(task("Delete the 14 unattached EBS volumes in eu-west-1 and stop the idle SageMaker notebooks.").what).toBe("met");
    expect(task("Move the nightly pg_dump to a Kubernetes CronJob.", "Host cron-02 is being decommissioned on 12 December.").why).toBe("met");
    const question = (q: string) => reviewTicket({ type: "question", ticketText: `Background\nThe policy system (PAS 9.3, Java 11) runs on Oracle 19c; ora2pg 24.3 converts 71% of the 386 packages.\n\nQuestion to the board\n${q}\n\nDecision required by\nARB meeting of 2026-12-11, for the FY27 budget.\n\nPrepared by: T. Lindgren, Solution Architect` }, ticketRubric).criteria.find((c) => c.id === "question")!.status;
    expect(question("What is your view on the overall approach going forward?")).not.toBe("met");
    expect(question("Should we migrate to Aurora PostgreSQL 16 before the licence renewal, or renew Oracle for three more years?")).toBe("met");
  });

  it("a section that answers 'Nothing really.' first and explains after is empty", () => {
    const question = (needed: string) => reviewTicket({ ticketText: `### Why is p99 latency higher on our Graviton node group?\n\n**Context**\n- Service: search-api (Go 1.23) on EKS 1.30; half the replicas run on c7g.2xlarge, half on c6i.2xlarge.\n- p99 is 148 ms on c7g vs 92 ms on c6i. Tried: pinned GOMAXPROCS=8 on both; pprof shows more time in runtime.mallocgc on c7g.\n\n**Question**\nWhy would allocation be slower on Graviton for the same code?\n\n**What's needed**\n${needed}`, type: "question" }, ticketRubric);
    const needed = (text: string) => question(text).criteria.find((c) => c.id === "desired-outcome")!.status;
    expect(needed("Nothing really. No decision depends on this and there's no deadline; the c7g pool stays either way.")).toBe("missing");
    expect(needed("A yes or no by Friday: we decide then whether the c7g pool stays.")).toBe("met");
  });

  it("a section pointing elsewhere with a to-do left in ('See the thread from last week. (TODO: add background, current setup)') says nothing", () => {
    const question = (context: string) => reviewTicket({ ticketText: `1. Question\nFor the new CDC pipeline, do we require exactly-once delivery into the warehouse, or is at-least-once with dedup on (table, primary key, lsn) acceptable?\n\n2. Context\n${context}\n\n3. Decision needed\nThe architecture board picks one on 7 December so the team can start the sink in sprint 50.`, type: "question" }, ticketRubric);
    const context = (text: string) => question(text).criteria.find((c) => c.id === "context")!.status;
    expect(context("See the thread from last week. (TODO: add background, current setup, volumes)")).toBe("missing");
    expect(question("See the thread from last week. (TODO: add background, current setup, volumes)").passed).toBe(false);
    expect(context("Debezium 2.5 reads Postgres 15 into Kafka 3.6; about 40 million changes a day. The old batch job double-counted orders after a retry.")).toBe("met");
  });

  it("a long ticket that names nothing concrete rates below 4, however it is laid out", () => {
    const vague = `Hello team,

the page we talked about is not working the way it should and our people are getting frustrated with it.
When someone tries to do the usual thing it goes wrong, and it should just work like it normally does.
It happens quite often, in the normal setup everyone uses, and it used to be fine before the last changes.
Please have a look at it soon, because this is blocking the work of several colleagues every day.

Thanks a lot`;
    const review = bug(vague);
    expect(review.rating).toBeLessThan(4);
    expect(review.summary).toContain("nothing concrete");
  });

  it("'Steps: happened once, no idea how' denies the steps, whatever follows", () => {
    const review = bug(`Summary: Gateway dropped all sensor connections
Environment: EdgeHub GW-200, firmware 3.2.7, site Rotterdam
Description: Yesterday at 02:14 the gateway dropped all 48 sensors for 25 minutes. It should keep them connected.
Steps to reproduce: Happened once yesterday, no idea how. Nothing was changed on site that night.`);
    expect(status(review)["steps-to-reproduce"]).toBe("missing");
    expect(review.passed).toBe(false);
  });

  it("'Actual: nothing arrives' is what happens, not a denial", () => {
    const review = bug(`Title: Password reset mail never arrives for plus addresses
Env: production, web 6.0.2
Repro: request a reset for anna+test@example.com on /forgot-password
Expected: the reset mail arrives within a minute, as it does for anna@example.com
Actual: nothing arrives; the app log says "invalid recipient"`);
    expect(review.passed).toBe(true);
  });

  it("'showing 0 instead of the real grade' tells what happens and what should", () => {
    const review = bug(`the gradebook is showing 0 instead of the real grade for students with an accent in their name. open class 7B gradebook -> Term 2 -> those rows show 0.0. prod, Safari 17 on the school iPads.`);
    expect(status(review)).toMatchObject(REQUIRED_BUG);
  });

  it("labels run together on one line each start their own section", () => {
    const review = reviewTicket({ type: "task", ticketText: "What: load the ICD-10-GM 2025 codes into the diagnosis picker. Why: the 2025 catalogue applies from 1 January and claims with unknown codes are rejected. Done when: the 2025 catalogue is live on prod and a test claim with a 2025 code is accepted." }, ticketRubric);
    expect(status(review)).toMatchObject({ what: "met", why: "met", "definition-of-done": "met" });
  });

  it("a numbered task: its action items are the work, its 'Done when' item the definition of done", () => {
    const review = reviewTicket({ type: "task", ticketText: `1. Rotate the Mailgun API key of billing-service; the current key was pasted into a public Slack channel on 3 May.
2. Store the new key in Vault under prod/billing/mailgun.
3. Redeploy billing-service in prod and staging.
4. Done when a test invoice mail arrives from prod and the old key answers 401.` }, ticketRubric);
    expect(status(review)).toMatchObject({ what: "met", why: "met", "definition-of-done": "met" });
  });

  it("acceptance criteria that only wish ('seamless', 'easy and pleasant') are not testable", () => {
    const review = reviewTicket({ type: "feature", ticketText: `As a monthly donor, I want to change or pause my donation from the link in my receipt e-mail without phoning the charity, so that I stay a donor when money is tight.

From the link, the donor sees the current amount, types a new one (at least £2) or pauses for 1 to 3 months, and confirms.

Acceptance criteria:
- The experience should be seamless and feel trustworthy.
- Donors should find it easy and pleasant.
- It should work well for the charities too.` }, ticketRubric);
    expect(status(review)["acceptance-criteria"]).not.toBe("met");
    expect(review.passed).toBe(false);
  });

  it("a question asked indirectly ('our DPO has asked whether ...') is a question", () => {
    const review = reviewTicket({ type: "question", ticketText: `We are on the Enterprise plan, EU tenant eu-2, and read the DPA (version 3.1). Our data protection officer has asked whether attachments uploaded by citizens stay in the EU or are copied to the US backup region.
We need a written yes or no by 15 May, when the DPIA is signed off.` }, ticketRubric);
    expect(status(review)).toMatchObject({ question: "met", context: "met", "desired-outcome": "met" });
  });

  it("a table of labels and values, with a numbered list in a cell, reads as sections", () => {
    const review = reviewTicket({ type: "feature", ticketText: `| Field | Detail |
|---|---|
| Who | Litigation teams at law firms using our DMS; today paralegals copy held files to a share by hand |
| Desired behaviour | A "Legal hold" action on a matter: held items cannot be deleted, moved or purged until the hold is released |
| Acceptance | 1) Deleting a held item fails with "Item under legal hold". 2) A retention job skips held items and logs them. 3) Hold history exports as CSV. |` }, ticketRubric);
    expect(status(review)).toMatchObject({ problem: "met", "proposed-behaviour": "met", "acceptance-criteria": "met" });
  });

  it("an unfilled Given ... When ... Then ... proves no acceptance", () => {
    const review = reviewTicket({ type: "task", ticketText: "Task: move the billing worker to the new cluster\n\nWe move it to k8s-prod-2 so that we can shut down the old cluster before its contract ends.\n\nAcceptance:\nGiven ...\nWhen ...\nThen ..." }, ticketRubric);
    expect(status(review)["definition-of-done"]).toBe("missing");
    expect(review.passed).toBe(false);
  });

  it("a comma list of the rubric's own words caps a ticket as stuffing, even beside real sections", () => {
    const review = reviewTicket({ type: "feature", ticketText: `h3. Background
Riders need it. User value, customer problem, business value, pain point, persona-driven, user need, high impact, strategic, why now, problem statement, value proposition.
h3. Requested behaviour
* On the home screen, "Schedule" opens a date and time picker for any slot from 30 minutes to 7 days ahead.
h3. Acceptance Criteria
# Given a scheduled ride, when a driver is matched 15 minutes before pickup, then the rider gets a push notification.
# Cancelling before the match costs nothing.` }, ticketRubric);
    expect(review.rating).toBeLessThan(4);
    expect(review.summary).toContain("stuffing");
  });

  it("one sentence credits one criterion", () => {
    const review = bug("Checkout should work on Chrome 126 but it does not, please fix it quickly for all of our customers.");
    expect(review.criteria.filter((c) => c.status === "met").length).toBeLessThanOrEqual(3);
    expect(review.passed).toBe(false);
  });
});

describe("what only looks like a part of a ticket", () => {
  const feature = (ticketText: string) => reviewTicket({ type: "feature", ticketText }, ticketRubric);

  it("a vague 'Actual:' is not made up for by a verdict word in the title", () => {
    const review = bug(`Invoice PDFs broken after 3.4
Web app 3.4.1, Chrome 131 on macOS 14, production tenant "northwind".
Steps:
1. Open any paid invoice.
2. Click Download PDF.
Expected: the PDF opens with the invoice's lines and totals.
Actual: it's not right.`);
    expect(status(review)["observed-behaviour"]).toBe("partial");
    expect(review.passed).toBe(false);
  });

  it("Given/When/Then scenarios whose outcomes are feelings are no acceptance criteria", () => {
    const text = (then: string) => `Feature: Saved filters in the order list
  As a dispatcher handling 300 orders a day
  I want to save the filter I use every morning
  So that I do not rebuild the same five filters each shift

  Scenario: Save a filter
    Given I filtered the order list by depot "North" and status "Late"
    When I click "Save filter" and name it "Morning"
    ${then}`;
    expect(status(feature(text("Then the list loads fast enough\n    And I am satisfied with it")))["acceptance-criteria"]).not.toBe("met");
    expect(status(feature(text(`Then "Morning" appears under Saved filters\n    And choosing it shows the same 42 orders`)))["acceptance-criteria"]).toBe("met");
  });

  it("a user story told a line a part names who, and its 'so that it is there' gives no reason", () => {
    const story = (why: string) => `Feature: Compact calendar view
  As a user
  I want a compact view of the calendar
  ${why}

  Scenario: Turn on the compact view
    Given I am on the calendar page
    When I select "Compact" under Settings > Calendar
    Then the week view shows 12 rows per screen instead of 8
    And the choice is kept after I log out and in again`;
    expect(status(feature(story("So that it is there"))).problem).toBe("missing");
    expect(status(feature(story("So that I can see a whole night shift on one screen"))).problem).toBe("met");
    expect(status(feature(story("So I can see a whole night shift on one screen"))).problem).toBe("met");
  });

  it("reads a dictated note that runs on without a full stop clause by clause", () => {
    const review = feature(
      "okay so this is from the call with the depot managers, the drivers on the Android handhelds have to phone the office whenever a customer is not home, " +
        "which was about 900 calls last month and it keeps the office line busy all morning, so what we want is a button \"Not home\" on the delivery screen " +
        "that asks for a photo of the door, sends the customer a text with a rebooking link and puts the parcel on tomorrow's route, " +
        "and we'll call it done when, one, a driver can mark a stop as not home with a photo, two, the customer gets the text within a minute, " +
        "and three, the parcel shows on the next day's route for that depot, that's it",
    );
    expect(status(review)).toMatchObject({ problem: "met", "proposed-behaviour": "met", "acceptance-criteria": "met" });
  });

  it("'we'll know it when we see it' is no way to know it is done", () => {
    const review = feature(
      "Traders on the desk lose track of open orders because the blotter has no grouping today, so we'd like the blotter to group orders by instrument with a subtotal row per group, " +
        "collapsible, remembered per user. As for how we'll know it's done, we'll know it when we see it, let's get something in and take it from there.",
    );
    expect(status(review)["acceptance-criteria"]).not.toBe("met");
  });
});

describe("an audit finding's 'Evidence of closure' is its definition of done (ticket set fit2)", () => {
  it("reads it so", () => {
    const review = reviewTicket({ type: "task", ticketText: "Finding 6 (Medium) – Audit log retention\nObservation: access logs for the patient record viewer (EHR Viewer 4.2, production) are kept for 90 days only. HIPAA §164.316(b)(2) and our own policy SEC-12 require 6 years.\nRequired action: change the log pipeline so that viewer access events are archived to the WORM bucket (s3://ehr-audit-archive, Object Lock compliance mode, 6-year retention).\nEvidence of closure: (a) bucket retention settings screenshot showing 2190 days, (b) a sample access event from the day of change retrievable from the archive, (c) SEC-12 updated to reference the archive." }, ticketRubric);
    expect(status(review)["definition-of-done"]).toBe("met");
  });
});

describe("what chat, dictation and Gherkin features carry (#18, from ticket set N's dev part)", () => {
  it("a chat message's line opening with a label is a field of its own, not the end of the line above (ticket set fit2)", () => {
    const review = bug(`[#data-eng] dmitri.k 10:42
csv export bug, prod-eu build 2024.06.2:
GET /v2/reports/export?format=csv on any report where customer name is containing a newline (example account 88213) -> row is split in two, columns are shifting
should be: field quoted per RFC 4180, one row per record
repro every time with this account`);
    expect(review.criteria.find((c) => c.id === "expected-behaviour")).toMatchObject({ status: "met", evidence: expect.stringMatching(/^field quoted per RFC 4180/) });
    expect(review.passed).toBe(true);
  });

  const feature = (ticketText: string) => reviewTicket({ ticketText, type: "feature" }, ticketRubric);
  const scenarios = `  Scenario: Player reconnects within the grace period
    Given a player is in a ranked 5v5 match
    And their client loses connection
    When the client reconnects within 90 seconds
    Then the player is put back into the same match with the same hero
    And no leaver penalty is recorded

  Scenario: Hold expires
    Given a player disconnected from a ranked match
    When 90 seconds pass without a reconnect
    Then the player is marked as a leaver and the usual penalty applies`;

  it("a feature's scenarios say what it should do as well as how to check it", () => {
    const review = feature(`Feature: Rejoin a ranked match after a disconnect

  Why: players on unstable mobile connections get a 30-minute ranked ban when their app drops for a few seconds. Support gets ~400 tickets a week about it.

${scenarios}`);
    expect(status(review)).toMatchObject({ problem: "met", "proposed-behaviour": "met", "acceptance-criteria": "met" });
    expect(review.passed).toBe(true);
  });

  it("a scenario, or its two-word title ('Hold expires'), is no reason for the feature", () => {
    expect(status(feature(`Feature: Rejoin a ranked match after a disconnect\n\n${scenarios}`)).problem).not.toBe("met");
  });

  it("a link that 'expires after 30 days' or an 'expired message' is behaviour to build, not a reason; a certificate that expires on a date is one", () => {
    const share = (extra: string) => reviewTicket({ type: "feature", ticketText: `MOB-771 Add "Share trip" link to the ride receipt screen\n\n- On the receipt screen add a "Share trip" button under the fare breakdown\n- Link opens a public read-only page: static map, date, duration\n- Token expires after 30 days and the page then shows the expired message\n${extra}- AC:\n  - button visible on receipts of completed trips only\n  - after 30 days (clock override in staging) the link shows the expired message` }, ticketRubric);
    expect(share("").criteria.find((c) => c.id === "problem")!.status).toBe("missing");
    expect(share("- Riders ask support for a way to share their trip: the partner's certificate expires on 2 March and our old share link stops working then\n").criteria.find((c) => c.id === "problem")!.status).toBe("met");
  });

  it("reads a chat log message by message, without its time and speaker", () => {
    const review = feature(`[16:20] nadia (PM): writing this down before I forget — request from ops for the dispatch console
[16:21] nadia (PM): problem: dispatchers can't tell which drivers are about to hit their legal driving limit. they find out when the driver calls in. happened 31 times in May
[16:22] nadia (PM): ask: in the driver list, show remaining driving time per driver. amber badge under 60 min left, red under 30
[16:24] tom (eng): and the assign flow?
[16:27] nadia (PM): acceptance: driver with 45 min left shows amber badge "45m"; 20 min -> red; sorting by least time puts them first
[16:27] tom (eng): 👍 ticketing it`);
    expect(review.criteria.find((c) => c.id === "acceptance-criteria")).toMatchObject({ status: "met", evidence: expect.stringMatching(/^driver with 45 min/) });
    // A chat copied without times names its speaker at the start of each line; a list's repeated "Step:" names none.
    const untimed = reviewTicket({ type: "task", ticketText: `#ledger-team
lena: can someone pick this up today/tomorrow:
lena: add index on orders (merchant_id, created_at) in ledger-db (pg 14, prod + staging)
lena: why: /merchants/{id}/statements p95 is 4.2 s, EXPLAIN shows seq scan on orders (38M rows), merchants are complaining at month end
lena: done = migration merged, index built with CREATE INDEX CONCURRENTLY in prod (no lock), and p95 on the "statements" grafana panel < 500 ms over 24 h
tomasz: 👀 I'll take it` }, ticketRubric);
    expect(untimed.criteria.find((c) => c.id === "definition-of-done")).toMatchObject({ status: "met", evidence: expect.stringMatching(/^migration merged/) });
    expect(unwrapChat("Step: open the app\nStep: tap Pay\nStep: see the error")).toBe("Step: open the app\nStep: tap Pay\nStep: see the error");
    const headers = "From: Georg Weiss\nSubject: Fwd: billing cleanup\n\nFrom: CFO office\nDate: Thu, 6 Feb 2025\n\nFrom: Dana Whitfield\nSent: Tuesday";
    expect(unwrapChat(headers)).toBe(headers);
    // "Expected:" and "Actual:" repeated for three cases are labels, not speakers; "<2s" opens no bracket.
    const cases = bug("Loan calculator shows the wrong repayment on build 4.2.1 (Chrome 126).\nSteps: open /calculator, enter the amounts below, press Calculate.\nCase 1, £250,000 over 25 years at 4.5%:\nExpected: monthly repayment £1,389.58\nActual: £1,374.86\nCase 2, £180,000 over 20 years at 4%:\nExpected: monthly repayment £1,090.76\nActual: £1,077.12\nCase 3, £90,000 over 10 years at 5%:\nExpected: monthly repayment £954.59\nActual: £941.30");
    expect(status(cases)["expected-behaviour"]).toBe("met");
    // A log line's level is no speaker: its lines stay as they are.
    expect(unwrapChat("14:02 ERROR api: upstream timed out\n14:03 ERROR api: retry failed")).toContain("14:02 ERROR api: upstream");
    // Slack and Teams put the speaker and time on a line of their own.
    expect(unwrapChat("Aroha Ngata (Kōwhai Studio)  10:05 AM\nDELIVERABLES\nThe app and its source code.\n\nBen Okoro  10:07 AM\nok, and the price?")).toBe("\nDELIVERABLES\nThe app and its source code.\n\n\nok, and the price?");
    // The channel's name above the messages goes with them: it is no task's "what".
    expect(unwrapChat("#payments-eng\n\nFarah Siddiqui  11:30 AM\nfollowing up on the pentest\n\nLuis Ortega  11:34 AM\nI can take it")).toBe("\n\n\nfollowing up on the pentest\n\n\nI can take it");
    // Some copies keep the name in bold ("**Marek Nowak** 10:44").
    expect(unwrapChat("**Marek Nowak** 10:42\nquick one for whoever owns kafka config\n\n**Aisha K.** 10:51\nwill look after standup")).toBe("\nquick one for whoever owns kafka config\n\n\nwill look after standup");
    // Slack copies a handle for a name.
    expect(unwrapChat("marco.b  3:14 PM\nfeature: a Duplicate action\naisha.n  3:20 PM\nwho is asking for it?")).toBe("\nfeature: a Duplicate action\n\nwho is asking for it?");
    expect(unwrapChat("Lotte Vermeer  Tuesday 10:02\ncan you send the quote in here?\nBram Kuipers (Kuipers Web)  Tuesday 10:31\nSure.")).toBe("\ncan you send the quote in here?\n\nSure.");
    // A timetable is no chat.
    expect(unwrapChat("Backup  02:00\nReport  03:15")).toBe("Backup  02:00\nReport  03:15");
    // WhatsApp's exports, iOS and Android, put the date first.
    expect(unwrapChat("[14/03/25, 10:46:12] Leo Brandt: PRICE – fixed, USD\nDesign: $4,000\n[14/03/25, 10:47:30] Leo Brandt: PAYMENT – 4 × $6,000")).toBe("\nPRICE – fixed, USD\nDesign: $4,000\n\nPAYMENT – 4 × $6,000");
    expect(unwrapChat("14/03/2025, 10:46 - Leo Brandt: PRICE – fixed\n14/03/2025, 10:47 - Priya Shah: thanks")).toBe("\nPRICE – fixed\n\nthanks");
  });

  it("'Before Saturday the text always matched the booking' says what should happen", () => {
    expect(status(bug("Since the update on Saturday the confirmation text says 9 a.m. for every 8 a.m. booking. Before Saturday the text always matched the booking."))["expected-behaviour"]).toBe("met");
  });

  it("'Nothing really, just flagging it' under what is needed asks for nothing", () => {
    const review = reviewTicket({ type: "question", ticketText: "QUESTION\nIs anyone else seeing DAGs slow down after moving to Airflow 2.8?\n\nCONTEXT\nWe moved from Airflow 2.6.3 to 2.8.1 on 2 April; every run of daily_sales_rollup now takes 70–80 min instead of 25. We checked the worker count and the machine type.\n\nWHAT I NEED\nNothing really, just flagging it in case anyone is curious." }, ticketRubric);
    expect(status(review)["desired-outcome"]).toBe("missing");
    expect(review.passed).toBe(false);
  });

  it("cuts a dictated run-on where 'so what we need is' starts a new thought", () => {
    const review = reviewTicket({ type: "question", ticketText: `hi it's Gabriel from the mobile team quick question for the backend folks we're building offline mode for the field inspection app the React Native one version 2.3 and we need to know if the inspections API will accept a batch upload of up to 200 inspections in one POST or if we have to send them one by one
because right now the docs for v2 of the API only show single create and we tried posting an array to staging and got a 413 so we don't know if that's a size limit or it's just not supported
so what we need is either yes here's the endpoint and the max payload or no do them one at a time so we can pick the sync design before sprint planning on Monday thanks` }, ticketRubric);
    expect(status(review)).toMatchObject({ question: "met", context: "met", "desired-outcome": "met" });
  });
  it("a section that only complains ('it doesn't work properly') says nothing more for the sentences around the complaint", () => {
    const observed = (what: string) => status(reviewTicket({ type: "bug", ticketText: `Environment: Invoicing v3.7.2 in production, Chrome 125 on Windows 11.\n\nSteps: Billing > Invoices > select more than 50 invoices > Actions > "Generate PDFs (zip)".\n\nExpected: a zip with one PDF per selected invoice.\n\nWhat happens: ${what}` }, ticketRubric))["observed-behaviour"];
    expect(observed("it doesn't work properly, the invoices come out weird. We tried it a few times this week with the same result.")).not.toBe("met");
    expect(observed("it doesn't work properly: the zip holds only the first 50 PDFs. We tried it a few times this week with the same result.")).toBe("met");
  });

  it("a rule under a paragraph separates it (it does not make the paragraph a heading), and ends the section above it", () => {
    const question = (ask: string) => status(reviewTicket({ type: "question", ticketText: `Context\nlabelsvc 3.8 (Java 17) on the depot PCs cannot reach the Zebra printers since the network segmentation in May; 14 of 62 depots are affected.\n\nQuestion\n${ask}\n\nDecision needed from: Architecture Board.\nNeeded by: board meeting on 2 July 2024, before the roll-out.\n------------------------------------------------------------\nParcelHub GmbH · Architecture · internal                  draft v0.2` }, ticketRubric));
    expect(question("Do we roll out a local print agent to all depots, or open port 9100 through the depot firewalls?")).toMatchObject({ question: "met", "desired-outcome": "met" });
    // The page footer under the rule is no question.
    expect(question("TBD — to be written up after the workshop.").question).not.toBe("met");
  });

  it("a question whose sender says they have not looked and do not know the version has no context", () => {
    const question = (note: string) => status(reviewTicket({ type: "question", ticketText: `Subject: FW: data retention\n\nHi support,\n\n${note}\n\nLegal asks: after we delete a client matter in your system, are its documents deleted from your backups, and after how many days? We need a written answer by 14 June for the client audit.` }, ticketRubric)).context;
    expect(question("Forwarding from our legal team. I haven't looked into it at all and honestly I don't know which version or plan we're on.")).not.toBe("met");
    expect(question("Forwarding from our legal team. We're on the Business plan, release 2024.2, hosted in your EU region.")).toBe("met");
  });

  it("reads outline-numbered steps ('3.1 Add ...', '3.2 Apply ...') under a numbered label as steps", () => {
    const review = reviewTicket({ type: "bug", ticketText: "1. Summary: Promo code disappears from the cart when the quantity is changed.\n2. Environment: staging, build web-2024.05.02-3, Chrome 124 on macOS 14.4.\n3. Steps to reproduce:\n   3.1 Add \"Trail Runner 2\" (SKU TR2-42-BLK) to the cart.\n   3.2 Apply promo code SPRING15.\n   3.3 Change the quantity from 1 to 2.\n4. Actual: the promo line vanishes and the total becomes €199.98.\n5. Expected: the discount stays applied (total €169.98)." }, ticketRubric);
    expect(status(review)["steps-to-reproduce"]).toBe("met");
  });

  it("'doesn't really work properly' is a complaint, '4 times out of 4' no timeout, and 'seek to 2:00:00' a step", () => {
    const bug = (observed: string) => status(reviewTicket({ type: "bug", ticketText: `## Selfie step fails on Galaxy A14\n\n**Steps**\n1. Install the banking app 8.4.0 on a Galaxy A14 (Android 14).\n2. Start "Open an account" and scan the ID.\n3. On "Take a selfie", follow the prompts.\n\n**What happens**\n${observed}\n\n**Expected**\nThe liveness check completes within 10 seconds, as on the Pixel 6.\n\n**Environment**\nProd backend, app 8.4.0, Galaxy A14 / Android 14. Reproduced 4 times out of 4.` }, ticketRubric))["observed-behaviour"];
    expect(bug("The selfie step doesn't really work properly on this phone.")).not.toBe("met");
    expect(bug("The camera preview freezes after the head turn and the step times out after 60 s.")).toBe("met");
    const steps = status(reviewTicket({ type: "bug", ticketText: "subtitle drift on long films, web player\n- Chrome 127 / Windows 11, web player build 2024.08.2\n- open any title longer than ~2h with English subs; play from 0, or just seek to 2:00:00\n- at 1:30:00 subs are ~1.5 s late, at 2:30:00 ~3 s late\n- subs should line up with the dialogue at any position, like they do on TV" }, ticketRubric))["steps-to-reproduce"];
    expect(steps).toBe("met");
  });

  it("steps that are only ordinary use ('Use the app normally for a while') reproduce nothing", () => {
    const steps = (list: string) => status(reviewTicket({ type: "bug", ticketText: `Environment: FieldTrack Android 6.3.0 (build 6300142), Galaxy Tab Active3, Android 13.\n\nObserved: map panning drops to a few fps and the OS kills the app with "FieldTrack isn't responding"; memory climbs to 1.4 GB.\n\nExpected: memory stays below 400 MB as on 6.2.x.\n\nSteps to reproduce:\n${list}` }, ticketRubric))["steps-to-reproduce"];
    expect(steps("1. Log in as a field technician.\n2. Use the app normally for a while.")).not.toBe("met");
    expect(steps("1. Log in as a field technician.\n2. Do the usual flow.")).not.toBe("met");
    expect(steps("1. Log in as a field technician.\n2. Open 30 job maps in a row and pan each one.")).toBe("met");
    // Said on one line, it says nothing at all.
    expect(steps("Use the app normally for a while.")).toBe("missing");
  });

  it("reads a dictated task's 'um reason is ...' as its why, the filler dropped", () => {
    const review = reviewTicket({ type: "task", ticketText: "okay note for the platform board so we need to raise the rate limit on the checkout API for the tenant luma-retail from 200 requests per second to 600 in the gateway config um reason is they're running a TV campaign from the 20th and expect a peak around 450 rps uh and it's done when the config change is deployed to prod and a k6 run at 600 rps for ten minutes has p99 under 300 ms and no 429s" }, ticketRubric);
    expect(status(review).why).toBe("met");
  });

  it("cuts a voicemail that runs on where 'so yeah what should happen is' or an 'um' starts a new thought", () => {
    const review = reviewTicket({ type: "bug", ticketText: "hey it's Priya from support um about the loyalty app on Android version 4.2.1 on a Samsung A54 with Android 14 if you open the rewards tab and then tap redeem on any voucher and then rotate the phone while the spinner is going the voucher is marked as used but no code is shown and the points are gone too so yeah what should happen is the code shows up after the rotation or the points come back um I tried it four times and it happened every time okay thanks" }, ticketRubric);
    expect(status(review)["expected-behaviour"]).toBe("met");
  });
});

describe("what only says it is done, wrong, wanted or asked (#18, from ticket set O's dev part)", () => {
  it("an issue form's '_No response_' under acceptance criteria is empty, and no checkbox elsewhere makes up for it", () => {
    const review = reviewTicket({ type: "feature", ticketText: "### Problem\n`mapkit-lite` has no way to cluster markers: 8,000 hydrant markers turn into a blob and panning drops to ~5 fps.\n\n### Proposed solution\nAn opt-in `cluster: { radius: 60 }` option on `MarkerLayer`; markers within `radius` pixels are drawn as one circle with the count.\n\n### Acceptance criteria\n\n_No response_\n\n### Would you be willing to submit a PR?\n\n- [x] Yes" }, ticketRubric);
    expect(status(review)["acceptance-criteria"]).toBe("missing");
  });

  it("'Done: when it's done, ping me' is no definition of done", () => {
    const review = reviewTicket({ type: "task", ticketText: "- Migrate DNS for the marketing sites from GoDaddy to Cloudflare\n- Why: the GoDaddy account is tied to a former employee's credit card; renewals failed twice this year.\n- How: export zone files, recreate records in Cloudflare, switch nameservers\n- Done: when it's done, ping me" }, ticketRubric);
    expect(status(review)["definition-of-done"]).not.toBe("met");
  });

  it("'has not been working correctly', 'doesn't look right' say something is wrong, not what happens", () => {
    const review = bug("h3. Description\nThe monthly payroll export has not been working correctly since the last update. Something is off with the file, the DATEV import doesn't look right.\n\nh3. Expected result\nThe export imports cleanly into DATEV LODAS with all 214 employees, as it did for April.\n\nh3. Steps to reproduce\n# HR Suite > Payroll > May 2024 run\n# Export > DATEV LODAS format\n# Import the file into DATEV\n\nh3. Environment\nHR Suite 11.3.0 (on-prem)");
    expect(status(review)["observed-behaviour"]).not.toBe("met");
    // A symptom beside the complaint is what happens.
    expect(status(bug("The export has not been working since 11.3.0: it returns a 500 and the file is empty.\nSteps: open Payroll, click Export.\nIt should download the DATEV file.\nHR Suite 11.3.0 on Windows 11"))["observed-behaviour"]).toBe("met");
  });

  it("'because' gives a reason, not the answer a question needs; 'Can someone help with this?' asks nothing in particular", () => {
    const view = reviewTicket({ type: "question", ticketText: "We're moving three distribution centres to the new cloud VMS (Milestone XProtect 2019 R3 today) in June. Legal said the 14 dock cameras should keep 90 days because of damage claims.\n\nWhat's your view on retention for the dock cameras going forward?" }, ticketRubric);
    expect(status(view)["desired-outcome"]).not.toBe("met");
    const help = reviewTicket({ type: "question", ticketText: "Remote staff open 600 MB Revit models over our WireGuard VPN from the Synology NAS (DSM 7.2) and it takes 9 minutes. We tried Synology Drive sync. The partners want a recommendation at the August meeting. Can someone help with this?" }, ticketRubric);
    expect(status(help).question).not.toBe("met");
  });

  it("a proposal that is 'some kind of guidance, open to ideas' is no behaviour", () => {
    const review = reviewTicket({ type: "feature", ticketText: "**Problem**\nTrial admins who don't invite a teammate in 3 days convert at 4%, versus 19% for those who do.\n\n**Proposal**\nProbably some kind of guidance, maybe a checklist or tips - open to ideas from design.\n\n**Done when**\n- Shipped to 50% of new trial workspaces behind flag `onboarding_v2`\n- Invite-within-3-days rate measured for 4 weeks; target +5 pp" }, ticketRubric);
    expect(status(review)["proposed-behaviour"]).not.toBe("met");
  });
});

describe("what only names a stage, a feature or an opinion (#18, from ticket set P's dev part)", () => {
  const steps = "Steps: go to Reports > Orders, filter on 1-31 March, click Export > Excel.\nActual: an order placed on 2 March shows as 1 March in the file.\nExpected: dates in the export match the screen.";

  it("'prod' alone says no more than which copy of the system; with its region or a version it says where", () => {
    expect(status(bug(`${steps}\nEnvironment: prod`)).environment).not.toBe("met");
    expect(status(bug(`${steps}\nEnvironment: prod EU`)).environment).toBe("met");
    expect(status(bug(`${steps}\nEnvironment: production, web app 4.2.0`)).environment).toBe("met");
  });

  it("acceptance criteria that only name features ('Reconciliation page / Stripe payout import / Export') check nothing", () => {
    const review = reviewTicket({ type: "feature", ticketText: "Problem: finance matches Stripe payouts against invoices by hand in a spreadsheet, two days every month.\nProposal: a Reconciliation page under Admin > Finance that imports Stripe payouts daily and lists unmatched lines.\nAcceptance criteria:\n- Reconciliation page\n- Stripe payout import\n- Matching of payouts to invoices\n- Export" }, ticketRubric);
    expect(status(review)["acceptance-criteria"]).not.toBe("met");
  });

  it("'What do you think?' asks nothing in particular; a ServiceNow task's 'Close notes required' are its definition of done", () => {
    const opinion = reviewTicket({ type: "question", ticketText: "We run app 2.3 on the new payments API and tried both webhooks and polling. We need to know by next Friday. What do you think?" }, ticketRubric);
    expect(status(opinion).question).not.toBe("met");
    const task = reviewTicket({ type: "task", ticketText: "Short description: Renew TLS certificate for portal.kunde-example.de\n\nDescription:\nLet's Encrypt renewal on lb-ext-01 has failed since the DNS provider change on 2 April; the certificate expires on 28 May. Switch the ACME challenge to DNS-01 and reissue the certificate.\n\nClose notes required:\n- openssl s_client shows the new expiry at least 80 days out\n- certbot renew --dry-run succeeds on lb-ext-01" }, ticketRubric);
    expect(status(task)["definition-of-done"]).toBe("met");
  });
});

describe("what only says who asked, that it is wrong, or asks for information (#18, from ticket set Q's dev part)", () => {
  const task = (ticketText: string) => reviewTicket({ ticketText, type: "task" }, ticketRubric);
  const question = (ticketText: string) => reviewTicket({ ticketText, type: "question" }, ticketRubric);

  it("'requested by management' is who asked, not why; 'No fixed end - let's keep chipping away' is no definition of done", () => {
    expect(status(task("## What to do\nUpgrade the 7 CI workflows from Node 16 to Node 20.\n## Why\nThis was requested by management in last week's planning.\n## Done when\nAll 7 workflows run green on a PR against main with Node 20."))["why"]).not.toBe("met");
    expect(status(task("What: remove the 64 flags listed in the sheet 'Flags audit May'.\nWhy: each flag costs startup time and two dead-branch bugs came from stale flags.\nDone: No fixed end - let's just keep chipping away at the list whenever people have spare cycles."))["definition-of-done"]).not.toBe("met");
  });

  it("'only for some accounts - we haven't figured out which' is no way to reproduce", () => {
    expect(status(bug("What happens: Export -> PDF spins for 30 s, then shows 'Request failed (504)'.\nExpected: the PDF downloads within a few seconds.\nSteps: it only happens for some accounts - we haven't figured out which ones or what they have in common.\nEnv: app 5.2.1, Chrome 125"))["steps-to-reproduce"]).not.toBe("met");
  });

  it("'the report is coming wrong / not coming proper' says it is wrong, not what it shows; a greeting is no summary", () => {
    const review = bug("Respected Sir/Madam,\n\nKindly note that the attendance report is coming wrong from last two days.\n\nVersion: HRMS Cloud 7.3.2, Chrome 124 on Windows 10.\n\nSteps: login as HR admin, go to Reports > Attendance > Monthly, select April 2024, click Generate.\n\nThe report should show the present days for each employee as per the biometric punches, which are showing correctly in the Punch Log screen. But the report data is not coming proper only.");
    expect(review.criteria.find((c) => c.id === "observed-behaviour")!.evidence).not.toMatch(/coming|Respected/);
    expect(["the attendance report is coming wrong from last two days", "the report data is not coming proper only"].map(vagueComplaint)).toEqual([true, true]);
  });

  it("'Could you please send us some information regarding this topic?' asks nothing in particular", () => {
    expect(status(question("We use FlowBridge 4.1.3 with S/4HANA 2021 and IDocs fail with status 51; we read chapter 7 of the handbook. We need an answer until 30.05. Could you please send us some information regarding this topic?")).question).not.toBe("met");
  });

  it("'So... thoughts on the caching? Anything we should be doing differently?' asks nothing in particular either", () => {
    const ask = (text: string) => status(question(`We're on reco-service 4.2 (Java 17) with Redis 7.2; since 4 June p99 for GET /v1/rows/home went from 180 ms to 620 ms. I looked at the Redis slowlog: lots of HGETALL on 40 KB keys. ${text} Need an answer before the capacity review on 13 June.`)).question;
    expect(ask("So… thoughts on the caching? Anything we should be doing differently?")).not.toBe("met");
    expect(ask("Should we split the row hashes per user, or move them to a local cache in front of Redis?")).toBe("met");
  });

  it("a task done 'when the team is happy' or with 'no real finish line' has no definition of done; 'Is there anything we should know?' asks nothing", () => {
    const dod = (done: string) => status(task(`Migrate the 14 Jenkins agents to GitHub Actions runners on ARC in the ci-runners namespace, and port the 9 Jenkinsfiles to workflow YAML.\nWhy: the VMware cluster the agents run on is decommissioned on 30 Sept.\n${done}`))["definition-of-done"];
    expect(dod("Done when: the team is happy with the new setup.")).not.toBe("met");
    expect(dod("Done: there isn't really a finish line for this one, we'll keep improving it.")).not.toBe("met");
    expect(dod("Done when: all 9 pipelines run green on ARC for a week and the Jenkins agents are switched off.")).toBe("met");
    const ask = (text: string) => status(question(`We fit H2 hubs (firmware 4.2.0) in 140 flats; on a pilot some valves paired with the neighbour's hub, fixed by re-pairing with the other hubs off. We read the installer guide. ${text} We need a reply before 10 March.`)).question;
    expect(ask("Is there anything we should know about this kind of install?")).not.toBe("met");
    expect(ask("Should installers pair each flat with the neighbouring hubs powered off, or is there a pairing mode that limits range?")).toBe("met");
  });

  it("'what I need to know is: do we ...' asks the question, with or without its colon", () => {
    const ask = (text: string) => status(question(`We run 40 SoilSense SP-3 probes (firmware 1.9) on ChirpStack v4.7. I tried SF10 and lost a third of the packets.\n\n${text}\n\nThe agronomist needs a decision by Monday.`));
    expect(ask("So what I need to know is: do we drop the interval to every 30 minutes and keep SF12, or do we put a second gateway in the north field.")).toMatchObject({ question: "met", "desired-outcome": "met" });
    expect(ask("So what I need to know is do we drop the interval to every 30 minutes and keep SF12, or do we put a second gateway in the north field.").question).toBe("met");
    // Trying the chat before calling is no attempt at the answer, and no context.
    const call = status(question("Hi, this is the principal at Maple Ridge. Sorry, I tried the chat but it kept timing out, so I'm calling instead. What I need to know is whether a teacher taking over a class will see the marks already in the grade book. I need to know by Thursday lunchtime."));
    expect(call).toMatchObject({ question: "met", context: "missing" });
  });

  it("a ServiceNow task's 'Close criteria' are its definition of done", () => {
    expect(status(task("Short description: Renew TLS certificate for api.partners.example.com before it expires on 2024-07-02\n\nDescription:\nAbout 60 partner banks call this endpoint; if the certificate expires, their payment-status calls fail.\n\nClose criteria:\n- `openssl s_client -connect api.partners.example.com:443` shows the new certificate\n- cert-expiry monitor green"))["definition-of-done"]).toBe("met");
  });

  it("'Could you build something to make this less manual, whatever approach you think is best' is no behaviour; corporate filler is filler", () => {
    const feature = reviewTicket({ type: "feature", ticketText: "Every month our IT team spends two days adding and removing users by hand in your tool.\nCould you build something to make this less manual? Whatever approach you think is best.\nWe'd consider it done when IT spends less than an hour a month on user administration." }, ticketRubric);
    expect(status(feature)["proposed-behaviour"]).not.toBe("met");
    const filler = task("Ticket #55102 | Category: General | Priority: Normal\nSubject: Improvements\n\nDescription:\nHi team, as discussed in various meetings, please kindly take necessary action on the said matter at the earliest so that things can be improved going forward in line with best practices and our overall strategic objectives. This is important for the business and for alignment across all stakeholders to ensure synergy and value. Requesting you to do the needful and close the loop once it is completed appropriately to everyone's satisfaction.");
    expect(filler.rating).toBeLessThan(4);
  });
});

describe("what only points at the work, or says a failure comes and goes (#18, from ticket set R's dev part)", () => {
  it("'Have a look at the onboarding emails and improve them' says what to look at, not what to do", () => {
    const review = reviewTicket({ type: "task", ticketText: "What: Have a look at the onboarding emails and improve them.\nWhy: activation dropped from 41% to 33% after the welcome flow changed in May.\nDone when: the new sequence is live in Customer.io for all new sign-ups." }, ticketRubric);
    expect(status(review).what).not.toBe("met");
  });

  it("'comes and goes, nothing in particular triggers it' disowns any way to reproduce", () => {
    const review = bug("The app shows the thermostat as Offline although it keeps following the schedule. It comes and goes, nothing in particular triggers it. Restarting the app doesn't help. I'd expect the status to show Online while it is connected. HomeTherm T3, firmware 4.8.1, app 3.2 on Android 14.");
    expect(status(review)["steps-to-reproduce"]).not.toBe("met");
  });

  it("'Response required:' says what answer a question needs", () => {
    const review = reviewTicket({ type: "question", ticketText: "Context: section 5.3 requires real-time ADT messages from the Trust's PAS; our product accepts HL7 v2.4 and FHIR R4.\nQuestion: Will ADT events be supplied as HL7 v2 or as FHIR R4 resources?\nResponse required: a written answer published to all bidders by 14/06/2024." }, ticketRubric);
    expect(status(review)["desired-outcome"]).toBe("met");
  });
});

describe("what a quote mark, a hedge or a version number hides", () => {
  it("finds a phrase whose word is quoted: 'what does \"done\" look like'", () => {
    const review = reviewTicket({ type: "task", ticketText: `[11:02] ines: can someone pick up removing the v1 webhook endpoint from crm-api? /hooks/v1/*
[11:03] ines: context: the last partner moved to v2 on friday, and v1 still accepts unsigned payloads, pentest flagged it (PT-2024-09)
[11:04] kofi: what does "done" look like, just delete the routes?
[11:06] ines: - routes, handlers and the legacy_webhooks_enabled flag deleted
[11:06] ines: - /hooks/v1/* returns 410 Gone at the gateway
[11:07] ines: - zero v1 calls in the gateway logs for 7 days after deploy` }, ticketRubric);
    expect(status(review)["definition-of-done"]).toBe("met");
  });

  it("'Please fix, it should work' and 'looks kind of weird, hard to describe' say nothing a developer could check", () => {
    const steps = "Portal 8.3.2 on iPhone 13, Safari 17.\nSteps: open the meter form, take a photo with the camera, press Send.\n";
    expect(status(bug(`${steps}They get the red error 'Upload failed (413)'. Please fix, it should work.`))["expected-behaviour"]).not.toBe("met");
    expect(status(bug(`${steps}What happens: the page looks kind of weird after that, hard to describe, something is off I think.\nExpected: the photo is stored and the form shows "Reading received".`))["observed-behaviour"]).not.toBe("met");
  });

  it("a version's full stop ends no sentence: 'Pin Node in CI to 20.11 or follow 20.x?' is a question", () => {
    const review = reviewTicket({ type: "question", ticketText: `Pin Node in CI to 20.11 or follow 20.x?

CI images use node:20 (floating). 20.12 landed yesterday and broke jest in 3 repos; pinning one repo to 20.11.1 fixed it locally.

Need a decision from the platform team: pin all repos to an exact version or stay floating and fix forward? Before the Thursday release cut.` }, ticketRubric);
    expect(status(review)).toMatchObject({ question: "met", "desired-outcome": "met" });
  });
});

describe("ticket review basics", () => {
  it("is deterministic", () => {
    const text = "Export fails.\nSteps: open, click export.\nExpected: a file.";
    expect(bug(text)).toEqual(bug(text));
  });

  it("caps very short tickets and says why", () => {
    const review = reviewTicket({ ticketText: "## Steps to reproduce\n1. Open app\n2. Crash\n## Expected\nNo crash" }, ticketRubric);
    expect(review.rating).toBeLessThanOrEqual(ticketRubric.shortTextCap);
    expect(review.summary).toContain("capped");
  });

  it("a bug missing a required part cannot pass, and the summary names it", () => {
    const review = bug("## Steps\n1. Open Invoices\n2. Click Export\n## Expected\nA CSV with one row per invoice.\n## Actual\nThe file is empty.");
    expect(review.passed).toBe(false);
    expect(review.rating).toBeLessThanOrEqual(ticketRubric.requiredCap!);
    expect(review.summary).toContain("environment and version");
  });

  it("infers the type from the wording and says so", () => {
    const review = reviewTicket({ ticketText: "It would be great if users could export reports as CSV. As a finance user I want to download the monthly numbers." }, ticketRubric);
    expect(review).toMatchObject({ type: "feature", typeInferred: true });
  });

  it("reads a ticket as the type whose required parts it fills, not only by its signal words", () => {
    const task = `Move the nightly invoice export from the old cron box to a Kubernetes CronJob.
The cron box (ubuntu 18.04) is out of support in June and is the last VM we still patch by hand.
Done when the CronJob runs at 02:00 in prod, the export lands in the finance bucket and the VM is switched off.`;
    const feature = `Warehouse leads re-enter every returned parcel twice today: once in the scanner and once in the ERP, about 2 hours a day.
We'd like the scanner app to post each return to the ERP returns endpoint directly, with the reason code chosen on the device.
Acceptance:
- [ ] a scanned return appears in the ERP within a minute with its reason code
- [ ] a return the ERP refuses stays on the device with the error shown`;
    expect(reviewTicket({ ticketText: task }, ticketRubric)).toMatchObject({ type: "task", typeInferred: true, passed: true });
    expect(reviewTicket({ ticketText: feature }, ticketRubric)).toMatchObject({ type: "feature", typeInferred: true, passed: true });
  });

  it("takes acceptance criteria written as one sentence of testable conditions", () => {
    const text = `Clinic admins print every day's appointment list by hand because the agenda has no export, about 20 minutes each morning.
We'd like an "Export day" button in the agenda that downloads the day's appointments as a CSV file.
We'd consider it done when the file has one row per appointment with time, patient number and room, cancelled ones are left out, and it opens in Excel without a warning.`;
    const review = reviewTicket({ ticketText: text, type: "feature" }, ticketRubric);
    expect(status(review)["acceptance-criteria"]).toBe("met");
    expect(review.passed).toBe(true);
  });

  it("reads labelled fields run together on one line with '|' between them", () => {
    const review = bug(`Env: prod EU, web app 7.3.0, Firefox 127 / Windows 11 | Repro: Settings → Team → Invite member → enter anna+finance@example.co.uk → Send | Actual: red "Invalid email address" under the field, nothing sent | Expected: invite sent without error, plus-addressing worked in 7.2.x`);
    expect(status(review)).toMatchObject(REQUIRED_BUG);
  });

  it("reads lettered items ('a.', 'b.') as a list, not as one run-on line", () => {
    const text = `1. Who: analytics engineers on the Finance squad, who learn of renamed source columns from broken dashboards.
2. What: on a column's page in the catalog, show its upstream source columns and the downstream models that read it.
3. Done when:
   a. \`fct_orders.amount\` lists its 2 upstream columns and every downstream model that selects it
   b. lineage updates within 30 min of a dbt deploy to main
   c. columns only reached through \`select *\` are flagged "lineage incomplete"`;
    expect(status(reviewTicket({ ticketText: text, type: "feature" }, ticketRubric))["acceptance-criteria"]).toBe("met");
  });

  it("takes a labelled section's clauses together as the conditions it lists", () => {
    const text = `| Field | Value |
|---|---|
| Problem | Compliance teams need the audit log in a spreadsheet for quarterly reviews; today they copy it page by page |
| Desired behaviour | An "Export CSV" button on the Audit page exports all events matching the current filters |
| Done when | An export of a filtered 90-day range matches the on-screen rows; an export over 1M rows sends an e-mail link; only Owners see the button |`;
    expect(status(reviewTicket({ ticketText: text, type: "feature" }, ticketRubric))["acceptance-criteria"]).toBe("met");
  });

  it("an answer that is empty with a remark after it ('None yet - later', 'To be confirmed with the PO') is there in name only", () => {
    const feature = `## Who / why
Drivers on night shifts (about 40% of our fleet) say the white screens are blinding in the cab.
## Desired behaviour
The app follows the phone's dark setting on every screen, including the map and signature capture.
## Acceptance criteria
None yet - we'll figure it out later once design has had a look.`;
    const review = reviewTicket({ ticketText: feature, type: "feature" }, ticketRubric);
    expect(status(review)["acceptance-criteria"]).toBe("missing");
    expect(review.rating).toBeLessThan(4);
    const expected = bug(`STEPS TO REPRODUCE
1. Add 12 seats of the Team plan
2. Apply coupon WELCOME20 and check out
ACTUAL RESULT
The invoice total is €312.00 while the cart said €326.40.
ENVIRONMENT
Staging, billing-web 5.6.0, Chrome 126
EXPECTED RESULT
To be confirmed with PO — not sure which calculation is intended.`);
    expect(status(expected)["expected-behaviour"]).toBe("missing");
  });

  it("a 'should' in a sentence saying nobody knows what should happen is no expected behaviour", () => {
    const review = bug(`The holiday balance of employee 30981 shows 14.5 days in release 2024.5 on the web and the iPhone app.
To see it: open Employees > Jonas Berg > Time off tab and look at the balance card.
The customer didn't say what the number should be, and the policy has carry-over rules.`);
    expect(status(review)["expected-behaviour"]).toBe("missing");
  });

  it("finds a question whose sentence holds an abbreviation ('est. 6 weeks')", () => {
    const text = `For the SEPA Instant rollout (payments-core 4.x) our name-check provider only returns MATCH or NO_MATCH. So do we ship with the v3 beta, or delay until our own integration is done (est. 6 weeks)? We need a decision by 14 June.`;
    expect(status(reviewTicket({ ticketText: text, type: "question" }, ticketRubric)).question).toBe("met");
  });

  it("one sentence can say what goes wrong and, by its version, where; a user story says who and what", () => {
    const prose = bug(`On the driver app 6.3.1 (Android, Zebra TC52) the proof-of-delivery photo is uploaded rotated 90° whenever it's taken with the device held in landscape. Take any delivery, Capture POD, turn the device sideways, shoot, submit - the photo in the back office (ops.example.com > Shipments > POD) is sideways. It should appear upright, like the on-device preview does.`);
    expect(status(prose)).toMatchObject(REQUIRED_BUG);
    const story = reviewTicket({ type: "feature", ticketText: `As a support agent I want to see the customer's plan and MRR in the ticket sidebar so I can prioritise paying customers without opening the billing tool (we switch tabs ~30 times a day each).

AC:
- [ ] Sidebar shows plan name + MRR (from the billing API) for the requester's organisation
- [ ] "No subscription" is shown for free organisations
- [ ] Loads within 1 s; shows "–" if the billing API is down` }, ticketRubric);
    expect(status(story)).toMatchObject({ problem: "met", "proposed-behaviour": "met", "acceptance-criteria": "met" });
  });

  it("a platform named in a question is not also its context", () => {
    const review = reviewTicket({ type: "question", ticketText: "Quick one: for the new order events, should we go with SQS or Kafka? I need an answer by Thursday so I can start on the consumer." }, ticketRubric);
    expect(status(review).context).not.toBe("met");
  });

  it("takes a pasted command (curl, kubectl, ...) as the way to reproduce", () => {
    const review = bug(`Since this morning, creating an order where a line item has "quantity": 0 gives HTTP 500 on production (API version 2024-02-01); according to your docs it should be rejected with 422.

curl -X POST https://api.example.com/v2/orders \\
  -d '{"customer_id":"cus_118","line_items":[{"sku":"A-100","quantity":0}]}'

Happens every time.`);
    expect(status(review)["steps-to-reproduce"]).toBe("met");
    // A command chain in backticks, after "cd" into a folder, reproduces too.
    const repro = (line: string) => status(bug(`Terraform plan shows a perpetual diff on aws_lb_listener after the provider bump to hashicorp/aws 5.72.1.\n- Diff: default_action[0].forward[0].stickiness[0].duration: 0 -> 1\n- Repro: ${line}\n- Expected: "No changes." after an apply, as with 5.68.0\n- Terraform 1.9.8 on macOS 15 and on the Atlantis runner (Linux)`))["steps-to-reproduce"];
    expect(repro("`cd envs/prod-eu && terraform init -upgrade && terraform apply && terraform plan` → plan is not empty.")).toBe("met");
  });

  it("a verdict with nothing to check ('Actual: export is not correct') is too thin, and another part's own section is not read as it", () => {
    const review = bug(`## Bug: Orders CSV export is wrong
**Where:** production, web app 9.4.2, Chrome 126 on Windows 10
**Steps:**
1. Go to Orders
2. Filter by "Last month"
3. Click Export → CSV

**Expected:** the CSV should contain exactly the orders shown on screen, same totals.

**Actual:** export is not correct.`);
    expect(status(review)).toMatchObject({ "observed-behaviour": "partial", "expected-behaviour": "met", environment: "met" });
    expect(review.passed).toBe(false);
  });

  it("reads a bug told as a Gherkin scenario: Then is what should happen, But what does", () => {
    const review = bug(`Bug: percentage coupon is also applied to shipping (storefront 5.11.2, production, all browsers)

  Scenario: 10% product coupon on an order with paid shipping
    Given a cart with items worth EUR 80.00
    And standard shipping at EUR 6.00
    When I apply coupon "SPRING10" (10% off products) at checkout
    Then the discount should be EUR 8.00
    But the discount shown is EUR 8.60`);
    expect(status(review)).toMatchObject(REQUIRED_BUG);
  });

  it("acceptance criteria that only say how it should feel, with no figure, are too vague", () => {
    const feature = (criteria: string) => reviewTicket({ type: "feature", ticketText: `h3. Background
Managers approve time-off requests from the e-mail notification, but it only says "Request from Ana Silva, 3 days", so approvals take 2.4 days on average.

h3. Proposal
Add a small team calendar to the approval e-mail: the 2 weeks around the requested dates, one row per direct report, with approved and pending time off shaded.

h3. Acceptance criteria
${criteria}

*Reporter:* Priya N. (People Ops)` }, ticketRubric);
    const wishes = feature("* Managers feel more confident approving from email\n* Approval times go down\n* The email looks good on mobile");
    expect(status(wishes)["acceptance-criteria"]).toBe("partial");
    expect(wishes.passed).toBe(false);
    const checks = feature("* The e-mail shows one row per direct report for the 14 days around the request\n* Pending days are shaded grey, approved days blue\n* The e-mail renders at 375 px wide without horizontal scrolling");
    expect(status(checks)["acceptance-criteria"]).toBe("met");
  });

  it("reads what a phrase introduces: checks to the end of its sentence, or the list under a lead-in line", () => {
    const spoken = reviewTicket({ type: "feature", ticketText: `Our lift engineers have to get the building manager to sign on the tablet, and half the time the manager isn't there: last month the Birmingham team logged sixty hours waiting. What I'd love is that the engineer can hit "send for sign-off" and the manager gets an e-mail with the visit report and an approve button. How we'd know it works — one, the engineer can close the visit without a signature by sending it; two, the manager gets the e-mail with the PDF and the button works from a phone; three, after forty-eight hours with no answer the visit flips to "accepted"; and four, the on-site signature still works.` }, ticketRubric);
    expect(status(spoken)["acceptance-criteria"]).toBe("met");
    const leadIn = reviewTicket({ type: "feature", ticketText: `Meridian Logistics (450 seats, contract ready to sign) can only roll us out if staff log in with their Entra ID accounts; their policy doesn't allow separate passwords.
We need SAML 2.0 login with Entra ID for their domain, users created on first login with role Member, and password login disabled for that domain.

What they'll test before signing (this is our "done" for the deal):
1. Their IT logs in with a test user through Entra ID, with no password prompt from us
2. A new user logs in and lands in the workspace with role Member
3. E-mail and password login for their domain is refused with a message pointing to SSO` }, ticketRubric);
    expect(status(leadIn)["acceptance-criteria"]).toBe("met");
  });

  it("a CVE is a reason", () => {
    const review = reviewTicket({ type: "task", ticketText: "Update sharp from 0.32.1 to 0.32.6 in profile-service, rebuild the Docker image and run the avatar tests. The bundled libwebp has CVE-2023-4863 and avatars are uploaded by users. Done when the Dependabot alert is closed and the avatar resize tests pass in CI." }, ticketRubric);
    expect(status(review).why).toBe("met");
  });

  it("a trigger nobody can make happen ('on random nights', 'not every time') is no way to reproduce", () => {
    const random = bug(`| Field | Value |
|---|---|
| Observed | On 3 of the last 20 nights between 4 and 17 customers received no invoice |
| Expected | Every active customer with billable usage gets exactly one invoice per night |
| Steps | It happens on random nights |
| Environment | billing-batch 3.9.0, prod cluster eu-west-1, PostgreSQL 14.10 |`);
    expect(status(random)["steps-to-reproduce"]).not.toBe("met");
    const spoken = bug("On the dev build 0.43.2 on the PS5 devkit, sometimes when I load into the harbour level the water is completely black. It should look like it does on PC. It's not every time, maybe one in five? I haven't figured out what triggers it.");
    expect(status(spoken)["steps-to-reproduce"]).not.toBe("met");
  });


  it("reads a helpdesk export: its lines of fields are neither the opening nor a label, and 'So my question is: anything we should know?' asks nothing", () => {
    const incident = bug(`Ticket #230588 | Status: Open | Priority: High | Source: Portal\nType: Incident | Group: E-commerce Support | Agent: Tariq Hussain\n\nSophie Laurent wrote:\nOn checkout v3 (theme Atelier 4.2.1, Chrome 131 on macOS 14.6) the code BLACKFRIDAY25 takes off only 10%.\n1. Add SKU BA-300 to the cart, quantity 2\n2. Enter BLACKFRIDAY25 at checkout and click Apply\nIt should take 25% off, so 35.80 EUR on 143.20 EUR.`);
    expect(incident.criteria.find((c) => c.id === "observed-behaviour")!.evidence).toMatch(/takes off only 10%/);
    const question = (ask: string) => reviewTicket({ ticketText: `Ticket #221907 | Status: Open | Priority: Medium\nType: Question | Group: Product Specialists | Agent: Nadia Rossi\n\nChris Baptiste wrote:\nWe're moving from Google sign-in to Okta: the SAML app (v2.1 integration) works for 12 pilot users since 19 Nov, and SCIM provisioning is on. We read your article "Migrating from Google to SAML SSO". We switch the other 298 users on 7 December and need your answer before 4 December.\n\n${ask}`, type: "question" }, ticketRubric).criteria.find((c) => c.id === "question")!.status;
    expect(question("So my question is: anything we should know? Any thoughts?")).toBe("missing");
    expect(question("So my question is: will existing users lose their Google sign-in option when SCIM updates them?")).toBe("met");
  });

  it("'As per policy' expects nothing, 'to be figured out during implementation' proposes nothing, and a '| Property | Value |' table is no section of its own", () => {
    const expected = (text: string) => bug(`The housing support calculator on the caseworker portal (UAT, Edge 131 on Windows 10) returns £118.40/wk for a claimant with a non-dependant adult.\nSteps:\n1. Log in as a Band 3 caseworker\n2. Open claim HS-2291 and click Calculate\nExpected result: ${text}`).criteria.find((c) => c.id === "expected-behaviour")!.status;
    expect(expected("As per policy.")).toBe("missing");
    expect(expected("£104.65/wk: the £13.75 non-dependant deduction applies.")).toBe("met");
    const feature = (problem: string, behaviour: string) => reviewTicket({ type: "feature", ticketText: `# Offline mode for saved recipes\n\n| Property | Value |\n| --- | --- |\n| Status | Not started |\n| Platform | iOS, Android |\n| PM | @Jonas Berg |\n\nWho needs it and why\n${problem}\n\nDesired behaviour\n${behaviour}\n\nAcceptance criteria\n- With airplane mode on, the Saved tab shows all saved recipes\n- Saving recipe #201 evicts the least recently opened one` }, ticketRubric);
    const status = (problem: string, behaviour: string) => Object.fromEntries(feature(problem, behaviour).criteria.map((c) => [c.id, c.status]));
    const concrete = "Saved recipes are stored on the device with images and steps; with no connection the Saved tab opens and shows them with an Offline badge.";
    expect(status("It would be nice to have.", concrete).problem).not.toBe("met");
    expect(status("Home cooks lose their recipes in the kitchen when Wi-Fi drops: 1,200 support tickets in October asked for offline recipes.", "Exact approach to be figured out during implementation.")["proposed-behaviour"]).toBe("missing");
  });

  it("a scenario is as testable as its outcome: 'Then the search should feel fast and helpful / And I should see good results' is no acceptance criterion, titled or not", () => {
    const story = (then: string) => reviewTicket({ type: "feature", ticketText: `Feature: Faster product search\n  As a trade customer (31% of web revenue)\n  I want product search to return results while I type, including by manufacturer part number\n  So that I can reorder known parts on site from my phone\n\n  Scenario: Suggestions while typing\n    Given I am on homesteadhardware.example on a phone\n    When I type "221-4" in the search box\n    ${then}` }, ticketRubric).criteria.find((c) => c.id === "acceptance-criteria")!.status;
    expect(story("Then the search should feel fast and helpful\n    And I should see good results")).not.toBe("met");
    expect(story('Then within 300 ms I see up to 8 suggestions\n    And "WAGO 221-413" is the first of them')).toBe("met");
  });

  it("a part the author labels and leaves vague ('What happens: the discount is not right') is not made up for by the text's first line", () => {
    const report = (happens: string) => bug(`Created: Fri, 27 Nov 2026 at 10:41 AM (GMT+1)\n\nStore: maisonlumiere.example (theme "Atelier" 4.2.1, checkout v3), Chrome 131 on macOS 14.6.\n\nHow to reproduce:\n1. Add SKU BA-300 to the cart, quantity 2\n2. Enter code BLACKFRIDAY25 at checkout and click Apply\n\nWhat happens: ${happens}\n\nWhat should happen: 25% off the items, so €35.80 off €143.20.`).criteria.find((c) => c.id === "observed-behaviour")!.status;
    expect(report("the discount is not right, something is weird with it.")).not.toBe("met");
    expect(report("the discount shown is €14.32 (10%), not €35.80.")).toBe("met");
  });

  it("a field table's header ('| Field | Details |') is no part of the ticket: it cannot stand for what happens", () => {
    const weird = bug(`| Field | Details |
|---|---|
| Observed | robot is acting weird at the dock, something not right |
| Expected | robot docks at Dock 4, charges to 90%, undocks and returns to the pick queue |
| Steps | Fleet Manager > Robots > AMR-117 > "Charge now" > select Dock 4 (happens every time, Dock 2 is fine) |
| Environment | fleet-manager 3.8.2, AMR-FW 2.14.0, DC-Leipzig |`);
    expect(weird.criteria.find((c) => c.id === "observed-behaviour")!.evidence).not.toContain("Field | Details");
    expect(weird.passed).toBe(false);
  });
  it("reads steps told in the past after a colon, 'we expect' and 'before the update' as expected behaviour, and 'no idea how many' denies nothing", () => {
    const review = bug(`Since you moved our website to the new hosting last Tuesday, the contact form on www.example.co.uk/contact sends enquiries to info@example.com, our old domain. Before the update they went to reception@example.co.uk, and this is what we expect also now.

I tested it just now: filled in the form with my own name, clicked Send, got the "Thanks" message, and nothing arrived at reception@. Same result from my iPhone (Safari) and the practice PC (Edge).

We have no idea how many enquiries we have lost.`);
    expect(status(review)).toMatchObject(REQUIRED_BUG);
  });

  it("reads terse chat: a change asked as a question, and 'done = ...' run on after a sentence", () => {
    const review = reviewTicket({ type: "task", ticketText: "can someone rotate the staging postgres creds today? the `app_rw` password got pasted in #general this morning and 400 people could see it. done = new password in vault at secret/staging/db, old password no longer works, api redeployed and /healthz green" }, ticketRubric);
    expect(status(review)).toMatchObject({ what: "met", "definition-of-done": "met" });
  });

  it("reads '4. Acceptance.' over numbered points as a section, and 'None for now' as empty", () => {
    const feature = reviewTicket({ type: "feature", ticketText: `1. Background. Appeals can only be sent by post; in 2024, 14 % of 3,912 appeals arrived late because of postal delays.
2. Requirement. A citizen logged in with eID can submit an appeal from the decision page, with up to 5 PDF attachments.
3. Acceptance.
   3.1 A test citizen submits an appeal with 2 attachments; it appears in the case system within 5 minutes.
   3.2 A 6th attachment and a file over 10 MB are each refused with a message.` }, ticketRubric);
    expect(status(feature)["acceptance-criteria"]).toBe("met");
    const question = reviewTicket({ type: "question", ticketText: "Question: Should we move our 14 frontend repos (web app, admin app, 6 UI packages) into a monorepo?\nContext: builds take 20 minutes and shared packages drift apart.\nDecision needed: none for now, just putting it out there so we can discuss it at some point." }, ticketRubric);
    expect(status(question)["desired-outcome"]).not.toBe("met");
  });

  it("reads an issue form whose solution starts with a lead-in line, and a response body in a code block as what happens", () => {
    const form = reviewTicket({ type: "feature", ticketText: `### Problem / motivation
I run \`acme deploy\` in CI for ~30 repos. Every failure exits with code 1, so the pipeline cannot tell what to retry and wastes ~40 min/day of runners.

### Proposed solution
Distinct exit codes:
- 0 success
- 2 invalid config / validation
- 3 authentication
- 5 network/timeout (retryable)

### Acceptance criteria
- bad \`acme.toml\` → exit 2
- expired token → exit 3
- unreachable API → exit 5` }, ticketRubric);
    expect(status(form)["proposed-behaviour"]).toBe("met");
    const body = bug(`**Environment:** production API, API version \`2024-04-01\`, Node SDK 7.3.0
**Steps**
1. Create invoice A and list invoices with \`limit=1\`
2. Delete invoice A
3. \`GET /v1/invoices?limit=10&starting_after=inv_A\`

**Actual**
\`\`\`
HTTP/1.1 500 Internal Server Error
{"error":{"type":"api_error","message":"An unknown error occurred"}}
\`\`\`

**Expected**
A 400 \`invalid_request_error\`, as the docs describe for invalid cursors.`);
    expect(status(body)).toMatchObject(REQUIRED_BUG);
  });

  it("reads labelled fields run together with dashes, and 'shall' as what should happen", () => {
    const review = bug("Env: iOS app 3.4.0 (build 812), iPhone 13, iOS 17.4 — Steps: Settings > Language > Deutsch, then open any course > Quiz > Start — Actual: the Start label is cut to 'Sta…' and the timer overlaps the question — Expected: the full label and the timer above the question, as in English");
    expect(status(review)).toMatchObject(REQUIRED_BUG);
  });

  it("a wanted behaviour that is only a wish ('much easier and quicker to use') is too vague", () => {
    const review = reviewTicket({ type: "feature", ticketText: `As a teacher I want the gradebook to be much easier and quicker to use at the end of term, so that I spend less time on admin.
Acceptance criteria:
- Teachers rate the gradebook at least 4/5 for ease of use in the July survey
- Average time to complete end-of-term grades drops by 30%` }, ticketRubric);
    expect(status(review)["proposed-behaviour"]).not.toBe("met");
    expect(review.passed).toBe(false);
  });

  it("'hard to explain' says the author cannot tell what happens", () => {
    const review = bug("The PACS viewer 7.1 on Windows 10 in reading room 2: when I scroll through a CT study past a certain point it does something weird with the images, hard to explain. It should scroll smoothly like before the upgrade. It happens every time with CT chest studies over 500 slices.");
    expect(status(review)["observed-behaviour"]).not.toBe("met");
  });

  it("marks what is missing in the rewritten skeleton", () => {
    const review = bug("The export button does nothing when I click it on the invoices page in Chrome.");
    expect(review.skeleton).toContain("<!-- missing:");
  });
});

/** Table rows of one booking-portal quote, shared by the table tests below. */
const PORTAL_ESSENTIALS = `| Scope | A booking portal for 4 clinics: patient login, booking in free slots, e-mail reminders. Not included: payments and a mobile app. |
| Deliverables | The portal on your Azure subscription, its source in your GitHub, a runbook |
| Timeline | Start 2 September, go-live 15 November |
`;
const PORTAL_TERMS = `| Acceptance | 10 working days to test; go-live after your written approval |
| Warranty | 3 months of free bug fixing |
| Ownership | All code is yours after final payment |
| Validity | 30 days |
`;

describe("quote review", () => {
  const body = (price: string) => `Scope | A booking portal for the clinic's 4 locations: patient login, booking in free slots from the agenda system and e-mail reminders. Out of scope: the mobile app and payments.
Deliverables | The portal on the clinic's Azure subscription, its source code in their GitHub organisation, and a runbook.
Timeline | Start 2 September 2024, go-live 15 November 2024 (11 weeks).
Price | ${price}
Payment | 40% on signature, 60% on go-live, payable within 30 days.
Assumptions | The clinic provides API access to the agenda system in the first week.
Acceptance | The clinic has 10 business days to test each release and accept it in writing.
Warranty | Defects found within 3 months after go-live are fixed free of charge.
IP | All rights in the code pass to the clinic on full payment.
Validity | This quote is valid until 31 July 2024.`;

  it("reads a two-column table quote and passes it", () => {
    const review = reviewQuote(body("Design EUR 6,000; build EUR 24,000; total EUR 30,000, excluding VAT."), quoteRubric, noServices, url);
    expect(review.passed, review.summary).toBe(true);
  });

  it("reads a Markdown table quote: items separated by '·' are checked against the total, short plain sentences are not filler", () => {
    const review = reviewQuote(`| Section | Details |
|---|---|
| Scope | A web dashboard showing stock per warehouse from the SAP export, with low-stock alerts. Out of scope: changes in SAP, a mobile app. |
| Deliverables | Dashboard on Brandt's AWS account, source code in their GitLab, admin guide |
| Timeline | 6 weeks from kick-off on 9 September 2024; demo after week 3 |
| Price | Design EUR 3,500 · Development EUR 14,000 · Total EUR 17,500 (excl. VAT) |
| Payment | 50% at kick-off, 50% on acceptance; invoices payable within 30 days |
| Acceptance | Brandt tests for 5 working days and accepts in writing |
| Warranty | 60 days of free bug fixing after acceptance |
| IP | Brandt owns the code after full payment |
| Confidentiality | Both parties keep each other's information confidential |
| Validity | 30 days from 20 August 2024 |`, quoteRubric, noServices, url);
    expect(review.consistency).toContainEqual({ check: "total", ok: true, message: "The line items add up to the total (17500)." });
    expect(status(review)).toMatchObject({ "confidentiality-data": "met", "change-requests": "missing" });
    expect(review.passed).toBe(true);
  });

  it("line items that do not add up lose points, cap the score and say so", () => {
    const review = reviewQuote(body("Design EUR 6,000; build EUR 24,000; total EUR 33,000, excluding VAT."), quoteRubric, noServices, url);
    expect(review.consistency).toContainEqual({ check: "total", ok: false, message: "The line items add up to 30000, but the total says 33000: ask which is right." });
    expect(review.criteria.find((c) => c.id === "price-breakdown")!.status).toBe("partial");
    expect(review.score).toBeLessThan(4);
    expect(review.summary).toContain("The line items add up to 30000, but the total says 33000");
  });

  it("the 14 rubric headings with the same lorem line under each rate below 4", () => {
    const text = quoteRubric.criteria.map((c, i) => `${i + 1}. ${c.title.toUpperCase()}\nLorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.`).join("\n\n");
    expect(reviewQuote(text, quoteRubric, noServices, url).score).toBeLessThan(4);
  });

  it("checks that payment shares add up to 100%", () => {
    const text = `PAYMENT TERMS\n40% on signature, 40% on delivery and 30% on acceptance.\n\n${"Filler words to pass the minimum length. ".repeat(10)}`;
    const review = reviewQuote(text, quoteRubric, noServices, url);
    expect(review.consistency).toContainEqual({ check: "payment-shares", ok: false, message: "The payment instalments add up to 110%, not 100%: ask for the missing or extra share." });
  });

  it("reads numbered sections written 'Scope. ...' and labels written 'Payment terms - ...'", () => {
    const review = reviewQuote(`Offer 7 – stock dashboard for Ortmann Tools

1. Scope. A web dashboard showing stock per warehouse from the nightly SAP export, with low-stock alerts by e-mail. Out of scope: changes in SAP and a mobile app.
2. Deliverables. The dashboard on your AWS account, its source code in your GitLab, and an admin guide.
3. Schedule. Eight weeks from 2 June; a first demo on 20 June.
Fees - 20 days at EUR 800 = EUR 16,000, excluding VAT.
Payment terms - 50% on order and 50% on acceptance, 30 days net.
Acceptance - You test for 5 working days and accept in writing.
Warranty - Bugs reported within 60 days are fixed free of charge.
Ownership - The code is yours once the last invoice is paid.
Validity - This offer holds for 30 days.`, quoteRubric, noServices, url);
    expect(status(review)).toMatchObject({ scope: "met", deliverables: "met", "timeline-milestones": "met", "price-breakdown": "met", "payment-terms": "met" });
    expect(review.passed, review.summary).toBe(true);
  });

  it("reads a price table whose amount column is headed by the currency and checks it against the total", () => {
    const table = (total: string) => `| Topic | Details |
|---|---|
${PORTAL_ESSENTIALS}| Payment | 40% on order, 60% on go-live; 30 days net |
${PORTAL_TERMS}| Price item | GBP (net) |
| Design | 6,000 |
| Development | 24,000 |
| **Total** | **${total}** |`;
    const good = reviewQuote(table("30,000"), quoteRubric, noServices, url);
    expect(good.consistency).toContainEqual({ check: "total", ok: true, message: "The line items add up to the total (30000)." });
    expect(good.passed, good.summary).toBe(true);
    const bad = reviewQuote(table("31,500"), quoteRubric, noServices, url);
    expect(bad.consistency).toContainEqual({ check: "total", ok: false, message: "The line items add up to 30000, but the total says 31500: ask which is right." });
    expect(bad.score).toBeLessThan(4);
  });

  it("checks a quantity times a rate against the amount it is said to make", () => {
    const wrong = reviewQuote(body("15 days × EUR 900 = EUR 14,500, excluding VAT."), quoteRubric, noServices, url);
    expect(wrong.consistency).toContainEqual(expect.objectContaining({ check: "computation", ok: false }));
    expect(wrong.passed).toBe(false);
    expect(wrong.score).toBeLessThan(4);
    const right = reviewQuote(body("30 consultant days at a daily rate of EUR 1,000, which comes to EUR 30,000 net."), quoteRubric, noServices, url);
    expect(right.consistency).toContainEqual(expect.objectContaining({ check: "computation", ok: true }));
    expect(right.passed, right.summary).toBe(true);
  });

  it("checks instalments given as amounts against the price", () => {
    const text = (second: string) => body("30 days at EUR 1,000 = EUR 30,000 net.").replace("40% on signature, 60% on go-live", `EUR 12,000 on signature and EUR ${second} on go-live`);
    expect(reviewQuote(text("18,000"), quoteRubric, noServices, url).consistency).toContainEqual(expect.objectContaining({ check: "payment-amounts", ok: true }));
    const bad = reviewQuote(text("16,000"), quoteRubric, noServices, url);
    expect(bad.consistency).toContainEqual({ check: "payment-amounts", ok: false, message: "The payment instalments add up to 28000, but the price is 30000: ask which is right." });
    expect(bad.passed).toBe(false);
  });

  it("reads a quote sent as chat messages: 'in: … out: …' bounds the scope, 'no expenses' after the figure denies nothing, '·' separates terms", () => {
    const chat = (price: string, extras: string) => reviewQuote(`Jordan Blake  3:12 PM
here's the quote for the web performance sprint we talked about
Jordan Blake  3:12 PM
*scope*: Core Web Vitals audit + fixes for the 10 highest-traffic templates of shop.example.com. in: lab + field data analysis, image/font/JS fixes in your Next.js repo via PRs. out: checkout steps 2+ (hosted by Adyen), backend performance, redesign
Jordan Blake  3:13 PM
*deliverables*: audit doc with before/after metrics, up to 15 merge-ready PRs, a Lighthouse CI budget in your GitHub Actions, 45-min walkthrough with your devs
Jordan Blake  3:13 PM
*timing*: 2 weeks, Mon Jan 11 → Fri Jan 22 2027. audit done by Jan 13, PRs Jan 14–21
Jordan Blake  3:14 PM
*price*: ${price}
Jordan Blake  3:14 PM
*payment*: one invoice on Jan 22 after the walkthrough, net 15
Jordan Blake  3:15 PM
other stuff: ${extras}`, quoteRubric, noServices, url);
    const extras = ["you own all code in the PRs", "we need repo write access + a staging env by Jan 8", "we're covered by the NDA from September", "PRs count as accepted when your reviewers approve them or after 3 business days without comments", "quote good till Dec 18"];
    const review = chat("USD 8k flat (8 days × $1,000), no expenses", extras.join(" · "));
    const status = Object.fromEntries(review.criteria.map((c) => [c.id, c.status]));
    expect(status).toMatchObject({ scope: "met", "price-breakdown": "met", "intellectual-property": "met", "confidentiality-data": "met", acceptance: "met" });
    expect(review.passed, review.summary).toBe(true);
    // A price that is only denied is still none.
    expect(chat("no fixed price yet", extras.join(" · ")).criteria.find((c) => c.id === "price-breakdown")!.status).not.toBe("met");
  });

  it("names a team by its roles, not by a 'Developer portal' priced in a table or the client's developer", () => {
    const team = (price: string, extra = "") => reviewQuote(body(price).replace("Validity |", `${extra}Validity |`), quoteRubric, noServices, url).criteria.find((c) => c.id === "team-roles")!.status;
    expect(team("| Gateway setup | $30,000 |\n| Developer portal | $11,000 |\n| **Total** | **$41,000** |")).toBe("missing");
    expect(team("EUR 30,000 fixed.", "Assumptions | A developer on your side deploys each release to production.\n")).toBe("missing");
    expect(team("EUR 30,000 fixed.", "Equipe | Juliana Prado (lead), Caio Martins (BI developer)\n")).toBe("met");
  });

  it("ordinary terms a second reader wrote to break the round's rules keep their reading", () => {
    const extra = (row: string) => reviewQuote(body("Design EUR 6,000; build EUR 24,000; total EUR 30,000, excluding VAT.").replace("Validity |", `${row}\nValidity |`), quoteRubric, noServices, url);
    const priceOf = (row: string) => extra(row).criteria.find((c) => c.id === "price-breakdown")!.status;
    // A change's, an extra's, a third party's or a later phase outside this offer's price is not this price left open.
    expect(priceOf("Changes | The price of a change will be agreed when you request it, and no change is made without your approval.")).toBe("met");
    expect(priceOf("Support | After the warranty, the support fee will be fixed at EUR 400 per month if you choose to take it.")).toBe("met");
    expect(priceOf("Licences | Licence fees for the SMS gateway will be confirmed when you choose a provider; you pay them directly.")).toBe("met");
    expect(priceOf("Later | A mobile app could follow as a separate Phase 2; it is not part of this quote and its price will be agreed after Phase 1.")).toBe("met");
    const timeline = (text: string) => reviewQuote(body("EUR 30,000 fixed.").replace(/^Timeline \|.*$/m, `Timeline | ${text}`), quoteRubric, noServices, url).criteria.find((c) => c.id === "timeline-milestones")!.status;
    // "fall-back" and "Spring Boot" are no seasons; "an 8-week project" is a fixed duration.
    expect(timeline("Weeks 1–2: API skeleton in Spring Boot; weeks 3–6: build; weeks 7–8: testing, fall-back rehearsal and go-live.")).toBe("met");
    expect(timeline("An 8-week project. We can start within 5–10 working days of signature.")).toBe("met");
    // A target's percentages are no instalments.
    const kpi = reviewQuote(body("EUR 30,000 fixed.").replace(/^Payment \|.*\n/m, "").replace("Scope | ", "Scope | Target share of online bookings: 60% at launch and 85% after cut-over. "), quoteRubric, noServices, url);
    expect(kpi.consistency.filter((c) => c.check === "payment-shares")).toEqual([]);
    expect(kpi.criteria.find((c) => c.id === "payment-terms")!.status).toBe("missing");
    // A value quoted from a screen, a remark in brackets, a certificate that has expired, "N/A" before the answer.
    expect(bug(`Checkout on shop.example.com (web 4.2.1, Chrome 131): the delivery step shows "Delivery: TBD" and "Courier: TBD" for every order.\n1. Add any item\n2. Go to checkout\nIt should show the courier and the delivery date, as it did on 4.2.0.`).passed).toBe(true);
    const task = (why: string) => reviewTicket({ type: "task", ticketText: `Renew the APNs certificate for the iOS app.\n\n${why}\n\nDone when: a test push reaches an iPhone on the production app and the new expiry date is in the calendar.` }, ticketRubric).criteria.find((c) => c.id === "why")!.status;
    expect(task("The current certificate has expired, so no push notification reaches iOS users.")).toBe("met");
    expect(bug(`The export worker crashes on reports over 10,000 rows.\nBrowser: N/A\nServer: export worker 2.14.1 on Ubuntu 22.04, production\nSteps: 1. Open Reports 2. Export the 2025 ledger\nIt should produce the CSV file.`).criteria.find((c) => c.id === "environment")!.status).toBe("met");
    // A real question that ends "– any thoughts?" is still a question.
    expect(reviewTicket({ type: "question", ticketText: "Should we pin Node 20 on the build agents until March, or move all 14 services to Node 22 now – any thoughts? We run Jenkins 2.462 with Node 20.11 and need to decide by Friday's platform meeting." }, ticketRubric).criteria.find((c) => c.id === "question")!.status).toBe("met");
  });

  it("checks instalments that split some phases ('Phase 2 is invoiced as £34,000 at its mid-point and £34,000 on acceptance') against those phases", () => {
    const text = (second: string) => body("Phase 1 Assessment    £22,000\nPhase 2 Strangler APIs    £68,000\nPhase 3 Batch migration    £74,000\nPhase 4 Cut-over support    £20,000\nGrand total (fixed, ex VAT)    £184,000").replace("40% on signature, 60% on go-live", `Phases 1 and 4 are invoiced on phase acceptance. Phase 2 is invoiced as £34,000 at its mid-point and £${second} on acceptance; Phase 3 as £37,000 at its mid-point and £37,000 on acceptance`);
    expect(reviewQuote(text("34,000"), quoteRubric, noServices, url).consistency).toContainEqual({ check: "payment-amounts", ok: true, message: "The payment instalments add up to the items they name (142000)." });
    expect(reviewQuote(text("30,000"), quoteRubric, noServices, url).consistency).toContainEqual(expect.objectContaining({ check: "payment-amounts", ok: false }));
  });

  it("checks a numbered price section's items against its total line ('4.5 Total fixed price: £58,500 excluding VAT')", () => {
    const total = (sum: string) => reviewQuote(body("X").replace(/^Price \|.*$/m, "") + `\n\n4. Price\n4.1 Discovery and design: £12,400\n4.2 App development (iOS and Android): £31,000\n4.3 Integration service: £8,600\n4.4 Testing and launch: £4,500\n4.5 Total fixed price: £${sum} excluding VAT`, quoteRubric, noServices, url).consistency.find((c) => c.check === "total");
    expect(total("56,500")).toEqual({ check: "total", ok: true, message: "The line items add up to the total (56500)." });
    expect(total("58,500")).toEqual({ check: "total", ok: false, message: "The line items add up to 56500, but the total says 58500: ask which is right." });
  });

  it("checks instalments of a one-off fee beside a monthly retainer against the one-off part", () => {
    const text = (second: string) => body("One-off set-up: 20 days × £900 = £18,000\nSupport retainer: £2,400 per month × 12 = £28,800\nYear-one total: £46,800, plus VAT at 20%").replace(/Payment \|.*/, `Payment | set-up £9,000 on signature and £${second} after cut-over; retainer invoiced monthly in advance on the 1st. All invoices due within 14 days.`);
    expect(reviewQuote(text("9,000"), quoteRubric, noServices, url).consistency).toContainEqual({ check: "payment-amounts", ok: true, message: "The payment instalments add up to what is paid once (18000)." });
    expect(reviewQuote(text("8,000"), quoteRubric, noServices, url).consistency).toContainEqual(expect.objectContaining({ check: "payment-amounts", ok: false }));
  });

  it("counts every instalment of a list that ends '— each payable within 30 days', and checks it against the total after a discount", () => {
    const text = (last: string) => body("Subtotal €84,100\nFramework-agreement discount 5% −€4,205\nTotal excl. VAT €79,895").replace("40% on signature, 60% on go-live", `three milestone invoices — €23,968.50 (30%), €31,958.00 (40%), €${last} (30%) — each payable within 30 days`);
    expect(reviewQuote(text("23,968.50"), quoteRubric, noServices, url).consistency).toContainEqual({ check: "payment-amounts", ok: true, message: "The payment instalments add up to the price (79895)." });
    expect(reviewQuote(text("22,968.50"), quoteRubric, noServices, url).consistency).toContainEqual(expect.objectContaining({ check: "payment-amounts", ok: false }));
  });

  it("reads a quote written as an e-mail in sentences, with contractions and no labels", () => {
    const review = reviewQuote(`Hi Priya,

great talking to you on Monday. We'll build the new volunteer scheduling tool for Harbour Food Bank: volunteers sign up for shifts, coordinators see who is coming and get a reminder list each morning. Anything beyond this, such as a mobile app or a donor database, isn't part of this offer.

You'll end up with the tool running on your own server, the code in a repository you control and a short guide for coordinators.

We'll kick off on 3 March and go live mid-May, no later than 16 May, with a first demo on 28 March.

The fixed price is GBP 14,000 plus VAT: GBP 3,000 for design, GBP 9,500 for development and GBP 1,500 for testing and launch. We bill half when you sign and half at go-live, 30 days net.

You'll have a week to try the demo before we go on, and we go live after your OK. You own all the code once paid. If you'd like to add something along the way, we'll tell you what it does to price and date before we touch anything. This offer stands until 31 January.

Cheers,
Sam`, quoteRubric, noServices, url);
    expect(status(review)).toMatchObject({ scope: "met", deliverables: "met", "timeline-milestones": "met", "price-breakdown": "met", "payment-terms": "met", "intellectual-property": "met", "change-requests": "met", validity: "met" });
    expect(review.passed, review.summary).toBe(true);
  });

  it("a warranty's or an acceptance's period ('90 days after production launch', 'signed off within 5 working days') is no timeline", () => {
    const timeline = (terms: string) => reviewQuote(body("EUR 30,000 fixed.").replace(/^Timeline \|.*\n/m, "").replace(/^Warranty \|.*$/m, terms), quoteRubric, noServices, url).criteria.find((c) => c.id === "timeline-milestones")!.status;
    expect(timeline("Warranty | 90 days after production launch.")).toBe("missing");
    expect(timeline("Acceptance | Each milestone is signed off within 5 working days if it meets the deliverables.")).toBe("missing");
    expect(timeline("Warranty | 90 days after production launch.\nSchedule | Start 2 September 2024, go-live 15 November 2024.")).toBe("met");
  });

  it("a timeline of a season, a quarter or a span of weeks ('Spring 2027, roughly 10–12 weeks') is vague; one with a date or a fixed duration is not", () => {
    const timeline = (text: string) => reviewQuote(body("EUR 30,000 fixed.").replace(/Timeline \|.*/, `Timeline | ${text}`), quoteRubric, noServices, url).criteria.find((c) => c.id === "timeline-milestones")!;
    expect(timeline("Spring 2027, roughly 10–12 weeks once we have a team slot")).toMatchObject({ status: "partial", evidence: expect.stringMatching(/^no date or fixed duration/) });
    expect(timeline("Delivery in Q3 2025.").status).toBe("partial");
    expect(timeline("Six weeks: data preparation in weeks 1–2, modelling in weeks 3–4, report in weeks 5–6. Earliest start early March.").status).toBe("met");
    expect(timeline("Start 2 September 2024, go-live in Q4 after 11 weeks of build.").status).toBe("met");
  });

  it("a timeline 'to be agreed at the kick-off' is left open, even when a duration appears elsewhere", () => {
    const review = reviewQuote(body("Design EUR 6,000; build EUR 24,000; total EUR 30,000, excluding VAT.").replace(/Timeline \|.*/, "Timeline | To be agreed together at the kick-off meeting."), quoteRubric, noServices, url);
    expect(status(review)["timeline-milestones"]).toBe("missing");
    expect(review.passed).toBe(false);
  });

  it("passes only with every essential and at least 4 of the other terms met: terms mentioned in passing do not make up for it", () => {
    const three = body("Design EUR 6,000; build EUR 24,000; total EUR 30,000, excluding VAT.")
      .replace(/Acceptance \|.*\n/, "")
      .replace(/Validity \|.*/, "Changes | Extra work.\nTeam | Two people.");
    const review = reviewQuote(three, quoteRubric, noServices, url);
    expect(status(review)).toMatchObject({ "change-requests": "partial", "team-roles": "partial", acceptance: "missing", validity: "missing" });
    expect(review.passed).toBe(false);
    expect(review.summary).toContain("only 3 of the 8 other terms are stated, fewer than 4");
  });

  it("every heading filled with marketing prose and not one amount, date or duration rates below 4", () => {
    const text = quoteRubric.criteria.map((c) => `${c.title.toUpperCase()}\nOur team brings passion and a proven way of working to this part of your journey, tailored to what your business needs.`).join("\n\n");
    const review = reviewQuote(text, quoteRubric, noServices, url);
    expect(review.score).toBeLessThan(4);
    expect(review.summary).toContain("no amount, date or duration");
  });

  it("reads 'net 30' as a payment period and 'weeks 36–38' as a date", () => {
    const review = reviewQuote(
      body("12 days at EUR 800 = EUR 9,600, excluding VAT.")
        .replace(/Payment \|.*/, "Payment | One invoice after the final release, net 30.")
        .replace(/Timeline \|.*/, "Timeline | Build in weeks 36–38, a trial run on the October payroll, live for the November run."),
      quoteRubric,
      noServices,
      url,
    );
    expect(status(review)).toMatchObject({ "payment-terms": "met", "timeline-milestones": "met" });
    expect(review.passed, review.summary).toBe(true);
  });

  it("a timeline left 'flexible, we will settle the dates later' and deliverables that are 'whatever is needed, as agreed' are not stated", () => {
    const base = body("Design EUR 6,000; build EUR 24,000; total EUR 30,000, excluding VAT.");
    const flexible = reviewQuote(base.replace(/Timeline \|.*/, "Timeline | Flexible: we will settle the schedule together after your busy season."), quoteRubric, noServices, url);
    expect(status(flexible)["timeline-milestones"]).toBe("missing");
    expect(flexible.passed).toBe(false);
    const vague = reviewQuote(base.replace(/Deliverables \|.*/, "Deliverables | Everything necessary, as agreed on the call."), quoteRubric, noServices, url);
    expect(status(vague).deliverables).toBe("missing");
    expect(vague.passed).toBe(false);
  });

  it("reads a price table headed '| Item | Price |' as the price, and checks instalment amounts even when shares are given", () => {
    const quote = (last: string) => `| Topic | Details |
|---|---|
${PORTAL_ESSENTIALS}${PORTAL_TERMS}
| Item | Price |
|---|---|
| Design | £4,000 |
| Development | £12,000 |
| Testing and acceptance | £4,000 |
| Total (excl. VAT) | £20,000 |

| Payment | Share | Amount |
|---|---|---|
| On order | 50% | £10,000 |
| On acceptance | 50% | £${last} |

Invoices are payable within 30 days.`;
    const good = reviewQuote(quote("10,000"), quoteRubric, noServices, url);
    expect(good.consistency).toContainEqual({ check: "total", ok: true, message: "The line items add up to the total (20000)." });
    expect(good.consistency).toContainEqual(expect.objectContaining({ check: "payment-amounts", ok: true }));
    expect(good.passed, good.summary).toBe(true);
    const bad = reviewQuote(quote("9,000"), quoteRubric, noServices, url);
    expect(bad.consistency).toContainEqual({ check: "payment-amounts", ok: false, message: "The payment instalments add up to 19000, but the price is 20000: ask which is right." });
    expect(bad.passed).toBe(false);
  });

  it("takes the amount after 'total' as the total when a line names others too", () => {
    const review = reviewQuote(
      body("30 days at EUR 900 = EUR 27,000, plus licences at EUR 3,000: total EUR 30,000 excl. VAT.").replace("40% on signature, 60% on go-live", "40% on signature (EUR 12,000), 60% on go-live (EUR 18,000)"),
      quoteRubric,
      noServices,
      url,
    );
    expect(review.consistency).toContainEqual(expect.objectContaining({ check: "payment-amounts", ok: true }));
    expect(review.passed, review.summary).toBe(true);
  });

  it("optional extras listed under the total are no part of it, and items that miss it are still caught", () => {
    const price = (total: string) => `- Design: 42 000 kr\n- Webflow build: 58 000 kr\n- CMS setup and blog migration: 16 000 kr\n- Total: ${total} kr\n\nOptional add-ons, not part of the total above:\n- German version of all pages: 18 000 kr\n- Illustration set: 9 500 kr`;
    const totalCheck = (total: string) => reviewQuote(`## Price\n${price(total)}`, quoteRubric, noServices, url).consistency.find((c) => c.check === "total");
    expect(totalCheck("116 000")).toMatchObject({ ok: true });
    expect(totalCheck("126 000")).toMatchObject({ ok: false, message: expect.stringContaining("126000") });
  });

  it("reads the tax and discount between the items and a total, and a total they do not make is a contradiction", () => {
    const checks = (text: string) => reviewQuote(text, quoteRubric, noServices, url).consistency.filter((c) => c.check === "total");
    // A fee before tax with its items in the sentence, the tax and the total payable in the next one.
    const letter = (total: string) => `## Fees\nOur fee for this engagement is S$36,000 before GST, covering licence configuration (S$12,000), eight custom management reports (S$16,000) and end-user training (S$8,000). With GST at 9% (S$3,240), the total payable is ${total}.`;
    expect(checks(letter("S$39,240"))).toEqual([expect.objectContaining({ ok: true })]);
    expect(checks(letter("S$39,420"))).toEqual([expect.objectContaining({ ok: false })]);
    // From a subtotal through a discount to the total: the steps must make the difference.
    const table = (net: string) => `## Price\n| Item | USD |\n|---|---|\n| Discovery | 4,000 |\n| Build | 16,000 |\n| Subtotal | 20,000 |\n| Early-signature discount | -USD 2,000 |\n| Total excl. tax | ${net} |\n| Sales tax 8% | 1,440 |\n| Total incl. tax | 19,440 |`;
    expect(checks(table("18,000")).every((c) => c.ok)).toBe(true);
    expect(checks(table("19,000"))).toContainEqual(expect.objectContaining({ ok: false, message: expect.stringContaining("20000 makes 18000, but the total says 19000") }));
  });

  it("a table under a heading that names the currency is priced in it, and a figure with its own sign keeps it", () => {
    const totalCheck = (text: string) => reviewQuote(text, quoteRubric, noServices, url).consistency.find((c) => c.check === "total");
    // "Estimate" heads the table's last column, and the table's figures are in the heading's CAD.
    const estimate = (total: string) => `### Time & materials estimate (CAD)\n\n| Role | Hours | Rate | Estimate |\n|---|---:|---:|---:|\n| Solution architect | 60 | 180 | 10,800 |\n| Developer | 100 | 140 | 14,000 |\n| **Estimated total** | | | **${total}** |`;
    expect(totalCheck(estimate("24,800"))).toMatchObject({ ok: true });
    expect(totalCheck(estimate("23,800"))).toMatchObject({ ok: false });
    // "R29,000" under "Fees (ZAR)" is 29,000 rand, not "R" and a second currency.
    expect(totalCheck("## Fees (ZAR, excl. VAT)\n\n| Milestone | Amount |\n|---|---|\n| Design | R29,000 |\n| Build | R116,000 |\n| Total | R145,000 |")).toMatchObject({ ok: true });
  });

  it("a table right under the label that introduces it is that label's, and its total row's 100% is no share", () => {
    const shares = (last: string, total: string) =>
      reviewQuote(`**Payment schedule**\n\n| Milestone | % | Amount (AUD, ex GST) |\n|---|---:|---:|\n| Project kick-off | 20% | 10,000 |\n| Wireframes approved | 30% | 15,000 |\n| Build complete | 30% | 15,000 |\n| Launch | ${last} |\n| **Project total** | ${total} |`, quoteRubric, noServices, url).consistency.find((c) => c.check === "payment-shares");
    // "Milestone" heads the first column, yet the shares are the payment schedule's.
    expect(shares("30% | 15,000", " | **55,000**")).toMatchObject({ ok: false, message: expect.stringContaining("110%") });
    expect(shares("20% | 10,000", "100% | **50,000**")).toMatchObject({ ok: true });
  });

  it("raises no contradiction where the numbers are right, however the price is laid out (found by a second reviewer)", () => {
    const right: [string, string][] = [
      ["one-off and monthly rows, each group with its VAT", "## Price\n| Item | Amount |\n|---|---|\n| Setup | \u20ac3,000 |\n| Migration | \u20ac2,000 |\n| Subtotal one-off | \u20ac5,000 |\n| VAT 20% | \u20ac1,000 |\n| Total one-off | \u20ac6,000 |\n| Hosting (monthly) | \u20ac200 |\n| Support (monthly) | \u20ac300 |\n| VAT 20% on monthly fees | \u20ac100 |\n| Total monthly | \u20ac600 |"],
      ["a price after the discount", "## Price\n- Design: \u20ac5,000\n- Build: \u20ac15,000\n- Subtotal: \u20ac20,000\n- Price after 10% discount: \u20ac18,000\n- VAT 20%: \u20ac3,600\n- Total: \u20ac21,600"],
      ["a discount \"on the total\"", "## Price\n- Design: \u20ac5,000\n- Build: \u20ac15,000\n- Subtotal: \u20ac20,000\n- 10% discount on the total: -\u20ac2,000\n- VAT 20%: \u20ac3,600\n- Total: \u20ac21,600"],
      ["\"less\" in prose", "## Price\n- Design: \u20ac5,000\n- Build: \u20ac15,000\n- Subtotal: \u20ac20,000\n- Hosting is billed by the provider and usually costs less than \u20ac50 a month.\n- VAT 20%: \u20ac4,000\n- Total: \u20ac24,000"],
      ["VAT with its base", "## Price\n- Design: \u00a35,000\n- Build: \u00a315,000\n- Subtotal: \u00a320,000\n- VAT: \u00a34,000 (20% of \u00a320,000)\n- Total: \u00a324,000"],
      ["a total due at signing after a tax note", "## Price\n- Design: $5,000\n- Build: $15,000\n- Total: $20,000\n- Sales tax of $1,600 applies in Texas.\n- Total due at signing (50% deposit): $10,800"],
      ["shares \"of the total\"", "## Price\nFixed price: \u20ac20,000 excl. VAT.\n\n## Payment terms\n- 30% of the total on signing\n- 40% at beta delivery\n- 30% on go-live"],
      ["a share \"of the total fee of $5,750\"", "## Price\n- Setup: $3,000\n- Migration: $2,000\n- Training: $750\n- Total: $5,750\n\n## Payment terms\n- Deposit: 50% of the total fee of $5,750 ($2,875) on signing\n- Balance: $2,875 on go-live"],
      ["\"*\" bullets under a heading that ends in a number", "## Effort and price\n\n### Phase 1\n* 10 days \u00d7 \u20ac800 = \u20ac8,000\n\n### Phase 2\n* 5 days \u00d7 \u20ac800 = \u20ac4,000\n\nTotal: \u20ac12,000"],
      ["a rate per sprint", "## Price\n3 sprints \u00d7 2 weeks at \u20ac8,000 per sprint = \u20ac24,000"],
      ["\"Plus VAT\" after a discount", "## Price\n- Design: \u00a35,000\n- Build: \u00a315,000\n- Subtotal: \u00a320,000\n- Loyalty discount: -\u00a32,000\n- Plus VAT at 20%: \u00a33,600\n- Total: \u00a321,600"],
      ["\"of which VAT\", then a total due on signing", "## Price\n- Design: \u20ac5,000\n- Build: \u20ac5,000\n- Total excl. VAT: \u20ac10,000\n- Total incl. VAT: \u20ac12,100\n- of which VAT (21%): \u20ac2,100\n- Total due on signing (50%): \u20ac6,050"],
      ["bold item names in a price list", "# Quote: booking portal\n\n## Scope\nPatient booking portal with login and reminders. Not included: payments.\n\n## Price\n- **Design** \u20ac4,000\n- **Build** \u20ac12,000\n- **Support** for the first 12 months \u20ac2,400\n- **Handover** and training \u20ac1,600\n- **Total** \u20ac20,000 excl. VAT\n\n## Payment terms\n50% on signing, 50% on go-live."],
      ["a discount naming the list price", "## Price\n- Licence: \u20ac15,000\n- Setup: \u20ac5,000\n- Subtotal: \u20ac20,000\n- Partner discount: \u20ac2,000 off the list price of \u20ac20,000\n- Total: \u20ac18,000"],
      ["VAT named with its base", "## Price\n- Design: €5,000\n- Build: €15,000\n- Subtotal: €20,000\n- VAT 20% on €20,000: €4,000\n- Total: €24,000"],
      ["a discount on the total with no subtotal", "## Price\n- Design: €5,000\n- Build: €15,000\n- 10% discount on the total: -€2,000\n- Total: €18,000"]
    ];
    for (const [name, text] of right) expect(reviewQuote(text, quoteRubric, noServices, url).consistency.filter((c) => !c.ok), name).toEqual([]);
  });

  it("checks every day-rate computation in the quote, a count in front too, and instalments against a price stated once, a share of the total too", () => {
    const computed = (text: string) => reviewQuote(text, quoteRubric, noServices, url).consistency.filter((c) => c.check === "computation");
    // Under the team, away from the price section.
    expect(computed("## Price\nFixed price: €12,550 excl. VAT.\n\n## Team and effort\n- Data engineering: 9 days @ €1,050 = €9,350\n- Data visualisation: 4 days @ €800 = €3,200")).toContainEqual(expect.objectContaining({ ok: false }));
    expect(computed("Quick estimate:\n• 2 devs × 15 days × $800/day = $24,000\n• design: 5 days × $700 = $3,500\n• total: $27,500")).toEqual([expect.objectContaining({ ok: true }), expect.objectContaining({ ok: true })]);
    // "Our fixed price for the migration is USD 36,000": the price the instalments split, though it says "for".
    const schedule = reviewQuote("Our fixed price for the donor CRM migration is USD 36,000.\n\nPayment schedule:\n- USD 10,000 on signing\n- USD 15,000 when the test migration is approved\n- USD 10,000 on final cut-over", quoteRubric, noServices, url);
    expect(schedule.consistency).toContainEqual(expect.objectContaining({ check: "payment-amounts", ok: false }));
    // "50% of the one-time total on signing ($2,875)" is an instalment, though it names the total.
    const letter = (rest: string) => reviewQuote(`## Pricing\nSetup is a one-time fee of $3,000, data migration is $2,000, and admin training is $750, for a one-time total of $5,750.\n\nWe invoice 50% of the one-time total on signing ($2,875) and the remaining ${rest} on go-live.`, quoteRubric, noServices, url).consistency.find((c) => c.check === "payment-amounts");
    expect(letter("$2,875")).toMatchObject({ ok: true });
    expect(letter("$2,785")).toMatchObject({ ok: false });
  });

  it("a scope left open ('and any further features that are needed along the way') is vague, whatever else it lists", () => {
    const review = reviewQuote(
      body("Design EUR 6,000; build EUR 24,000; total EUR 30,000, excluding VAT.").replace(/Scope \|.*/, "Scope | A booking portal for the clinic's 4 locations: patient login, booking in free slots and e-mail reminders, plus any further features that are needed along the way."),
      quoteRubric,
      noServices,
      url,
    );
    expect(status(review).scope).toBe("partial");
    expect(review.passed).toBe(false);
    // Other ways to leave it open: requirements found during the project, a scope that grows.
    const scope = (text: string) => status(reviewQuote(body("Design EUR 6,000; build EUR 24,000; total EUR 30,000, excluding VAT.").replace(/Scope \|.*/, `Scope | ${text}`), quoteRubric, noServices, url)).scope;
    expect(scope("The complete HR portal, covering all HR processes, together with any further requirements the HR team identifies during the project.")).toBe("partial");
    expect(scope("The complete HR portal; the scope will grow with the project as new needs come up.")).toBe("partial");
    expect(scope("The HR portal for 400 staff: leave requests, payslips and expense claims. Recruitment is not included.")).toBe("met");
  });

  it("credits each clause of a long prose sentence on its own: one sentence can state price, payment and several terms", () => {
    const review = reviewQuote(`We will build a stock counting app for the 12 shops of Fenwick Hardware: staff scan shelf labels with their phones, counts sync to your Exact Online stock, and differences over 5% are flagged for a recount. Price tags, the web shop and purchase orders are outside this offer.

You receive the app in both stores under your accounts, the source code in your GitHub organisation and a short guide for shop managers.

We start on 6 October and deliver a test version on 31 October, with all shops live by 21 November.

The fixed price is GBP 18,400 excluding VAT, made up of GBP 3,200 for design, GBP 12,800 for development and GBP 2,400 for testing and rollout, invoiced half at the start and half at go-live with 30 days to pay.

Your shop managers test the test version for one week and we go live after their written approval, any fault reported in the first three months is fixed free of charge, stock data stays in your Exact Online tenant and is never copied by us, and this offer remains valid until 30 September.`, quoteRubric, noServices, url);
    expect(status(review)).toMatchObject({ "price-breakdown": "met", "payment-terms": "met", acceptance: "met", "warranty-support": "met", "confidentiality-data": "met", validity: "met" });
    expect(review.passed, review.summary).toBe(true);
  });

  it("a list of short items joined by commas is not read apart", async () => {
    const { parts } = await import("../src/reviews/assess.js");
    expect(parts("Home, about, six treatment pages, team page, contact page with a route map and a blog")).toHaveLength(1);
    expect(parts("Warranty is three months after go-live, your data stays in the EU at all times, and this offer is valid until 31 March")).toEqual([
      "Warranty is three months after go-live",
      "your data stays in the EU at all times",
      "this offer is valid until 31 March",
    ]);
  });

  it("reads a retainer's 'Term: 6 months, 1 March to 31 August' as its timeline", () => {
    const review = reviewQuote(
      body("EUR 1,800 per month, EUR 10,800 for the term, excluding VAT.").replace(/Timeline \|.*\n/, "")
        .replace("40% on signature, 60% on go-live", "monthly in advance")
        .replace("within 3 months after go-live", "within the term")
        .replace("Scope |", "Term: 6 months, 1 March to 31 August 2025.\n\nScope |"),
      quoteRubric,
      noServices,
      url,
    );
    expect(status(review)["timeline-milestones"]).toBe("met");
    expect(review.passed, review.summary).toBe(true);
  });

  it("reads text pasted from a PDF: page footers dropped, a sentence broken across lines joined again", async () => {
    const { unwrapPdf } = await import("../src/reviews/formats.js");
    expect(unwrapPdf("Kick-off in the first week after signing, and all four sites go live on 15\nJuly.\n\nOffer 24-118 · Page 1 of 2\nPrice")).toBe(
      "Kick-off in the first week after signing, and all four sites go live on 15 July.\n\nPrice",
    );
    const review = reviewQuote(
      body("Design EUR 6,000; build EUR 24,000; total EUR 30,000, excluding VAT.").replace(/Timeline \|.*/, "TIMELINE\nKick-off in the first week after signing, and all four sites go live on 15\nJuly.\n\nOffer 24-118 · Page 1 of 2\n"),
      quoteRubric,
      noServices,
      url,
    );
    expect(status(review)["timeline-milestones"]).toBe("met");
    // A page marked "[page 2]" on a line of its own is no gap a template left in the terms above it;
    // "(excl. GST):" before the instalments is no tax line.
    expect(unwrapPdf("Payment on the 20th of the month following invoice.\n\n                                                  [page 2]\nAcceptance")).toBe("Payment on the 20th of the month following invoice.\n\nAcceptance");
    const marked = reviewQuote(body("Design EUR 6,000; build EUR 24,000; total EUR 30,000, excluding VAT.").replace(/Payment \|.*/, "Payment | Instalments (excl. VAT): EUR 12,000 on signature; EUR 18,000 on go-live; payable within 30 days."), quoteRubric, noServices, url);
    expect(marked.consistency).toContainEqual({ check: "payment-amounts", ok: true, message: "The payment instalments add up to the price (30000)." });
  });

  it("keeps a PDF's running header once where it opens the text: it can state the offer's validity", async () => {
    const { prepare } = await import("../src/reviews/formats.js");
    const header = "ORBITAL SIGNAL LABS, INC.          SOW-2025-003 | Valid through March 31, 2025";
    const text = `${header}\nRecommendations for Fernhill Outdoor          Page 1 of 2\n\n1.0 Purpose\nModel-driven product recommendations.\n\n${header}\n                                        Page 2 of 2\n5.0 Payment\nEach phase is invoiced on acceptance; net 30.`;
    const read = prepare(text);
    expect(read.split(header).length - 1).toBe(1);
    expect(read.startsWith(header)).toBe(true);
    expect(status(reviewQuote(text, quoteRubric, noServices, url)).validity).toBe("met");
  });

  it("reads a list a page break set apart: the footer goes, and the list goes on over the page", async () => {
    const review = reviewQuote(`DELIVERABLES\n1. Solution design document (signed off by Client)\n\nNorthwind Digital Ltd · 12 Harbour St, Leeds LS1 4AB\nPage 1 of 4\n\n2. Configured sandbox and production NetSuite accounts\n3. Data migration templates and final migration reconciliation\n4. Role-based training (6 sessions) and end-user guides\n\nNorthwind Digital Ltd · 12 Harbour St, Leeds LS1 4AB\nPage 2 of 4`, quoteRubric, noServices, url);
    expect(review.criteria.find((c) => c.id === "deliverables")).toMatchObject({ status: "met", evidence: expect.stringContaining("Solution design document") });
    const { prepare } = await import("../src/reviews/formats.js");
    const footer = "Northwind Digital Ltd · 12 Harbour St, Leeds LS1 4AB";
    expect(prepare(`Deliverables\no  Clickable prototype and signed-off specification (M1)\n\n${footer}\nPage 1 of 2\n\no  RouteBoard web application\no  Test report\n\n${footer}\nPage 2 of 2`).trim()).toBe("Deliverables\n- Clickable prototype and signed-off specification (M1)\n- RouteBoard web application\n- Test report");
  });

  it("reads a PDF's page break: its marking and running lines dropped, and a table or sentence it broke made whole", async () => {
    const { unwrapPdf } = await import("../src/reviews/formats.js");
    const table = ["INVESTMENT (USD, FIXED)", "Discovery ............ 4,500", "", "Northwind Digital – Proposal 2025-041          Page 1 of 3", "CONFIDENTIAL", "", "Data pipeline ....... 11,000", "TOTAL ............... 16,500"];
    expect(unwrapPdf(table.join("\n"))).toBe([table[0], table[1], table[6], table[7]].join("\n"));
    // Between two sections the blank line stays, so the next label still starts a section.
    expect(unwrapPdf("Invoices are payable within 30 days.\n\nAcme Ltd · Page 2 of 3\nCONFIDENTIAL\n\nWARRANTY\n60 days.")).toBe("Invoices are payable within 30 days.\n\nWARRANTY\n60 days.");
    const review = reviewQuote(body("x").replace(/Price \|.*/, table.join("\n")), quoteRubric, noServices, url);
    expect(review.consistency.find((c) => c.check === "total")).toMatchObject({ ok: false, message: expect.stringContaining("15500") });
  });

  it("joins lines a PDF wrapped at its width, also before a bracket or after a clause, but not before a labelled line", async () => {
    const { unwrapPdf } = await import("../src/reviews/formats.js");
    const wrapped = [
      "We bill time and materials at GBP 850 per day for a senior engineer and GBP 650 per",
      "day for an engineer. We estimate 20 senior days (GBP 17,000) and 30 engineer days",
      "(GBP 19,500), GBP 36,500 in total, with a cap of GBP 40,000 excluding VAT; invoices",
      "are sent monthly in arrears with timesheets, payable within 30 days of the invoice;",
      "Corvid pays by bank transfer and we send the timesheets with each monthly invoice",
      "Deliverables - the SageMaker endpoint, its Terraform and the runbook for on-call.",
    ];
    const read = unwrapPdf(wrapped.join("\n")).split("\n");
    expect(read).toHaveLength(2);
    expect(read[0]).toContain("30 engineer days (GBP 19,500)");
    expect(read[0]).toContain("payable within 30 days of the invoice; Corvid pays");
    expect(read[1]).toBe(wrapped[5]);
    // The same lines unwrapped short: no width to go by, so a line ending a clause stays a line.
    expect(unwrapPdf("Invoices are payable within 30 days;\n(GBP 19,500) is the second instalment.")).toBe("Invoices are payable within 30 days;\n(GBP 19,500) is the second instalment.");
    // Lines that each open with a label, in lower case too, are a list whose bullets were lost.
    const labelled = ["who: ward managers at St. Anne's (about 40 users) who rebuild the roster", "problem: today a swap is one shift at a time, 6 clicks each; a week takes ~15 min", "done when:"];
    expect(unwrapPdf(labelled.join("\n"))).toBe(labelled.join("\n"));
  });

  it("drops a forwarding note ('Please see below.', 'FYI - forwarding this ...') and a subject that names nothing ('FW: request')", async () => {
    const { unwrapEmail } = await import("../src/reviews/formats.js");
    const mail = (subject: string, note: string) => unwrapEmail(`From: Dana <dana@northwind.example>\nTo: Support <support@vendor.example>\nSubject: ${subject}\n\n${note}\n\nThe export button is greyed out since 4.2.`).trim();
    expect(mail("FW: request", "Please see below.")).toBe("The export button is greyed out since 4.2.");
    expect(mail("Fwd: ticket", "FYI - forwarding this from the customer success team.")).toBe("The export button is greyed out since 4.2.");
    expect(mail("Export greyed out", "See Maria's message below:")).toBe("Subject: Export greyed out\n\n\n\nThe export button is greyed out since 4.2.");
    // A sentence that happens to start alike stays.
    expect(mail("Export greyed out", "See the error below the button when you hover it.")).toContain("See the error below the button");
  });

  it("reads the bullet glyphs of Word and PDFs as list items", async () => {
    const { normalize } = await import("../src/reviews/formats.js");
    expect(normalize("• Discovery\n  ▪ Interviews\n\uf0b7 Build\n➢ Launch\no  Hypercare\nonly a line")).toBe("- Discovery\n  - Interviews\n- Build\n- Launch\n- Hypercare\nonly a line");
  });

  it("does not add a rate to the items: '25 × 420 €' in a row, 'at £1,150' in the heading", () => {
    const table = `Fees (fixed; 20 tester-days at £1,150)\n\n| Item | Amount |\n|---|---|\n| Review of 25 templates (25 × £420) | £10,500 |\n| Forms | £3,200 |\n| Report | £9,300 |\n| **Total** | **£23,000** |`;
    const review = reviewQuote(body("x").replace(/Price \|.*/, table), quoteRubric, noServices, url);
    expect(review.consistency.find((c) => c.check === "total")).toMatchObject({ ok: true });
  });

  it("reads a PDF's running footer with its page number, its hyphenated words and a heading with a remark after the break", async () => {
    const { prepare } = await import("../src/reviews/formats.js");
    const footer = "Harrowgate Security Ltd · CREST member · Registered in England 09876543      ";
    const text = ["5. Schedule", "   Testing window: 7–18 July 2025, retest by 29 Aug-", "   ust 2025", "", `${footer}1/3`, "CONFIDENTIAL", "6. Fees (fixed, excl. VAT; 20 tester-days at £1,150)", "   API testing                                   £9,200", "", `${footer}2/3`];
    expect(prepare(text.join("\n"))).toBe(["5. Schedule", "   Testing window: 7–18 July 2025, retest by 29 August 2025", "", "6. Fees (fixed, excl. VAT; 20 tester-days at £1,150)", "   API testing                                   £9,200", ""].join("\n"));
    const review = reviewQuote(body("x").replace(/Price \|.*/, "6. Fees (fixed, excl. VAT; 20 tester-days at £1,150)\n   API testing £9,200\n   Report £13,800\n   Total £23,000"), quoteRubric, noServices, url);
    // Under its heading: the evidence is the section's own text, with no "found ..." in front.
    expect(review.criteria.find((c) => c.id === "price-breakdown")!.evidence).toMatch(/^API testing/);
  });

  it("reads an ASCII table as a table: wrapped cells whole, and a payment table under its heading whatever its rows seem to name", async () => {
    const { asciiTables } = await import("../src/reviews/formats.js");
    expect(asciiTables("+------+---------+\n| Goal | Reduce  |\n|      | travel. |\n+------+---------+")).toBe("\n| Goal | Reduce travel. |\n| --- | --- |\n");
    const payment = ["+----------------------------+-------+--------+", "| Payment schedule           | Share | USD    |", "+----------------------------+-------+--------+", "| On signature               |  40%  | 12,000 |", "| On delivery of draft plan  |  40%  | 12,000 |", "| On acceptance of the plan  |  30%  |  9,000 |", "+----------------------------+-------+--------+"];
    const review = reviewQuote(body("Design USD 10,000; build USD 20,000; total USD 30,000.").replace(/Payment \|.*/, payment.join("\n")), quoteRubric, noServices, url);
    expect(review.consistency.find((c) => c.check === "payment-shares")).toMatchObject({ ok: false, message: expect.stringContaining("110%") });
  });

  it("a warranty is a period after delivery; fixing what acceptance finds is none, a response time is support", () => {
    const warranty = (text: string) => status(reviewQuote(body("Design EUR 6,000; build EUR 24,000; total EUR 30,000.").replace(/Warranty \|.*/, text), quoteRubric, noServices, url))["warranty-support"];
    expect(warranty("Defects found during acceptance are corrected before the final invoice.")).not.toBe("met");
    expect(warranty("We respond within one business day and fix checkout-breaking issues the same day.")).toBe("met");
  });

  it("reads an offer told in the conditional, with its boundary, and an open-ended scope said in the scope's paragraph", () => {
    const offer = (scope: string) =>
      reviewQuote(body("Design CHF 7,200; review CHF 9,600; total CHF 16,800.").replace(/^Scope \|.*\n/, `${scope}\n\n`), quoteRubric, noServices, url);
    const conditional = offer("We would review the training data and the model card and re-run the evaluation on your held-out test set. We would not re-train or change the model.");
    expect(status(conditional).scope).toBe("met");
    const open = offer("We would rebuild the site on WordPress with the campaign pages and the donation page. Beyond that, we take on whatever else the team would like to add along the way.\n\nHosting is billed separately.");
    expect(status(open).scope).toBe("partial");
    // "Whatever else you need" draws no boundary, wherever it is said.
    expect(status(offer("We would rebuild the site on WordPress with the campaign pages and the donation page.\n\nWhatever else you need, just ask.")).scope).toBe("partial");
  });

  it("reads the figures of a price column as written: aligned after their currency, bold, beside a day rate or a phone number", () => {
    const total = (price: string) => reviewQuote(body("x").replace(/Price \|.*/, price), quoteRubric, noServices, url).consistency.find((c) => c.check === "total");
    expect(total("Fees\nConcept ............ € 4.800,00\nTraining ........... €   600,00\nTotal .............. € 5.400,00")).toMatchObject({ ok: true });
    expect(total("| Item | Days | Amount |\n|---|---|---|\n| Analysis | 3 | CHF 5'400.– |\n| Report | 1 | CHF 1'800.– |\n| **Total (day rate CHF 1'800.–)** | **4** | **CHF 7'200.–** |")).not.toMatchObject({ ok: false });
    expect(total("| Item | Amount |\n|---|---|\n| Build | **€9,000** |\n| Launch | **€1,000** |\n| **Total** | **€10,000** |")).toMatchObject({ ok: true });
    expect(total("Price (CAD)\nBuild: 2,000.00\nTraining: 1,000.00\nTotal: 3,000.00\nEvan Marsh · 403-555-0182")).toMatchObject({ ok: true });
    expect(total("Price\nDesign: $2,000, 120 hours\nBuild: $1,000, 60 hours\nTotal: $3,000")).toMatchObject({ ok: true });
  });

  it("a price from one figure to another is a range, not a price to sign", () => {
    const review = reviewQuote(body("x").replace(/Price \|.*/, "Price | Design: CHF 5'000.– to 6'000.–, build CHF 12'000.–"), quoteRubric, noServices, url);
    expect(status(review)["price-breakdown"]).toBe("partial");
  });

  it("checks the items of a price told in prose against its total, and a cap ('not exceed') is not an item", () => {
    const prose = `Our fee is fixed. Phase one is EUR 18,000, phase two EUR 16,500 and phase three EUR 12,000, for a total of EUR 48,000 excluding VAT. We invoice each phase on completion, with payment due within 30 days.`;
    const total = reviewQuote(prose, quoteRubric, noServices, url).consistency.find((c) => c.check === "total");
    expect(total).toMatchObject({ ok: false, message: expect.stringContaining("46500") });
    const capped = `Cloud architect 20 days x EUR 1,150 = EUR 23,000
Platform engineers 60 days x EUR 950 = EUR 57,000
Project lead 10 days x EUR 1,000 = EUR 10,000
Estimated total EUR 90,000
We will not exceed EUR 99,000 without your written approval.`;
    expect(reviewQuote(capped, quoteRubric, noServices, url).consistency.filter((c) => !c.ok)).toEqual([]);
  });

  it("reads '20% after each of the three sprints' as three instalments", () => {
    const review = reviewQuote("Price: €32,500 fixed, excl. VAT\nPayment: 20% on signing, 20% after each of the three sprints, 20% at launch; invoices due in 10 days.", quoteRubric, noServices, url);
    expect(review.consistency.find((c) => c.check === "payment-shares")).toMatchObject({ ok: true });
  });

  it("a line introducing amounts ('USD 64,500 fixed, excl. sales tax:') is not a section of its own", () => {
    const review = reviewQuote(`INVESTMENT
USD 64,500 fixed, excl. sales tax:
Theme development – USD 28,000
Data migration – USD 37,000`, quoteRubric, noServices, url);
    expect(status(review)["price-breakdown"]).toBe("met");
  });

  it("things listed after a verb stay one clause ('You receive the connector, a mapping document, a test report and a training')", () => {
    const review = reviewQuote("You receive the configured connector, a field-mapping document, a test report and a one-hour training for your office staff.", quoteRubric, noServices, url);
    expect(status(review).deliverables).toBe("met");
  });

  it("reads 'What we build:' and 'Not in this MVP:' as the scope", () => {
    const review = reviewQuote("- What we build: a web app where parents find local music teachers and book a trial lesson.\n- Not in this MVP: payments, native apps, reviews, messaging.", quoteRubric, noServices, url);
    expect(status(review).scope).toBe("met");
  });

  it("knows the labels quotes are written with: What's included, Handover, Key dates, Fees and expenses, Payment plan, Support plan", () => {
    const review = reviewQuote(`What's included: a Shopify store with 2 markets and 4,200 migrated products; not included: payments.
Handover: the theme code in your GitHub repository and a 10-page admin guide.
Key dates: kickoff 7 September 2026, launch 17 November 2026.
Fees and expenses: EUR 40,000 fixed.
Payment plan: 50% on signing, 50% at launch, net 15.
Support plan: 45 days of bug fixes after launch.`, quoteRubric, noServices, url);
    expect(status(review)).toMatchObject({ scope: "met", deliverables: "met", "timeline-milestones": "met", "price-breakdown": "met", "payment-terms": "met", "warranty-support": "met" });
    // Each under its own label, not found in passing.
    for (const c of review.criteria.filter((c) => c.status === "met")) expect(c.evidence, c.id).not.toMatch(/^found/);
  });

  it("reads a price list with dot leaders under a label naming the currency, and checks it: 'Fees (GBP, fixed)', 'Phase 1 .... 3,500.00', 'TOTAL 41,000'", () => {
    const list = (total: string) => reviewQuote(`INVESTMENT (USD, FIXED)
Discovery ............................ 4,500
Phase 1 build ........................ 11,000
Monitoring and handover: 3,600
TOTAL ................................ ${total}`, quoteRubric, noServices, url);
    expect(list("19,100").consistency.find((c) => c.check === "total")).toMatchObject({ ok: true });
    expect(list("21,000").consistency.find((c) => c.check === "total")).toMatchObject({ ok: false, message: expect.stringContaining("19100") });
    expect(status(list("19,100"))["price-breakdown"]).toBe("met");
  });

  it("reads rupees, yen and other currencies as amounts, with lakh grouping", () => {
    const review = reviewQuote("| Item | Amount (INR) |\n|---|---|\n| Data audit | 2,40,000 |\n| Model | 9,60,000 |\n| Total | 12,00,000 |", quoteRubric, noServices, url);
    expect(review.consistency.find((c) => c.check === "total")).toMatchObject({ ok: true });
  });

  it("a percentage item that mentions acceptance is an instalment, not the acceptance section", () => {
    const review = reviewQuote("PAYMENT TERMS\n- 30% on signature (EUR 12,600)\n- 40% on acceptance of milestone M2 (EUR 16,800)\n- 30% on final acceptance (EUR 12,600)\nInvoices are payable within 30 days.", quoteRubric, noServices, url);
    expect(review.consistency.find((c) => c.check === "payment-shares")).toMatchObject({ ok: true });
  });

  it("a template with its [bracketed] placeholders left in rates below 4", () => {
    const review = reviewQuote(`Scope of work
[Describe scope here – 2-3 sentences on what we will build.] Out of scope: [list exclusions].

Deliverables
- [Deliverable 1]
- [Deliverable 2]

Timeline
We expect the project to take [N] weeks, with go-live on [date].

Investment
Fixed price: EUR TBD (excl. VAT)

Payment terms
[X]% on signing, [Y]% on go-live. Invoices are payable within [14/30] days.

Warranty
We fix defects reported within [30/60/90] days of go-live free of charge.`, quoteRubric, noServices, url);
    expect(review.score).toBeLessThan(4);
  });

  it("a scope ending 'and any other features you need along the way' is open-ended", () => {
    const review = reviewQuote("Scope\n- Android app for inspectors to record inspections floor by floor\n- PDF inspection report sent to the property manager\n- and any other features you need along the way", quoteRubric, noServices, url);
    expect(status(review).scope).toBe("partial");
  });

  it("a scope that never says what it leaves out is vague: the client cannot see where it ends", () => {
    const scope = (text: string) => status(reviewQuote(`Scope\n${text}`, quoteRubric, noServices, url)).scope;
    const base = "A web shop on Shopify with 120 products migrated from WooCommerce, a monthly coffee subscription and a newsletter sign-up.";
    expect(scope(base)).toBe("partial");
    expect(scope(`${base} Not included: photography, copywriting and the ERP integration.`)).toBe("met");
    expect(scope(`${base} Anything beyond this, such as a mobile app, isn't part of this offer.`)).toBe("met");
  });

  it("checks 'six equal monthly instalments of £11,000' against the fee, and reads '€7,800 in total (design €1,800, ...)'", () => {
    const equal = reviewQuote("Fees: fixed fee of £72,000 excluding VAT, payable in six equal monthly instalments of £11,000 from July to December.", quoteRubric, noServices, url);
    expect(equal.consistency.find((c) => c.check === "payment-amounts")).toMatchObject({ ok: false, message: expect.stringContaining("66000") });
    const inTotal = reviewQuote("Price: €7,800 in total (design €1,800, development €5,400, testing and launch €600), plus 21% IVA (€1,638), so €9,438 including IVA.", quoteRubric, noServices, url);
    expect(inTotal.consistency.find((c) => c.check === "total")).toMatchObject({ ok: true });
  });

  it("a price given as a range is not a price to sign", () => {
    const review = reviewQuote("Price: depending on the integration, the total will be between DKK 780,000 and DKK 940,000 excl. VAT.", quoteRubric, noServices, url);
    expect(status(review)["price-breakdown"]).toBe("partial");
  });

  it("a short title line over a list heads it: its items are read as their own terms", () => {
    const review = reviewQuote(`Price (fixed, GBP)
Build: £22,800
Total: £22,800

The small print
- Changes are raised in writing and estimated at our day rate of £640 before any work starts.
- We fix defects free of charge for 60 days after go-live.
- All IP passes to you on receipt of final payment.
- This quote is valid for 30 days.`, quoteRubric, noServices, url);
    expect(status(review)).toMatchObject({ "intellectual-property": "met", validity: "met" });
  });

  it("a table with an 'Out' column says what the scope leaves out", () => {
    const review = reviewQuote("| Scope | In | Out |\n|---|---|---|\n| Sources | Shopify Plus, SAP Business One, Adyen | Store POS, e-mail platform |\n| Reporting | 5 Power BI reports for finance | Self-service training |", quoteRubric, noServices, url);
    expect(status(review).scope).toBe("met");
  });

  it("reads a quote hard-wrapped at a fixed width (PDF, e-mail): labels on wrapped items, 'Not' and 'included' on two lines, a wrapped line that is not a label", () => {
    const review = reviewQuote(`1. Scope. A gap analysis of your security management system for the
   booking platform and the London head office. Out of scope: the
   clinic network and the certification audit itself. Not
   included: implementing the controls.
2. Deliverables. A gap report with a rating per control, a
   prioritised remediation roadmap, and a presentation.

DELIVERABLES
Executive summary for leadership; technical report with findings,
CVSS 3.1 scores, evidence and remediation guidance.`, quoteRubric, noServices, url);
    expect(status(review)).toMatchObject({ scope: "met", deliverables: "met" });
    expect(review.criteria.find((c) => c.id === "context-objectives")!.status).toBe("missing");
  });

  it("does not misread ordinary text (a read-back of this round's rules)", () => {
    const base = `## Steps\n1. Open Invoices\n2. Click Export\n## Expected\nA CSV with one row per invoice.\n## Environment\nProduction, web app 4.2.0, Chrome 126`;
    // "Nothing, the spinner keeps going" says what happens; "we figured out what triggers it" and
    // "the log does not say what went wrong" deny nothing; "Safari [17.4]" is a version.
    expect(status(bug(`${base}\n## Actual\nNothing, the spinner keeps going and no e-mail is sent.`))["observed-behaviour"]).toBe("met");
    expect(bug(`${base}\n## Actual\nThe file is empty (0 bytes). We figured out what triggers it: any date range over 31 days.`).passed).toBe(true);
    expect(status(bug(`The export is empty (0 bytes) in web app 4.2.0 on Chrome 126. Open Invoices, click Export. The log does not say what went wrong. It should hold one row per invoice.`))["expected-behaviour"]).toBe("met");
    expect(status(bug(`${base.replace("Chrome 126", "Safari [17.4]")}\n## Actual\nThe file is empty.`)).environment).toBe("met");
    // Moving a number up or down is a behaviour, not a wish.
    const zoom = reviewTicket({ type: "feature", ticketText: "Dispatchers zoom into the route map 20 times a day and lose their place. Let dispatchers increase the zoom on the route map with a plus button next to the map.\nAcceptance criteria:\n- the plus button increases the zoom by one level\n- the minus button decreases it by one level" }, ticketRubric);
    expect(status(zoom)).toMatchObject({ "proposed-behaviour": "met", "acceptance-criteria": "met" });
    // "excluding VAT" and "liability is limited to" are no scope boundary; "2-5k visitors" is no price range.
    const quote = reviewQuote("Scope\nA web shop on Shopify with 120 products and a newsletter sign-up, load-tested for 2-5k concurrent visitors.\nPrice\nEUR 12,000 excluding VAT. Our liability is limited to the fees paid.", quoteRubric, noServices, url);
    expect(status(quote)).toMatchObject({ scope: "partial", "price-breakdown": "met" });
  });

  it("reads a freelancer's terms in prose: the work said to be the client's by name, what 'I'm counting on', work 'inside your network'", () => {
    const letter = (terms: string) => reviewQuote(body("EUR 30,000 fixed.").replace(/^Assumptions \|[\s\S]*$/m, "") + `\n${terms}`, quoteRubric, noServices, url);
    const status = (terms: string) => Object.fromEntries(letter(terms).criteria.map((c) => [c.id, c.status]));
    expect(status("The code and model are Vindrose's from the first commit; I only keep the right to reuse general techniques.")["intellectual-property"]).toBe("met");
    expect(status("The code and model are reviewed by Vindrose's data team every Friday.")["intellectual-property"]).toBe("missing");
    expect(status("A few things I'm counting on: read access to the warehouse through your VPN, and someone from billing for an hour a week.")["assumptions-responsibilities"]).toBe("met");
    expect(status("All work happens on your laptop image and inside your network; subscriber data never goes onto my own machines.")["confidentiality-data"]).toBe("met");
  });

  it("reads a list of terms under its own lead-in ('A few other things:') after 'Payment: ...' ended, term by term, not as more of the price", () => {
    const email = reviewQuote(`What we'll do: a nightly job that copies orders, customers and refunds from your Shopify store into your Postgres database. Not included: any change to the Shopify theme.\nWhat you get: the sync service on your Hetzner server, the source code in a GitHub repository moved to your account, and a runbook.\nWhen: 6 working days, starting 11 January 2027, handed over by 19 January 2027.\n\nPrice:\nSync service: 5 days × €700 = €3,500\nAlerting + runbook: 1 day × €700 = €700\nTotal: €4,200 net\nPayment: half (€2,100) when we start, half (€2,100) on handover; each invoice due within 14 days.\n\nA few other things:\n- You'll need to send us a Shopify admin API key and SSH access by 8 January.\n- You have 5 working days after handover to check the figures against Shopify.\n- We fix bugs for 60 days after handover.\n- The code is yours once the final invoice is paid.\n- This price holds until 31 December 2026.`, quoteRubric, noServices, url);
    expect(status(email)).toMatchObject({ "assumptions-responsibilities": "met", "warranty-support": "met", "intellectual-property": "met", validity: "met" });
    expect(email.passed, email.summary).toBe(true);
  });

  it("reads a title asked as a question before a full stop ('What you will get. The source code ...') as that section's label", () => {
    const letter = (deliverables: string) => reviewQuote(`What we will make. We will develop a returns handling module for your WMS (Java 17): RMA registration, inspection with photo upload and restock. Not included: carrier labels and ERP changes.\n${deliverables}\nWhen. Development from 1 March to 30 April 2026, go-live on 11 May 2026.\nPrice. EUR 56,000 fixed: EUR 11,200 at signing, EUR 44,800 after acceptance; payment term 21 days.`, quoteRubric, noServices, url).criteria.find((c) => c.id === "deliverables")!;
    expect(letter("What you will get. The source code of the module in your GitLab, a REST API with OpenAPI documentation, automatic tests and user documentation.").status).toBe("met");
    // A sentence with a verb before its full stop is prose, as before.
    expect(letter("We will get going. The team is ready.").status).not.toBe("met");
  });

  it("reads the scope of an audit or a test told in a letter: 'The test covers ... It does not cover ...'", () => {
    const letter = (scope: string) => reviewQuote(`Dear Ms Whitfield,\n\n${scope}\n\nYou will receive a written report listing every finding with a CVSS 3.1 score and remediation advice, and a one-hour debrief call.\n\nTesting runs from Monday 7 to Thursday 17 April 2025 (nine working days).\n\nThe engagement is a single fixed fee of £11,750 plus VAT, invoiced when the final report is issued and payable within 30 days.`, quoteRubric, noServices, url).criteria.find((c) => c.id === "scope")!.status;
    expect(letter("The test covers the staging copy of app.ledgerly.co.uk and its REST API (about 60 endpoints). It does not cover the mobile apps, social engineering or denial-of-service testing.")).toBe("met");
    expect(letter("The customer portal runs on app.ledgerly.co.uk with a REST API of about 60 endpoints.")).toBe("missing");
  });

  it("a price's own line that says when it is paid ('$9,450 at start and $9,450 after cutover') states the payment terms too", () => {
    const quote = (price: string) => reviewQuote(body("X").replace(/^Price \|.*\n^Payment \|.*$/m, `Price | ${price}`), quoteRubric, noServices, url).criteria;
    const status = (price: string) => Object.fromEntries(quote(price).map((c) => [c.id, c.status]));
    expect(status("US$18,900 fixed: $9,450 at start and $9,450 after cutover, net 15.")).toMatchObject({ "price-breakdown": "met", "payment-terms": "met" });
    expect(status("US$18,900 fixed, for the migration and two weeks of support.")).toMatchObject({ "price-breakdown": "met", "payment-terms": "missing" });
  });

  it("finds a scope's boundary as quotes draw it: a heading 'Out' over a list, '- Out: ...', 'The app will not', 'We do not perform', a cap of hours", () => {
    const scope = (text: string) => reviewQuote(body("EUR 30,000 fixed.").replace(/^Scope \|.*/m, `Scope | ${text}`), quoteRubric, noServices, url).criteria.find((c) => c.id === "scope")!.status;
    const drawn = [
      "A connector from Odoo 17 to Shopware 6 for orders, customers and stock.\n### Out\n- Odoo licences and hosting\n- Migration of data older than 1 January 2023",
      "2.1 The app will show the pick lists of the logged-in picker and confirm each line by scanning.\n2.2 The app will not\n• handle goods receiving, put-away or stock counts",
      "A SOC 2 Type I readiness programme for the production AWS environment. We do not perform the audit itself.",
      "Up to 40 hours of design per month: social assets, e-mail templates and landing pages in Figma.",
      "In: design and build of a production EKS platform and migration of the 12 services.\n- Out: the 3 mainframe batch applications and AWS consumption costs",
    ];
    for (const text of drawn) expect(scope(text), text).toBe("met");
    expect(scope("A SOC 2 Type I readiness programme for the production AWS environment, with policies and evidence collection.")).toBe("partial");
  });

  it("reads a freelancer's labels as written: 'What I'll look at:', 'When:', 'I won't review ...' as the boundary", () => {
    const review = reviewQuote(`Hallo Stefan,

What I'll look at: the backend repository (Laravel 10), the database schema and the deployment pipeline. I won't review the Vue frontend and won't fix anything myself.

What you get: a written report of about 10 pages with prioritised findings, plus a 1-hour call with your team.

When: review on 21 and 22 November 2024, report by 27 November.

Price: 2 days at € 1.200 = € 2.400 net. I invoice the full amount once the report is delivered; payment within 14 days.

From your side I need read access to the repo by 20 November. The report is yours to use as you like. I'm happy to sign your NDA. The offer is valid until 15 November.`, quoteRubric, noServices, url);
    expect(status(review)).toMatchObject({ scope: "met", deliverables: "met", "timeline-milestones": "met" });
    expect(review.criteria.find((c) => c.id === "scope")!.evidence).not.toMatch(/^found/);
    expect(review.passed, review.summary).toBe(true);
  });

  it("two dates or a range of days in one sentence are a schedule, under whatever label", () => {
    const review = reviewQuote(`Rhythm\nResearch 2–13 September 2024; design iterations from 16 September to 4 October 2024.`, quoteRubric, noServices, url);
    expect(review.criteria.find((c) => c.id === "timeline-milestones")).toMatchObject({ status: "met", evidence: expect.stringMatching(/^found without a label/) });
  });

  it("a short title line heads the paragraph under it ('Term' after a list of deliverables), and a response time is support", () => {
    const review = reviewQuote(`What you get each month
- A short report on the 5th: hours used, changes made and incidents
- Up-to-date runbooks in your Notion

Term
Six months, November 1, 2024 to April 30, 2025, with a review call each month.

The fine print
- Response times: we acknowledge incidents within 1 business hour.
- We work under your NDA, and we never copy customer data out of your accounts.`, quoteRubric, noServices, url);
    const timeline = review.criteria.find((c) => c.id === "timeline-milestones")!;
    expect(timeline).toMatchObject({ status: "met", evidence: expect.stringContaining("November 1") });
    expect(timeline.evidence).not.toMatch(/found under/);
    // "never copy customer data" is a promise about the data, not a denial of confidentiality.
    expect(status(review)).toMatchObject({ "warranty-support": "met", "confidentiality-data": "met" });
  });

  it("reads 'Rs.' amounts whose full stop ends no sentence, and A$ as the Australian dollar", () => {
    const rupees = reviewQuote("Price\nOur fees are Rs. 2,90,000 in total, consisting of Rs. 1,40,000 for data migration and Rs. 1,50,000 for the six reports.", quoteRubric, noServices, url);
    expect(rupees.criteria.find((c) => c.id === "price-breakdown")!.status).toBe("met");
    expect(rupees.consistency.find((c) => c.check === "total")).toMatchObject({ ok: true });
    const dollars = reviewQuote("Price\nDesign A$ 4,000\nBuild AUD 8,000\nTotal AUD 12,000", quoteRubric, noServices, url);
    expect(dollars.consistency.find((c) => c.check === "currency")).toMatchObject({ ok: true });
  });

  it("a numbered title over its paragraph ('PHASE 2 – Client intake portal (optional)') ends the price list before it", () => {
    const review = reviewQuote(`Fees (fixed):
  Discovery and template analysis             $2,400
  Automation of 12 templates                 $10,800
  Testing, training and handover              $3,600
  Phase 1 total                              $16,800

PHASE 2 – Client intake portal (optional)
A secure portal for client intake. Fixed fee $11,500, 6 weeks, to be ordered in writing by June 30, 2025. If you order both phases the combined fee is $28,300.`, quoteRubric, noServices, url);
    expect(review.consistency.find((c) => c.check === "total")).toMatchObject({ ok: true });
    // A ticket's first line is its title, however it is written: it is the author's summary, no heading.
    const task = reviewTicket({ type: "task", ticketText: "Rotate Stripe webhook signing secret (prod)\n\nSecret was printed in a CI job log on 12 Mar (job #88412, visible to all contractors). Roll the secret in the Stripe dashboard and redeploy payments-api.\nDone: new secret live, old one revoked in Stripe, test event from Stripe returns 200." }, ticketRubric);
    expect(task.passed, task.summary).toBe(true);
  });

  it("reads a freelancer's 'I' as the rubric's 'we': 'A few things I'll need from you' are the client's duties", () => {
    const review = reviewQuote("Timing: I start on Monday 3 March and we go live on Tuesday 1 April.\n\nA few things I'll need from you: admin access to WordPress and your hosting by Friday 28 February, and a Shopify account in your name.", quoteRubric, noServices, url);
    expect(status(review)["assumptions-responsibilities"]).toBe("met");
  });

  it("reads a price list under its lead-in ('Fixed fee of USD 96,000, as follows:') and under a column header naming the currency", () => {
    const leadIn = reviewQuote("FEES\nFixed fee of USD 96,000, as follows:\nPhase 1 Design                       $18,000\nPhase 2 Configuration                $42,000\nPhase 3 Data migration               $36,000\nTotal                                $96,000", quoteRubric, noServices, url);
    expect(leadIn.consistency.find((c) => c.check === "total")).toMatchObject({ ok: true });
    const header = reviewQuote("4. COMMERCIALS\n   Item                                        Amount (INR)\n   Requirement study                              60,000.00\n   Payroll customisation                        1,80,000.00\n   Sub-total                                    2,40,000.00\n   GST @ 18%                                      43,200.00\n   Grand Total                                  2,83,200.00", quoteRubric, noServices, url);
    expect(header.criteria.find((c) => c.id === "price-breakdown")!.status).toBe("met");
    expect(header.consistency.find((c) => c.check === "total")).toMatchObject({ ok: true, message: expect.stringContaining("240000") });
    // Instalments that split the price with its tax add up to the grand total.
    const withTax = reviewQuote(`${"4. COMMERCIALS\n   Item                                        Amount (INR)\n   Requirement study                              60,000.00\n   Payroll customisation                        1,80,000.00\n   Sub-total                                    2,40,000.00\n   GST @ 18%                                      43,200.00\n   Grand Total                                  2,83,200.00"}\n\n5. PAYMENT TERMS\n40% advance with PO (Rs. 1,13,280), 60% after go-live (Rs. 1,69,920).`, quoteRubric, noServices, url);
    expect(withTax.consistency.find((c) => c.check === "payment-amounts")).toMatchObject({ ok: true });
  });

  it("prices a row's last figure in its column's currency though a rate on the row names one ('Implementation (25 days @ £620)     15,500')", () => {
    const review = reviewQuote("Fees\nItem                                    Fee (GBP)\nAudit                                     3,400\nImplementation (25 days @ £620)          15,500\nMonitoring & final report                 2,100\nTotal fixed fee, excl. VAT               21,000", quoteRubric, noServices, url);
    expect(review.consistency.filter((c) => c.check === "total")).toEqual([expect.objectContaining({ ok: true, message: expect.stringContaining("21000") })]);
    expect(review.consistency.find((c) => c.check === "currency")).toMatchObject({ ok: true, message: "All amounts are in GBP." });
  });

  it("reads the items after a price's colon or dash ('48 000 Kč in total — illustrations ... = 28 000 Kč, ...') and 'our fixed price is' as the total they make", () => {
    const dashed = reviewQuote("Price: 48 000 Kč in total — illustrations 8 × 3 500 Kč = 28 000 Kč, icons 48 × 400 Kč = 19 200 Kč, Figma library 800 Kč. 50% deposit (24 000 Kč) on confirmation, the rest (24 000 Kč) on delivery.", quoteRubric, noServices, url);
    expect(dashed.consistency.filter((c) => !c.ok)).toEqual([]);
    expect(dashed.consistency.find((c) => c.check === "total")).toMatchObject({ ok: true, message: expect.stringContaining("48000") });
    const priceIs = reviewQuote("Our fixed price is KES 800,000 excluding VAT: KES 180,000 for conversation design, KES 520,000 for the build and integrations, and KES 100,000 for testing and launch. With VAT at 16% (KES 128,000) the total is KES 928,000.", quoteRubric, noServices, url);
    expect(priceIs.consistency.find((c) => c.check === "total")).toMatchObject({ ok: true, message: expect.stringContaining("800000") });
    // Items that miss the price are still caught.
    const wrong = reviewQuote("Our fixed price is KES 800,000 excluding VAT: KES 180,000 for conversation design, KES 520,000 for the build and integrations, and KES 150,000 for testing and launch. With VAT at 16% (KES 128,000) the total is KES 928,000.", quoteRubric, noServices, url);
    expect(wrong.consistency.find((c) => c.check === "total")).toMatchObject({ ok: false });
  });

  const total = (text: string) => reviewQuote(text, quoteRubric, noServices, url).consistency.find((c) => c.check === "total");

  it("a price that leads its items in is made by them, not by the instalments after its total; a total's line naming the tax states the price before it (quote set fit2)", () => {
    const led = "Our fixed price is £38,400 plus VAT: £5,600 for discovery, £12,800 for alpha, £16,000 for the beta build and £4,000 for the accessibility audit. VAT at 20% is £7,680, giving £46,080 in total. We would invoice £5,600 at the end of discovery, £12,800 at the end of alpha and £20,000 at the beta launch, each plus VAT and payable within 30 days.";
    expect(total(led)).toMatchObject({ ok: true, message: expect.stringContaining("38400") });
    expect(total(led.replace("£4,000 for the", "£4,500 for the"))).toMatchObject({ ok: false });
    const net = "My fee is a fixed ₹3,60,000 plus 18% GST of ₹64,800, so ₹4,24,800 in total. That breaks down into ₹80,000 for data preparation, ₹1,70,000 for modelling, ₹70,000 for the dashboard and ₹40,000 for documentation and handover.";
    expect(total(net)).toMatchObject({ ok: true, message: expect.stringContaining("360000") });
    expect(total(net.replace("₹40,000 for", "₹45,000 for"))).toMatchObject({ ok: false });
  });

  it("reads every figure of a total's sum under a label naming the currency ('5.5 Total — 8,40,000 + GST 18% (1,51,200) = 9,91,200'), and 'Base' as the subtotal before the tax (quote set fit2)", () => {
    const summed = "5. Price (INR, excl. GST)\n5.1 Discovery and field mapping — 60,000\n5.2 Extraction pipeline — 4,20,000\n5.3 Review screen — 2,10,000\n5.4 Tally integration — 1,50,000\n5.5 Total — 8,40,000 + GST 18% (1,51,200) = 9,91,200";
    expect(total(summed)).toMatchObject({ ok: true, message: expect.stringContaining("840000") });
    expect(total(summed.replace("— 1,50,000", "— 1,60,000"))).toMatchObject({ ok: false });
    const base = "| Concept | Amount |\n|---|---|\n| UX/UI design | 3.900 € |\n| Web platform | 11.700 € |\n| **Base** | **15.600 €** |\n| IVA 21% | 3.276 € |\n| **Total** | **18.876 €** |";
    expect(total(base)).toMatchObject({ ok: true, message: expect.stringContaining("15600") });
    expect(total(base.replace("11.700", "11.900"))).toMatchObject({ ok: false });
  });

  it("reads a non-native writer's labels: 'Client gives' as what the client provides, 'RGPD' as data protection; a section about something else is none of the terms (quote set fit2, second reader)", () => {
    const review = reviewQuote("## Conditions\n- **Client gives:** texts, prices of boats and the Stripe account before 23/01/2026.\n- **RGPD:** data of customers in servers in EU (Frankfurt), we sign contract of data processor.", quoteRubric, noServices, url);
    expect(status(review)).toMatchObject({ "assumptions-responsibilities": "met", "confidentiality-data": "met" });
    // "Who we are" introduces the firm, "Property data" is what a portal shows, "Approval" over a signature line accepts the offer.
    const other = reviewQuote("## Who we are\nStudio Nord is a design studio in Hamburg founded in 2011 with twelve people.\n\n## Property data\nThe portal shows 4,000 listings with photos, floor plans and prices from the agents' feed.\n\n## Approval\nTo accept this offer, sign below and return it to us by e-mail.", quoteRubric, noServices, url);
    expect(status(other)).toMatchObject({ "team-roles": "missing", "intellectual-property": "missing" });
    expect(status(other).acceptance).not.toBe("met");
  });

  it("reads plain labels a small firm writes: 'What we expect from you', 'Who', and a date written 11-03-2025 (quote set fit2)", () => {
    const review = reviewQuote("What we expect from you\nYou deliver the article and customer lists in Excel before 14-3-2025 and give 1 key user for 1 day in the week.\n\nApproval\nBefore go live we do a test day together with your key user. When the test day is good you sign the go-live form.\n\nWho\nJoost Pieterse (project leader), Fatima El Idrissi (Odoo consultant).\n\nValid\nThis offerte is valid till 11-03-2025.", quoteRubric, noServices, url);
    expect(status(review)).toMatchObject({ "assumptions-responsibilities": "met", "team-roles": "met", validity: "met" });
    const delivered = reviewQuote("What we deliver:\n- the audit of your data (Shopify, GA4) with a note of 8 pages\n- the recommendation model and an API hosted on your Google Cloud project", quoteRubric, noServices, url);
    expect(status(delivered).deliverables).toBe("met");
  });

  it("reads in prose who leads the work, a data-protection law by its name, and 'we will not work on' as a boundary (quote set fit2)", () => {
    const review = reviewQuote("We will audit the public website against WCAG 2.1 level AA, covering all 14 page templates and the donation flow, and then fix what we find in the WordPress theme. We will not work on the roughly 300 PDF reports in the archive, nor on third-party widgets such as the embedded map.\n\nCustomer data is handled in line with POPIA and stays on your hosting in Johannesburg.\n\nElin Sjöberg will lead the work and be your contact; Oskar Nyman and Amira Haddad will do the development.", quoteRubric, noServices, url);
    expect(status(review)).toMatchObject({ scope: "met", "confidentiality-data": "met", "team-roles": "met" });
  });

  it("a label over its nested list names that list alone: the item after it at its level ('- Dates: ...') is read on its own (quote set fit2)", () => {
    const review = reviewQuote("- In: automated evaluation of the support copilot (answer accuracy, refusal behaviour, PII leakage)\n- Out: fine-tuning models, production infrastructure\n- Deliverables:\n  - eval dataset of 400 graded Q&A pairs\n  - harness (Python, runs in your GitHub Actions)\n- Dates: Mar 10 – Apr 11, 2025 (5 weeks); dataset by Mar 21, harness by Apr 4\n- Fixed price $12,000, no sales tax:\n  - dataset $3,500\n  - harness $8,500", quoteRubric, noServices, url);
    expect(status(review)).toMatchObject({ deliverables: "met", "timeline-milestones": "met" });
    expect(review.criteria.find((c) => c.id === "deliverables")!.evidence).toMatch(/^eval dataset of 400 graded Q&A pairs harness \(Python[^)]*\)$/);
    // "• Scope – included" with its own text: the list nested under it is still its own.
    const scoped = reviewQuote("• Scope – included\n  – Patient app (Android + iOS, Flutter): OTP sign-up, choose clinic/doctor, book/cancel/reschedule slots, reminders by push + SMS\n  – Admin web panel: doctor schedules, slot blocking, daily appointment list, CSV export\n• Scope – not included\n  – Online payments and teleconsultation video\n  – Integration with any hospital information system", quoteRubric, noServices, url);
    expect(scoped.criteria.find((c) => c.id === "scope")).toMatchObject({ status: "met", evidence: expect.stringContaining("Patient app") });
  });

  it("when the client is invoiced is no timeline (second reader)", () => {
    const review = reviewQuote("Invoice 50% in week 1 and 50% in week 8.", quoteRubric, noServices, url);
    expect(status(review)["timeline-milestones"]).not.toBe("met");
  });

  it("a letter's 'From:' names its sender, not what the client provides; 'From you:' still does (quote set fit2)", () => {
    const assumptions = (line: string) => status(reviewQuote(`LLM evaluation harness – quote for Ledgerly\n${line}\n\n- Deliverables: eval dataset, harness, dashboard`, quoteRubric, noServices, url))["assumptions-responsibilities"];
    expect(assumptions("From: Noah Feld, independent ML engineer · Feb 24, 2025")).toBe("missing");
    expect(assumptions("From you: the Zendesk export and an Azure OpenAI key on your account by 3 March.")).toBe("met");
  });

  it("each share's amount must be that share of the price, even when the amounts add up to it; the price may be net with its tax after it ('€14,500 net + 19% MwSt.') (quote set fit2)", () => {
    const bad = (text: string) => reviewQuote(text, quoteRubric, noServices, url).consistency.filter((c) => !c.ok).map((c) => c.message);
    const price = "Price: fixed €14,500 net + 19% MwSt. Payment 50% upfront = €7,500, the other 50% = €7,000 at go-live, 10 days after invoice.";
    expect(bad(price)).toEqual(["50% of 14500 is 7250, but the instalment says 7500: ask which is right."]);
    expect(bad(price.replace("€7,500", "€7,250").replace("€7,000", "€7,250"))).toEqual([]);
    // A share rounded to a whole amount is no contradiction.
    expect(bad("Price: fixed €10,000 net + 19% MwSt. Payment 33% upfront = €3,333, 33% at beta = €3,333, 34% at go-live = €3,334.")).toEqual([]);
    // Each share is read whole, however far along a long line: "25% on design approval (€ 17.000)" is no "5%".
    expect(bad("PRICE\nFixed price, excluding 21% VAT:\nDiscovery and design          € 21.000\nDevelopment                   € 47.000\nTOTAL                         € 68.000\n\nPAYMENT TERMS\n25% on signature (€ 17.000), 25% on design approval (€ 17.000), 25% at the start of the acceptance test (€ 17.000), 25% on final acceptance (€ 17.000).")).toEqual([]);
  });

  it("checks a rate told in prose against what it makes: 'which gives a fixed price of', and the rate first ('£3,250 per month + VAT for 6 months, total £18,500') (quote set fit2)", () => {
    const computed = (text: string) => reviewQuote(text, quoteRubric, noServices, url).consistency.filter((c) => c.check === "computation").map((c) => c.ok);
    expect(computed("I estimate the work at 18 days at EUR 720 per day, which gives a fixed price of EUR 13,860 excluding moms.")).toEqual([false]);
    expect(computed("I estimate the work at 18 days at EUR 720 per day, which gives a fixed price of EUR 12,960 excluding moms.")).toEqual([true]);
    expect(computed("Retainer: £3,250 per month + VAT for 6 months, total £18,500 + VAT.")).toEqual([false]);
    expect(computed("Retainer: £3,250 per month + VAT for 6 months, total £19,500 + VAT.")).toEqual([true]);
  });

  it("the second reader's counterexamples to this round's number checks raise no false alarm", () => {
    const bad = (text: string) => reviewQuote(text, quoteRubric, noServices, url).consistency.filter((c) => !c.ok).map((c) => c.message);
    // A count or a role in front, another unit, a total with its tax, a sum's last term: no rate computation to check.
    expect(bad("## Price\nTwo developers at €600 per day for 20 days, total €24,000.")).toEqual([]);
    expect(bad("## Price\nSenior consultant at €720 per day for 4 weeks, total €14,400 (20 working days).")).toEqual([]);
    expect(bad("## Price\nRetainer: £3,250 per month + VAT for 6 months, total £23,400 incl. VAT.")).toEqual([]);
    expect(bad("## Price\nDesign: 5 days at €800 per day and 3 days at €600 per day, total €5,800.")).toEqual([]);
    // A share of one item, and shares written after their amounts, are not shares of the price.
    expect(bad("## Price\nDesign €10,000\nBuild €5,000\nTotal fixed price: €15,000\n\n## Payment\nDeposit of 50% of the design fee (€5,000) on signing; €10,000 on delivery.")).toEqual([]);
    expect(bad("## Price\nTotal fixed price: €14,500\n\n## Payment\nPayment schedule: €4,350 upon signing (30%) / €5,800 at beta (40%) / €4,350 at launch (30%)")).toEqual([]);
    // A package's "Base" row is an item; the VAT on a total's line is not the total; a line with "=" but no "+" adds nothing up.
    expect(bad("| Package | Price |\n|---|---|\n| Base | €5,000 |\n| Analytics add-on | €2,000 |\n| Support add-on | €1,000 |\n| Total | €8,000 |")).toEqual([]);
    expect(bad("## Price\n- Design: €1,000\n- Build: €1,000\n- Total: €10,000 plus VAT of €2,000")).toEqual(["The line items add up to 2000, but the total says 10000: ask which is right."]);
    expect(bad("## Price (EUR)\n- Index migration: 12,000\n- Load testing: 4,000\n- Capacity: 3 nodes × 2,000 docs/s = 6,000 docs/s\n- Total: 16,000")).toEqual([]);
  });

  it("reads a table laid out with tabs as one table under its header: a row's first cell ('Start', 'Invoice sync live') names no section of its own", () => {
    const text = "Item\tDescription\tPrice (NOK excl. MVA)\n1\tMapping workshop\t18 000\n2\tInvoice sync\t64 000\n\tTotal\t82 000\n\nMilestone\tDate\tInvoice\nStart\t7 April 2025\tNOK 24 600 (30%)\nInvoice sync live\t16 May 2025\tNOK 32 800 (40%)\nAll flows live\t20 June 2025\tNOK 24 600 (30%)";
    const review = reviewQuote(text, quoteRubric, noServices, url);
    expect(review.consistency.filter((c) => !c.ok)).toEqual([]);
    expect(review.consistency.find((c) => c.check === "total")).toMatchObject({ ok: true, message: expect.stringContaining("82000") });
    expect(review.criteria.find((c) => c.id === "timeline-milestones")!.status).toBe("met");
    // A total row sums each column: the days' total under 'Rate CHF' is not the price.
    const days = reviewQuote("Pos\tDescription\tDays\tRate CHF\tAmount CHF\n1\tDiscovery\t6\t1'400\t8'400\n2\tPipelines\t18\t1'400\t25'200\n\tTotal (fixed price, excl. VAT)\t24\t\t33'600", quoteRubric, noServices, url);
    expect(days.consistency.find((c) => c.check === "total")).toMatchObject({ ok: true, message: expect.stringContaining("33600") });
  });

  it("checks a sum of amounts ('R 36 000,00 + 12 × R 28 500,00 = R 378 000,00') as a whole, and a total its line sums is made so", () => {
    const price = "Onboarding fee: R 36 000,00 (once-off)\nMonthly fee: R 28 500,00\nYear 1 total: R 36 000,00 + 12 × R 28 500,00 = R 378 000,00 excl. VAT\nVAT 15%: R 56 700,00\nYear 1 total incl. VAT: R 434 700,00";
    const right = reviewQuote(`PRICE\n${price}`, quoteRubric, noServices, url);
    expect(right.consistency.filter((c) => !c.ok)).toEqual([]);
    expect(right.consistency.find((c) => c.check === "computation")).toMatchObject({ ok: true, message: expect.stringContaining("R 36 000,00 + 12 × R 28 500,00") });
    const wrong = reviewQuote(`PRICE\n${price.replace("R 378 000,00", "R 388 000,00").replace("R 56 700,00", "R 58 200,00").replace("R 434 700,00", "R 446 200,00")}`, quoteRubric, noServices, url);
    expect(wrong.consistency.filter((c) => !c.ok)).toEqual([expect.objectContaining({ check: "computation", message: expect.stringContaining("it makes 378000") })]);
  });

  it("a currency between two numbers prices the one after it ('20% at milestone 2 EUR 11.780,00')", () => {
    const review = reviewQuote("Price\nDesign EUR 20.000,00\nBuild EUR 38.900,00\nTotal excl. VAT EUR 58.900,00\n\nPayment: 20% at order EUR 11.780,00; 30% at milestone 2 EUR 17.670,00; 30% at milestone 3 EUR 17.670,00; 20% at milestone 4 EUR 11.780,00.", quoteRubric, noServices, url);
    expect(review.consistency.find((c) => c.check === "payment-amounts")).toMatchObject({ ok: true, message: expect.stringContaining("58900") });
  });

  it("reads the largest quote of amounts run together with dashes, colons or '+' (the split after a price is no recursion)", async () => {
    const { LIMITS } = await import("../src/api/operations.js");
    for (const unit of ["€1 — ", "€1: x: ", "€1 + "]) {
      const text = `Price ${unit.repeat(Math.floor(LIMITS.quoteText / unit.length) - 2)}= €2`;
      expect(() => reviewQuote(text, quoteRubric, noServices, url), unit).not.toThrow();
    }
  });

  it("a computed line item keeps its name ('- Tracking plan & implementation: 6 days × 11 500 kr = 69 000 kr'), whatever section the name could open", () => {
    const review = reviewQuote("- Price:\n  - Tracking plan & implementation: 6 days × 11 500 kr = 69 000 kr\n  - Dashboards: 3 days × 11 500 kr = 34 500 kr\n  - Total: 9 days = 103 500 kr", quoteRubric, noServices, url);
    expect(review.consistency.find((c) => c.check === "total")).toMatchObject({ ok: true, message: expect.stringContaining("103500") });
  });

  it("a numbered title on a paragraph's last line heads the list under it, as a PDF pastes it ('... 30 days.\\n6 Conditions\\n- ...')", () => {
    const review = reviewQuote("5 Fees\nTotal € 13,200, excl. VAT. Payment: 50% on kick-off, 50% on delivery; payment term 30 days.\n6 Conditions\n- The draft report is accepted after one review round: you send comments within 5 working days.\n- All information obtained is treated as confidential and deleted 60 days after the final report.", quoteRubric, noServices, url);
    expect(status(review)).toMatchObject({ acceptance: "met", "confidentiality-data": "met" });
  });

  it("a service told in prose ('we will carry out a five-day penetration test ... The programme does not include ...') is a scope", () => {
    const review = reviewQuote("Each quarter we will carry out a five-day manual penetration test of one of your two web applications, alternating between them. The programme does not include testing of your internal network or any remediation work.", quoteRubric, noServices, url);
    expect(status(review).scope).toBe("met");
  });

  it("a tax or discount line's rate must make its amount ('discount (10%): −£3,500' under a £30,000 subtotal), VAT on the discounted price too", () => {
    const wrong = reviewQuote("4.1 Stamp card: £12,000\n4.2 Birthday rewards: £7,500\n4.3 Referral codes: £10,500\n4.4 Subtotal: £30,000\n4.5 Returning-client discount (10%): −£3,500\n4.6 Total: £26,500 excl. VAT", quoteRubric, noServices, url);
    expect(wrong.consistency.filter((c) => !c.ok)).toEqual([expect.objectContaining({ check: "total", message: "10% of 30000 is 3000, but the line says 3500: ask which is right." })]);
    const right = reviewQuote("Design: £12,000\nBuild: £18,000\nSubtotal: £30,000\nDiscount (10%): −£3,000\nVAT 20%: £5,400\nTotal: £32,400", quoteRubric, noServices, url);
    expect(right.consistency.filter((c) => !c.ok)).toEqual([]);
  });

  it("instalments may split the item they name ('Build: 50% ($14,000) at kickoff and 50% ($14,000) at go-live'), not only the total", () => {
    const review = reviewQuote("## Pricing\n| Item | Price |\n|---|---|\n| Build (fixed) | $28,000 |\n| Run support, June–August (3 × $2,000/month) | $6,000 |\n| **Total** | **$34,000** |\n\nBuild: 50% ($14,000) at kickoff and 50% ($14,000) at go-live. Run support: $2,000 invoiced monthly in advance.", quoteRubric, noServices, url);
    expect(review.consistency.find((c) => c.check === "payment-amounts")).toMatchObject({ ok: true, message: expect.stringContaining("28000") });
    const other = reviewQuote("## Pricing\n| Item | Price |\n|---|---|\n| Build (fixed) | $28,000 |\n| Run support | $6,000 |\n| **Total** | **$34,000** |\n\nPayment: 50% ($14,000) at kickoff and 50% ($14,000) at go-live.", quoteRubric, noServices, url);
    expect(other.consistency.find((c) => c.check === "payment-amounts")).toMatchObject({ ok: false });
  });

  it("a row labelled 'Net' is the subtotal before tax, not one more item", () => {
    const review = reviewQuote("## Price\n| Position | Days | EUR |\n|---|---:|---:|\n| Analysis & mapping | 3 | 2.640,00 |\n| Shopware connector | 8 | 7.040,00 |\n| **Net** | **11** | **9.680,00** |\n| VAT 19 % | | 1.839,20 |\n| **Total** | | **11.519,20** |", quoteRubric, noServices, url);
    expect(review.consistency.filter((c) => !c.ok)).toEqual([]);
    expect(review.consistency.find((c) => c.check === "total")).toMatchObject({ ok: true, message: expect.stringContaining("9680") });
  });

  it("an ASCII table's border line ends a row: the total under the items is not read as their wrapped cell", async () => {
    const { asciiTables } = await import("../src/reviews/formats.js");
    const table = ["+----+----------------+---------+", "| #  | Item           | Price   |", "+----+----------------+---------+", "| 1  | Analysis       | 72 000  |", "| 2  | Backend and    | 216 000 |", "|    | database       |         |", "+----+----------------+---------+", "|    | TOTAL          | 288 000 |", "+----+----------------+---------+"].join("\n");
    expect(asciiTables(table)).toContain("| 2 | Backend and database | 216 000 |");
    expect(asciiTables(table)).toContain("|  | TOTAL | 288 000 |");
  });

  it("knows more currencies by their codes and words (AED, KSh, Kč, R), and no English word ('try 3 times', 'PHP 8.2') as one", () => {
    const shillings = reviewQuote("5. PAYMENT\n5.1 25% on signing: KSh 600,000\n5.2 50% at start of pilot: KSh 1,300,000\n5.3 25% after rollout: KSh 600,000\n\n4. PRICE\nTotal KSh 2,400,000", quoteRubric, noServices, url);
    expect(shillings.consistency.find((c) => c.check === "payment-amounts")).toMatchObject({ ok: false });
    const mixed = reviewQuote("PRICE\nDesign AED 16,000\nBuild 28 000 Kč\nTotal R145,000", quoteRubric, noServices, url);
    expect(mixed.consistency.find((c) => c.check === "currency")!.message).toMatch(/AED, CZK, ZAR/);
    expect(reviewQuote("PRICE\nBuild in PHP 8.2 for EUR 4,000; try 3 times", quoteRubric, noServices, url).consistency.find((c) => c.check === "currency")).toMatchObject({ ok: true });
  });

  it("reads a key-value table aligned with spaces ('Acceptance    M3 is reached when ...') and 'What's out' as the scope's boundary", () => {
    const review = reviewQuote(`WHAT'S IN / WHAT'S OUT
Area                      In                                          Out
Employee master sync      New hires, terminations, pay rates          Changes before go-live
Payroll export            Weekly net-pay input file to Sage 300       Bank payment files

GROUND RULES
Topic         Terms
Acceptance    M3 is reached when 3 consecutive pay weeks reconcile between Agrigate and Sage; signed by the Financial Manager.
Changes       Written change request with cost and date impact before work starts.`, quoteRubric, noServices, url);
    expect(review.criteria.find((c) => c.id === "acceptance")).toMatchObject({ status: "met", evidence: expect.stringMatching(/^M3 is reached/) });
    expect(review.criteria.find((c) => c.id === "change-requests")).toMatchObject({ status: "met", evidence: expect.stringMatching(/^Written change request/) });
    expect(review.criteria.find((c) => c.id === "scope")!.evidence).not.toMatch(/no exclusions/);
  });

  it("a term with a template's gap left in ('payable within [X] days') is not stated yet", () => {
    const review = reviewQuote("Payment: 50 % (€ 3.450,00) at the start and 50 % (€ 3.450,00) when the website goes online, payable within [X] days from the invoice.", quoteRubric, noServices, url);
    expect(review.criteria.find((c) => c.id === "payment-terms")).toMatchObject({ status: "partial", evidence: expect.stringContaining('a gap left in ("[X]")') });
  });

  it("a list's 'a)' is no answer, and a question already marked keeps its line ('- Does it work?' over 'A: yes')", () => {
    expect(prepare("Which browsers?\na) Chrome\nb) Firefox")).toBe("Which browsers?\na) Chrome\nb) Firefox");
    expect(prepare("- Does it work?\nA: yes")).toBe("- Does it work?\nyes");
    expect(prepare("## What is excluded?\nA: the app")).toBe("## What is excluded?\nthe app");
    expect(prepare("Q3.2 Payment schedule.\n\nA: 20% on signing")).toBe("### Payment schedule\n\n20% on signing");
  });

  it("a response form's question heads its answer ('Q3.2 Payment schedule.' over 'A: 20% on signing ...', 'What do we get?' over 'A: ...')", () => {
    const review = reviewQuote(`Q3.1 Total price.
A: Fixed price NZD 86,000.00 excl. GST.

Q2.2 What do we get?
A: (1) Public registration web service; (2) staff console; (3) admin and support documentation.

Q3.2 Payment schedule.
A: 20% on contract signing (NZD 17,200) and 80% on go-live (NZD 68,800). Invoices payable on the 20th of the month following invoice.

Q4.3 Variations.
A: Variations priced at NZD 175/hour and agreed in writing before work begins.`, quoteRubric, noServices, url);
    expect(review.criteria.find((c) => c.id === "payment-terms")).toMatchObject({ status: "met", evidence: expect.stringMatching(/^20% on contract signing/) });
    expect(review.criteria.find((c) => c.id === "deliverables")).toMatchObject({ status: "met", evidence: expect.stringMatching(/^\(1\) Public registration/) });
    expect(review.criteria.find((c) => c.id === "change-requests")).toMatchObject({ status: "met", evidence: expect.stringMatching(/^Variations priced/) });
  });

  it("instalments may split the price before tax ('Fixed price NZD 86,000.00 excl. GST; ... total NZD 98,900.00', 'Net PLN 310,000.00')", () => {
    const payment = (price: string, instalments: string) =>
      reviewQuote(`Price\n${price}\n\nPayment terms\n${instalments}, payable within 30 days of invoice.`, quoteRubric, noServices, url).consistency.find((c) => c.check === "payment-amounts");
    expect(payment("Fixed price NZD 86,000.00 excl. GST; GST 15% NZD 12,900.00; total NZD 98,900.00.", "20% on signing (NZD 17,200) and 80% on go-live (NZD 68,800), all amounts plus GST")).toMatchObject({ ok: true });
    expect(payment("Net PLN 310,000.00; VAT 23% PLN 71,300.00; total PLN 381,300.00 (lump sum).", "50% (PLN 155,000.00) after Stage I and 50% (PLN 155,000.00) after Stage II")).toMatchObject({ ok: true });
    expect(payment("Fixed price NZD 86,000.00 excl. GST; GST 15% NZD 12,900.00; total NZD 98,900.00.", "20% on signing (NZD 17,200) and 80% on go-live (NZD 60,000)")).toMatchObject({ ok: false });
    // With no total but "incl. VAT" to split, the price before tax is checked, and so is any figure the price states.
    const dotted = "Fixed price, excl. VAT ........ EUR 72,000\nVAT 21% ........ EUR 15,120\nTotal incl. VAT ........ EUR 87,120";
    expect(payment(dotted, "30% at kick-off – EUR 21,600\n40% at validation – EUR 28,800\n30% at production start – EUR 25,200")).toMatchObject({ ok: false, message: expect.stringContaining("add up to 75600, but the price is 72000") });
    expect(payment(dotted, "30% at kick-off – EUR 21,600\n40% at validation – EUR 28,800\n30% at production start – EUR 21,600")).toMatchObject({ ok: true });
    expect(payment(dotted, "30% at kick-off – EUR 26,136\n40% at validation – EUR 34,848\n30% at production start – EUR 26,136")).toMatchObject({ ok: true });
  });

  it("'Network setup' and the first item after 'excluding VAT:' are no price before tax, and a figure beside the price is not what instalments may split", () => {
    const payment = (price: string, instalments: string) =>
      reviewQuote(`Price\n${price}\n\nPayment terms\n${instalments}, payable within 30 days of invoice.`, quoteRubric, noServices, url).consistency.find((c) => c.check === "payment-amounts");
    expect(payment("Network setup: EUR 5,000\nDevelopment: EUR 20,000", "EUR 12,500 on signing and EUR 12,500 on delivery")?.ok ?? true).toBe(true);
    expect(payment("Fixed price, excl. VAT – EUR 72,000\nDesign: EUR 20,000", "EUR 10,000 on signing and EUR 10,000 on delivery")).toMatchObject({ ok: false });
    expect(payment("Fixed price €12,000 + IVA 23% (€2,760) = €14,760", "€7,380 on start and €7,380 on handover")).toMatchObject({ ok: true });
    // After "excluding VAT:" come the items, not the price before tax.
    expect(payment("The price is 14,500 EUR, fixed, excluding VAT: 3,500 EUR for exploration, 7,000 EUR for modelling and 4,000 EUR for the handover.", "5,000 EUR when I start and 9,500 EUR at handover")?.ok ?? true).toBe(true);
  });

  it("a deck's '[Slide 5]' and a chat's '[29/9 18:03]' say where a term came from: no gap", () => {
    const payment = "50% (€ 3.450,00) at the start and 50% (€ 3.450,00) at go-live, payable within 14 days of the invoice.";
    for (const source of ["[Slide 10]", "[29/9 18:03] Emilio:", "[10:02 am]"]) {
      const review = reviewQuote(`Payment terms\n${source} ${payment}`, quoteRubric, noServices, url);
      expect(review.criteria.find((c) => c.id === "payment-terms"), source).toMatchObject({ status: "met" });
    }
    const gap = reviewQuote(`Payment terms\n[Slide 10] ${payment.replace("14", "[number of]")}`, quoteRubric, noServices, url);
    expect(gap.criteria.find((c) => c.id === "payment-terms")!.evidence).toContain('a gap left in ("[number of]")');
    const zeros = reviewQuote(`Payment terms\n50% (€ [0,000]) at the start and 50% at go-live, payable within 14 days of the invoice.`, quoteRubric, noServices, url);
    expect(zeros.criteria.find((c) => c.id === "payment-terms")!.evidence).toContain('a gap left in ("[0,000]")');
  });

  it("a quotation's header ('**Date:** 2025-06-16'), a payment date and a warranty after go-live are no timeline", () => {
    const review = reviewQuote(`# Quotation No. TK-2025-0088

**To:** Kurogane Shuzō Co., Ltd.
**From:** Hoshizora Systems K.K., Tokyo
**Date:** 2025-06-16

## Payment
50% (¥1,440,000) at order, 50% (¥1,440,000) at delivery; payment by bank transfer at the end of the month following the invoice.

For six months after go-live we fix any defect free of cost.`, quoteRubric, noServices, url);
    expect(review.criteria.find((c) => c.id === "timeline-milestones")!.status).toBe("missing");
    expect(review.criteria.find((c) => c.id === "warranty-support")!.status).toBe("met");
  });

  it("reads an accounting tool's quotation: its fields are no terms, its dash rule no heading, its indented rows no code", () => {
    const review = reviewQuote(`QUOTATION
Quote number:   QU-0418
Quote date:     10 January 2025
Expiry date:    9 February 2025

Bill to:
Harrow & Finch Solicitors LLP

Description                                         Qty    Unit price       Amount
----------------------------------------------------------------------------------
Discovery workshop (half day, on site)                1        650.00       650.00
UX wireframes (per page template, max. 8)             8        275.00     2,200.00
Visual design (homepage + 7 templates)                1      1,850.00     1,850.00
----------------------------------------------------------------------------------
                                                   Subtotal               4,700.00
                                                   VAT 20%                  940.00
                                                   TOTAL GBP              5,640.00

Payment: 50% deposit (£2,820.00) on acceptance of this quote; 50% (£2,820.00) on launch.`, quoteRubric, noServices, url);
    expect(review.criteria.find((c) => c.id === "price-breakdown")!.status).toBe("met");
    expect(review.criteria.find((c) => c.id === "validity")!.status).toBe("met");
    expect(review.criteria.find((c) => c.id === "timeline-milestones")!.status).toBe("missing");
    expect(review.consistency.filter((c) => !c.ok)).toEqual([]);
  });

  it("checks a table's items at their row's last amount, without its optional extras", () => {
    const grid = `| Item | Qty | Unit (CAD) | Amount (CAD) |
|---|---|---|---|
| Dell Latitude 5450, i5, 16 GB | 25 | 1,480.00 | 37,000.00 |
| Dell WD19S docking station | 25 | 240.00 | 6,000.00 |
| OPTIONAL – extended warranty | 1 | 900.00 | 900.00 |
| | Subtotal | | 43,000.00 |
| | GST 5% | | 2,150.00 |
| | TOTAL CAD | | 45,150.00 |`;
    expect(reviewQuote(grid, quoteRubric, noServices, url).consistency.find((c) => c.check === "total")).toMatchObject({ ok: true, message: expect.stringContaining("43000") });
    // The cents of "Total 24,600.00; GST 9% 2,214.00; total payable SGD 26,814.00" are money under "Price (SGD)".
    const cents = reviewQuote("Price (SGD, excl. GST):\n- Web application test, 8 days x 1,950.00 = 15,600.00\n- Retest, 1 day x 1,950.00 = 1,950.00\n- Reporting, fixed = 7,050.00\n- Total 24,600.00; GST 9% 2,214.00; total payable SGD 26,814.00", quoteRubric, noServices, url);
    expect(cents.consistency.find((c) => c.check === "total")).toMatchObject({ ok: true });
  });

  it("a timeline 'To be confirmed after the kick-off' is not stated, whatever the section says after it", () => {
    const review = reviewQuote("Timeline: To be confirmed after the kick-off meeting; we will share a detailed project plan then.\n\nPrice: hypercare (2 weeks) CAD 3,200.", quoteRubric, noServices, url);
    expect(review.criteria.find((c) => c.id === "timeline-milestones")!.status).not.toBe("met");
  });

  it("a term named in prose and left open ('The schedule is TBD') is as good as its section left empty", () => {
    const letter = (schedule: string) => reviewQuote(`Dear Ms Laurent,

Following our visit, here is our offer to replace the parcel counter's spreadsheet with a small web application. We will migrate the 14,000 customer records from the spreadsheet into PostgreSQL, build a web application for looking up and registering parcels, and install it on your server. Printing labels and the accounting software are not included.

You will receive the PostgreSQL database with all migrated data, the web application installed on your server, a migration report and the source code.

${schedule}

The fixed price is 9 750 €: 3 250 € for the data migration, 4 500 € for the web application and 2 000 € for installation and training. We invoice 50% (4 875 €) at the start and 50% (4 875 €) on delivery, payable within 30 days.

You will have two weeks to check the migrated data and confirm acceptance by email. Changes to the agreed scope are quoted separately before we start them. The code belongs to you once paid, and we keep your customer data confidential. This offer is valid for 30 days.
`, quoteRubric, noServices, url);
    const open = letter("The schedule is TBD; we will confirm start and delivery dates once our developer's availability is settled.");
    // Not made up for by the two weeks the client has to check the data.
    expect(open.criteria.find((c) => c.id === "timeline-milestones")!.status).toBe("missing");
    expect(open.passed).toBe(false);
    expect(letter("The schedule is tight but agreed: we start on 3 March and deliver on 28 April 2026.").criteria.find((c) => c.id === "timeline-milestones")!.status).toBe("met");
  });

  it("a day rate whose total 'depends on final scope' leaves the price open", () => {
    const price = (text: string) => reviewQuote(`PRICE\n${text}\n\nPAYMENT TERMS\nInvoiced monthly, payable within 30 days.`, quoteRubric, noServices, url).criteria.find((c) => c.id === "price-breakdown")!;
    expect(price("Our blended day rate is 1'450 CHF. The total cost depends on final scope, which we will confirm after the discovery workshop.")).toMatchObject({ status: "partial", evidence: expect.stringMatching(/^left open/) });
    expect(price("The total price will be confirmed after the discovery workshop; our day rate is CHF 1'450.").status).toBe("partial");
    expect(price("Discovery CHF 14'500, build CHF 58'000; total CHF 72'500 fixed.").status).toBe("met");
  });

  it("a price for part of the work 'to be agreed after phase 1' leaves the total open, wherever the quote says so", () => {
    const price = (priced: string, after = "") => reviewQuote(`PRICE\n${priced}\n\nPAYMENT TERMS\nInvoiced per phase, payable within 30 days.\n\n${after}`, quoteRubric, noServices, url).criteria.find((c) => c.id === "price-breakdown")!;
    expect(price("Phase 1: €42,000 fixed. Phase 2: to be agreed after Phase 1.").status).not.toBe("met");
    // A phase in a column laid out with spaces, with no colon.
    expect(price("Phase 1  Discovery        EUR 12,400\nPhase 2  Build            EUR 26,000\nPhase 3  Data migration   to be quoted after Phase 2, depending on the data").status).not.toBe("met");
    expect(price("Discovery: fixed price CHF 8,500 excl. VAT.\nImplementation: the price will be agreed on the basis of the discovery results.").status).toBe("partial");
    // Said in a paragraph of its own, away from the figures.
    expect(price("The first phase costs € 24.500 plus VAT.", "The price of the second phase will be agreed together after the first phase is completed.").status).toBe("partial");
    // A change's price agreed before it is made is the change process, not an open price.
    expect(price("Phase 1: €42,000. Phase 2: €18,000. Total €60,000 fixed.", "Changes to the agreed scope are quoted separately and agreed in writing before we start them.").status).toBe("met");
  });

  it("deliverables whose list is worked out 'as we go' are not stated, wherever the section says so", () => {
    const deliverables = (text: string) => reviewQuote(`DELIVERABLES\n${text}\n\nTIMELINE\nKick-off 4 August, launch 26 September 2025.`, quoteRubric, noServices, url).criteria.find((c) => c.id === "deliverables")!.status;
    expect(deliverables("We'll hand over the usual bits – designs and whatever else makes sense at the end. We'll work out the exact list as we go.")).toBe("missing");
    expect(deliverables("We'll hand over the Figma designs, the app in both stores and the source code in your GitHub organisation.")).toBe("met");
  });

  it("'The supplier will deliver the solution' names no deliverable; a price that 'starts from €9,500' is no price", () => {
    const deliverables = reviewQuote("2. Deliverables\nThe supplier will deliver the solution.\n\n3. Schedule\nAnalysis: 1 - 17 October 2025", quoteRubric, noServices, url);
    expect(deliverables.criteria.find((c) => c.id === "deliverables")!.status).not.toBe("met");
    const floor = reviewQuote("Price\nOur price for this work starts from €9,500 excluding VAT, depending on the final complexity.", quoteRubric, noServices, url);
    expect(floor.criteria.find((c) => c.id === "price-breakdown")).toMatchObject({ status: "partial", evidence: expect.stringContaining("range") });
  });

  it("a numbered title over what it holds ('6. Other terms') ends the section before it, and '• Scope (out):' bounds the scope", () => {
    const review = reviewQuote(`1. Scope
• Scope (in): testing of the customer portal (portal.tanjonglog.sg, 3 user roles).
• Scope (out): denial-of-service testing and social engineering.

5. Payment
The full amount is invoiced after acceptance and paid within 30 days of receipt.

6. Other terms
• Personal information is stored in Japan and handled under the Act on the Protection of Personal Information.
• Project manager: Ms Haruka Ito; lead engineer: Mr Kenji Mori.
• This quotation is valid until 31 March 2025.`, quoteRubric, noServices, url);
    expect(status(review)).toMatchObject({ "confidentiality-data": "met", "team-roles": "met", validity: "met" });
    expect(review.criteria.find((c) => c.id === "scope")!.evidence).not.toMatch(/no exclusions/);
  });

  it("a payment section's 'at kickoff ...; net 15' is no timeline: its label says what it is about", () => {
    const review = reviewQuote("Timeline: We expect delivery in a few weeks after kickoff, depending on our workload.\nPrice: fixed at $18,600\nPayment terms: 50% ($9,300) at kickoff, 50% ($9,300) on acceptance; net 15.", quoteRubric, noServices, url);
    expect(review.criteria.find((c) => c.id === "timeline-milestones")!.status).not.toBe("met");
  });

  it("a payment feature the work builds ('card payment') is no payment term", () => {
    const review = reviewQuote("Price (NOK, excl VAT)\nWeb app with Vipps and card payment, NOK 86 000.\nAdmin screens, NOK 24 000.\nTotal: NOK 110 000.\n\nPayment\nInvoicing according to our normal routines.", quoteRubric, noServices, url);
    expect(review.criteria.find((c) => c.id === "payment-terms")!.status).not.toBe("met");
  });

  it("reads a bold label run on after a sentence ('... final quiz. **Not included:** LMS administration')", () => {
    const review = reviewQuote("**Scope:** One SCORM 1.2 module of approx. 25 minutes with 3 branching scenarios and a 15-question final quiz. **Not included:** LMS administration, translations, video filming.", quoteRubric, noServices, url);
    expect(review.criteria.find((c) => c.id === "scope")!.status).toBe("met");
  });

  it("drops a page footer aligned to the right and reads '3 Schedule' after it as a heading, not as the list item before it", () => {
    const review = reviewQuote(`2 Deliverables
– Management summary (German, 2 pages)
– Technical report (English) with findings rated according to CVSS 3.1 and
remediation advice
                                                                      Page 1 of 2
SECURA LABS AG – Offer 2025-0417                                       Page 2 of 2
3 Schedule
Testing window: 12–23 May 2025. Draft report: 30 May 2025.`, quoteRubric, noServices, url);
    expect(review.criteria.find((c) => c.id === "timeline-milestones")).toMatchObject({ status: "met", evidence: expect.not.stringMatching(/^found/) });
  });

  it("checks instalments against a price stated as one amount ('Price: £14,700 fixed')", () => {
    const review = reviewQuote("Price: £14,700 fixed (I'm not VAT registered).\nPayment: 40% on signing (£5,880), 30% at beta (£4,410), 30% on store release (£4,800).", quoteRubric, noServices, url);
    expect(review.consistency.find((c) => c.check === "payment-amounts")).toMatchObject({ ok: false });
    // "The price breaks down as €3,200 for design" is one item of a price, not the price.
    const items = reviewQuote("The price breaks down as €3,200 for design and build, €850 for the booking set-up, and €600 for the launch.\nP.S. Payment: €2,325 to book the start date and €2,325 when the site goes live.", quoteRubric, noServices, url);
    expect(items.consistency.filter((c) => !c.ok)).toEqual([]);
  });

  it("reads a Notion page: emoji before a label, 'We'll build' / 'We won't build', and '| Phase | Amount |' under 'Investment' as the price", () => {
    const review = reviewQuote(`## 🛠️ Our approach
**We'll build**
- React Native app (Android + iOS) on top of your Shopify store
- Loyalty wallet connected to your Nector account

**We won't build**
- Any change to your Shopify theme

## 🗓️ Kick-off & milestones
- 1 Dec 2025 — kick-off
- 20 Feb 2026 — store submission

## 💰 Investment
| Phase | Amount |
|---|---|
| Design | ₹1,60,000 |
| App development | ₹5,20,000 |
| **Total** | **₹6,80,000** + GST |

> ✅ **Sign-off** — each milestone is signed off on the shared tracker by your product owner within 3 working days.`, quoteRubric, noServices, url);
    expect(review.criteria.find((c) => c.id === "scope")).toMatchObject({ status: "met", evidence: expect.not.stringMatching(/^found/) });
    expect(review.criteria.find((c) => c.id === "price-breakdown")).toMatchObject({ status: "met", evidence: expect.not.stringMatching(/^found/) });
    expect(review.criteria.find((c) => c.id === "acceptance")).toMatchObject({ status: "met", evidence: expect.not.stringMatching(/^found/) });
  });

  it("'the rest (24 000 Kč) on delivery' is a payment, not an item", () => {
    const review = reviewQuote("Price\nIllustrations: 28 000 Kč\nIcons: 19 200 Kč\nFigma library: 800 Kč\nTotal: 48 000 Kč\nA deposit of 24 000 Kč on confirmation, the rest (24 000 Kč) on delivery.", quoteRubric, noServices, url);
    expect(review.consistency.find((c) => c.check === "total")).toMatchObject({ ok: true });
  });

  it("does not misread ordinary text (a read-back of this session's rules)", async () => {
    const { prepare } = await import("../src/reviews/formats.js");
    const steps = "Steps: open Reports, click Export.\nActual: the file is empty.\nExpected: one row per order.";
    // A stage and a word after it is no region; a ticket's order number is what happened, not a paper's field.
    expect(status(bug(`${steps}\nIt happens in production in about 10% of sessions.`)).environment).not.toBe("met");
    expect(prepare("Order number: 55120 was charged twice.")).toContain("55120 was charged twice");
    expect(prepare("Reference: customers see error 500 at checkout since 09:00")).toContain("error 500");
    // A report's line and a list of steps are no headings.
    expect(status(bug(`${steps}\n\nSafari 17 crashes on login\n\nIt did not before the update.`)).environment).toBe("met");
    for (const gap of ["\n\n", "\n"]) expect(status(bug(`1. Logged in as admin${gap}2. Went to Reports${gap}3. Clicked Export\n\nActual: the file is empty. Expected: one row per order. Chrome 126.\n`))["steps-to-reproduce"]).toBe("met");
    // A figure with a unit, a time of day, an English word and a word starting like a month are no money or date.
    const quote = (text: string) => reviewQuote(text, quoteRubric, noServices, url);
    expect(quote("Price (EUR)\nDesign 4,000.00\nBuild 6,000.00\nTotal 10,000.00\nTarget page load 2.50 s on 4G.").consistency.filter((c) => !c.ok)).toEqual([]);
    expect(quote("All amounts below are in EUR.\nDesign EUR 4,000\nBuild EUR 6,000\nTotal EUR 10,000\nSupport line open 0900 to 1700").consistency.filter((c) => !c.ok)).toEqual([]);
    expect(quote("Price: EUR 10,000. We rub 2 coats of sealant on the decks.").consistency.filter((c) => !c.ok)).toEqual([]);
    expect(status(quote("Team: 2-3 junior developers and one lead."))["timeline-milestones"]).toBe("missing");
  });

  it("does not take the offer's own dates, an invoice date or a put-off first line for the timeline, nor a comparison, a todo app or a per-request floor for a gap or a range", () => {
    const quote = (text: string) => reviewQuote(text, quoteRubric, noServices, url);
    const dated = quote("This offer is dated 1 May 2025 and valid until 31 May 2025.");
    expect(status(dated)).toMatchObject({ "timeline-milestones": "missing", validity: "met" });
    expect(status(quote("We invoice 50% on 1 June 2025 and 50% on 1 July 2025, payable within 14 days."))["timeline-milestones"]).toBe("missing");
    expect(status(quote("Timeline: exact dates to be confirmed. Design 2 June to 13 June, build 16 June to 25 July, launch 1 August 2025."))["timeline-milestones"]).toBe("met");
    expect(status(quote("Deliverables:\n- the complete system, fully tested, installed and configured\n- admin guide (PDF)\n- source code in your GitHub"))["deliverables"]).toBe("met");
    expect(quote("Support: P1 incidents answered in < 4 hours, uptime > 99.5% for 12 months.").criteria.find((c) => c.id === "warranty-support")!.evidence).not.toMatch(/gap/);
    expect(quote("Scope: a todo app for iOS with reminders and sharing; Android is not included.").criteria.find((c) => c.id === "scope")!.evidence).not.toMatch(/gap/);
    expect(quote("Price: fixed EUR 12,000. Extra API calls cost at least EUR 380 per request.").criteria.find((c) => c.id === "price-breakdown")!.evidence).not.toMatch(/range/);
    expect(status(bug("Observed: Nobody really can log in after the 4.2 update, everyone gets error 500.\nSteps: open the login page, sign in.\nExpected: the dashboard opens.\nChrome 126"))["observed-behaviour"]).toBe("met");
  });

  it("short clauses of one section say enough together ('Deliverables: migrated cloud sites; migration plan; ...'), and a price incl. tax ('TTC') is no item", () => {
    const review = reviewQuote("- Deliverables: migrated cloud sites; migration plan; test migration report; user mapping sheet; admin runbook.", quoteRubric, noServices, url);
    expect(review.criteria.find((c) => c.id === "deliverables")!.status).toBe("met");
    const ttc = reviewQuote("5. Financial proposal\nAudit days: 11 days × 1 150 € HT .... 12 650 € HT\nTravel (flat fee) .... 350 € HT\nTotal .... 13 000 € HT\n(15 600 € TTC, VAT 20 %)", quoteRubric, noServices, url);
    expect(ttc.consistency.find((c) => c.check === "total")).toMatchObject({ ok: true });
  });

  it("a rate and what it makes ('36 points @ R1 150,00 .... R41 400,00') is no range; 'EUR 42,000 - 58,000' is one", () => {
    const rate = reviewQuote("Pricing (ZAR, excl VAT)\n36 x Cat6 points @ R1 150,00 ........ R41 400,00\nSwitch and patch panel ........ R30 800,00\nTotal ........ R72 200,00", quoteRubric, noServices, url);
    expect(rate.criteria.find((c) => c.id === "price-breakdown")!.status).toBe("met");
    expect(rate.consistency.filter((c) => !c.ok)).toEqual([]);
    const range = reviewQuote("4. PRICE\nWe estimate the total at EUR 42,000 - 58,000 (net), to be fixed after the specification.", quoteRubric, noServices, url);
    expect(range.criteria.find((c) => c.id === "price-breakdown")).toMatchObject({ status: "partial", evidence: expect.stringContaining("range") });
  });

  it("reads 'What you'll end up with', 'From you:', 'In and out' with '**Out:**', and '[DD.MM.2025]' as a gap", () => {
    const review = reviewQuote(`What you'll end up with
The live site on briggsjoinery.co.uk, your own admin login and a recorded walkthrough.

## In and out
**In:** Windows and WebGL builds of the tidepool level, English only, keyboard, mouse and touch.
**Out:** other levels, console ports, localisation.

- From you: the copy and photos by 21 March.`, quoteRubric, noServices, url);
    expect(review.criteria.find((c) => c.id === "deliverables")).toMatchObject({ status: "met", evidence: expect.not.stringMatching(/^found/) });
    expect(review.criteria.find((c) => c.id === "assumptions-responsibilities")).toMatchObject({ status: "met", evidence: expect.not.stringMatching(/^found/) });
    expect(review.criteria.find((c) => c.id === "scope")).toMatchObject({ status: "met", evidence: expect.not.stringMatching(/^found|no exclusions/) });
    const gap = reviewQuote("Timeline: design approved 14 March 2025, build complete [DD.MM.2025], go-live 30 May 2025.", quoteRubric, noServices, url);
    expect(gap.criteria.find((c) => c.id === "timeline-milestones")!.evidence).toContain("gap left in");
  });

  it("does not misread ordinary text (a second read-back of this session's rules)", async () => {
    const { prepare } = await import("../src/reviews/formats.js");
    const quote = (text: string) => reviewQuote(text, quoteRubric, noServices, url);
    expect(prepare("Hello World app crashes!\nIt closes on start.")).toContain("Hello World app crashes!");
    expect(quote("Scope: we set up staging and production for the shop and roll the release out.\nRoll out: staging ready 28 March.").criteria.find((c) => c.id === "scope")!.evidence).toMatch(/no exclusions/);
    expect(quote("Covered: audit of the current 9 services and CI; AKS clusters built with Terraform; Helm charts for all 9 services.\nLeft out: application code changes beyond configuration, the database, Azure consumption costs.").criteria.find((c) => c.id === "scope")!.evidence).not.toMatch(/no exclusions/);
    expect(quote("Price\nLicences EUR 14,000 - 1,400 loyalty discount = EUR 12,600.").criteria.find((c) => c.id === "price-breakdown")!.evidence).not.toMatch(/range/);
    const feature = (ticketText: string) => reviewTicket({ ticketText, type: "feature" }, ticketRubric);
    expect(status(feature("Why: requested by the customer so their finance team can reconcile invoices each week without exporting to Excel.\nBehaviour: add an 'Export to DATEV' button on the invoice list.\nDone when: the file imports into DATEV without errors."))["problem"]).toBe("met");
    expect(status(feature("Problem: webhook deliveries fail silently and support learns of it from customers, 14 tickets last month.\nProposal: add something like a Retry button on each failed delivery in Settings > Webhooks, which resends it and shows the new status.\nDone when: a failed delivery can be resent from the list and shows 'delivered'."))["proposed-behaviour"]).toBe("met");
    expect(status(bug("It happens for some users when they upload a PNG over 5 MB on the Profile page: the upload fails with 'Error 413'. It should accept files up to 10 MB. Web app 3.2, Chrome 126."))["steps-to-reproduce"]).toBe("met");
    expect(isFiller("Kindly fix the value where necessary", false)).toBe(false);
    // "Dispatchers cannot tell which driver ..." is the problem; "I can't tell" is the author not knowing.
    expect(status(feature("Problem: dispatchers cannot tell which drivers are about to hit their 9h limit.\nBehaviour: show remaining driving time per driver, amber under 60 min.\nDone when: a driver with 45 min left shows an amber badge."))["problem"]).toBe("met");
    expect(saysUnknown("I can't tell what triggers it")).toBe(true);
  });

  it("reads a Japanese quotation: dates as 2025/08/01, 'your company provides', 'Defect liability' and 'change order'", () => {
    const review = reviewQuote(`3. Schedule
 Contract                      2025/08/01
 Design complete               2025/09/26
 Go-live                       2026/01/13
6. Conditions
 (1) Your company provides gateway access and a test environment by 2025/08/08.
 (2) Changes after requirements are fixed are handled by change order with a revised estimate.
 (3) Defect liability: 1 year from acceptance, free repair.`, quoteRubric, noServices, url);
    expect(status(review)).toMatchObject({ "timeline-milestones": "met", "assumptions-responsibilities": "met", "change-requests": "met", "warranty-support": "met" });
  });

  it("what does not happen is observed behaviour ('nothing happens', 'no file is downloaded'), while 'no steps known' still denies the steps", () => {
    const report = (actual: string, steps = "1. Open Reports\n2. Click Export CSV") => status(bug(`Summary: Export button does nothing\n\nSteps:\n${steps}\n\nExpected: a CSV downloads\n\nActual: ${actual}\n\nEnvironment: Reports 5.4.2, Chrome 131 on macOS 15`));
    for (const actual of ["nothing happens", "no file is downloaded", "When I click it, no e-mail arrives.", "Nothing happens when I click it; the console shows TypeError: e is undefined"]) {
      expect(report(actual)["observed-behaviour"], actual).toBe("met");
    }
    expect(report("nothing happens", "no steps known, nothing reproducible")["steps-to-reproduce"]).not.toBe("met");
  });

  it("undoes what an agent does to a text on its way: a fence around all of it, a lead-in over it, <br> and escaped line breaks", () => {
    expect(prepare("The user wrote:\n```text\n## Steps\n1. Open Reports\n```")).toBe("## Steps\n1. Open Reports");
    expect(prepare("Steps:\\n1. Open Reports\\n2. Export\\nExpected: a file")).toBe("Steps:\n1. Open Reports\n2. Export\nExpected: a file");
    expect(prepare("Steps:<br>1. Open Reports<br/>2. Export")).toBe("Steps:\n1. Open Reports\n2. Export");
    // A log fenced inside a ticket stays code, and so does a fence with more than a lead-in outside it.
    const logged = "The export fails since 3.2.\n\n```\nTypeError: amount is undefined\n```\n\nChrome 126 on Windows 11.";
    expect(prepare(logged)).toContain("```\nTypeError");
    for (const own of ["The export fails since 3.2.\n```\nTypeError: amount is undefined\n```", "```\nTypeError: amount is undefined\n```\nChrome 126 on Windows 11."]) expect(prepare(own)).toContain("```");
    const twoLogs = "```\nTypeError: amount is undefined\n```\nThe export fails since 3.2.\n```\nat applyGiftCard (totals.ts:88)\n```";
    expect(prepare(twoLogs)).toBe(twoLogs);
    // Fenced whole with a block of its own inside, opened with its language.
    expect(prepare("```\nThe export fails:\n```js\nconsole.log(total)\n```\nChrome 126.\n```")).toBe("The export fails:\n```js\nconsole.log(total)\n```\nChrome 126.");
  });

  it("an indented paragraph of sentences is prose, brackets and semicolons and all; indented code stays code", () => {
    const prose = "Decommission stg-02\n\n    Why: staging moved to the stg-k8s cluster in March; stg-02 (the old VM) still costs ~$310/month.\n\nDone when the instance is terminated.";
    expect(prepare(prose)).toContain("\nWhy: staging moved");
    const code = "The job fails:\n\n    const total = items.reduce(sum);\n    console.log(total);\n\nSince 3.2.";
    expect(prepare(code)).toContain("\n    const total = items.reduce(sum);");
  });

  it("reads a double-spaced paste as single-spaced: one blank line joins a broken sentence, two still part paragraphs", () => {
    const double = "Scope: we rebuild the website on WordPress with\n\neight pages, a gallery and a contact form, and\n\nmove the old posts. Not included:\n\nhosting and copywriting.\n\n\nTimeline: design by 14 March, launch on\n\n1 April 2025, after your sign-off.";
    expect(singleSpaced(double)).toBe("Scope: we rebuild the website on WordPress with\neight pages, a gallery and a contact form, and\nmove the old posts. Not included:\nhosting and copywriting.\n\nTimeline: design by 14 March, launch on\n1 April 2025, after your sign-off.");
    // One-line paragraphs a blank line apart stay as they are.
    const letter = "Hi Anna,\n\nThe export is empty.\n\nIt worked in 4.1.\n\nSteps: open Reports.\n\nChrome 126.\n\nThanks,\n\nBen";
    expect(singleSpaced(letter)).toBe(letter);
    // Lines that each end a sentence, a blank line apart, are double spacing too when paragraphs are two blank lines apart.
    const story = "Feature: Scheduled publishing\n\n  As an editor in the newsroom\n\n  I want to schedule an article to go live at a set time\n\n  So that embargoed stories publish at 06:00\n\n\n\n  Scenario: publish at the scheduled time\n\n    Given a draft article scheduled for 06:00\n\n    When the clock reaches 06:00\n\n    Then the article is live within 1 minute";
    expect(singleSpaced(story)).toBe("Feature: Scheduled publishing\n  As an editor in the newsroom\n  I want to schedule an article to go live at a set time\n  So that embargoed stories publish at 06:00\n\n  Scenario: publish at the scheduled time\n    Given a draft article scheduled for 06:00\n    When the clock reaches 06:00\n    Then the article is live within 1 minute");
  });

  it("reads a table pasted from a spreadsheet, its cells apart by tabs: the header row names the currency of the rows under it, blank lines and all", () => {
    const review = reviewQuote("## Investment\nPhase\tEUR\n\nConnectors\t8,000\ndbt models\t16,000\nDashboards and handover\t6,000\nTotal\t30,000\n", quoteRubric, noServices, url);
    expect(review.criteria.find((c) => c.id === "price-breakdown")).toMatchObject({ status: "met", evidence: expect.not.stringMatching(/^found/) });
    expect(review.consistency.find((c) => c.check === "total")).toMatchObject({ ok: true });
    expect(review.criteria.find((c) => c.id === "timeline-milestones")!.status).toBe("missing");
  });

  it("reads a letter's price as a whole: a fee 'made up of' items, tax and total in the next sentence, and instalments one clause each (#18, quote sets Q and R)", () => {
    const letter = "Our fixed fee is ₹4,50,000, made up of ₹90,000 for design, ₹2,70,000 for app development, ₹60,000 for the admin panel and ₹30,000 for testing. GST at 18% adds ₹81,000, for a total of ₹5,31,000. We ask for 40% (₹2,12,400) when you sign, 30% (₹1,59,300) on delivery of the test version, and 30% (₹1,59,300) at go-live, each within 15 days of our invoice.";
    const review = reviewQuote(letter, quoteRubric, noServices, url);
    expect(review.consistency.filter((c) => !c.ok)).toEqual([]);
    expect(review.consistency.map((c) => c.check)).toEqual(expect.arrayContaining(["total", "payment-amounts", "payment-shares"]));
    // The same letter with a wrong share still fails on it.
    const wrong = reviewQuote(letter.replace("and 30% (₹1,59,300) at go-live", "and 20% (₹1,06,200) at go-live"), quoteRubric, noServices, url);
    expect(wrong.consistency.find((c) => c.check === "payment-shares")).toMatchObject({ ok: false });
  });

  it("a tax or late-payment rate beside the payment shares is no share ('GST at 9% is added to each invoice')", () => {
    const payment = (extra: string) => reviewQuote(`PRICE\nBuild SGD 40,000\nLaunch SGD 18,300\nTOTAL SGD 58,300\n\nPAYMENT\n30% on acceptance of this quotation\n40% on beta delivery\n30% on store launch\n${extra}`, quoteRubric, noServices, url).consistency.find((c) => c.check === "payment-shares");
    expect(payment("GST at 9% is added to each invoice. Interest of 1.5% a month on late payments.")).toMatchObject({ ok: true });
    expect(payment("A further 9% at handover.")).toMatchObject({ ok: false });
  });

  it("takes 'we are not including ...', 'What's not in' and an 'Out' row as the scope's boundary", () => {
    const scope = (text: string) => reviewQuote(`We will build a Flutter app for Android and iOS for booking home sample collection, with online payment and PDF reports. ${text}`, quoteRubric, noServices, url).criteria.find((c) => c.id === "scope")!;
    expect(scope("We are not including changes to the LIMS or a doctor-facing app.").evidence).not.toMatch(/no exclusions/);
    expect(scope("\n\nWhat's not in\n- A doctor-facing app\n- Changes to the LIMS").evidence).not.toMatch(/no exclusions/);
    // A scope laid out in columns, "In" and "Out" rows (tabs become spaces).
    expect(scope("\n\nIn    Booking and payment\nOut\tA doctor-facing app").evidence).not.toMatch(/no exclusions/);
    expect(scope("We look forward to it.").evidence).toMatch(/no exclusions/);
  });

  it("reads a price table pasted as aligned columns: its header names the currency, its bold total row is a row", () => {
    const columns = (total: string) => reviewQuote(`Price item            EUR (net)\nDiscovery workshop    3,200\niPad kiosk app        14,500\nKitchen display integration   4,800\n${total}`, quoteRubric, noServices, url);
    expect(columns("**Total**             **22,500**").consistency.find((c) => c.check === "total")).toMatchObject({ ok: true });
    expect(columns("**Total**             **23,100**").consistency.find((c) => c.check === "total")).toMatchObject({ ok: false });
    expect(columns("**Total**             **EUR 23,100**").consistency.find((c) => c.check === "total")).toMatchObject({ ok: false });
    expect(columns("**Total**             **22,500**").criteria.find((c) => c.id === "price-breakdown")!.status).toBe("met");
  });

  it("reads a price table a PDF gave one cell a line: the currency under the section's name, each figure under its item's name", () => {
    const cells = (total: string) => reviewQuote(`Price item\nEUR (net)\nDesign\n2,900\nShop setup & theme\n5,600\nTraining & launch\n600\n**Total**\n**${total}**`, quoteRubric, noServices, url);
    expect(cells("9,100").consistency.find((c) => c.check === "total")).toMatchObject({ ok: true });
    expect(cells("9,700").consistency.find((c) => c.check === "total")).toMatchObject({ ok: false });
    expect(cells("9,100").criteria.find((c) => c.id === "price-breakdown")!.status).toBe("met");
  });

  it("a table headed '| What | Details |' is a table of labelled rows: 'What' names no section", () => {
    const review = reviewQuote("| What | Details |\n|---|---|\n| Setup includes | import of 1,400 customer addresses, 3 job templates, SMS notifications |\n| Not included | custom reports, phones or tablets |\n| Deliverables | configured account with your data; 2 training sessions; admin guide |\n| Timeline | weeks 1–2 import and configuration; week 3 training; go-live on 4 March 2024 |", quoteRubric, noServices, url);
    expect(status(review)).toMatchObject({ deliverables: "met", "timeline-milestones": "met" });
    expect(review.criteria.find((c) => c.id === "deliverables")!.evidence).not.toMatch(/^found/);
  });

  it("deliverables 'defined in the discovery workshop in week 1' are put off: the figure says when, not what", () => {
    const deliverables = (text: string) => reviewQuote(`2. Deliverables\n${text}\n\n3. Timeline\nWeek 1 discovery workshop, weeks 2–12 build, launch on 14 June 2024.`, quoteRubric, noServices, url).criteria.find((c) => c.id === "deliverables")!.status;
    expect(deliverables("The exact deliverables will be defined in the discovery workshop in week 1.")).toBe("missing");
    expect(deliverables("The portal on your Azure tenant, its source code and 2 training sessions, defined in the workshop in week 1.")).toBe("met");
  });

  it("an hourly rate times an effort range with no cap ('€95/h, somewhere around 220–340 hours') leaves the price open", () => {
    const price = (text: string) => reviewQuote(`Pricing: time and materials at €95/h. ${text} Invoiced monthly, payable in 14 days.`, quoteRubric, noServices, url).criteria.find((c) => c.id === "price-breakdown")!;
    expect(price("Hard to say how long the matching takes, so somewhere around 220–340 hours.")).toMatchObject({ status: "partial", evidence: expect.stringMatching(/^left open/) });
    expect(price("We estimate 220–340 hours and will not bill above the cap of 340 hours (€32,300).").evidence).not.toMatch(/^left open/);
  });

  it("reads terms said in a chat's plain words: 10 days to click through, the site fully yours, I need your texts, fix free for 2 months", () => {
    const review = reviewQuote("Planning: design 3 weeks, build 3 weeks, starting 2 September.\nPrice: design € 3.600 + build € 4.800 = € 8.400 excl. btw\n\nAfter launch you have 10 days to click through everything and tell me what's broken; I fix that list and then we're done. After that, anything that's my mistake I still fix free for 2 months.\n\nOnce it's paid, the design and the site are fully yours. I do need your texts and photos by the end of week 3.", quoteRubric, noServices, url);
    expect(status(review)).toMatchObject({ acceptance: "met", "warranty-support": "met", "intellectual-property": "met", "assumptions-responsibilities": "met" });
  });

  it("'Anything new gets its own mini-quote first' is a change-request rule", () => {
    const review = reviewQuote("We rebuild the booking site on WordPress: 8 pages and the booking form.\n\nAnything new you think of mid-project gets its own mini-quote first, and we only start it once you say yes.", quoteRubric, noServices, url);
    expect(status(review)["change-requests"]).toBe("met");
  });

  it("flags mixed currencies", () => {
    const review = reviewQuote("PRICE\nDesign EUR 4,000\nHosting USD 300 per month\n", quoteRubric, noServices, url);
    expect(review.consistency[0]).toMatchObject({ check: "currency", ok: false });
  });
});
