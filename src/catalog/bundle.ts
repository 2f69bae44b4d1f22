import { createHash, createPublicKey, verify, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";

/**
 * A published catalog, as any static host serves it (GitHub Pages, a bucket, a CDN): immutable
 * bundles named by their content (`catalog-<hash>.tar.gz`, with `.sig` beside it when signed) and
 * one small pointer, `latest.json`, naming the bundle to serve. `frontdesk publish` writes them;
 * an instance with FRONTDESK_CATALOG_URL follows the pointer.
 */
export const POINTER_FILE = "latest.json";
export const POINTER_FORMAT = 1;

export interface Pointer {
  format: number;
  /** The catalog's content hash (its manifest's), the same for the same content. */
  hash: string;
  /** File name of the bundle, beside the pointer. */
  bundle: string;
  /** sha256 of the bundle's bytes, hex. */
  sha256: string;
  /** File name of the bundle's detached ed25519 signature (base64), when it is signed. */
  signature?: string;
  /** When this pointer was written (ISO 8601). */
  builtAt: string;
  /** The commit the content came from, when known. */
  commit?: string;
}

export const bundleName = (contentHash: string) => `catalog-${contentHash.slice(0, 16)}.tar.gz`;

export const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** A pointer as read from a host, checked field by field; the error says which field is wrong. */
export function parsePointer(text: string): Pointer {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${POINTER_FILE} is not JSON`);
  }
  const pointer = value as Partial<Pointer>;
  if (pointer?.format !== POINTER_FORMAT) throw new Error(`${POINTER_FILE} has format ${String(pointer?.format)}, this server reads format ${POINTER_FORMAT}: publish with this version`);
  for (const field of ["hash", "bundle", "sha256", "builtAt"] as const) {
    if (typeof pointer[field] !== "string" || pointer[field] === "") throw new Error(`${POINTER_FILE} has no ${field}`);
  }
  // Only a file beside the pointer: never a path elsewhere on the host.
  if (!/^catalog-[0-9a-f]{16}\.tar\.gz$/.test(pointer.bundle!)) throw new Error(`${POINTER_FILE} names the bundle "${pointer.bundle}", which is not a catalog bundle's name`);
  if (pointer.signature !== undefined && pointer.signature !== `${pointer.bundle}.sig`) throw new Error(`${POINTER_FILE} names the signature "${pointer.signature}", not ${pointer.bundle}.sig`);
  return pointer as Pointer;
}

/**
 * FRONTDESK_CATALOG_PUBLIC_KEY: the ed25519 public key itself (PEM) or the path of a PEM file.
 */
export function readPublicKey(value: string): KeyObject {
  const pem = value.trim().startsWith("-----BEGIN") ? value : readFileSync(value, "utf8");
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== "ed25519") throw new Error(`FRONTDESK_CATALOG_PUBLIC_KEY is a ${key.asymmetricKeyType} key: publish with an ed25519 key (frontdesk publish --sign-key)`);
  return key;
}

export function signatureHolds(bundle: Buffer, signature: string, key: KeyObject): boolean {
  return verify(null, bundle, key, Buffer.from(signature.trim(), "base64"));
}
