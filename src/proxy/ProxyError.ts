import { errorEnvelope } from "../api/protocol/error-envelope.ts";
import { TextAnswer } from "./text-answer.ts";

/**
 * A refusal or failure the proxy answers itself, as the API's error envelope
 * (`{ "error": message }`, the shape the client reads) with a status. Thrown anywhere in a
 * request's handling and turned into an answer in one place.
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

  /** The refusal as the proxy's own answer (the API's error envelope). */
  toAnswer(): TextAnswer {
    return jsonAnswer(errorEnvelope(this.message), this.status, this.headers);
  }

  /** The refusal as a Fetch-API `Response`. */
  toResponse(): Response {
    return this.toAnswer().toResponse();
  }
}

/** Headers of JSON the proxy writes itself (never cached: it may describe this client only). */
export const OWN_JSON_HEADERS: Readonly<Record<string, string>> = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };

export function jsonAnswer(body: unknown, status = 200, headers: Record<string, string> = {}): TextAnswer {
  return new TextAnswer(status, { ...OWN_JSON_HEADERS, ...headers }, JSON.stringify(body));
}
