import { API_VERSION } from "./operations.js";

/**
 * The envelope every answer travels in. Bodies are assembled from an already serialized `data`,
 * so a catalog answer costs one string concatenation, not a JSON.stringify of the catalog.
 */
export interface ErrorDetail {
  /** Where the problem is, e.g. body.contactEmail or query.limit. */
  path: string;
  message: string;
}

export interface ErrorPayload {
  code: string;
  message: string;
  details?: ErrorDetail[];
}

/** Below this size a string answer is faster (Node writes it with the headers in one piece). */
const LARGE = 64 * 1024;
const CLOSE = Buffer.from("}");

/**
 * `data` serialized once per catalog load. A large one also keeps its UTF-8 bytes: copying them
 * into each answer is measured at twice the throughput of encoding a megabyte of text again.
 */
export class Serialized {
  readonly bytes: Buffer | undefined;
  constructor(readonly text: string) {
    this.bytes = text.length >= LARGE ? Buffer.from(text) : undefined;
  }
}

/** A success envelope around serialized `data`: a response only splices in its timestamp. */
export function successBody(data: string | Serialized, now: Date, type?: string): string | Buffer {
  const typed = type === undefined ? "" : `,"type":${JSON.stringify(type)}`;
  const head = `{"success":true,"apiVersion":"${API_VERSION}","timestamp":"${now.toISOString()}"${typed},"data":`;
  if (typeof data === "string") return `${head}${data}}`;
  return data.bytes ? Buffer.concat([Buffer.from(head), data.bytes, CLOSE]) : `${head}${data.text}}`;
}

export function errorBody(error: ErrorPayload, now: Date): string {
  return JSON.stringify({ success: false, apiVersion: API_VERSION, timestamp: now.toISOString(), error });
}

/** An answer other than 200, raised by a handler and written by the app's error handler. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const validationError = (message: string, details: ErrorDetail[]) => new ApiError(400, "validation_error", message, details);
