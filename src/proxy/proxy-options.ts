import { REAL_SKYBOX_UPSTREAM, guessUpstreamKind, type UpstreamKind } from "./upstream/upstream-address.ts";

import type { PushSettings } from "../api/protocol/push-settings.ts";
import type { UserOptions } from "./users/user-options.ts";

export type { PushSettings };

/** A per-client token bucket. */
export interface RateLimitOptions {
  /**
   * Requests a client may make in a burst.
   * @default 120
   */
  burst?: number;
  /**
   * Tokens added back per second.
   * @default 10
   */
  perSecond?: number;
  /**
   * A request header naming the client, for a proxy behind a trusted reverse proxy
   * (its last comma-separated entry is used, the one the nearest proxy appended).
   * Without it the client is the socket address the adapter reports.
   * @example "x-forwarded-for"
   */
  clientHeader?: string;
  /**
   * Most clients remembered at once; the least recently seen is forgotten first.
   * @default 10000
   */
  maxClients?: number;
}

/** Options of `createSkyboxProxy` (users, daily credits and the shared store: see UserOptions). */
export interface SkyboxProxyOptions extends UserOptions {
  /**
   * The Skybox API the proxy forwards to, without `/api/v1`.
   * @default the real service
   * @example "http://127.0.0.1:8790"
   */
  upstream?: string;
  /** The API key, added to every forwarded API request as `x-api-key`. Never sent to a browser. */
  apiKey: string;
  /** The API secret, to verify webhook signatures. Without it the webhook receiver and the event relay are off. */
  apiSecret?: string;
  /**
   * Where browsers and the upstream reach this proxy, without its base path. When set, the
   * proxy sets `${publicUrl}${basePath}/webhook` as the `webhook_url` of generation, export
   * and batch requests, and the asset URLs it writes into responses are absolute on it (set it
   * when the app runs on another origin than the proxy).
   * @example "https://proxy.example.com"
   */
  publicUrl?: string;
  /**
   * Where the upstream reaches this proxy for webhooks, when that is not `publicUrl` (a local
   * upstream posts to a dev server on loopback). Read at request time, so a server that
   * learns its port late can give a function.
   * @default publicUrl
   */
  webhookBaseUrl?: string | (() => string | undefined);
  /**
   * `webhook_url` values a browser may send. The proxy owns `webhook_url`: any other value a
   * browser sends (JSON field, form field, multipart part or query parameter) is dropped and
   * replaced by the proxy's own (see `publicUrl`), or by none, so no browser can make the
   * upstream post signed records to an address of its choosing (an internal one). Compared
   * as normalised URLs, exactly.
   * @default []
   * @example ["https://hooks.example.com/skybox"]
   */
  allowedWebhookUrls?: readonly string[];
  /**
   * Origins other than the proxy's own that may call it (CORS). Requests from any other
   * origin are refused, so another site cannot spend the account's credits.
   * @default []
   * @example ["https://editor.example.com"]
   */
  allowedOrigins?: readonly string[];
  /** @default { burst: 120, perSecond: 10 } */
  rateLimit?: RateLimitOptions | false;
  /**
   * Largest request body accepted (files travel base64 in JSON or as multipart parts).
   * @default 26214400 (25 MiB)
   */
  maxBodyBytes?: number;
  /**
   * Where the proxy is mounted; the browser's client uses `{ baseUrl: basePath }`.
   * @default "/skybox"
   */
  basePath?: string;
  /** Push settings handed to browsers by `GET {basePath}/config`. @default null */
  pusher?: PushSettings | null;
  /** @default "local" for a loopback upstream, else "real" */
  upstreamKind?: UpstreamKind;
  /**
   * The path under `basePath` of the Vite dev server's "Save to project" route, which
   * `/config` then names (the plugin sets it in its dev server; the proxy serves no such route).
   * @default null
   */
  saveToProject?: string | null;
  /** The folder the "Save to project" route writes into, relative to the project, which `/config` names with it. @default null */
  saveToProjectFolder?: string | null;
  /**
   * Fetch used for API requests (files through `{basePath}/assets/` always use undici, with
   * the check against private addresses).
   * @default undici's kept-alive connections to the upstream, through the environment's
   * `HTTPS_PROXY`/`HTTP_PROXY` (with `NO_PROXY`) unless the upstream is on loopback
   */
  fetch?: typeof fetch;
  /** Where the proxy logs (already scrubbed of secrets). @default console.error */
  log?: (line: string) => void;
  /**
   * Per upstream API request, in ms; for a file through `{basePath}/assets/`, the longest
   * silence on its connection (the host sending nothing, or a client taking nothing).
   * @default 120000
   */
  timeoutMs?: number;
  /**
   * Server-sent event relay: streams open at once in all and per client (the rate limit's
   * client), and the heartbeat period.
   * @default { maxSubscribers: 200, maxPerClient: 20, heartbeatMs: 15000 }
   */
  events?: { maxSubscribers?: number; maxPerClient?: number; heartbeatMs?: number };
  /**
   * The webhook receiver (`POST {basePath}/webhook`): a per-client token bucket (the
   * upstream retries a refused webhook), the largest body, and how many bodies are read at
   * once (memory stays under `maxConcurrent × maxBodyBytes`).
   * @default { burst: 300, perSecond: 30, maxBodyBytes: 1048576, maxConcurrent: 16 }
   */
  webhooks?: WebhookLimits;
}

