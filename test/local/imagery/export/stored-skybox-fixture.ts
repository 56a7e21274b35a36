/**
 * A synthetic stored skybox with analytic content, so export tests know the exact answer:
 * a sky gradient, a sun disk of radiance ~100 at a known direction, and below the horizon
 * a flat ground GROUND_HEIGHT metres down whose distance along a ray is h / sin(depression).
 * Files follow STORED_FILES (image.jpg, radiance.hdr, distance.f32; the rest are stubs).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { STORED_FILES } from "../../../../src/local/imagery/contract.ts";
import { encodeRgbe } from "../../../../src/local/imagery/formats/rgbe.ts";
import { directionOfUv } from "../../../../src/api/panorama/panorama-directions.ts";
import { makeTempDir } from "./temp-dirs.ts";

export const GROUND_HEIGHT = 2;
export const SKY_DISTANCE = 1e6;
/** Sun: at u = 0.75 (+X, right of the centre), 20 deg above the horizon, 4 deg radius. */
export const SUN = { u: 0.75, elevationDeg: 20, radiusDeg: 4, radiance: [100, 95, 85] as const };
export const SUN_V = 0.5 - SUN.elevationDeg / 180;

const SUN_DIR = new Float64Array(3);
directionOfUv(SUN.u, SUN_V, SUN_DIR);
const COS_SUN = Math.cos((SUN.radiusDeg * Math.PI) / 180);

/** Linear radiance seen along unit direction d. */
export function radianceAt(d: ArrayLike<number>): [number, number, number] {
  const y = d[1]!;
  if (y < 0) {
    // Ground: brown darkening with distance, bluer to the left (-X), greener behind (+Z).
    const fade = 1 / (1 + distanceAt(d) / 50);
    const side = d[0]! / Math.hypot(d[0]!, d[2]!);
    const back = d[2]! / Math.hypot(d[0]!, d[2]!);
    return [0.35 * fade + 0.02, (0.25 + 0.1 * back) * fade + 0.02, (0.2 - 0.15 * side) * fade + 0.02];
  }
  const cos = d[0]! * SUN_DIR[0]! + d[1]! * SUN_DIR[1]! + d[2]! * SUN_DIR[2]!;
  if (cos > COS_SUN) return [...SUN.radiance];
  const t = Math.pow(y, 0.6);
  // Sky: blue towards the zenith, redder towards +X, greener towards +Z (no mirror symmetry).
  return [0.9 - 0.7 * t + 0.5 * Math.max(0, d[0]!), 0.95 - 0.55 * t + 0.2 * d[2]!, 1.0 - 0.1 * t];
}

/** Metres along unit direction d: the ground below the horizon, SKY_DISTANCE above. */
export function distanceAt(d: ArrayLike<number>): number {
  return d[1]! < -1e-6 ? GROUND_HEIGHT / -d[1]! : SKY_DISTANCE;
}

/** sRGB byte of a linear value after a simple Reinhard tone map. */
export function toneMap(linear: number): number {
  const x = linear / (1 + linear);
  const s = x <= 0.0031308 ? 12.92 * x : 1.055 * Math.pow(x, 1 / 2.4) - 0.055;
  return Math.round(Math.min(1, Math.max(0, s)) * 255);
}

function grid<T extends Float32Array | Uint8Array>(
  width: number,
  height: number,
  channels: number,
  make: (n: number) => T,
  fill: (d: Float64Array, out: T, o: number) => void,
): T {
  const out = make(width * height * channels);
  const d = new Float64Array(3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      directionOfUv((x + 0.5) / width, (y + 0.5) / height, d);
      fill(d, out, (y * width + x) * channels);
    }
  }
  return out;
}

export interface Fixture {
  dir: string;
  width: number;
  height: number;
  /** The exact 8-bit pixels written to image.jpg before JPEG compression. */
  imageRgb: Uint8Array;
}

/**
 * Writes a stored skybox of `width` x `width/2` (distance map at depthWidth x depthWidth/2).
 * `grain` (0..1) multiplies radiance by deterministic per-pixel noise of that amplitude, so
 * timings see the compression cost of a textured, photo-like image.
 */
export async function makeStoredSkybox(width = 512, depthWidth = 256, grain = 0): Promise<Fixture> {
  const dir = makeTempDir("skybox-export-");
  const height = width / 2;
  let seed = 12345;
  const noise = (): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return 1 + grain * ((seed >>> 8) / 16777216 - 0.5);
  };
  const radiance = grid(
    width,
    height,
    3,
    (n) => new Float32Array(n),
    (d, out, o) =>
      out.set(
        radianceAt(d).map((v) => v * noise()),
        o,
      ),
  );
  const imageRgb = new Uint8Array(radiance.length);
  for (let i = 0; i < radiance.length; i++) imageRgb[i] = toneMap(radiance[i]!);
  const distance = grid(
    depthWidth,
    depthWidth / 2,
    1,
    (n) => new Float32Array(n),
    (d, out, o) => (out[o] = distanceAt(d)),
  );
  writeFileSync(join(dir, STORED_FILES.radiance), encodeRgbe(width, height, radiance));
  writeFileSync(join(dir, STORED_FILES.distance), new Uint8Array(distance.buffer));
  await sharp(imageRgb, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95, chromaSubsampling: "4:4:4" })
    .toFile(join(dir, STORED_FILES.image));
  writeFileSync(join(dir, STORED_FILES.scene), "{}");
  return { dir, width, height, imageRgb };
}
