/**
 * Shared pieces of the renderer tests: small requests, one pool for a test file, and
 * readers for the stored files.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll } from "vitest";
import type { RenderRequest } from "../../../src/local/imagery/contract.ts";
import { decodeRgbe } from "../../../src/local/imagery/formats/rgbe.ts";
import { createImageryPool, type ImageryPool } from "../../../src/local/imagery/pipeline/render-pool.ts";

export const W = 512;
export const H = 256;

export function request(overrides: Partial<RenderRequest> = {}): RenderRequest {
  return {
    prompt: "mountains at sunset",
    negativeText: null,
    enhancePrompt: false,
    seed: 11,
    look: "photoreal",
    model: 4,
    variant: "standard",
    softLines: false,
    size: { width: W, height: H },
    thumbSize: { width: 180, height: 90 },
    depthSize: { width: 256, height: 128 },
    ...overrides,
  };
}

/**
 * One pool of 2 workers for a test file, closed (and the file's temporary directories
 * removed) after its tests; call at the top of the file, read the pool inside tests.
 */
export function renderPool(): () => ImageryPool {
  let pool: ImageryPool | null = null;
  beforeAll(() => {
    pool = createImageryPool({ size: 2 });
  });
  afterAll(async () => {
    await pool?.close();
    removeTempDirs();
  });
  return () => pool!;
}

const created: string[] = [];

export function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `skybox-${name}-`));
  created.push(dir);
  return dir;
}

/** Removes every directory tempDir made in this test file. */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export interface Rgb8 {
  width: number;
  height: number;
  data: Uint8Array;
}

export async function readJpeg(dir: string, file = "image.jpg"): Promise<Rgb8> {
  const { data, info } = await sharp(join(dir, file)).raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

export function readRadiance(dir: string): { width: number; height: number; rgb: Float32Array } {
  return decodeRgbe(new Uint8Array(readFileSync(join(dir, "radiance.hdr"))));
}

export function readDistance(dir: string): Float32Array {
  const b = readFileSync(join(dir, "distance.f32"));
  return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}

/** Mean absolute difference of two equally sized byte images, 0..255. */
export function meanAbsDiff(a: Uint8Array, b: Uint8Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(a[i]! - b[i]!);
  return s / a.length;
}

/** Mean of each channel of an RGB byte image. */
export function meanColour(img: Rgb8): [number, number, number] {
  const m = [0, 0, 0];
  for (let i = 0; i < img.data.length; i++) m[i % 3]! += img.data[i]!;
  const n = img.data.length / 3;
  return [m[0]! / n, m[1]! / n, m[2]! / n];
}

/** Luma of pixel (x, y). */
export function luma(img: Rgb8, x: number, y: number): number {
  const o = (y * img.width + x) * 3;
  return img.data[o]! * 0.3 + img.data[o + 1]! * 0.59 + img.data[o + 2]! * 0.11;
}
