/**
 * Authentication of the Pusher HTTP API (what the `pusher` server SDK signs): query params
 * `auth_key, auth_timestamp, auth_version, body_md5, auth_signature`, where the signature is
 * hex HMAC-SHA256(secret, "METHOD\nPATH\n" + the other params sorted by name, joined k=v&).
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";

/** How far auth_timestamp may be from our clock, as the real service allows. */
export const PUSHER_TIMESTAMP_TOLERANCE_S = 600;

export interface PusherRequestToVerify {
  key: string;
  secret: string;
  method: string;
  /** The URL path exactly as signed, e.g. `/apps/123/events`. */
  path: string;
  query: URLSearchParams;
  rawBody: string;
  nowMs: number;
}

export type PusherVerdict = { ok: true } | { ok: false; reason: string };

/** Hex HMAC-SHA256 of `METHOD\npath\nk=v&...` (params sorted by name, values not escaped, like the SDK). */
export function signPusherRequest(secret: string, method: string, path: string, params: Record<string, string>): string {
  const query = Object.keys(params)
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join("&");
  return createHmac("sha256", secret).update(`${method.toUpperCase()}\n${path}\n${query}`).digest("hex");
}

export function md5Hex(text: string): string {
  return createHash("md5").update(text, "utf8").digest("hex");
}

/** Checks key, timestamp, body digest and signature, in that order; the reason names the first failure. */
export function verifyPusherRequest(request: PusherRequestToVerify): PusherVerdict {
  const { query } = request;
  if (query.get("auth_key") !== request.key) return { ok: false, reason: "Unknown auth_key" };

  const timestamp = Number(query.get("auth_timestamp"));
  const skewS = Math.abs(request.nowMs / 1000 - timestamp);
  if (!Number.isFinite(timestamp) || skewS > PUSHER_TIMESTAMP_TOLERANCE_S) {
    return { ok: false, reason: "auth_timestamp missing or more than 600 s from server time" };
  }
  if (query.has("auth_version") && query.get("auth_version") !== "1.0") {
    return { ok: false, reason: "Unsupported auth_version" };
  }
  // The SDK only sends body_md5 with a body; a body without it would be unsigned.
  if (request.rawBody !== "" || query.has("body_md5")) {
    if (!sameText(query.get("body_md5") ?? "", md5Hex(request.rawBody))) {
      return { ok: false, reason: "body_md5 does not match the body" };
    }
  }

  const signed: Record<string, string> = {};
  for (const [name, value] of query) if (name !== "auth_signature") signed[name] = value;
  const expected = signPusherRequest(request.secret, request.method, request.path, signed);
  if (!sameText(query.get("auth_signature") ?? "", expected)) {
    return { ok: false, reason: "Invalid signature" };
  }
  return { ok: true };
}

/** Constant-time comparison (the length check leaks only the length, which is public: 32 or 64 hex). */
function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given, "utf8");
  const b = Buffer.from(expected, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}
