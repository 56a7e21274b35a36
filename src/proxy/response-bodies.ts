/**
 * Response bodies over a Node stream (an asset) that a Node server can pipe straight to
 * the socket, with backpressure and without a web stream between. The responses stay
 * ordinary Fetch-API responses for every other runtime: the shortcut is taken only while
 * no one has read the body.
 */
import type { Readable } from "node:stream";

const nodeSources = new WeakMap<ReadableStream<Uint8Array>, Readable>();

/**
 * A web stream over a Node stream that reads it only when pulled, a chunk at a time (memory
 * stays flat whatever the reader's pace), so that the Node adapter may pipe the source
 * itself instead. Cancelling it destroys the source.
 */
export function nodeStreamBody(source: Readable): ReadableStream<Uint8Array> {
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: () => void source.destroy(),
    },
    { highWaterMark: 0 },
  );
  nodeSources.set(body, source);
  return body;
}

/** The Node stream under a response's body, while no one has read it. */
export function untouchedNodeSource(body: ReadableStream<Uint8Array>): Readable | undefined {
  return body.locked ? undefined : nodeSources.get(body);
}
