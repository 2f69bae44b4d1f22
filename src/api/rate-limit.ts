import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ApiError } from "./envelope.js";

/**
 * Per-address limits, one for reads and a stricter one for writes, counted separately. A limit
 * of 0 is off (benchmarks). Answers carry the IETF RateLimit-Policy / RateLimit headers, and a
 * refusal is our error envelope with Retry-After.
 */
export interface RateLimits {
  readsPerMinute: number;
  writesPerMinute: number;
}

const WINDOW_SECONDS = 60;
const kindOf = (request: FastifyRequest) => (request.method === "GET" || request.method === "HEAD" ? "read" : "write");

export async function registerRateLimits(app: FastifyInstance, limits: RateLimits): Promise<void> {
  const limitOf = (request: FastifyRequest) => (kindOf(request) === "read" ? limits.readsPerMinute : limits.writesPerMinute);
  if (limits.readsPerMinute === 0 && limits.writesPerMinute === 0) return;
  await app.register(rateLimit, {
    max: (request) => limitOf(request),
    timeWindow: WINDOW_SECONDS * 1000,
    keyGenerator: (request) => `${kindOf(request)}:${request.ip}`,
    allowList: (request) => limitOf(request) === 0,
    enableDraftSpec: true,
    errorResponseBuilder: (request, context) =>
      new ApiError(429, "rate_limited", `Too many ${kindOf(request)}s from this address (limit ${context.max} a minute): retry after ${context.after}.`),
  });
  // The draft-6 headers the plugin sets, restated in the current IETF draft's form.
  app.addHook("onSend", async (request, reply, payload) => {
    const remaining = reply.getHeader("ratelimit-remaining");
    if (remaining !== undefined) {
      const kind = kindOf(request);
      reply.header("ratelimit-policy", `"${kind}";q=${limitOf(request)};w=${WINDOW_SECONDS}`);
      reply.header("ratelimit", `"${kind}";r=${String(remaining)};t=${String(reply.getHeader("ratelimit-reset") ?? WINDOW_SECONDS)}`);
    }
    return payload;
  });
}
