import sharp, { type Sharp } from "sharp";
import { describe, expect, test } from "vitest";
import { readImageHeader } from "../../../src/local/records/image-header.ts";
import { inputImageIssues } from "../../../src/local/records/image-limits.ts";
import { pngBomb } from "./png-bomb.ts";

const encode = async (width: number, height: number, format: (s: Sharp) => Sharp, channels: 3 | 4 = 3) =>
  new Uint8Array(await format(sharp({ create: { width, height, channels, background: { r: 20, g: 90, b: 200, alpha: 0.5 } } })).toBuffer());

describe("readImageHeader reads the size without decoding", () => {
  test.each([
    ["PNG", (s: Sharp) => s.png(), 3],
    ["baseline JPEG", (s: Sharp) => s.jpeg(), 3],
    ["progressive JPEG", (s: Sharp) => s.jpeg({ progressive: true }), 3],
    ["JPEG with EXIF before the frame", (s: Sharp) => s.withMetadata({ exif: { IFD0: { Copyright: "test" } } }).jpeg(), 3],
    ["lossy WebP (VP8)", (s: Sharp) => s.webp(), 3],
    ["lossless WebP (VP8L)", (s: Sharp) => s.webp({ lossless: true }), 3],
    ["WebP with alpha (VP8X)", (s: Sharp) => s.webp(), 4],
  ] as const)("%s", async (_name, format, channels) => {
    for (const [width, height] of [
      [1, 1],
      [333, 17],
      [1000, 2001],
    ] as const) {
      const bytes = await encode(width, height, format, channels);
      expect(readImageHeader(bytes), `${width}x${height}`).toMatchObject({ width, height });
      expect(readImageHeader(bytes)?.format).toBe((await sharp(bytes).metadata()).format);
    }
  });

  test("the 16000×16000 bomb's header, from its first 24 bytes", () => {
    expect(readImageHeader(pngBomb(16_000, 16_000).subarray(0, 24))).toEqual({ format: "png", width: 16_000, height: 16_000 });
  });

  test("anything else, or a header cut short, is null", async () => {
    const jpeg = await encode(40, 30, (s) => s.jpeg());
    for (const bytes of [
      new Uint8Array(),
      new TextEncoder().encode("GIF89a........"),
      new TextEncoder().encode("RIFF\0\0\0\0WAVEfmt ................."),
      pngBomb(8, 8).subarray(0, 20),
      jpeg.subarray(0, 30),
      Uint8Array.from([0xff, 0xd8, 0xff, 0xd9]),
    ])
      expect(readImageHeader(bytes)).toBeNull();
  });
});

describe("inputImageIssues names the field and the limit", () => {
  test("pixels, format, bytes", () => {
    expect(inputImageIssues("init_image", pngBomb(8192, 8192))).toEqual([]);
    expect(inputImageIssues("init_image", pngBomb(8193, 10))).toMatchObject([
      { path: ["init_image"], rule: "image-pixels", message: "must be at most 8192×8192 pixels (is 8193×10)" },
    ]);
    expect(inputImageIssues("control_image", new TextEncoder().encode("hello"))).toMatchObject([
      { path: ["control_image"], rule: "image-format", message: "must be a PNG, JPEG or WebP image" },
    ]);
    expect(inputImageIssues("init_image", new Uint8Array(20 * 1024 * 1024 + 1))).toMatchObject([
      { rule: "image-bytes", message: "must be at most 20 MB (is 20971521 bytes)" },
    ]);
  });
});
