/**
 * Where submissions live. One interface, implemented on lowdb (embedded, default) and PostgreSQL
 * (several instances); the contract suite in test/store-contract.ts runs against both.
 *
 * All writes go through `transaction`: the callback reads what it needs, stages its writes, and
 * the store applies them atomically and durably before the promise resolves. If the callback
 * throws, nothing is written; if the write fails, nothing is kept, in memory or on disk, and the
 * promise rejects (with StorageUnavailable when the disk or database is at fault). A transaction
 * never resolves on the strength of a write that is not durable yet: one that only read (a replay,
 * a duplicate) resolves once everything it read is on disk. Transactions that read the same key
 * (a client's allowance, a conversation, an e-mail, an idempotency key) never interleave.
 */
export type Collection = "leads" | "waitlist" | "quoteReviews" | "quoteRequests" | "ticketReviews" | "questions";

export const COLLECTIONS: readonly Collection[] = ["leads", "waitlist", "quoteReviews", "quoteRequests", "ticketReviews", "questions"];

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

/** What the operator's data commands need: they may run against a server's store from outside. */
export interface OperatorStore {
  /** Records created at or after `since` (ISO date), oldest first, read a batch at a time (exports). */
  records(collection: Collection, since?: string): AsyncIterable<StoredRecord>;
  /** Removes, or strips the address from, everything stored about a person; lists what changed. */
  erase(email: string): Promise<Erasure[]>;
  close(): Promise<void>;
}

export interface Store extends OperatorStore {
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  ticketUsage(clientId: string): Promise<TicketUsage>;
  /** Every record of a collection, oldest first (tests). */
  list(collection: Collection): Promise<StoredRecord[]>;
  /**
   * Resolves when the store is loaded and takes writes; rejects with StorageUnavailable naming
   * the store and the cause while they fail. Tries a real write when the last one failed, so a
   * store whose disk or database is back reports so without waiting for a client's write.
   */
  checkWritable(): Promise<void>;
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
  // Questions are stored with addresses and numbers replaced: nothing in them names a person.
  questions: "deleted",
};

/**
 * How long each collection keeps its records: what a person submitted to be contacted is kept
 * until it is erased; reviews for the retention period when the operator bounds the store
 * (FRONTDESK_RETENTION_DAYS); logged questions for a fixed time, or the retention period if it is
 * shorter. A new collection must say which it is.
 */
export type Retention = "until erased" | "retention period" | { days: number };

export const RETENTION: Record<Collection, Retention> = {
  leads: "until erased",
  waitlist: "until erased",
  quoteReviews: "retention period",
  quoteRequests: "until erased",
  ticketReviews: "retention period",
  questions: { days: 30 },
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** Each collection whose records expire, with the oldest createdAt it keeps now. */
export function expiryCutoffs(retentionDays: number | undefined, now: Date): [Collection, string][] {
  return COLLECTIONS.flatMap((collection): [Collection, string][] => {
    const rule = RETENTION[collection];
    const days = rule === "until erased" ? undefined : rule === "retention period" ? retentionDays : Math.min(rule.days, retentionDays ?? rule.days);
    return days === undefined ? [] : [[collection, new Date(now.getTime() - days * DAY_MS).toISOString()]];
  });
}

export const holdsEmail = (record: Record<string, unknown>, email: string) =>
  EMAIL_FIELDS.some((field) => typeof record[field] === "string" && (record[field] as string).toLowerCase() === email.toLowerCase());

/** The store cannot be used as asked (a corrupt file, a file in use, an unreachable database at start). */
export class StoreError extends Error {}

/**
 * Writes fail for a reason outside the request: the disk is full, read-only or failing, the
 * database unreachable or read-only. Nothing of the failed write was kept; the same request may
 * be sent again later. `store` names the store, `reason` the cause (never record contents).
 */
export class StorageUnavailable extends StoreError {
  constructor(
    readonly store: string,
    readonly reason: string,
  ) {
    super(`${store} cannot save: ${reason}`);
  }
}

/** Seconds a client is asked to wait before retrying a write that met StorageUnavailable. */
export const STORAGE_RETRY_AFTER_SECONDS = 5;

/** How long a dead process's lock on the embedded store's data file keeps a new process waiting, unless configured. */
export const DEFAULT_LOCK_STALE_MS = 10_000;

/** Remembered idempotent answers are kept at least this long. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
