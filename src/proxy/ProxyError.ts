import { errorEnvelope } from "../api/protocol/error-envelope.ts";

/**
 * A refusal or failure the proxy answers itself, as the API's error envelope
 * (`{ "error": message }`, the shape the client reads) with a status. Thrown anywhere in a
 * request's handling and turned into a response in one place.
 */
export class ProxyError extends Error {
  override name = "ProxyError" as const;
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }

  toResponse(): Response {
    return jsonResponse(errorEnvelope(this.message), this.status, this.headers);
  }
}

/** A JSON response the proxy writes itself (never cached: it may describe this client only). */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}
