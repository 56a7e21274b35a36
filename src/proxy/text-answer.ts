/**
 * An answer the proxy writes as text: its own JSON (refusals, `/config`, pages it
 * assembles) and the upstream's API answers once rewritten. It stays plain data until a
 * runtime needs it: the Fetch-API handler turns it into a Response at the end, the Node
 * adapter writes it in one call with its length (building a Response, and the body stream
 * inside it, costs more than the rest of a status poll's handling).
 */
import type { StreamResponse } from "./stream-response.ts";

export class TextAnswer {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    /** Null for an answer without a body (204, 304). */
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

/** What a route of the proxy answers: text it wrote, a Node stream (assets), or a Response (event streams, preflights). */
export type Answer = TextAnswer | StreamResponse | Response;

export const toResponse = (answer: Answer): Response => (answer instanceof Response ? answer : answer.toResponse());

/** The answer with `headers` added (set over any of the same name). */
export function withHeaders(answer: Answer, headers: Record<string, string>): Answer {
  if (answer instanceof TextAnswer) return new TextAnswer(answer.status, { ...answer.headers, ...headers }, answer.text);
  for (const [name, value] of Object.entries(headers)) answer.headers.set(name, value);
  return answer;
}
