/**
 * One HTTP call of the client: a timeout per attempt, and GET and DELETE sent again on
 * network errors, 408, 429 and 5xx with jittered exponential backoff (Retry-After honoured
 * on 429 and 503, up to a cap). A POST is never sent twice: a generation is charged once.
 * ky's retry rules, in the few lines the client needs, so the browser bundle carries no
 * general-purpose HTTP library.
 */
import type { SkyboxClientOptions } from "./client-options.ts";

/** An answer that is not 2xx; the caller reads its status, headers and body. */
export class HttpStatusError extends Error {
  override name = "HTTPError";
  constructor(readonly response: Response) {
    super(`Request failed with status code ${response.status}`);
  }
}

/** An attempt that got no answer within the timeout (not retried). */
export class RequestTimeoutError extends Error {
  override name = "TimeoutError";
  constructor(readonly request: Request) {
    super(`Request timed out: ${request.method} ${request.url}`);
  }
}

export interface RetryPolicy {
  limit: number;
  backoffLimit: number;
  maxRetryAfter: number;
}

/** The client's `retry` option with its defaults. */
export function retryPolicy(retry: SkyboxClientOptions["retry"]): RetryPolicy {
  const r = typeof retry === "number" ? { limit: retry } : (retry ?? {});
  return { limit: r.limit ?? 2, backoffLimit: r.backoffLimit ?? 10_000, maxRetryAfter: r.maxRetryAfter ?? 60_000 };
}

const RETRY_METHODS = ["GET", "DELETE"];
const RETRY_STATUSES = [408, 429, 500, 502, 503, 504];
/** The statuses whose Retry-After is honoured. */
const AFTER_STATUSES = [429, 503];
/** Headers servers name their wait in, in the order they are read. */
const WAIT_HEADERS = ["retry-after", "ratelimit-reset", "x-ratelimit-retry-after", "x-ratelimit-reset", "x-rate-limit-reset"];
/** The longest wait setTimeout takes. */
const MAX_TIMEOUT = 2_147_483_647;

export interface RetryingCall {
  fetch: typeof fetch;
  /** Builds the request of one attempt (a body can be read once). */
  request: (signal: AbortSignal) => Request;
  method: string;
  timeout: number;
  retry: RetryPolicy;
  signal?: AbortSignal | undefined;
}

/**
 * Sends a request until it gets a 2xx answer, or fails with the error of its last attempt:
 * an `HttpStatusError`, a `RequestTimeoutError`, or what fetch rejected with.
 */
export async function retryingFetch(call: RetryingCall): Promise<Response> {
  if (call.timeout > MAX_TIMEOUT) throw new RangeError(`The \`timeout\` option cannot be greater than ${MAX_TIMEOUT}`);
  for (let retries = 1; ; retries++) {
    let failure: unknown;
    try {
      const response = await attempt(call);
      if (response.ok) return response;
      failure = new HttpStatusError(response);
    } catch (error) {
      failure = error;
    }
    const wait = retries > call.retry.limit || !RETRY_METHODS.includes(call.method) ? null : retryDelay(failure, retries, call.retry);
    if (wait === null) throw failure;
    // The failed answer's body is not read: release its connection.
    if (failure instanceof HttpStatusError) void failure.response.body?.cancel().catch(() => undefined);
    await sleep(Math.min(wait, MAX_TIMEOUT), call.signal);
  }
}

/** One attempt: its own abort for the timeout, joined to the caller's signal. */
function attempt(call: RetryingCall): Promise<Response> {
  const timer = new AbortController();
  const request = call.request(call.signal ? AbortSignal.any([call.signal, timer.signal]) : timer.signal);
  return new Promise<Response>((resolve, reject) => {
    const id = setTimeout(() => {
      timer.abort();
      reject(new RequestTimeoutError(request));
    }, call.timeout);
    void call
      .fetch(request)
      .then(resolve, reject)
      .then(() => clearTimeout(id));
  });
}

/** How long to wait before retry number `retries`, or null when the failure is final. */
function retryDelay(failure: unknown, retries: number, policy: RetryPolicy): number | null {
  if (failure instanceof RequestTimeoutError) return null;
  if (failure instanceof HttpStatusError) {
    const { status, headers } = failure.response;
    if (!RETRY_STATUSES.includes(status)) return null;
    const named = AFTER_STATUSES.includes(status) ? WAIT_HEADERS.map((h) => headers.get(h)).find((v) => v !== null) : undefined;
    if (named) {
      const after = waitOf(named);
      return after < policy.maxRetryAfter ? after : policy.maxRetryAfter;
    }
  }
  // Full jitter over 0.3 s, 0.6 s, 1.2 s…, capped.
  return Math.min(policy.backoffLimit, Math.random() * 300 * 2 ** (retries - 1));
}

/** A wait header in ms: seconds, an HTTP date, or a Unix time in seconds. */
function waitOf(value: string): number {
  const after = Number(value) * 1000;
  if (Number.isNaN(after)) return Date.parse(value) - Date.now();
  return after >= Date.parse("2024-01-01") ? after - Date.now() : after;
}

/** Waits `ms`; rejects with the signal's reason when it aborts first. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const onAbort = () => {
      clearTimeout(id);
      reject(signal!.reason);
    };
    const id = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
