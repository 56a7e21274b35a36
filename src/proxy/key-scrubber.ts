/**
 * Keeps the API key (and secret) on the server: removes any key a browser sent, and
 * removes the proxy's own secrets from whatever goes back, in case the upstream echoes them
 * (an error page quoting the request, a URL with `api_key=`).
 */
import { redact } from "../api/errors/error-message.ts";

/** Names under which a key may travel: `api_key` as the spec says, and its usual spellings. */
export function isKeyName(name: string): boolean {
  return /^api[_-]?key$/i.test(name);
}

/** Drops every key parameter from a query. */
export function stripKeyFromQuery(params: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of params) if (!isKeyName(k)) out.append(k, v);
  return out;
}

/** A copy of a JSON body's top-level object without key fields. */
export function stripKeyFromObject(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([k]) => !isKeyName(k)));
}

export interface Scrubber {
  text: (text: string) => string;
  headers: (headers: Record<string, string>) => Record<string, string>;
}

/**
 * Scrubs secrets as they may appear: raw, URL-encoded and JSON-escaped, and any
 * `api_key=` query value whatever key it holds.
 */
export function createScrubber(secrets: readonly (string | null)[]): Scrubber {
  const variants = new Set<string>();
  for (const s of secrets) {
    if (!s) continue;
    variants.add(s);
    variants.add(encodeURIComponent(s));
    variants.add(JSON.stringify(s).slice(1, -1));
  }
  // Longest first, so a variant containing another is replaced whole.
  const list = [...variants].sort((a, b) => b.length - a.length);
  // Most texts hold no secret: looking costs less than replacing.
  const text = (value: string) => (list.some((s) => value.includes(s)) || /api_key=/i.test(value) ? redact(value, list) : value);
  return {
    text,
    headers(headers) {
      const out: Record<string, string> = {};
      for (const name in headers) out[name] = text(headers[name]!);
      return out;
    },
  };
}
