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
