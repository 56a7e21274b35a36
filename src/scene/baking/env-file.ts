/**
 * Babylon's `.env` file (what `CubeTexture` loads with `forcedExtension: ".env"`) written on
 * the CPU from a prefiltered cube's texels (baked-texels.ts): each face of each mip
 * RGBD-encoded as Babylon's `toRGBD` shader does and stored as a PNG, behind the JSON
 * manifest Babylon's `CreateEnvTextureAsync` writes. Babylon's own bake renders and reads
 * back every face twice and encodes each PNG through a canvas: seconds a face on a busy
 * page. This one needs only the texels, which the apply's cache bake reads anyway.
 */
import { FromHalfFloat } from "@babylonjs/core/Misc/halfFloat.js";
import type { SphericalPolynomial } from "@babylonjs/core/Maths/sphericalPolynomial.js";
import { mipCount, type TexelLevels } from "./baked-texels.ts";
import { encodePngRgba } from "./png-rgba.ts";

/** The first bytes of every `.env` file. */
const MAGIC = [0x86, 0x16, 0x87, 0x96, 0xf6, 0xd6, 0x96, 0x36];
/** The manifest layout written: version 2 names its image type. */
const ENV_VERSION = 2;
/** RGBD keeps colours up to this many times white (Babylon's `rgbdMaxRange`). */
const RGBD_MAX_RANGE = 255;
/** Babylon's gamma approximation (`LinearEncodePowerApprox`). */
const GAMMA = 2.2;

/** What the file needs besides the texels. */
export interface EnvFileInfo {
  /** Face size of mip 0. */
  size: number;
  lodGenerationScale: number;
  /** The environment's own irradiance harmonics. */
  polynomial: SphericalPolynomial;
  /** The texels are gamma-encoded (a cube made from an 8-bit picture): linearised first, as Babylon's bake does. */
  gammaSpace: boolean;
}

/**
 * @param info size, LOD scale, harmonics
 * @param levels `levels[mip][face]`, RGBA halves, rows as `readPixels` gives them
 * @param onFace called after each face is encoded (between faces the caller may yield)
 * @returns the `.env` bytes
 */
export async function encodeEnvFile(
  info: EnvFileInfo,
  levels: TexelLevels,
  onFace?: (done: number, total: number) => Promise<void> | void,
): Promise<Uint8Array> {
  const total = mipCount(info.size) * 6;
  const images: Uint8Array[] = [];
  for (let mip = 0; mip < mipCount(info.size); mip++)
    for (let face = 0; face < 6; face++) {
      const side = Math.max(1, info.size >> mip);
      images.push(encodePngRgba(side, side, toRgbd(levels[mip]![face]!, side, info.gammaSpace)));
      await onFace?.(images.length, total);
    }
  let position = 0;
  const mipmaps = images.map((image) => {
    const entry = { length: image.length, position };
    position += image.length;
    return entry;
  });
  const manifest = {
    version: ENV_VERSION,
    width: info.size,
    imageType: "image/png",
    irradiance: irradianceOf(info.polynomial),
    specular: { mipmaps, lodGenerationScale: info.lodGenerationScale },
  };
  // ASCII JSON, ended by a NUL, as Babylon's reader expects.
  const json = new TextEncoder().encode(`${JSON.stringify(manifest)}\0`);
  const out = new Uint8Array(MAGIC.length + json.length + position);
  out.set(MAGIC, 0);
  out.set(json, MAGIC.length);
  let at = MAGIC.length + json.length;
  for (const image of images) {
    out.set(image, at);
    at += image.length;
  }
  return out;
}

/**
 * Linear RGBA halves to RGBD bytes, as Babylon's `toRGBD`: the colour times a divider D (the
 * largest whole factor that keeps it within RGBD_MAX_RANGE, over 255) in gamma space, D in
 * alpha. Rows come out in the opposite order: the texels are bottom row first, as read back,
 * and Babylon's images are top row first (its bake draws them on a canvas).
 */
function toRgbd(halves: Uint16Array, side: number, gammaSpace: boolean): Uint8Array {
  const out = new Uint8Array(halves.length);
  const stride = side * 4;
  const linear = (half: number) => (gammaSpace ? Math.pow(FromHalfFloat(half), GAMMA) : FromHalfFloat(half));
  for (let i = 0; i < halves.length; i += 4) {
    const r = linear(halves[i]!);
    const g = linear(halves[i + 1]!);
    const b = linear(halves[i + 2]!);
    const max = Math.max(r, g, b, 1e-7);
    const d = Math.min(1, Math.max(0, Math.floor(Math.max(RGBD_MAX_RANGE / max, 1)) / 255));
    const o = (side - 1 - Math.floor(i / stride)) * stride + (i % stride);
    out[o] = byte(Math.pow(Math.max(0, r * d), 1 / GAMMA));
    out[o + 1] = byte(Math.pow(Math.max(0, g * d), 1 / GAMMA));
    out[o + 2] = byte(Math.pow(Math.max(0, b * d), 1 / GAMMA));
    out[o + 3] = byte(d);
  }
  return out;
}

function byte(v: number): number {
  return Math.round(Math.min(1, v) * 255);
}

/** The harmonics as the manifest's `irradiance` (Babylon's `CreateEnvTextureIrradiance`). */
function irradianceOf(p: SphericalPolynomial): Record<string, number[]> {
  const terms = { x: p.x, y: p.y, z: p.z, xx: p.xx, yy: p.yy, zz: p.zz, yz: p.yz, zx: p.zx, xy: p.xy };
  return Object.fromEntries(Object.entries(terms).map(([k, v]) => [k, [v.x, v.y, v.z]]));
}
