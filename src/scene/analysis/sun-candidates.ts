/**
 * The first look for the sun: a scan of the sky half of an HDR panorama (at most 1K wide:
 * detect-sun.ts searches a wider one every few pixels) that keeps the brightest pixel of each
 * block of about 3 degrees, the irradiance the sky casts on an upward surface, and from those
 * blocks the few brightest spots far enough apart to be different objects. Only rows above
 * the horizon are read: reflections of the sun on water, and snow lit by it, lie below.
 */
import { elevationOfV } from "../../api/panorama/panorama-directions.ts";
import type { HdrPixels } from "./hdr-pixels.ts";

/** A bright spot of the scan: its brightest pixel and that pixel's luminance. */
export interface SunCandidate {
  x: number;
  y: number;
  luminance: number;
}

/** What the coarse scan finds. */
export interface SkyScan {
  /** Irradiance (luminance) the sky half casts on an upward surface, its brightest spots included. */
  skyIrradiance: number;
  /** Largest channel value of the sky half. */
  top: number;
  /** Brightest spots, brightest first, at least SEPARATION_DEG apart. */
  candidates: SunCandidate[];
}

/** Size of a block of the scan, in degrees: no sun is larger, so a block holds one at most. */
const BLOCK_DEG = 3;
/** Spots closer than this are one object (the sun and its glow). */
export const SEPARATION_DEG = 8;
/** Rec. 709 luminance weights. */
export const LUMA = [0.2126, 0.7152, 0.0722] as const;

/** Luminance of pixel `i` (its index, not its offset). */
export function luminanceAt(rgb: Float32Array, i: number): number {
  const o = i * 3;
  return LUMA[0] * rgb[o]! + LUMA[1] * rgb[o + 1]! + LUMA[2] * rgb[o + 2]!;
}

/** Rows whose centres lie above the horizon (v < 0.5). */
export function skyRows(height: number): number {
  return Math.ceil(height / 2 - 0.5);
}

/** The 4-connected neighbours of pixel i in a panorama `width` wide (columns wrap): -1 above the top row or from row `rows` down. */
export function fourNeighbours(i: number, width: number, rows: number): [number, number, number, number] {
  const x = i % width;
  const y = Math.floor(i / width);
  return [y * width + ((x + 1) % width), y * width + ((x + width - 1) % width), y > 0 ? i - width : -1, y < rows - 1 ? i + width : -1];
}

/**
 * Scans the sky half of `image`.
 * @param image the decoded panorama
 * @param count how many candidates to keep
 * @returns the sky's irradiance, its largest channel value and the brightest spots
 */
export function scanSky(image: HdrPixels, count: number): SkyScan {
  const { width, height, rgb } = image;
  const block = Math.max(1, Math.round((width * BLOCK_DEG) / 360));
  const rows = skyRows(height);
  const across = Math.ceil(width / block);
  const blocks = across * Math.ceil(rows / block);
  const best = new Float32Array(blocks).fill(-1);
  const where = new Int32Array(blocks);
  let upward = 0;
  let top = 0;
  for (let y = 0; y < rows; y++) {
    // Rows are narrower towards the zenith: each pixel stands for cos(elevation) of solid angle, and an upward
    // surface takes sin(elevation) of what comes from it.
    const elevation = elevationOfV((y + 0.5) / height);
    const weight = Math.cos(elevation);
    const sine = Math.sin(elevation);
    const row = y * width;
    const blockRow = Math.floor(y / block) * across;
    for (let x = 0; x < width; x++) {
      const l = luminanceAt(rgb, row + x);
      upward += l * weight * sine;
      const o = (row + x) * 3;
      top = Math.max(top, rgb[o]!, rgb[o + 1]!, rgb[o + 2]!);
      const b = blockRow + Math.floor(x / block);
      if (l > best[b]!) {
        best[b] = l;
        where[b] = row + x;
      }
    }
  }
  // Each pixel stands for a solid angle of (2 pi / width)(pi / height) cos(elevation).
  const cell = ((2 * Math.PI) / width) * (Math.PI / height);
  return {
    skyIrradiance: upward * cell,
    top,
    candidates: brightest(best, where, width, height, count),
  };
}

/** The `count` brightest block maxima, skipping those within SEPARATION_DEG of a brighter one. */
function brightest(best: Float32Array, where: Int32Array, width: number, height: number, count: number): SunCandidate[] {
  const order = Array.from(best.keys()).filter((b) => best[b]! > 0);
  order.sort((a, b) => best[b]! - best[a]!);
  const out: SunCandidate[] = [];
  const nearX = (SEPARATION_DEG / 360) * width;
  const nearY = (SEPARATION_DEG / 180) * height;
  for (const b of order) {
    if (out.length === count) break;
    const x = where[b]! % width;
    const y = Math.floor(where[b]! / width);
    const close = out.some((c) => Math.abs(c.y - y) < nearY && wrappedDistance(c.x, x, width) < nearX);
    if (!close) out.push({ x, y, luminance: best[b]! });
  }
  return out;
}

function wrappedDistance(a: number, b: number, width: number): number {
  const d = Math.abs(a - b);
  return Math.min(d, width - d);
}
