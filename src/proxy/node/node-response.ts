/**
 * Writing a response to a Node ServerResponse: a text response in one call with its length,
 * an asset's Node stream piped into it, any other Response body (event streams) read from
 * its web stream, both with backpressure. The client going away stops the source; a source
 * failing mid-body breaks the response rather than ending it short.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { StreamResponse } from "../stream-response.ts";
import { TextResponse, type RouteResponse } from "../text-response.ts";

export async function writeNodeResponse(response: RouteResponse, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (response instanceof TextResponse) return writeText(response, req, res);
  res.writeHead(response.status, nodeHeaders(response.headers, req));
  if (!response.body) return void res.end();
  // pipeline() destroys the response when the source fails, and the source when the client leaves.
  if (response instanceof StreamResponse) return pipeline(response.body, res).catch(() => {});
  await writeWebStream(response.body, res);
}

function nodeHeaders(from: Headers, req: IncomingMessage): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = req.complete ? {} : { ...CLOSE };
  from.forEach((value, name) => {
    headers[name] = name === "set-cookie" ? from.getSetCookie() : value;
  });
  return headers;
}

/** A body left unread (a 413) would be parsed as the next request: the connection is closed instead. */
const CLOSE = { connection: "close" };

/** Status, headers and text in one write; the headers as a flat list, which Node takes without copying them into an object. */
function writeText(response: TextResponse, req: IncomingMessage, res: ServerResponse): void {
  const headers: string[] = [];
  for (const name in response.headers) headers.push(name, response.headers[name]!);
  if (response.text !== null) headers.push("content-length", String(Buffer.byteLength(response.text)));
  if (!req.complete) headers.push("connection", CLOSE.connection);
  res.writeHead(response.status, headers);
  res.end(response.text ?? undefined);
}

async function writeWebStream(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  // Cancelling the reader tells the source (an event subscription) to stop.
  const stop = () => void reader.cancel().catch(() => {});
  res.once("close", stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await drained(res);
      if (res.destroyed) break;
    }
    res.end();
  } catch {
    // The source failed mid-stream: the client must see a broken response, not a short one that looks complete.
    res.destroy();
  } finally {
    res.off("close", stop);
  }
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
