/**
 * Downloads of skybox files (through the proxy's same-origin asset passthrough), with
 * progress, cancellation, and the cache in front of them. A download is sent again as the
 * client's GETs are (retrying-fetch.ts): the proxy answers a burst of re-applies with 429
 * and Retry-After, a restarting proxy with 502 or a refused connection.
 */
import { HttpStatusError, retryingFetch, retryPolicy } from "../../api/client/retrying-fetch.ts";
import type { SkyboxCache } from "../cache/skybox-cache.ts";

/** Longest wait for an answer's headers, per attempt; its body takes as long as it takes. */
const HEADERS_TIMEOUT = 60_000;

/** Where downloads report and which writes to the cache are still running. */
export interface DownloadContext {
  cache: SkyboxCache | null;
  signal?: AbortSignal;
  /** Called with 0..1 while a download with a known length runs. */
  onFraction?: (label: string, fraction: number) => void;
  /** Called with the answer's headers (what the server says the file is). */
  onHeaders?: (headers: Headers) => void;
  /** Cache writes started; the handle's `whenCached` waits for them. */
  writes: Promise<unknown>[];
}

/** The bytes at `url`; rejects naming the URL and the status on failure. */
export async function downloadBytes(
  url: string,
  label: string,
  ctx: Pick<DownloadContext, "signal" | "onFraction" | "onHeaders">,
): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await retryingFetch({
      fetch: (request) => fetch(request),
      request: (signal) => new Request(url, { signal }),
      method: "GET",
      timeout: HEADERS_TIMEOUT,
      retry: retryPolicy(undefined),
      signal: ctx.signal,
    });
  } catch (error) {
    ctx.signal?.throwIfAborted();
    const reason =
      error instanceof HttpStatusError ? `HTTP ${error.response.status} ${error.response.statusText}`.trim() : (error as Error).message;
    throw new Error(`Download of the ${label} failed (${url}): ${reason}`, { cause: error });
  }
  ctx.onHeaders?.(response.headers);
  const total = Number(response.headers.get("content-length") ?? 0);
  if (!response.body || !total || !ctx.onFraction) return new Uint8Array(await response.arrayBuffer());
  const out = new Uint8Array(total);
  const reader = response.body.getReader();
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    // A Content-Length that undercounts (compression) falls back to collecting chunks.
    if (received + value.length > total) return concat(out.subarray(0, received), value, reader);
    out.set(value, received);
    received += value.length;
    ctx.onFraction(label, received / total);
  }
  return received === total ? out : out.slice(0, received);
}

async function concat(head: Uint8Array, next: Uint8Array, reader: ReadableStreamDefaultReader<Uint8Array>): Promise<Uint8Array> {
  const chunks = [head, next];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let o = 0;
  for (const c of chunks) out.set(c, (o += c.length) - c.length);
  return out;
}

/**
 * The bytes under `key` in the cache, else downloaded from the URL `url()` resolves to and
 * stored (the write runs on; see `ctx.writes`). `url` is only called on a miss, so a cached
 * export is never even requested.
 */
export async function cachedBytes(
  key: string,
  label: string,
  url: () => Promise<string>,
  ctx: DownloadContext,
): Promise<{ bytes: Uint8Array; cached: boolean }> {
  const hit = ctx.cache ? await ctx.cache.get(key).catch(() => null) : null;
  if (hit) return { bytes: hit, cached: true };
  const bytes = await downloadBytes(await url(), label, ctx);
  if (ctx.cache) ctx.writes.push(ctx.cache.put(key, bytes).catch(() => undefined));
  return { bytes, cached: false };
}
