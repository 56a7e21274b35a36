/**
 * Asset URLs in API responses: the proxy learns which hosts the upstream hands out files from,
 * and rewrites those URLs to its own same-origin passthrough by the rule of
 * src/api/protocol/asset-urls.ts. `{basePath}/assets?url=` with the encoded absolute URL is
 * accepted too.
 */
import { parseAssetUrl } from "../../api/protocol/asset-urls.ts";

/** Origins the upstream named in records that passed through, most recent last. */
export class AssetHosts {
  private readonly _origins = new Set<string>();
  constructor(private readonly _max = 256) {}

  /** Remembers the URL's origin as the most recent; true when it was not known. */
  learn(url: URL): boolean {
    // Once: the getter builds a new string each time.
    const origin = url.origin;
    const known = this._origins.delete(origin);
    this._origins.add(origin);
    if (this._origins.size > this._max) this._origins.delete(this._origins.values().next().value!);
    return !known;
  }

  has(url: URL): boolean {
    return this._origins.has(url.origin);
  }
}

/**
 * The asset URL a passthrough request names: `rest` is the path after `/assets`, `search`
 * the request's raw query (kept byte for byte: signed URLs sign it). Null when it names none.
 */
export function assetTarget(rest: string, search: string): URL | null {
  if (rest === "" || rest === "/") {
    const url = new URLSearchParams(search).get("url");
    return url ? parseAssetUrl(url) : null;
  }
  const m = /^\/(https?)\/([^/?#]+)(\/[^?#]*)?$/.exec(rest);
  if (!m) return null;
  let host: string;
  try {
    host = decodeURIComponent(m[2]!);
  } catch {
    return null;
  }
  const url = parseAssetUrl(`${m[1]}://${host}${m[3] ?? "/"}${search}`);
  // The host segment must be the URL's host exactly (no user-info or other tricks).
  return url && url.host === host.toLowerCase() ? url : null;
}
