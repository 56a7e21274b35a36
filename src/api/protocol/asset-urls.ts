/**
 * The rule that maps a record's file URLs to the proxy's same-origin passthrough, once, for
 * both places a record reaches a browser: the proxy rewrites its API answers and relayed
 * webhooks with it, and the status tracker applies it to records pushed by Pusher, which go
 * from the push server to the browser without passing the proxy. An asset URL
 * `{http|https}://{host}{path}{?query}` becomes `{assetsUrl}/{http|https}/{host}{path}{?query}`
 * (the file name and extension stay at the end, so loaders that look at the extension keep
 * working); `assetsUrl` is the proxy's `/config` `assetsUrl`.
 */

/** Record fields that hold a file URL (generations, exports, styles), besides `exports.*`. */
export const ASSET_FIELDS: ReadonlySet<string> = /* @__PURE__ */ new Set(["file_url", "thumb_url", "depth_map_url", "image", "image_jpg"]);

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

/** The passthrough URL of an asset URL, under `assetsUrl` (`{publicUrl?}{basePath}/assets`). */
export function proxiedAssetUrl(url: URL, assetsUrl: string): string {
  return `${assetsUrl}/${url.protocol.slice(0, -1)}/${url.host}${url.pathname}${url.search}`;
}

/**
 * A copy of a JSON value with every asset URL replaced by `rewrite`, at any depth (records
 * come bare, wrapped, in pages, in batches and in style families). Paths and other text
 * stay as they are.
 */
export function rewriteAssetUrls(value: unknown, rewrite: (url: URL) => string, depth = 0): unknown {
  if (depth > 32 || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => rewriteAssetUrls(v, rewrite, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === "string" && ASSET_FIELDS.has(key)) out[key] = rewriteOne(v, rewrite);
    else if (key === "exports" && v && typeof v === "object" && !Array.isArray(v))
      out[key] = Object.fromEntries(
        Object.entries(v as Record<string, unknown>).map(([k, u]) => [k, typeof u === "string" ? rewriteOne(u, rewrite) : u]),
      );
    else out[key] = rewriteAssetUrls(v, rewrite, depth + 1);
  }
  return out;
}

function rewriteOne(text: string, rewrite: (url: URL) => string): string {
  const url = parseAssetUrl(text);
  return url ? rewrite(url) : text;
}

/** A record as the browser sees it behind the proxy: its asset URLs under `assetsUrl`. */
export function proxyAssetUrls<T>(record: T, assetsUrl: string): T {
  return rewriteAssetUrls(record, (url) => proxiedAssetUrl(url, assetsUrl)) as T;
}
