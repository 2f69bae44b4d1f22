import { describe, expect, it } from "vitest";
import type { Store } from "../src/store/store.js";

/**
 * What every store must do, whatever it is built on. Each implementation's test file calls this
 * with a factory that returns a fresh, empty store.
 */
export function storeContract(name: string, open: () => Promise<Store>): void {
  const record = (reference: string, extra: Record<string, unknown> = {}) => ({ reference, createdAt: "2026-01-01T00:00:00.000Z", ...extra });

  describe(`store contract: ${name}`, () => {
    it("stores records and lists them in order", async () => {
      const store = await open();
      await store.transaction(async (tx) => {
        await tx.put("leads", record("lead-1", { conversationId: "c1" }));
        await tx.put("leads", record("lead-2"));
      });
      expect((await store.list("leads")).map((r) => r.reference)).toEqual(["lead-1", "lead-2"]);
      await store.close();
    });

    it("replaces a record with the same reference", async () => {
      const store = await open();
      await store.transaction(async (tx) => tx.put("waitlist", record("w-1", { email: "a@b.c", toolsInterested: ["x"] })));
      await store.transaction(async (tx) => tx.put("waitlist", record("w-1", { email: "a@b.c", toolsInterested: ["x", "y"] })));
      expect(await store.list("waitlist")).toEqual([record("w-1", { email: "a@b.c", toolsInterested: ["x", "y"] })]);
      await store.close();
    });

    it("finds leads by conversation and sign-ups by e-mail", async () => {
      const store = await open();
      await store.transaction(async (tx) => {
        await tx.put("leads", record("lead-1", { conversationId: "c1" }));
        await tx.put("waitlist", record("w-1", { email: "a@b.c" }));
      });
      await store.transaction(async (tx) => {
        expect((await tx.findLeadByConversation("c1"))?.reference).toBe("lead-1");
        expect(await tx.findLeadByConversation("c2")).toBeUndefined();
        expect((await tx.findWaitlistByEmail("a@b.c"))?.reference).toBe("w-1");
      });
      await store.close();
    });

    it("writes nothing when the transaction fails", async () => {
      const store = await open();
      await expect(
        store.transaction(async (tx) => {
          await tx.put("leads", record("lead-x"));
          await tx.setTicketUsage("c", { used: 3 });
          throw new Error("rejected");
        }),
      ).rejects.toThrow("rejected");
      expect(await store.list("leads")).toEqual([]);
      expect(await store.ticketUsage("c")).toEqual({ used: 0 });
      await store.close();
    });

    it("runs transactions one at a time, so counters never lose an update", async () => {
      const store = await open();
      await Promise.all(
        Array.from({ length: 40 }, () =>
          store.transaction(async (tx) => {
            const usage = await tx.ticketUsage("busy");
            await new Promise((r) => setTimeout(r, 1));
            await tx.setTicketUsage("busy", { used: usage.used + 1 });
          }),
        ),
      );
      expect(await store.ticketUsage("busy")).toEqual({ used: 40 });
      await store.close();
    });

    it("streams the records of a collection, oldest first, from a date on", async () => {
      const store = await open();
      await store.transaction(async (tx) => {
        await tx.put("leads", { reference: "lead-old", createdAt: "2026-01-01T00:00:00.000Z" });
        await tx.put("leads", { reference: "lead-new", createdAt: "2026-03-01T00:00:00.000Z" });
      });
      const all: string[] = [];
      for await (const r of store.records("leads")) all.push(r.reference);
      const recent: string[] = [];
      for await (const r of store.records("leads", "2026-02-01")) recent.push(r.reference);
      expect([all, recent]).toEqual([["lead-old", "lead-new"], ["lead-new"]]);
      await store.close();
    });

    it("erases a person: submissions deleted, ticket reviews and usage stripped of the address", async () => {
      const store = await open();
      const now = new Date().toISOString();
      await store.transaction(async (tx) => {
        await tx.put("leads", record("lead-1", { email: "Ann@Example.com", name: "Ann" }));
        await tx.put("leads", record("lead-2", { email: "bob@example.com" }));
        await tx.put("waitlist", record("w-1", { email: "ann@example.com" }));
        await tx.put("quoteRequests", record("quote-1", { contactEmail: "ann@example.com" }));
        await tx.put("ticketReviews", record("tr-1", { contactEmail: "ann@example.com", rating: 7 }));
        await tx.setTicketUsage("c1", { used: 6, email: "ann@example.com" });
        await tx.remember("joinWaitlist:k", { fingerprint: "f", status: 200, body: { email: "ann@example.com" }, createdAt: now });
      });
      const changes = await store.erase("ANN@example.com");
      expect(changes.map((c) => `${c.collection} ${c.reference} ${c.action}`).sort()).toEqual([
        "idempotency joinWaitlist:k deleted",
        "leads lead-1 deleted",
        "quoteRequests quote-1 deleted",
        "ticketReviews tr-1 anonymised",
        "ticketUsage c1 anonymised",
        "waitlist w-1 deleted",
      ]);
      expect((await store.list("leads")).map((r) => r.reference)).toEqual(["lead-2"]);
      expect(await store.list("ticketReviews")).toEqual([record("tr-1", { rating: 7 })]);
      expect(await store.ticketUsage("c1")).toEqual({ used: 6 });
      await store.transaction(async (tx) => expect(await tx.rememberedAnswer("joinWaitlist:k")).toBeUndefined());
      expect(await store.erase("ann@example.com")).toEqual([]);
      await store.close();
    });

    it("keeps logged questions beside the submissions, and streams them", async () => {
      const store = await open();
      await store.transaction(async (tx) => tx.put("questions", record("question-1", { kind: "faq", question: "do you do cobol", results: 0 })));
      const streamed = [];
      for await (const r of store.records("questions")) streamed.push(r);
      expect(streamed).toEqual([record("question-1", { kind: "faq", question: "do you do cobol", results: 0 })]);
      expect(await store.list("leads")).toEqual([]);
      await store.close();
    });

    it("remembers idempotent answers", async () => {
      const store = await open();
      const answer = { fingerprint: "f", status: 200, body: { reference: "lead-1" }, createdAt: new Date().toISOString() };
      await store.transaction(async (tx) => tx.remember("op:key", answer));
      await store.transaction(async (tx) => {
        expect(await tx.rememberedAnswer("op:key")).toEqual(answer);
        expect(await tx.rememberedAnswer("op:other")).toBeUndefined();
      });
      await store.close();
    });
  });
}
