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

const CLOSE = Buffer.from("}");

/**
 * A success envelope around serialized `data`. Catalog answers arrive as bytes encoded once at
 * load, so a large list costs one memory copy per response, not a UTF-8 encoding.
 */
export function successBody(data: string | Buffer, now: Date, type?: string): string | Buffer {
  const typed = type === undefined ? "" : `,"type":${JSON.stringify(type)}`;
  const head = `{"success":true,"apiVersion":"${API_VERSION}","timestamp":"${now.toISOString()}"${typed},"data":`;
  return typeof data === "string" ? `${head}${data}}` : Buffer.concat([Buffer.from(head), data, CLOSE]);
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
