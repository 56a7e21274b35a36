/**
 * Runs a Fetch-API handler in Node's `http` server or as connect-style middleware (Vite,
 * Express): the IncomingMessage becomes a streamed Request whose signal aborts when the
 * client goes away, and the Response streams back with backpressure.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { errorEnvelope } from "../api/protocol/error-envelope.ts";
import { createSkyboxProxy, type ClientInfo, type SkyboxProxy } from "./create-proxy.ts";
import type { SkyboxProxyOptions } from "./options.ts";

export type FetchHandler = (request: Request, info?: ClientInfo) => Promise<Response>;
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

/**
 * A Node handler for `http.createServer(handler)` or `app.use(handler)`. With a
 * `basePath` (a SkyboxProxy has one) and a `next`, requests outside it go to `next`.
 */
export function toNodeHandler(handler: FetchHandler & { basePath?: string }): NodeHandler {
  return (req, res, next) => {
    const path = (req.url ?? "/").split("?")[0]!;
    if (next && handler.basePath && !path.startsWith(`${handler.basePath}/`)) return next();
    serve(handler, req, res).catch((error) => {
      if (next) return next(error);
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify(errorEnvelope("The Skybox proxy failed")));
    });
  };
}

/** `createSkyboxProxy` as connect-style middleware; `close` ends its event streams. */
export function createSkyboxProxyMiddleware(options: SkyboxProxyOptions): NodeHandler & { proxy: SkyboxProxy } {
  const proxy = createSkyboxProxy(options);
  return Object.assign(toNodeHandler(proxy), { proxy });
}

async function serve(handler: FetchHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const aborter = new AbortController();
  // "close" on the response fires when the exchange ends either way; before the end, the client left.
  res.once("close", () => aborter.abort());
  let request: Request;
  try {
    request = toRequest(req, aborter.signal);
  } catch {
    res.writeHead(400, { "content-type": "application/json" });
    return void res.end(JSON.stringify(errorEnvelope("Bad request")));
  }
  const response = await handler(request, { clientAddress: req.socket.remoteAddress });
  await writeResponse(response, req, res, aborter.signal);
}

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    // HTTP/2 pseudo-headers are not headers a Request can hold.
    if (!name.startsWith(":")) headers.append(name, req.rawHeaders[i + 1]!);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(url, {
    method: req.method,
    headers,
    signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" } : {}),
  } as RequestInit);
}

async function writeResponse(response: Response, req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  // A body left unread (a 413) would be parsed as the next request: close the connection instead.
  if (!req.complete) headers.connection = "close";
  response.headers.forEach((value, name) => {
    headers[name] = name === "set-cookie" ? response.headers.getSetCookie() : value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  // Cancelling the reader tells the source (an SSE subscription, an asset download) to stop.
  const stop = () => void reader.cancel().catch(() => {});
  signal.addEventListener("abort", stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await drained(res);
      if (signal.aborted) break;
    }
    res.end();
  } catch {
    // The source failed mid-stream (an asset host dropped): the client must see a broken
    // response, not a short one that looks complete.
    res.destroy();
  } finally {
    signal.removeEventListener("abort", stop);
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
