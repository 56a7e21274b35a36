/**
 * Who may call the proxy from a browser. A request with no `Origin` (a server, a same-origin
 * GET) or from the proxy's own origin passes; a configured origin passes and gets CORS
 * headers; any other origin is refused outright, not merely left without CORS headers,
 * because a form POST needs no preflight and would otherwise spend the account's credits.
 */
import { ProxyError } from "./proxy-error.ts";
import type { ProxyRequest } from "./proxy-request.ts";

export type OriginVerdict = "none" | "same" | "allowed";

const ALLOWED_HEADERS = "accept, accept-language, content-type, if-modified-since, if-none-match, if-range, last-event-id, range";
const EXPOSED_HEADERS = "accept-ranges, content-length, content-range, retry-after";

/** Throws a 403 for an origin that is neither this proxy's nor configured. */
export function checkOrigin(request: ProxyRequest, allowed: ReadonlySet<string>, publicUrl: string | null): OriginVerdict {
  const origin = request.headers.get("origin");
  if (origin === null) return "none";
  let host: string | null = null;
  try {
    host = new URL(origin).host;
  } catch {
    // "null" (sandboxed frames, file:) and junk fall through to the refusal.
  }
  // Own origin by host: behind a TLS-terminating proxy the scheme seen here may differ.
  if (host && (host === new URL(request.url).host || (publicUrl && origin === new URL(publicUrl).origin))) return "same";
  if (allowed.has(origin)) return "allowed";
  throw new ProxyError(403, "This origin may not use the Skybox proxy");
}

/** CORS headers for a response to a configured origin. */
export function corsHeaders(origin: string): Record<string, string> {
  return { "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSED_HEADERS, vary: "Origin" };
}

/** Responds to a preflight (`OPTIONS`) once `checkOrigin` passed it. */
export function preflight(request: ProxyRequest, verdict: OriginVerdict): Response {
  const origin = request.headers.get("origin");
  if (verdict !== "allowed" || !origin) return new Response(null, { status: 204 });
  return new Response(null, {
    status: 204,
    headers: {
      ...corsHeaders(origin),
      "access-control-allow-methods": "GET, HEAD, POST, DELETE",
      "access-control-allow-headers": ALLOWED_HEADERS,
      "access-control-max-age": "600",
    },
  });
}
