import { once } from "node:events";
import type { Writable } from "node:stream";
import { countQuestions } from "./questions.js";
import type { Collection, OperatorStore, StoredRecord } from "./store/store.js";

/**
 * The operator's data commands: export what people submitted (CSV or JSON lines, streamed, so
 * memory stays flat however large the store) and erase everything about one person.
 */
export const EXPORTS = {
  leads: { collections: ["leads"], columns: ["reference", "createdAt", "name", "email", "company", "intent", "budget", "timeline", "requestedBy", "conversationId", "source", "utm", "description"] },
  waitlist: { collections: ["waitlist"], columns: ["reference", "createdAt", "updatedAt", "name", "email", "company", "role", "toolsInterested", "source"] },
  quotes: { collections: ["quoteReviews", "quoteRequests"], columns: ["kind", "reference", "createdAt", "companyName", "contactEmail", "score", "budget", "timeline", "servicesInterested", "requestedBy", "projectDescription", "quoteText", "context", "fileName"] },
  tickets: { collections: ["ticketReviews"], columns: ["reference", "createdAt", "clientId", "contactEmail", "type", "rating", "title"] },
  // One row per distinct question that found little (FRONTDESK_QUERY_LOG), most asked first.
  questions: { collections: ["questions"], columns: ["kind", "question", "count", "best", "lastAsked"] },
} satisfies Record<string, { collections: Collection[]; columns: string[] }>;

export type ExportKind = keyof typeof EXPORTS;
export type ExportFormat = "csv" | "jsonl";

/** One CSV field (RFC 4180): quoted when it holds a separator, a quote or a line break. */
function csvField(value: unknown): string {
  if (value === undefined || value === null) return "";
  const text = Array.isArray(value) ? value.join(";") : typeof value === "object" ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Writes with back-pressure until the reader goes away: `| head` closes the pipe after its lines,
 * which is a normal end of an export (EPIPE), not a failure. Other write errors are thrown.
 */
function sink(out: Writable) {
  let failure: NodeJS.ErrnoException | undefined;
  const onError = (error: NodeJS.ErrnoException) => (failure ??= error);
  out.on("error", onError);
  return {
    /** false once the reader is gone. */
    async write(text: string): Promise<boolean> {
      if (!failure && !out.write(text)) await Promise.race([once(out, "drain"), once(out, "close")]).catch(() => undefined);
      if (failure && failure.code !== "EPIPE") throw failure;
      return !failure && !out.destroyed;
    },
    done: () => out.off("error", onError),
  };
}

/** The rows of an export: records as stored (quotes say which kind), or logged questions counted. */
async function* rowsOf(store: OperatorStore, kind: ExportKind, since?: string): AsyncIterable<Record<string, unknown>> {
  if (kind === "questions") {
    const logged: StoredRecord[] = [];
    for await (const record of store.records("questions", since)) logged.push(record);
    for (const row of countQuestions(logged)) yield { ...row };
    return;
  }
  for (const collection of EXPORTS[kind].collections) {
    for await (const record of store.records(collection, since)) yield kind === "quotes" ? { kind: collection === "quoteReviews" ? "review" : "request", ...record } : record;
  }
}

export async function exportRecords(store: OperatorStore, kind: ExportKind, format: ExportFormat, out: Writable, since?: string): Promise<number> {
  const { columns } = EXPORTS[kind];
  const to = sink(out);
  let count = 0;
  try {
    if (format === "csv" && !(await to.write(`${columns.join(",")}\r\n`))) return count;
    for await (const row of rowsOf(store, kind, since)) {
      if (!(await to.write(format === "csv" ? `${columns.map((c) => csvField(row[c])).join(",")}\r\n` : `${JSON.stringify(row)}\n`))) return count;
      count++;
    }
    return count;
  } finally {
    to.done();
  }
}
