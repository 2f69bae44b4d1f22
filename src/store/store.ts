/**
 * Where submissions live. One interface, implemented on lowdb (embedded, default) and meant for
 * PostgreSQL too; the contract test suite in test/store-contract runs against every implementation.
 *
 * All writes go through `transaction`: the callback reads what it needs, stages its writes, and
 * the store applies them atomically and durably before the promise resolves. If the callback
 * throws, nothing is written. Transactions on one store never interleave.
 */
export type Collection = "leads" | "waitlist" | "quoteReviews" | "quoteRequests" | "ticketReviews";

export interface StoredRecord {
  reference: string;
  createdAt: string;
  [field: string]: unknown;
}

export interface TicketUsage {
  used: number;
  email?: string;
}

export interface RememberedAnswer {
  fingerprint: string;
  status: number;
  body: unknown;
  createdAt: string;
}

export interface Transaction {
  findLeadByConversation(conversationId: string): Promise<StoredRecord | undefined>;
  findWaitlistByEmail(email: string): Promise<StoredRecord | undefined>;
  ticketUsage(clientId: string): Promise<TicketUsage>;
  rememberedAnswer(key: string): Promise<RememberedAnswer | undefined>;
  /** Insert, or replace the record with the same reference. */
  put(collection: Collection, record: StoredRecord): Promise<void>;
  setTicketUsage(clientId: string, usage: TicketUsage): Promise<void>;
  remember(key: string, answer: RememberedAnswer): Promise<void>;
}

export interface Store {
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  ticketUsage(clientId: string): Promise<TicketUsage>;
  /** Every record of a collection, oldest first (operator export, tests). */
  list(collection: Collection): Promise<StoredRecord[]>;
  close(): Promise<void>;
}

/** Remembered idempotent answers are kept at least this long. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
