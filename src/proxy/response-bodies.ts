/**
 * Response bodies that a Node server can write straight into its response, with
 * backpressure and without a web stream between (an asset, asset-answer.ts). The responses
 * stay ordinary Fetch-API responses for every other runtime: the shortcut is taken only
 * while no one has read the body.
 */
import type { Writable } from "node:stream";

/** A body that can write itself into a Node response and end it (or break it when it fails). */
export interface DirectSource {
  writeTo(res: Writable): Promise<void>;
  webStream(): ReadableStream<Uint8Array>;
}

const directSources = new WeakMap<ReadableStream<Uint8Array>, DirectSource>();

/** A web stream over `source` that the Node adapter may skip, writing the source itself. */
export function directBody(source: DirectSource): ReadableStream<Uint8Array> {
  const body = source.webStream();
  directSources.set(body, source);
  return body;
}

/** The source under a response's body, while no one has read it. */
export function untouchedDirectSource(body: ReadableStream<Uint8Array>): DirectSource | undefined {
  return body.locked ? undefined : directSources.get(body);
}
