/**
 * A response the proxy writes as text: its own JSON (refusals, `/config`, pages it
 * assembles) and the upstream's API responses once rewritten. It stays plain data until a
 * runtime needs it: the Fetch-API handler turns it into a Response at the end, the Node
 * adapter writes it in one call with its length (building a Response, and the body stream
 * inside it, costs more than the rest of a status poll's handling).
 */
import type { StreamResponse } from "./stream-response.ts";

export class TextResponse {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    /** Null for a response without a body (204, 304). */
    readonly text: string | null,
  ) {}

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  /** The JSON it holds, or null when it holds none. */
  json(): unknown {
    try {
      return this.text ? JSON.parse(this.text) : null;
    } catch {
      return null;
    }
  }

  toResponse(): Response {
    return new Response(this.text, { status: this.status, headers: this.headers });
  }
}

/** What a route of the proxy responds with: text it wrote, a Node stream (assets), or a Response (event streams, preflights). */
export type RouteResponse = TextResponse | StreamResponse | Response;

export const toResponse = (response: RouteResponse): Response => (response instanceof Response ? response : response.toResponse());

/** The response with `headers` added (set over any of the same name). */
export function withHeaders(response: RouteResponse, headers: Record<string, string>): RouteResponse {
  if (response instanceof TextResponse) return new TextResponse(response.status, { ...response.headers, ...headers }, response.text);
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
