/**
 * The spec's webhook signature: hex HMAC-SHA256 of the raw body, keyed with the API secret.
 * The local service signs with it and the proxy checks with it. WebCrypto keeps `src/api`
 * browser-safe (Node 20 has `globalThis.crypto.subtle` too), which makes it async.
 */
const utf8 = /* @__PURE__ */ new TextEncoder();

/** Hex HMAC-SHA256 of `rawBody` (a string is taken as UTF-8) keyed with `secret`. */
export async function signWebhook(rawBody: Uint8Array | string, secret: string): Promise<string> {
  const hmac = { name: "HMAC", hash: "SHA-256" };
  // WebCrypto refuses an empty key; HMAC pads short keys with zero bytes, so one zero byte signs alike.
  const keyBytes = secret ? utf8.encode(secret) : new Uint8Array(1);
  const key = await crypto.subtle.importKey("raw", keyBytes, hmac, false, ["sign"]);
  // WebCrypto's types refuse a view that might be of a SharedArrayBuffer: copy the bytes.
  const bytes = typeof rawBody === "string" ? utf8.encode(rawBody) : new Uint8Array(rawBody);
  const mac = await crypto.subtle.sign(hmac, key, bytes);
  return Array.from(new Uint8Array(mac), (byte) => byte.toString(16).padStart(2, "0")).join("");
}
