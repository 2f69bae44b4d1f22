/**
 * Where submissions live. One interface, implemented on lowdb (embedded, default) and PostgreSQL
 * (several instances); the contract suite in test/store-contract.ts runs against both.
 *
 * All writes go through `transaction`: the callback reads what it needs, stages its writes, and
 * the store applies them atomically and durably before the promise resolves. If the callback
 * throws, nothing is written. Transactions that read the same key (a client's allowance, a
 * conversation, an e-mail, an idempotency key) never interleave.
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

export interface Erasure {
  collection: Collection | "ticketUsage" | "idempotency";
  /** The record's reference (the client id for ticket usage, the key for idempotency). */
  reference: string;
  action: "deleted" | "anonymised";
}

export interface Store {
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  ticketUsage(clientId: string): Promise<TicketUsage>;
  /** Every record of a collection, oldest first (tests). */
  list(collection: Collection): Promise<StoredRecord[]>;
  /** Records created at or after `since` (ISO date), oldest first, read a batch at a time (exports). */
  records(collection: Collection, since?: string): AsyncIterable<StoredRecord>;
  /** Removes, or strips the address from, everything stored about a person; lists what changed. */
  erase(email: string): Promise<Erasure[]>;
  close(): Promise<void>;
}

/** Fields that hold a person's e-mail address. */
export const EMAIL_FIELDS = ["email", "contactEmail"] as const;

/**
 * What erasure does per collection: submissions that are about the person are deleted; ticket
 * reviews keep their anonymous rating (for the allowance and statistics) without the address.
 */
export const ERASURE: Record<Collection, "deleted" | "anonymised"> = {
  leads: "deleted",
  waitlist: "deleted",
  quoteReviews: "deleted",
  quoteRequests: "deleted",
  ticketReviews: "anonymised",
};

export const holdsEmail = (record: Record<string, unknown>, email: string) =>
  EMAIL_FIELDS.some((field) => typeof record[field] === "string" && (record[field] as string).toLowerCase() === email.toLowerCase());

export class StoreError extends Error {}

/** Remembered idempotent answers are kept at least this long. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
