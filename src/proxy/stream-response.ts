/**
 * A response whose body is a Node stream (an asset from undici): the Node adapter pipes it
 * into its ServerResponse with back-pressure (node-response.ts), and every other runtime
 * gets a Fetch-API Response over the same stream.
 */
import { Readable } from "node:stream";

export class StreamResponse {
  constructor(
    readonly status: number,
    readonly headers: Headers,
    /** Null for a response without a body (HEAD, 204, 304). */
    readonly body: Readable | null,
  ) {}

  toResponse(): Response {
    const body = this.body && (Readable.toWeb(this.body) as ReadableStream<Uint8Array>);
    return new Response(body, { status: this.status, headers: this.headers });
  }
}
