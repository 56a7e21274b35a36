/**
 * The upstream client on Node's HTTP client: connections to the upstream are kept alive
 * and reused (an agent per proxy; Node never pipelines), so a request costs no TCP or TLS
 * handshake. Idle connections close before the server's announced keep-alive timeout; a
 * GET that meets one the server closed anyway is sent once more on a fresh connection.
 */
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import type { UpstreamAnswer, UpstreamClient, UpstreamRequest } from "./upstream-client.ts";

/** Idle connections kept at most this long (less when the server announces less). */
const IDLE_MS = 15_000;

class UpstreamTimeoutError extends Error {
  override name = "TimeoutError";
}

export function nodeUpstreamClient(): UpstreamClient {
  const agents = {
    "http:": new http.Agent({ keepAlive: true, timeout: IDLE_MS }),
    "https:": new https.Agent({ keepAlive: true, timeout: IDLE_MS }),
  };
  return {
    send(r) {
      const url = new URL(r.url);
      const agent = url.protocol === "https:" ? agents["https:"] : agents["http:"];
      return exchange(url, r, agent).catch((error: unknown) => {
        if (!(error instanceof StaleConnection)) throw error;
        return exchange(url, r, agent);
      });
    },
    close() {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}

/** A kept-alive connection the server had closed: the request never reached it. */
class StaleConnection extends Error {}

function exchange(url: URL, r: UpstreamRequest, agent: http.Agent): Promise<UpstreamAnswer> {
  const client = url.protocol === "https:" ? https : http;
  const headers: Record<string, string | number> = { "accept-encoding": "gzip, deflate, br", ...r.headers };
  if (r.body !== undefined) headers["content-length"] = Buffer.byteLength(r.body);
  return new Promise((resolve, reject) => {
    // Options rather than the URL itself: Node would convert it on every request.
    const req = client.request({ protocol: url.protocol, hostname: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: r.method, headers, agent });
    let answered = false;
    let timedOut = false;
    const timer = setTimeout(() => ((timedOut = true), req.destroy()), r.timeoutMs);
    // A listener of our own rather than the `signal` option, which watches the request's end with several more.
    const signal = r.signal;
    const abort = () => req.destroy(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
    if (signal?.aborted) abort();
    else signal?.addEventListener("abort", abort, { once: true });
    const settle = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
    };
    const fail = (error: Error) => {
      settle();
      if (timedOut) return reject(new UpstreamTimeoutError("The upstream did not answer in time"));
      const stale = req.reusedSocket && !answered && (r.method === "GET" || r.method === "HEAD") && (error as NodeJS.ErrnoException).code === "ECONNRESET";
      reject(stale ? new StaleConnection() : error);
    };
    req.on("error", fail);
    req.once("response", (res) => {
      answered = true;
      readLimited(decoded(res, r.method), r.maxBytes).then((bytes) => {
        settle();
        // Too large: the rest is not read, so the connection cannot be reused.
        if (bytes === null) req.destroy();
        resolve({ status: res.statusCode ?? 502, header: (name) => headerOf(res, name), bytes });
      }, fail);
    });
    req.end(r.body);
  });
}

function headerOf(res: IncomingMessage, name: string): string | null {
  const value = res.headers[name];
  return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
}

/**
 * The body as sent, or decompressed when the server compressed it. Answers that carry no
 * body (HEAD, 204, 304) are not decoded, as fetch does: a decoder fails on no bytes.
 */
function decoded(res: IncomingMessage, method: string): Readable {
  if (method === "HEAD" || res.statusCode === 204 || res.statusCode === 304) return res;
  const encoding = res.headers["content-encoding"]?.trim().toLowerCase();
  const decoder = encoding === "gzip" || encoding === "x-gzip" ? createGunzip() : encoding === "deflate" ? createInflate() : encoding === "br" ? createBrotliDecompress() : null;
  if (!decoder) return res;
  res.once("error", (error) => decoder.destroy(error));
  return res.pipe(decoder);
}

/** All bytes of a stream, or null once they pass `maxBytes` (the stream then destroyed). */
function readLimited(stream: Readable, maxBytes: number): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on("data", (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= maxBytes) return void chunks.push(chunk);
      stream.destroy();
      resolve(null);
    });
    stream.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    // A connection lost mid-answer is an error ("aborted") of the stream.
    stream.once("error", reject);
  });
}
