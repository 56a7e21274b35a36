/**
 * The panorama as an image the GPU accepts: its size read from the file header (so an
 * oversized image is never decoded at full size first), scaled down to the texture limit
 * when it is over it (a 16K export on an 8K GPU), as a blob URL for loaders that take URLs.
 */

/** Width and height from a PNG or JPEG header; null when the format is not recognised. */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 24 && bytes[0] === 0x89 && bytes[1] === 0x50) return { width: view.getUint32(16), height: view.getUint32(20) };
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  for (let o = 2; o + 9 < bytes.length;) {
    if (bytes[o] !== 0xff) return null;
    const marker = bytes[o + 1]!;
    // SOF0..SOF15 carry the frame size, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: view.getUint16(o + 5), width: view.getUint16(o + 7) };
    o += 2 + view.getUint16(o + 2);
  }
  return null;
}

/** A blob URL of the image (and its blob), scaled to at most `maxWidth` x `maxWidth` / 2. Revoke it when loaded. */
export async function panoramaUrl(
  bytes: Uint8Array,
  maxWidth: number,
): Promise<{ url: string; blob: Blob; width: number; scaled: boolean }> {
  const size = imageSize(bytes);
  // Unknown formats go as they are: Babylon rescales an oversized image itself once decoded.
  if (!size || (size.width <= maxWidth && size.height <= maxWidth)) {
    const blob = new Blob([bytes as BlobPart]);
    return { url: URL.createObjectURL(blob), blob, width: size?.width ?? 0, scaled: false };
  }
  const bitmap = await createImageBitmap(new Blob([bytes as BlobPart]), {
    resizeWidth: maxWidth,
    resizeHeight: maxWidth / 2,
    resizeQuality: "high",
  });
  try {
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    canvas.getContext("2d")!.drawImage(bitmap, 0, 0);
    const blob = await canvas.convertToBlob({ type: "image/jpeg", quality: 0.92 });
    return { url: URL.createObjectURL(blob), blob, width: maxWidth, scaled: true };
  } finally {
    bitmap.close();
  }
}
