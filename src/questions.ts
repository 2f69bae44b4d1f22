import { randomBytes } from "node:crypto";
import type { Store, StoredRecord } from "./store/store.js";

/**
 * The query log (FRONTDESK_QUERY_LOG=on): recommend and FAQ questions that found little, kept for
 * 30 days (store RETENTION) so editors can add the `problems` phrases, concepts and FAQ entries
 * where people's words and the catalog's differ. What could name a person is replaced before
 * anything is stored: e-mail addresses, phone numbers and long runs of digits.
 */
export type QuestionKind = "recommend" | "faq";

/** A question whose best answer scores below this (0-1), or that found nothing, is logged. */
export const WEAK_SCORE = 0.3;

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}/gu;
// A phone number: an optional +, then digits in groups separated by spaces, dots, dashes or brackets.
const PHONE = /\+?\(?\d[\d\s().-]{6,}\d/g;
const DIGITS = /\d{5,}/g;

export function scrub(question: string): string {
  // A bare run of digits (an order or account number) first; what is left of a phone has separators.
  return question.replace(EMAIL, "[email]").replace(DIGITS, "[number]").replace(PHONE, "[phone]");
}

export interface QuestionLog {
  /** Records a weak question in the background: a read never waits for, or fails on, the log. */
  record(kind: QuestionKind, question: string, best: number | undefined, results: number): void;
}

export function questionLog(store: Store, clock: () => Date, warn: (message: string) => void): QuestionLog {
  return {
    record(kind, question, best, results) {
      const record: StoredRecord = {
        reference: `question-${randomBytes(8).toString("hex")}`,
        createdAt: clock().toISOString(),
        kind,
        question: scrub(question),
        results,
        ...(best === undefined ? {} : { best }),
      };
      store.transaction((tx) => tx.put("questions", record)).catch((error: Error) => warn(`a weak question was not logged: ${error.message}`));
    },
  };
}

export interface QuestionCount {
  kind: QuestionKind;
  question: string;
  count: number;
  best: number | undefined;
  lastAsked: string;
}

/** The logged questions, one row per distinct question (letter case and spacing aside), most asked first. */
export function countQuestions(records: Iterable<StoredRecord>): QuestionCount[] {
  const rows = new Map<string, QuestionCount>();
  for (const r of records) {
    const question = String(r.question);
    const key = `${String(r.kind)}\u0000${question.toLowerCase().replace(/\s+/g, " ").trim()}`;
    const best = typeof r.best === "number" ? r.best : undefined;
    const row = rows.get(key);
    if (!row) rows.set(key, { kind: r.kind as QuestionKind, question, count: 1, best, lastAsked: r.createdAt });
    else {
      row.count++;
      if (r.createdAt > row.lastAsked) row.lastAsked = r.createdAt;
      if (best !== undefined && (row.best === undefined || best > row.best)) row.best = best;
    }
  }
  return [...rows.values()].sort((a, b) => b.count - a.count || (a.lastAsked < b.lastAsked ? 1 : -1));
}
