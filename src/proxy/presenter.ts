/**
 * Records as browsers get them from the proxy: asset URLs learned and rewritten to the
 * passthrough (src/api/protocol/asset-urls.ts), the proxy's secrets scrubbed out.
 *
 * API responses are presented from their text and remembered. A status poll gets the same
 * response until the status changes, so most responses have been presented before, and a
 * repeat costs a lookup instead of a parse, a rewrite and a serialisation (a large part of
 * the proxy's own work on a poll). A remembered response keeps the asset URLs it named and
 * learns them again on every repeat, so their hosts stay known exactly as if it were new.
 */
import { proxiedAssetUrl, rewriteAssetUrls } from "../api/protocol/asset-urls.ts";
import type { AssetHosts } from "./assets/passthrough-urls.ts";
import type { Scrubber } from "./key-scrubber.ts";

export interface Presenter {
  /** A parsed record (a relayed webhook) as browsers get it. */
  record: (body: unknown) => string;
  /** A response's text as browsers get it: JSON presented, other text (an HTML error page) only scrubbed. */
  text(text: string): string;
}

/** Responses remembered, most recently used kept. */
const REMEMBERED = 256;
/** Longer responses (pages of many records) repeat rarely and are not remembered: memory stays under 2 × 256 × 32 KiB. */
const MAX_REMEMBERED_LENGTH = 32 * 1024;

interface Presented {
  text: string;
  urls: URL[];
}

/** `assetsUrl`: where the passthrough is, `{publicUrl?}{basePath}/assets`. */
export function createPresenter(hosts: AssetHosts, assetsUrl: string, scrub: Scrubber): Presenter {
  const present = (body: unknown, named: URL[] | null) =>
    scrub.text(JSON.stringify(rewriteAssetUrls(body, (url) => (hosts.learn(url), named?.push(url), proxiedAssetUrl(url, assetsUrl)))));
  const remembered = new Map<string, Presented>();

  const presentText = (text: string): Presented => {
    const urls: URL[] = [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { text: scrub.text(text), urls };
    }
    return { text: present(parsed, urls), urls };
  };

  return {
    record: (body) => present(body, null),
    text(text) {
      if (text.length > MAX_REMEMBERED_LENGTH) return presentText(text).text;
      let entry = remembered.get(text);
      if (entry) {
        remembered.delete(text);
        for (const url of entry.urls) hosts.learn(url);
      } else {
        entry = presentText(text);
        if (remembered.size >= REMEMBERED) remembered.delete(remembered.keys().next().value!);
      }
      remembered.set(text, entry);
      return entry.text;
    },
  };
}
