/**
 * `GET {basePath}/config`: what a browser may know to follow records, and nothing secret.
 *
 * ```json
 * { "upstream": "local", "push": { "key": "...", "cluster": "mt1", "wsHost": "127.0.0.1", "wsPort": 8790,
 *   "forceTLS": false, "enabledTransports": ["ws"] }, "webhooksRelayed": true,
 *   "eventsUrl": "/skybox/events", "assetsUrl": "/skybox/assets" }
 * ```
 * `push` is null when no push settings were configured; `eventsUrl` is null when the relay
 * is off (no API secret); `webhooksRelayed` says the proxy adds its webhook URL to requests,
 * so events arrive on `eventsUrl`.
 */
import type { ResolvedProxyOptions } from "./options.ts";
import type { UpstreamKind } from "./upstream.ts";

export interface BrowserPushSettings {
  key: string;
  cluster: string;
  wsHost?: string;
  wsPort?: number;
  forceTLS: boolean;
  /** Set with wsHost, so pusher-js tries no other transport (real-clients.md). */
  enabledTransports?: ("ws" | "wss")[];
}

export interface SkyboxProxyConfig {
  upstream: UpstreamKind;
  push: BrowserPushSettings | null;
  webhooksRelayed: boolean;
  eventsUrl: string | null;
  assetsUrl: string;
}

export function browserConfig(options: ResolvedProxyOptions, prefix: string): SkyboxProxyConfig {
  const p = options.pusher;
  const forceTLS = p?.forceTLS ?? !p?.wsHost;
  const push: BrowserPushSettings | null = p && {
    key: p.key,
    cluster: p.cluster ?? "mt1",
    forceTLS,
    ...(p.wsHost ? { wsHost: p.wsHost, ...(p.wsPort ? { wsPort: p.wsPort } : {}), enabledTransports: [forceTLS ? "wss" : "ws"] } : {}),
  };
  return {
    upstream: options.upstreamKind,
    push,
    webhooksRelayed: Boolean(options.apiSecret && options.webhookBase()),
    eventsUrl: options.apiSecret ? `${prefix}/events` : null,
    assetsUrl: `${prefix}/assets`,
  };
}