/** Limits of the webhook receiver. */
export interface WebhookLimits {
  burst?: number;
  perSecond?: number;
  maxBodyBytes?: number;
  maxConcurrent?: number;
}

/** Options with defaults applied and addresses parsed. */
export interface ResolvedProxyOptions {
  upstream: URL;
  upstreamKind: UpstreamKind;
  apiKey: string;
  apiSecret: string | null;
  publicUrl: string | null;
  /** Origin the upstream posts webhooks to, or null when the proxy adds none. */
  webhookBase: () => string | null;
  /** Normalised `webhook_url` values a browser may send. */
  allowedWebhookUrls: ReadonlySet<string>;
  allowedOrigins: ReadonlySet<string>;
  rateLimit: (Required<Omit<RateLimitOptions, "clientHeader">> & { clientHeader: string | null }) | null;
  maxBodyBytes: number;
  basePath: string;
  pusher: PushSettings | null;
  /** Null: Node's HTTP client (node-upstream.ts). */
  fetch: typeof fetch | null;
  log: (line: string) => void;
  timeoutMs: number;
  maxSubscribers: number;
  maxStreamsPerClient: number;
  heartbeatMs: number;
  webhooks: Required<WebhookLimits>;
  saveToProject: string | null;
  saveToProjectFolder: string | null;
}

/** Applies defaults and checks what can be wrong at start-up rather than at the first request. */
export function resolveProxyOptions(options: SkyboxProxyOptions): ResolvedProxyOptions {
  if (!options.apiKey) throw new Error("createSkyboxProxy: apiKey is required");
  const upstream = new URL(options.upstream ?? REAL_SKYBOX_UPSTREAM);
  if (upstream.protocol !== "http:" && upstream.protocol !== "https:") throw new Error("createSkyboxProxy: upstream must be http(s)");
  const basePath = `/${(options.basePath ?? "/skybox").replace(/^\/+|\/+$/g, "")}`;
  if (basePath === "/") throw new Error("createSkyboxProxy: basePath must not be the root");
  const publicUrl = options.publicUrl ? new URL(options.publicUrl).href.replace(/\/+$/, "") : null;
  const webhookBase = options.webhookBaseUrl ?? publicUrl;
  const rate = options.rateLimit === false ? null : (options.rateLimit ?? {});
  return {
    upstream,
    upstreamKind: options.upstreamKind ?? guessUpstreamKind(upstream),
    apiKey: options.apiKey,
    apiSecret: options.apiSecret || null,
    publicUrl,
    webhookBase: () => {
      const value = typeof webhookBase === "function" ? webhookBase() : webhookBase;
      return value ? value.replace(/\/+$/, "") : null;
    },
    allowedWebhookUrls: new Set((options.allowedWebhookUrls ?? []).map((u) => new URL(u).href)),
    allowedOrigins: new Set((options.allowedOrigins ?? []).map((o) => new URL(o).origin)),
    rateLimit: rate && {
      burst: rate.burst ?? 120,
      perSecond: rate.perSecond ?? 10,
      maxClients: rate.maxClients ?? 10_000,
      clientHeader: rate.clientHeader?.toLowerCase() ?? null,
    },
    maxBodyBytes: options.maxBodyBytes ?? 25 * 1024 * 1024,
    basePath,
    pusher: options.pusher ?? null,
    fetch: options.fetch ?? null,
    log: options.log ?? ((line) => console.error(line)),
    timeoutMs: options.timeoutMs ?? 120_000,
    saveToProject: options.saveToProject ?? null,
    saveToProjectFolder: options.saveToProjectFolder ?? null,
    maxSubscribers: options.events?.maxSubscribers ?? 200,
    maxStreamsPerClient: options.events?.maxPerClient ?? 20,
    heartbeatMs: options.events?.heartbeatMs ?? 15_000,
    webhooks: {
      burst: options.webhooks?.burst ?? 300,
      perSecond: options.webhooks?.perSecond ?? 30,
      maxBodyBytes: options.webhooks?.maxBodyBytes ?? 1024 * 1024,
      maxConcurrent: options.webhooks?.maxConcurrent ?? 16,
    },
  };
}
