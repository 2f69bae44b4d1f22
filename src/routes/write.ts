import { createHash, randomBytes } from "node:crypto";
import { ApiError, validationError } from "../api/envelope.js";
import { API_PREFIX, LIMITS } from "../api/operations.js";
import type { Answer, Handler, RequestContext } from "../app.js";
import type { TicketType } from "../catalog/types.js";
import { draftProposal } from "../reviews/proposal.js";
import { reviewQuote } from "../reviews/quote.js";
import type { Transaction } from "../store/store.js";

/**
 * Handlers of the POSTs and of the usage query. Reviews are computed before the store is
 * touched; the store transaction then checks limits, de-duplicates and writes in one step, so a
 * rejected request stores nothing and a retry with the same Idempotency-Key replays the answer.
 */
const INTENTS = ["quote", "security", "ticket", "partnership", "demo"];
const REQUESTERS = ["gpt", "claude", "human"];
const IDEMPOTENCY_KEY_MAX = 255;

const newReference = (prefix: string) => `${prefix}${randomBytes(9).toString("base64url").replace(/[-_]/g, "x").toLowerCase()}`;
const str = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined);

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * Runs a write once per Idempotency-Key: a retry gets the first answer, a reused key with another
 * body 422. A key belongs to the operation and to the caller (the client id, else the address, as
 * the allowance counts them): another caller sending the same key and body makes a request of
 * its own, and never gets the first caller's answer.
 */
async function once(ctx: RequestContext, operationId: string, work: (tx: Transaction) => Promise<unknown>): Promise<Answer> {
  const header = ctx.request.headers["idempotency-key"];
  const key = typeof header === "string" && header !== "" ? header : undefined;
  if (key !== undefined && key.length > IDEMPOTENCY_KEY_MAX) {
    throw validationError(`The Idempotency-Key header is longer than ${IDEMPOTENCY_KEY_MAX} characters: send a shorter key, such as a UUID.`, [
      { path: "header.Idempotency-Key", message: `at most ${IDEMPOTENCY_KEY_MAX} characters` },
    ]);
  }
  const fingerprint = createHash("sha256").update(stableJson(ctx.body)).digest("hex");
  const data = await ctx.store.transaction(async (tx) => {
    const scoped = key === undefined ? undefined : JSON.stringify([operationId, clientIdOf(ctx), key]);
    if (scoped !== undefined) {
      const previous = await tx.rememberedAnswer(scoped);
      if (previous) {
        if (previous.fingerprint !== fingerprint) {
          throw new ApiError(422, "idempotency_conflict", "This Idempotency-Key was already used with a different body: use a new key for a new request, or resend the original body.");
        }
        return previous.body;
      }
    }
    const result = await work(tx);
    if (scoped !== undefined) await tx.remember(scoped, { fingerprint, status: 200, body: result, createdAt: ctx.now.toISOString() });
    return result;
  });
  return { data };
}

function oneOf(ctx: RequestContext, field: string, allowed: string[]): string | undefined {
  const value = str(ctx.body[field]);
  if (value === undefined) return undefined;
  const lower = value.toLowerCase();
  if (!allowed.includes(lower)) {
    throw validationError(`${field} must be one of ${allowed.join(", ")} (got "${value}").`, [
      { path: `body.${field}`, message: `must be one of ${allowed.join(", ")}, in any letter case` },
    ]);
  }
  return lower;
}

function knownIds(ctx: RequestContext, field: string, known: string[], listEndpoint: string): string[] | undefined {
  const ids = ctx.body[field] as string[] | undefined;
  if (ids === undefined) return undefined;
  const unknown = ids.filter((id) => !known.includes(id));
  if (unknown.length > 0) {
    throw validationError(`${field} names unknown ids (${unknown.join(", ")}): use ids from GET ${listEndpoint}.`, [
      { path: `body.${field}`, message: `valid ids: ${known.join(", ")}` },
    ]);
  }
  return [...new Set(ids)];
}

/** Fields of the body worth keeping, without blanks. */
function fields(ctx: RequestContext, names: string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((n) => {
    const value = str(ctx.body[n]);
    return value === undefined ? [] : [[n, value]];
  }));
}

/**
 * The client a ticket review counts against: the body's clientId, else the X-Service-Client-Id
 * header, else an identifier derived from the caller's address (so anonymous callers share one
 * allowance per address without the address itself being stored).
 */
export function clientIdOf(ctx: RequestContext): string {
  const header = ctx.request.headers["x-service-client-id"];
  return str(ctx.body.clientId) ?? (typeof header === "string" ? str(header.slice(0, LIMITS.shortText)) : undefined)
    ?? `ip-${createHash("sha256").update(ctx.request.ip).digest("hex").slice(0, 16)}`;
}

function usageOf(clientId: string, used: number) {
  const remaining = Math.max(0, LIMITS.freeTicketReviews - used);
  return { clientId, used, freeLimit: LIMITS.freeTicketReviews, remaining, emailRequired: remaining === 0 };
}

