import sharp from "sharp";
import { describe, expect, test } from "vitest";
import { imageSize } from "../../../src/scene/background/panorama-image.ts";
import { SkyboxCache } from "../../../src/scene/cache/skybox-cache.ts";

describe("panorama image", () => {
  test("reads width and height from JPEG and PNG headers without decoding", async () => {
    const raw = sharp({ create: { width: 96, height: 48, channels: 3, background: "#336699" } });
    expect(imageSize(new Uint8Array(await raw.clone().jpeg().toBuffer()))).toEqual({ width: 96, height: 48 });
    expect(imageSize(new Uint8Array(await raw.clone().jpeg({ progressive: true }).toBuffer()))).toEqual({ width: 96, height: 48 });
    expect(imageSize(new Uint8Array(await raw.clone().png().toBuffer()))).toEqual({ width: 96, height: 48 });
    expect(imageSize(new Uint8Array(await raw.clone().webp().toBuffer()))).toBeNull();
  });
});

describe("SkyboxCache without IndexedDB", () => {
  test("stores nothing and misses every read, so callers need no second path", async () => {
    const cache = new SkyboxCache({ indexedDB: null });
    expect(await cache.isPersistent()).toBe(false);
    await cache.put("k", new Uint8Array([1, 2, 3]));
    expect(await cache.get("k")).toBeNull();
    expect(await cache.size()).toBe(0);
    expect(await cache.keys()).toEqual([]);
    await cache.clear();
    expect(cache.maxBytes).toBe(200 * 1024 * 1024);
  });
});
