/**
 * `GET {basePath}/config`: the proxy's side of `ProxyConfig` (src/api/protocol). `push` is
 * null when no push settings were configured; `eventsUrl` is null when the relay is off (no
 * API secret); `webhooksRelayed` says the proxy adds its webhook URL to requests, so events
 * arrive on `eventsUrl`.
 */
import type { BrowserPushSettings, ProxyConfig } from "../api/protocol/proxy-config.ts";
import type { ResolvedProxyOptions } from "./proxy-options.ts";

export function browserConfig(options: ResolvedProxyOptions, prefix: string): ProxyConfig {
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
    ...(options.saveToProject
      ? {
          saveToProject: `${prefix}${options.saveToProject}`,
          ...(options.saveToProjectFolder ? { saveToProjectFolder: options.saveToProjectFolder } : {}),
        }
      : {}),
  };
}
