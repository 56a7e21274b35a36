/**
 * Remix: an init image steers colours and composition (the render's radiance is pulled
 * toward the image's, by strength); a control image keeps only its structure (its skyline
 * becomes the terrain's silhouette); remixFrom reuses a stored skybox's scene.json.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { STORED_FILES } from "../contract.ts";
import { decodeImage, sharedCopy } from "./guide-images.ts";
import type { PreparedScene } from "../scene/prepare-scene.ts";
import type { RadianceGuide } from "../render/render-rows.ts";
import type { SceneSpec } from "../scene/scene-spec.ts";
import { skylineProfile } from "./skyline.ts";
import { inverseToneMapChannel } from "../render/looks/tone-map.ts";

/** An init image resampled to the panorama size (RGB bytes in shared memory). */
export interface InitGuide {
  rgb: SharedArrayBuffer;
  strength: number;
}

export async function loadInitGuide(bytes: Uint8Array, strength: number, width: number, height: number): Promise<InitGuide> {
  const img = await decodeImage(bytes, { width, height });
  return { rgb: sharedCopy(img.data), strength: Math.min(1, Math.max(0, strength)) };
}

/**
 * The per-pixel pull toward the init image: radiance becomes a mix of the render's and
 * the radiance that tone-maps to the image's colour, weighted by strength.
 */
export function initGuide(g: InitGuide, P: PreparedScene): RadianceGuide {
  const rgb = new Uint8Array(g.rgb);
  const lut = new Float64Array(256);
  for (let i = 0; i < 256; i++) lut[i] = inverseToneMapChannel(Math.min(i, 252), P.exposure);
  const a = g.strength;
  const W = P.width;
  return (x, y, col) => {
    const o = (y * W + x) * 3;
    for (let c = 0; c < 3; c++) col[c] = col[c]! * (1 - a) + lut[rgb[o + c]!]! * a;
  };
}

/** The skyline profile (degrees per column, 1024 columns) of a control image. */
export async function loadControlProfile(bytes: Uint8Array): Promise<number[]> {
  const img = await decodeImage(bytes, { width: 1024, height: 512 });
  return skylineProfile(img).map((e) => Math.round(e * 100) / 100);
}

/** The scene.json of a stored skybox. */
export async function readStoredScene(dir: string): Promise<SceneSpec> {
  const text = await readFile(join(dir, STORED_FILES.scene), "utf8");
  const scene = JSON.parse(text) as SceneSpec;
  if (scene.version !== 1) throw new Error(`unsupported scene.json version in ${dir}`);
  return scene;
}
