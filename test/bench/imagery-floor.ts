/**
 * The floor of the imagery bench: what any renderer of a panorama pays on this machine,
 * whatever its scene. Encoding the JPEG (sharp, one thread), one plain JavaScript pass
 * that writes every pixel of an analytic sky (radiance and display bytes, one thread),
 * and packing that radiance as RGBE. On `cores` cores the passes split and the JPEG does
 * not: floor = jpeg + (sky + rgbe) / cores.
 */
import sharp from "sharp";
import { encodeRgbe } from "../../src/local/imagery/formats/rgbe.ts";

export interface Floor {
  jpeg: number;
  sky: number;
  rgbe: number;
  /** Seconds on `cores` cores. */
  total: number;
}

const seconds = (t0: number) => (performance.now() - t0) / 1000;

export async function imageryFloor(width: number, height: number, cores: number): Promise<Floor> {
  const radiance = new Float32Array(width * height * 3);
  const display = new Uint8Array(width * height * 3);
  let t0 = performance.now();
  analyticSky(width, height, radiance, display);
  const sky = seconds(t0);
  t0 = performance.now();
  await sharp(display, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
  const jpeg = seconds(t0);
  t0 = performance.now();
  encodeRgbe(width, height, radiance);
  const rgbe = seconds(t0);
  return { jpeg, sky, rgbe, total: jpeg + (sky + rgbe) / cores };
}

/** A sky with a horizon glow and a sun, one exponential a pixel, tone-mapped to bytes. */
function analyticSky(width: number, height: number, radiance: Float32Array, display: Uint8Array): void {
  const sin = new Float64Array(width);
  const cos = new Float64Array(width);
  for (let x = 0; x < width; x++) {
    const a = ((x + 0.5) / width - 0.5) * 2 * Math.PI;
    sin[x] = Math.sin(a);
    cos[x] = Math.cos(a);
  }
  const [lx, ly, lz] = [0.3, 0.2, -0.93];
  for (let y = 0; y < height; y++) {
    const e = (0.5 - (y + 0.5) / height) * Math.PI;
    const cp = Math.cos(e);
    const sp = Math.sin(e);
    const glow = Math.exp(-Math.max(sp, 0) * 4);
    for (let x = 0; x < width; x++) {
      const c = sin[x]! * cp * lx + sp * ly - cos[x]! * cp * lz;
      const sun = Math.exp((c - 1) * 300) * 20;
      const o = (y * width + x) * 3;
      const r = 0.1 + 0.5 * glow + sun;
      const g = 0.2 + 0.35 * glow + sun;
      const b = 0.5 + 0.1 * glow + sun;
      radiance[o] = r;
      radiance[o + 1] = g;
      radiance[o + 2] = b;
      display[o] = (255 * r) / (1 + r);
      display[o + 1] = (255 * g) / (1 + g);
      display[o + 2] = (255 * b) / (1 + b);
    }
  }
}
