import { once } from "node:events";
import type { Writable } from "node:stream";
import type { Collection, Store, StoredRecord } from "./store/store.js";

/**
 * The operator's data commands: export what people submitted (CSV or JSON lines, streamed, so
 * memory stays flat however large the store) and erase everything about one person.
 */
export const EXPORTS = {
  leads: { collections: ["leads"], columns: ["reference", "createdAt", "name", "email", "company", "intent", "budget", "timeline", "requestedBy", "conversationId", "source", "utm", "description"] },
  waitlist: { collections: ["waitlist"], columns: ["reference", "createdAt", "updatedAt", "name", "email", "company", "role", "toolsInterested", "source"] },
  quotes: { collections: ["quoteReviews", "quoteRequests"], columns: ["kind", "reference", "createdAt", "companyName", "contactEmail", "score", "budget", "timeline", "servicesInterested", "requestedBy", "projectDescription", "quoteText", "context", "fileName"] },
  tickets: { collections: ["ticketReviews"], columns: ["reference", "createdAt", "clientId", "contactEmail", "type", "rating", "title"] },
} satisfies Record<string, { collections: Collection[]; columns: string[] }>;

export type ExportKind = keyof typeof EXPORTS;
export type ExportFormat = "csv" | "jsonl";

/** One CSV field (RFC 4180): quoted when it holds a separator, a quote or a line break. */
function csvField(value: unknown): string {
  if (value === undefined || value === null) return "";
  const text = Array.isArray(value) ? value.join(";") : typeof value === "object" ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, "drain");
}

export async function exportRecords(store: Store, kind: ExportKind, format: ExportFormat, out: Writable, since?: string): Promise<number> {
  const { collections, columns } = EXPORTS[kind];
  if (format === "csv") await write(out, `${columns.join(",")}\r\n`);
  let count = 0;
  for (const collection of collections) {
    for await (const record of store.records(collection, since)) {
      const row: StoredRecord = kind === "quotes" ? { kind: collection === "quoteReviews" ? "review" : "request", ...record } : record;
      await write(out, format === "csv" ? `${columns.map((c) => csvField(row[c])).join(",")}\r\n` : `${JSON.stringify(row)}\n`);
      count++;
    }
  }
  return count;
}
