import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Store } from "../src/store/store.js";

/**
 * Keys chosen by callers (client ids, idempotency keys, conversation ids, e-mail addresses) are
 * data, never property names: every name on Object.prototype behaves as any other key. Each
 * store's test file runs this with a factory for a fresh, empty store.
 */
export const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);

export function prototypeKeys(name: string, open: () => Promise<Store>): void {
  describe(`caller-chosen keys named like Object.prototype's properties: ${name}`, () => {
    it("are stored and found like any other key, and unknown ones are not found", async () => {
      const key = fc.constantFrom(...PROTOTYPE_NAMES, "plain", "used");
      const step = fc.oneof(
        fc.record({ kind: fc.constant("usage" as const), key, used: fc.nat(9) }),
        fc.record({ kind: fc.constant("remember" as const), key, status: fc.constantFrom(200, 201) }),
        fc.record({ kind: fc.constant("lead" as const), key }),
        fc.record({ kind: fc.constant("waitlist" as const), key }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
          const store = await open();
          try {
            const usage = new Map<string, number>();
            const answers = new Map<string, number>();
            const leads = new Map<string, string>();
            const waitlist = new Map<string, string>();
            for (const [n, s] of steps.entries()) {
              await store.transaction(async (tx) => {
                if (s.kind === "usage") await tx.setTicketUsage(s.key, { used: s.used });
                if (s.kind === "remember") await tx.remember(s.key, { fingerprint: "f", status: s.status, body: { n }, createdAt: new Date().toISOString() });
                // The first lead of a conversation and the first sign-up of an address are the ones found.
                if (s.kind === "lead" && !leads.has(s.key)) leads.set(s.key, `lead-${n}`);
                if (s.kind === "lead") await tx.put("leads", { reference: `lead-${n}`, createdAt: "2026-01-01T00:00:00.000Z", conversationId: s.key });
                if (s.kind === "waitlist" && !waitlist.has(s.key)) waitlist.set(s.key, `waitlist-${n}`);
                if (s.kind === "waitlist") await tx.put("waitlist", { reference: `waitlist-${n}`, createdAt: "2026-01-01T00:00:00.000Z", email: s.key });
              });
              if (s.kind === "usage") usage.set(s.key, s.used);
              if (s.kind === "remember") answers.set(s.key, s.status);
            }
            for (const k of [...PROTOTYPE_NAMES, "plain", "used"]) {
              expect(await store.ticketUsage(k), `usage of ${k}`).toEqual({ used: usage.get(k) ?? 0 });
              await store.transaction(async (tx) => {
                expect(await tx.ticketUsage(k), `usage of ${k} in a transaction`).toEqual({ used: usage.get(k) ?? 0 });
                expect((await tx.rememberedAnswer(k))?.status, `answer of ${k}`).toBe(answers.get(k));
                expect((await tx.findLeadByConversation(k))?.reference, `lead of ${k}`).toBe(leads.get(k));
                expect((await tx.findWaitlistByEmail(k))?.reference, `sign-up of ${k}`).toBe(waitlist.get(k));
              });
            }
          } finally {
            await store.close();
          }
        }),
        { numRuns: 15 },
      );
      expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(PROTOTYPE_NAMES);
    }, 120_000);
  });
}
