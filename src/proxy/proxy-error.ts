import { errorEnvelope } from "../api/protocol/error-envelope.ts";
import { TextResponse } from "./text-response.ts";

/**
 * A refusal or failure the proxy responds with itself, as the API's error envelope
 * (`{ "error": message }`, the shape the client reads) with a status. Thrown anywhere in a
 * request's handling and turned into a response in one place.
 */
export class ProxyError extends Error {
  override name = "ProxyError" as const;
  readonly status: number;
  readonly headers: Record<string, string>;

  /** Makes the refusal: its HTTP status, the sentence the client reads, and extra headers (`Retry-After`). */
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }

  /** The refusal as the proxy's own response (the API's error envelope). */
  toTextResponse(): TextResponse {
    return jsonResponse(errorEnvelope(this.message), this.status, this.headers);
  }

  /** The refusal as a Fetch-API `Response`. */
  toResponse(): Response {
    return this.toTextResponse().toResponse();
  }
}

/** Headers of JSON the proxy writes itself (never cached: it may describe this client only). */
export const OWN_JSON_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "application/json; charset=utf-8",
  "cache-control": "no-store",
};

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): TextResponse {
  return new TextResponse(status, { ...OWN_JSON_HEADERS, ...headers }, JSON.stringify(body));
}
