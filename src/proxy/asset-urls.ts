/**
 * Asset URLs in API answers: the proxy learns which hosts the upstream hands out files from,
 * and rewrites those URLs to its own same-origin passthrough,
 * `{basePath}/assets/{http|https}/{host}{path}{?query}` (the file name and extension stay at
 * the end, so loaders that look at the extension keep working). `{basePath}/assets?url=`
 * with the encoded absolute URL is accepted too.
 */

/** Record fields that hold a file URL (generations, exports, styles), besides `exports.*`. */
export const ASSET_FIELDS: ReadonlySet<string> = new Set(["file_url", "thumb_url", "depth_map_url", "image", "image_jpg"]);

/** Origins the upstream named in records that passed through, most recent last. */
export class AssetHosts {
  private readonly _origins = new Set<string>();
  constructor(private readonly _max = 256) {}

  learn(url: URL): void {
    this._origins.delete(url.origin);
    this._origins.add(url.origin);
    if (this._origins.size > this._max) this._origins.delete(this._origins.values().next().value!);
  }

  has(url: URL): boolean {
    return this._origins.has(url.origin);
  }
}

/** An absolute http(s) URL without credentials, or null. */
export function parseAssetUrl(text: string): URL | null {
  if (!/^https?:\/\//i.test(text)) return null;
  try {
    const url = new URL(text);
    return url.username || url.password ? null : url;
  } catch {
    return null;
  }
}

/** The passthrough path of an asset URL, under `assetBase` (`{publicUrl?}{basePath}/assets`). */
export function proxiedAssetUrl(url: URL, assetBase: string): string {
  return `${assetBase}/${url.protocol.slice(0, -1)}/${url.host}${url.pathname}${url.search}`;
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

/**
 * A copy of a JSON value with every asset URL learned and rewritten by `rewrite`, at any
 * depth (records come bare, wrapped, in pages, in batches and in style families).
 */
export function rewriteAssetUrls(value: unknown, rewrite: (url: URL) => string, depth = 0): unknown {
  if (depth > 32 || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => rewriteAssetUrls(v, rewrite, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === "string" && ASSET_FIELDS.has(key)) out[key] = rewriteOne(v, rewrite);
    else if (key === "exports" && v && typeof v === "object" && !Array.isArray(v))
      out[key] = Object.fromEntries(Object.entries(v).map(([k, u]) => [k, typeof u === "string" ? rewriteOne(u, rewrite) : u]));
    else out[key] = rewriteAssetUrls(v, rewrite, depth + 1);
  }
  return out;
}

function rewriteOne(text: string, rewrite: (url: URL) => string): string {
  const url = parseAssetUrl(text);
  return url ? rewrite(url) : text;
}
