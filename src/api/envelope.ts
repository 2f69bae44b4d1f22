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

/**
 * A success envelope around serialized `data`: catalog answers are serialized once per catalog
 * load, so a response costs one string concatenation (measured faster than sending bytes, which
 * makes Node write headers and body in two pieces).
 */
export function successBody(data: string, now: Date, type?: string): string {
  const typed = type === undefined ? "" : `,"type":${JSON.stringify(type)}`;
  return `{"success":true,"apiVersion":"${API_VERSION}","timestamp":"${now.toISOString()}"${typed},"data":${data}}`;
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
