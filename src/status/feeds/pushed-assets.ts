import { proxyAssetUrls } from "../../api/protocol/asset-urls.ts";
import { asObject } from "../tracked/tracked.ts";
import type { FeedListener } from "./feed.ts";

/**
 * A push listener whose records arrive with their file URLs mapped to the proxy's asset
 * passthrough. Pusher delivers records straight from the push server to the browser, so the
 * proxy cannot rewrite them as it rewrites its responses and relayed webhooks; the same rule
 * (src/api/protocol/asset-urls.ts) is applied here instead, and a Download link of a pushed
 * export works from any machine that reaches the proxy. Some push servers send the record as
 * JSON text: it is parsed first, and text that is not JSON reaches the watch as nothing to merge.
 */
export function withProxiedAssets(listener: FeedListener, assetsUrl: string): FeedListener {
  return {
    live: (up) => listener.live(up),
    record: (raw) => listener.record(proxyAssetUrls(asObject(raw), assetsUrl)),
  };
}
