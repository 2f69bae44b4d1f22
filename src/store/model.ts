import { COLLECTIONS, type Collection, type RememberedAnswer, type StoredRecord, type TicketUsage } from "./store.js";

/**
 * The embedded store's data in memory (what lowdb holds): every keyed thing in a Map, so no
 * caller-chosen key (a clientId named `__proto__`, an idempotency key named `constructor`) ever
 * reaches an object's prototype. Records keep their insertion order (a Map's), which is the order
 * they were first stored in; a record is never changed in place, only replaced, so a list of
 * records taken at one moment stays as it was while the store goes on (compaction writes such a
 * list in the background).
 *
 * Every change is an Op: the journal holds them, one line of them per group commit, and applying
 * one returns how to undo it, so a transaction whose write failed is taken back out of memory.
 */
export type Op =
  | ["put", Collection, StoredRecord]
  | ["delete", Collection, string]
  | ["usage", string, TicketUsage]
  | ["remember", string, RememberedAnswer]
  | ["forget", string];

export type Undo = () => void;

/** Everything at one moment, as the snapshot file lists it. */
export interface State {
  collections: Record<Collection, StoredRecord[]>;
  ticketUsage: [string, TicketUsage][];
  idempotency: [string, RememberedAnswer][];
}

/** The first record of a collection (in stored order) per value of one field: leads by conversationId, sign-ups by e-mail. */
class FirstByField {
  private readonly index = new Map<string, string>();

  constructor(
    private readonly field: string,
    private readonly records: Map<string, StoredRecord>,
  ) {}

  get(value: string): StoredRecord | undefined {
    const reference = this.index.get(value);
    return reference === undefined ? undefined : this.records.get(reference);
  }

  /** Called after `next` replaced `previous` (or was added, or previous was removed) in the collection. */
  update(previous: StoredRecord | undefined, next: StoredRecord | undefined): void {
    const before = valueOf(previous, this.field);
    const after = valueOf(next, this.field);
    if (before === after) return;
    if (before !== undefined && this.index.get(before) === previous!.reference) {
      this.index.delete(before);
      // Rare (an erasure, a changed field): the next record with that value takes its place.
      for (const record of this.records.values()) {
        if (valueOf(record, this.field) === before) {
          this.index.set(before, record.reference);
          break;
        }
      }
    }
    if (after !== undefined && !this.index.has(after)) this.index.set(after, next!.reference);
  }
}

const valueOf = (record: StoredRecord | undefined, field: string) => (typeof record?.[field] === "string" ? (record[field] as string) : undefined);

export class Model {
  readonly collections = Object.fromEntries(COLLECTIONS.map((c) => [c, new Map<string, StoredRecord>()])) as Record<Collection, Map<string, StoredRecord>>;
  readonly ticketUsage = new Map<string, TicketUsage>();
  readonly idempotency = new Map<string, RememberedAnswer>();
  private readonly leadsByConversation = new FirstByField("conversationId", this.collections.leads);
  private readonly waitlistByEmail = new FirstByField("email", this.collections.waitlist);

  findLeadByConversation(conversationId: string): StoredRecord | undefined {
    return this.leadsByConversation.get(conversationId);
  }

  findWaitlistByEmail(email: string): StoredRecord | undefined {
    return this.waitlistByEmail.get(email);
  }

  get size(): number {
    return COLLECTIONS.reduce((n, c) => n + this.collections[c].size, 0);
  }

  /** Applies `op` as loading does: nothing to undo, so nothing kept to undo it. */
  load(op: Op): void {
    switch (op[0]) {
      case "put":
        return this.setRecord(op[1], op[2].reference, op[2]);
      case "delete":
        return this.setRecord(op[1], op[2], undefined);
      case "usage":
        return void this.ticketUsage.set(op[1], op[2]);
      case "remember":
        return void this.idempotency.set(op[1], op[2]);
      case "forget":
        return void this.idempotency.delete(op[1]);
    }
  }

  apply(op: Op): Undo {
    switch (op[0]) {
      case "put": {
        const [, collection, record] = op;
        const previous = this.collections[collection].get(record.reference);
        this.setRecord(collection, record.reference, record);
        return () => this.setRecord(collection, record.reference, previous);
      }
      case "delete": {
        const [, collection, reference] = op;
        const previous = this.collections[collection].get(reference);
        this.setRecord(collection, reference, undefined);
        return () => this.setRecord(collection, reference, previous);
      }
      case "usage":
        return setOrDelete(this.ticketUsage, op[1], op[2]);
      case "remember":
        return setOrDelete(this.idempotency, op[1], op[2]);
      case "forget":
        return setOrDelete(this.idempotency, op[1], undefined);
    }
  }

  private setRecord(collection: Collection, reference: string, record: StoredRecord | undefined): void {
    const records = this.collections[collection];
    const previous = records.get(reference);
    if (record === undefined) records.delete(reference);
    else records.set(reference, record);
    if (collection === "leads") this.leadsByConversation.update(previous, record);
    if (collection === "waitlist") this.waitlistByEmail.update(previous, record);
  }

  /** The whole state at this moment; the lists are copies, the records shared (they are never changed in place). */
  capture(): State {
    return {
      collections: Object.fromEntries(COLLECTIONS.map((c) => [c, [...this.collections[c].values()]])) as Record<Collection, StoredRecord[]>,
      ticketUsage: [...this.ticketUsage],
      idempotency: [...this.idempotency],
    };
  }
}

function setOrDelete<V>(map: Map<string, V>, key: string, value: V | undefined): Undo {
  const had = map.has(key);
  const previous = map.get(key);
  if (value === undefined) map.delete(key);
  else map.set(key, value);
  return () => {
    if (had) map.set(key, previous as V);
    else map.delete(key);
  };
}

/** Checks that a value read from the journal is an Op; anything else means the file is damaged. */
export function isOp(value: unknown): value is Op {
  if (!Array.isArray(value)) return false;
  const [kind, key, payload] = value as unknown[];
  const isCollection = (COLLECTIONS as readonly unknown[]).includes(key);
  const isObject = payload !== null && typeof payload === "object" && !Array.isArray(payload);
  switch (kind) {
    case "put":
      return value.length === 3 && isCollection && isObject && typeof (payload as StoredRecord).reference === "string";
    case "delete":
      return value.length === 3 && isCollection && typeof payload === "string";
    case "usage":
    case "remember":
      return value.length === 3 && typeof key === "string" && isObject;
    case "forget":
      return value.length === 2 && typeof key === "string";
    default:
      return false;
  }
}
