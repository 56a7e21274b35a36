import { proxyAssetUrls } from "../../api/protocol/asset-urls.ts";
import type { FeedListener } from "./feed.ts";

/**
 * A push listener whose records arrive with their file URLs mapped to the proxy's asset
 * passthrough. Pusher delivers records straight from the push server to the browser, so the
 * proxy cannot rewrite them as it rewrites its answers and relayed webhooks; the same rule
 * (src/api/protocol/asset-urls.ts) is applied here instead, and a Download link of a pushed
 * export works from any machine that reaches the proxy.
 */
export function withProxiedAssets(listener: FeedListener, assetsUrl: string): FeedListener {
  return {
    live: (up) => listener.live(up),
    record: (raw) => listener.record(proxyAssetUrls(parsed(raw), assetsUrl)),
  };
}

/** Some push servers send the record as JSON text; text that is not JSON is left to the watch to refuse. */
function parsed(raw: unknown): unknown {
  if (typeof raw !== "string") return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
