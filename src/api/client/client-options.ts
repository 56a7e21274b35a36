/** Options of `createSkyboxClient`. */
export interface SkyboxClientOptions {
  /**
   * Where the API lives, without `/api/v1`: the real service's origin, the local
   * service's URL, or the proxy's mount path in a browser (`/skybox`).
   * @example "http://127.0.0.1:8790"
   */
  baseUrl: string;
  /**
   * The API key. Leave it out in a browser: the proxy adds it server-side, and with no key
   * the client sends none.
   */
  apiKey?: string;
  /**
   * Where the key travels: the `x-api-key` header, or the `api_key` query parameter (less
   * safe: URLs end up in logs).
   * @default "header"
   */
  apiKeyIn?: "header" | "query";
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** A fetch implementation (tests, instrumentation). @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Per-attempt timeout in milliseconds. @default 30000 */
  timeout?: number;
  /**
   * Automatic retries of GET and DELETE on network errors, 408, 429 (honouring
   * Retry-After) and 5xx, with jittered exponential backoff. POSTs are never retried.
   * @default { limit: 2, backoffLimit: 10000, maxRetryAfter: 60000 }
   */
  retry?: number | { limit?: number; backoffLimit?: number; maxRetryAfter?: number };
}

/** Options every method takes. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the client's timeout for this call (ms). */
  timeout?: number;
}
