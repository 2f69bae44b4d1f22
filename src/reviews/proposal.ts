import type { ServedCatalog } from "../catalog/served.js";
import type { Service } from "../catalog/types.js";

/**
 * A draft proposal for a new project, assembled from the catalog: the services that fit (those
 * asked for first, then the recommender's), phases from their typical durations, and an estimate
 * range from their starting prices. Every number comes from the catalog; nothing is invented.
 */
export interface ProposalInput {
  projectDescription: string;
  companyName?: string;
  budget?: string;
  timeline?: string;
  servicesInterested?: string[];
  contactEmail?: string;
}

const MAX_SERVICES = 3;
const WEEKS_PER: Record<string, number> = { day: 0.2, week: 1, sprint: 2, month: 4.33, year: 52 };
const UNIT_WEEKS: Record<string, number> = { day: 0.2, sprint: 2, month: 4.33 };

/** "8-16 weeks" → [8, 16] in weeks; undefined when the text has no range we can read. */
export function durationWeeks(text: string | undefined): [number, number] | undefined {
  const m = /(\d+(?:\.\d+)?)\s*(?:-|–|to)?\s*(\d+(?:\.\d+)?)?\s*(day|week|sprint|month|year)s?/i.exec(text ?? "");
  if (!m) return undefined;
  const per = WEEKS_PER[m[3]!.toLowerCase()]!;
  const low = Number(m[1]) * per;
  return [low, (m[2] ? Number(m[2]) : Number(m[1])) * per];
}

function estimate(service: Service): [number, number] {
  const { from, unit } = service.pricing;
  if (!unit || unit === "project") return [from, from];
  const weeks = durationWeeks(service.duration) ?? [UNIT_WEEKS[unit]!, UNIT_WEEKS[unit]!];
  const units = (w: number) => Math.max(1, Math.round(w / UNIT_WEEKS[unit]!));
  return [from * units(weeks[0]), from * units(weeks[1])];
}

export function draftProposal(input: ProposalInput, catalog: ServedCatalog) {
  const asked = (input.servicesInterested ?? []).map((id) => catalog.services.get(id)!);
  const recommended = catalog
    .recommend(input.projectDescription, MAX_SERVICES + asked.length)
    .filter((r) => r.kind === "service" && !asked.some((s) => s.id === r.id));
  const chosen = [
    ...asked.map((s) => ({ service: s, why: "you asked for it" })),
    ...recommended.map((r) => ({ service: catalog.services.get(r.id)!, why: r.reasons[0] ?? "matches your description" })),
  ].slice(0, Math.max(MAX_SERVICES, asked.length));

  const currency = chosen[0]?.service.pricing.currency ?? "EUR";
  const ranges = chosen.map((c) => estimate(c.service));
  const company = catalog.data.company;
  const openQuestions = [
    ...(input.budget ? [] : ["What budget range do you have in mind?"]),
    ...(input.timeline ? [] : ["When should the first version be live, and is there a fixed deadline?"]),
    ...(input.contactEmail ? [] : ["Which e-mail address should the proposal go to?"]),
    "Who are the users, and how many do you expect in the first year?",
    "Which existing systems must this connect to?",
  ];
  return {
    project: {
      description: input.projectDescription,
      ...(input.companyName ? { companyName: input.companyName } : {}),
      ...(input.budget ? { budget: input.budget } : {}),
      ...(input.timeline ? { timeline: input.timeline } : {}),
    },
    services: chosen.map(({ service, why }, i) => ({
      id: service.id, title: service.title, why, pricing: service.pricing, duration: service.duration, url: catalog.serviceUrl(service.id), rank: i + 1,
    })),
    phases: [
      { name: "Discovery", duration: "1-2 weeks", outcome: "Goals, scope in and out, risks and a fixed plan for the first release." },
      ...chosen.map(({ service }) => ({ name: service.title, duration: service.duration ?? "to be agreed in discovery", outcome: service.deliverables.slice(0, 2).join("; ") })),
      { name: "Handover and support", duration: "2 weeks", outcome: "Documentation, knowledge transfer and an agreed support arrangement." },
    ],
    estimate: chosen.length
      ? {
          currency,
          low: ranges.reduce((s, r) => s + r[0], 0),
          high: ranges.reduce((s, r) => s + r[1], 0),
          basis: "Sum of the starting prices of the services above over their typical durations; the discovery phase sets the final price.",
        }
      : undefined,
    assumptions: [
      "Prices are starting prices from our catalog, excluding VAT.",
      "You provide a product owner who can decide on scope within two working days.",
      "Hosting and third-party licence costs are billed at cost and are not included.",
      "You own all code and intellectual property created for you once invoices are paid.",
    ],
    openQuestions,
    nextSteps: [
      `Reply to ${company.contact.email} or book a call${company.contact.bookingUrl ? ` at ${company.contact.bookingUrl}` : ""} to go through this draft.`,
      "We run a short discovery and send a fixed proposal with milestones.",
    ],
    contact: { email: company.contact.email, ...(company.contact.bookingUrl ? { bookingUrl: company.contact.bookingUrl } : {}) },
    draft: true,
  };
}