const reviewTicketHandler: Handler = async (ctx) => {
  // Loaded on the first ticket review, not at start: the ticket reader's model is 400 kB of
  // weights, 19 ms of every cold start when loaded with the routes (bench/README.md).
  const { reviewTicket } = await import("../reviews/ticket.js");
  const clientId = clientIdOf(ctx);
  const email = str(ctx.body.contactEmail)?.toLowerCase();
  const review = reviewTicket(
    { ticketText: ctx.body.ticketText as string, title: str(ctx.body.title), type: ctx.body.type as TicketType | undefined },
    ctx.catalog.data.rubrics.ticket,
  );
  return once(ctx, "reviewTicket", async (tx) => {
    const usage = await tx.ticketUsage(clientId);
    if (usage.used >= LIMITS.freeTicketReviews && email === undefined) {
      throw new ApiError(429, "free_limit_reached",
        `The ${LIMITS.freeTicketReviews} free ticket reviews of client "${clientId}" are used: send the same request again with contactEmail set to your e-mail address to continue.`,
        [{ path: "body.contactEmail", message: "required once the free reviews are used" }]);
    }
    const reference = newReference("ticket-review-");
    await tx.put("ticketReviews", {
      reference, createdAt: ctx.now.toISOString(), clientId, ...(email ? { contactEmail: email } : {}),
      type: review.type, rating: review.rating, ...fields(ctx, ["title"]),
    });
    await tx.setTicketUsage(clientId, { used: usage.used + 1, ...(email ?? usage.email ? { email: email ?? usage.email } : {}) });
    return { reference, ...review, usage: usageOf(clientId, usage.used + 1) };
  });
};

const getTicketUsage: Handler = async (ctx) => {
  const clientId = str(ctx.query.clientId)!;
  const usage = await ctx.store.ticketUsage(clientId);
  return { data: usageOf(clientId, usage.used) };
};

const reviewQuoteHandler: Handler = (ctx) => {
  const review = reviewQuote(ctx.body.quoteText as string, ctx.catalog.data.rubrics.quote, ctx.catalog.services, (id) => ctx.catalog.serviceUrl(id));
  return once(ctx, "reviewQuote", async (tx) => {
    const reference = newReference("quote-review-");
    await tx.put("quoteReviews", {
      reference, createdAt: ctx.now.toISOString(), score: review.score,
      ...fields(ctx, ["quoteText", "companyName", "contactEmail", "context", "fileName"]),
    });
    return { reference, ...review };
  });
};

const requestQuote: Handler = (ctx) => {
  const servicesInterested = knownIds(ctx, "servicesInterested", [...ctx.catalog.services.keys()], `${API_PREFIX}/services`);
  const input = fields(ctx, ["projectDescription", "companyName", "contactEmail", "budget", "timeline", "requestedBy"]);
  const proposal = draftProposal({ ...(input as { projectDescription: string }), ...(servicesInterested ? { servicesInterested } : {}) }, ctx.catalog);
  return once(ctx, "requestQuote", async (tx) => {
    const reference = newReference("quote-");
    await tx.put("quoteRequests", {
      reference, createdAt: ctx.now.toISOString(), ...input, ...(servicesInterested ? { servicesInterested } : {}),
      requestedBy: input.requestedBy ?? requestedByHeader(ctx), estimate: proposal.estimate,
    });
    return { reference, proposal };
  });
};

function requestedByHeader(ctx: RequestContext): string | undefined {
  const header = ctx.request.headers["x-requested-by"];
  return typeof header === "string" ? str(header.slice(0, LIMITS.shortText).toLowerCase()) : undefined;
}

const submitLead: Handler = (ctx) => {
  const intent = oneOf(ctx, "intent", INTENTS);
  const requestedBy = oneOf(ctx, "requestedBy", REQUESTERS);
  const conversationId = str(ctx.body.conversationId);
  return once(ctx, "submitLeadIntent", async (tx) => {
    if (conversationId !== undefined) {
      const existing = await tx.findLeadByConversation(conversationId);
      if (existing) return { received: true, reference: existing.reference, duplicate: true };
    }
    const reference = newReference("lead-");
    const by = requestedBy ?? requestedByHeader(ctx);
    await tx.put("leads", {
      reference, createdAt: ctx.now.toISOString(),
      ...fields(ctx, ["description", "name", "email", "company", "budget", "timeline", "conversationId", "source", "utm"]),
      ...(intent ? { intent } : {}), ...(by ? { requestedBy: by } : {}),
    });
    return { received: true, reference, duplicate: false };
  });
};

const joinWaitlist: Handler = (ctx) => {
  const tools = knownIds(ctx, "toolsInterested", ctx.catalog.data.tools.map((t) => t.id), `${API_PREFIX}/waitlist/tools`) ?? [];
  const email = str(ctx.body.email)!.toLowerCase();
  return once(ctx, "joinWaitlist", async (tx) => {
    const existing = await tx.findWaitlistByEmail(email);
    const toolsInterested = [...new Set([...((existing?.toolsInterested as string[] | undefined) ?? []), ...tools])].sort();
    const reference = existing?.reference ?? newReference("waitlist-");
    await tx.put("waitlist", {
      ...existing, reference, createdAt: existing?.createdAt ?? ctx.now.toISOString(), updatedAt: ctx.now.toISOString(),
      ...fields(ctx, ["name", "company", "role", "source"]), email, toolsInterested,
    });
    return {
      reference, email, toolsInterested, updated: existing !== undefined,
      message: existing ? "You were already on the waitlist; your interests are updated." : "You are on the waitlist; we will write when your tools open up.",
    };
  });
};

export const writeHandlers: Record<string, Handler> = {
  reviewQuote: reviewQuoteHandler,
  requestQuote,
  reviewTicket: reviewTicketHandler,
  getTicketUsage,
  submitLeadIntent: submitLead,
  joinWaitlist,
};
