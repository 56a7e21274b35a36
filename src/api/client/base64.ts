/** Base64 of bytes, in browsers and Node alike (btoa over chunks keeps the stack small). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Bytes of a base64 string, with or without a `data:` URL prefix. */
export function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text.replace(/^data:[^,]*,/, "").replace(/\s+/g, ""));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
