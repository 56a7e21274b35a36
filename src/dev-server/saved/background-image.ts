/**
 * The background image of a saved skybox: the panorama at the chosen width, as JPEG or WebP,
 * encoded with sharp when it is installed (an optional peer). Without sharp the panorama is
 * saved as served, whatever its size and format, and the caller is told.
 */
import { readImageHeader } from "../../local/records/image-header.ts";

/** How the background is saved. */
export interface BackgroundImageOptions {
  /** Widest the saved panorama may be (never enlarged). @default 4096 */
  width?: number;
  /** @default "jpeg" */
  format?: "jpeg" | "webp";
  /** Encoder quality 1..100. @default 90 */
  quality?: number;
}

/** The saved background. */
export interface BackgroundImage {
  bytes: Uint8Array;
  width: number;
  height: number;
  /** File extension without its dot. */
  extension: "jpg" | "png" | "webp";
  /** Why it is the panorama as served, when it is (sharp missing). */
  note: string | null;
}

type Sharp = (typeof import("sharp"))["default"];

/**
 * @param panorama the panorama file (JPEG, PNG or WebP)
 * @param options width, format, quality
 */
export async function backgroundImage(panorama: Uint8Array, options: BackgroundImageOptions = {}): Promise<BackgroundImage> {
  const sharp = await import("sharp").then((m): Sharp => m.default).catch(() => null);
  if (!sharp) {
    const header = readImageHeader(panorama);
    if (!header) throw new Error("The panorama is not a PNG, JPEG or WebP image");
    const extension = header.format === "jpeg" ? "jpg" : header.format;
    return {
      bytes: panorama,
      width: header.width,
      height: header.height,
      extension,
      note: "sharp is not installed: the panorama is saved as served (npm install --save-dev sharp to resize and re-encode it)",
    };
  }
  const format = options.format ?? "jpeg";
  const quality = options.quality ?? 90;
  const image = sharp(panorama).resize({ width: options.width ?? 4096, withoutEnlargement: true });
  const { data, info } = await (format === "webp" ? image.webp({ quality }) : image.jpeg({ quality, mozjpeg: true })).toBuffer({
    resolveWithObject: true,
  });
  return {
    bytes: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
    extension: format === "webp" ? "webp" : "jpg",
    note: null,
  };
}
