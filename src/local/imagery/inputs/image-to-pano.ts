/**
 * Image-to-pano: an ordinary perspective picture is placed straight ahead (-Z, the centre
 * of the panorama) with a 90 degree horizontal field of view, feathered at its borders,
 * and the procedural scene around it takes its palette, light and horizon from the
 * picture so that the rest of the panorama continues it.
 */
import { directionOfUv, vOfLatitude } from "../../../api/panorama/panorama-directions.ts";
import type { Overlay } from "../render/finish-rows.ts";
import { decodeImageWithin, type RawImage, sharedCopy } from "./guide-images.ts";
import type { PreparedScene } from "../scene/prepare-scene.ts";
import { Rng } from "../math/prng.ts";
import { smoothstep } from "../math/scalar.ts";
import { retime } from "../prompt/scene-choices.ts";
import type { SceneSpec } from "../scene/scene-spec.ts";
import { bestSplit } from "./skyline.ts";
import { inverseToneMapChannel, SRGB_TO_LINEAR } from "../render/looks/tone-map.ts";

/** Horizontal field of view given to the picture. */
export const IMAGE_TO_PANO_FOV = 90;
const MAX_SIDE = 2048;

export interface PanoGuide {
  width: number;
  height: number;
  pixels: SharedArrayBuffer;
  /** tan of half the horizontal and vertical fields of view. */
  tanX: number;
  tanY: number;
}

export interface PanoAnalysis {
  /** Elevation (degrees) of the picture's horizon, or null if it has none. */
  horizon: number | null;
  sky: [number, number, number];
  ground: [number, number, number];
  /** Mean luma 0..255. */
  brightness: number;
}

export async function loadPanoGuide(bytes: Uint8Array): Promise<{ guide: PanoGuide; analysis: PanoAnalysis }> {
  // One pass, shrunk while decoding: never the whole picture at full size in memory.
  const img = await decodeImageWithin(bytes, MAX_SIDE);
  const tanX = Math.tan(((IMAGE_TO_PANO_FOV / 2) * Math.PI) / 180);
  const tanY = (tanX * img.height) / img.width;
  return { guide: { width: img.width, height: img.height, pixels: sharedCopy(img.data), tanX, tanY }, analysis: analyse(img, tanY) };
}

function analyse(img: RawImage, tanY: number): PanoAnalysis {
  const { width: W, height: H, data } = img;
  const rows = new Float64Array(H);
  for (let y = 0; y < H; y++) {
    let s = 0;
    for (let x = 0; x < W; x++) {
      const o = (y * W + x) * 3;
      s += data[o]! * 0.3 + data[o + 1]! * 0.59 + data[o + 2]! * 0.11;
    }
    rows[y] = s / W;
  }
  // bestSplit speaks in equirect elevations; convert its row back to the picture's row.
  const e = bestSplit(rows);
  const row = e === 0 ? -1 : Math.round(vOfLatitude(e) * H);
  const horizon = row < 0 ? null : (Math.atan(-((row / H) * 2 - 1) * tanY) * 180) / Math.PI;
  const split = row < 0 ? Math.round(H * 0.45) : row;
  return {
    horizon,
    sky: meanColour(img, 0, Math.max(1, Math.round(split * 0.8))),
    ground: meanColour(img, Math.min(H - 1, split + Math.round((H - split) * 0.2)), H),
    brightness: rows.reduce((a, b) => a + b, 0) / H,
  };
}

function meanColour(img: RawImage, y0: number, y1: number): [number, number, number] {
  const sum = [0, 0, 0];
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = 0; x < img.width; x++) {
      const o = (y * img.width + x) * 3;
      for (let c = 0; c < 3; c++) sum[c]! += SRGB_TO_LINEAR[img.data[o + c]!]!;
      n++;
    }
  }
  return sum.map((s) => s / Math.max(1, n)) as [number, number, number];
}

/** Continues the picture: light and palette from it (unless the prompt named them), horizon ridge. */
export function adaptSceneToPicture(scene: SceneSpec, a: PanoAnalysis, promptNamedTime: boolean): void {
  if (!promptNamedTime) {
    const warm = a.sky[0] / Math.max(1e-4, a.sky[2]);
    retime(scene, a.brightness < 45 ? "night" : a.brightness < 80 ? "dusk" : warm > 1.4 ? "sunset" : "afternoon", new Rng(scene.seed));
  }
  // Tint the sky toward the picture's sky hue (relative to a neutral daylight blue).
  const base = [0.35, 0.55, 1];
  const sm = (a.sky[0] + a.sky[1] + a.sky[2]) / 3 || 1;
  scene.tint = [0, 1, 2].map((c) => Math.min(2, Math.max(0.5, a.sky[c]! / sm / (base[c]! / 0.633)))) as [number, number, number];
  const g = a.ground;
  const gm = (g[0] + g[1] + g[2]) / 3;
  if (gm > 0.5) scene.cover = "snow";
  else if (g[1] > g[0] * 1.1 && g[1] > g[2]) scene.cover = gm < 0.05 ? "forest" : "grass";
  else if (g[0] > g[2] * 1.6 && gm > 0.12) scene.cover = "sand";
  else if (g[2] > g[0] * 1.2 && scene.relief === "flat")
    scene.water = scene.water ?? { level: 0, kind: "ocean", tint: [0.01, 0.05, 0.08], roughness: 0.5 };
  if (a.horizon !== null && a.horizon > 1) scene.control = { profile: new Array<number>(256).fill(Math.round(a.horizon * 100) / 100) };
}

/** The picture over the render, feathered over the outer 12% of its frame. */
export function panoOverlay(g: PanoGuide, P: PreparedScene): Overlay {
  const px = new Uint8Array(g.pixels);
  const dir = new Float64Array(3);
  const lut = new Float64Array(256);
  for (let i = 0; i < 256; i++) lut[i] = inverseToneMapChannel(Math.min(i, 252), P.exposure);
  let ix = 0;
  let iy = 0;
  const locate = (x: number, y: number): number => {
    directionOfUv((x + 0.5) / P.width, (y + 0.5) / P.height, dir);
    const forward = -dir[2]!;
    if (forward <= 0.05) return 0;
    const X = dir[0]! / forward / g.tanX;
    const Y = -dir[1]! / forward / g.tanY;
    if (X <= -1 || X >= 1 || Y <= -1 || Y >= 1) return 0;
    ix = ((X + 1) / 2) * g.width - 0.5;
    iy = ((Y + 1) / 2) * g.height - 0.5;
    return smoothstep(0, 0.12, 1 - Math.abs(X)) * smoothstep(0, 0.12, 1 - Math.abs(Y));
  };
  return {
    weight: locate,
    sample(x, y, outDisplay, outRadiance) {
      locate(x, y);
      const x0 = Math.max(0, Math.min(g.width - 1, Math.floor(ix)));
      const y0 = Math.max(0, Math.min(g.height - 1, Math.floor(iy)));
      const x1 = Math.min(g.width - 1, x0 + 1);
      const y1 = Math.min(g.height - 1, y0 + 1);
      const ax = Math.max(0, Math.min(1, ix - x0));
      const ay = Math.max(0, Math.min(1, iy - y0));
      for (let c = 0; c < 3; c++) {
        const top = px[(y0 * g.width + x0) * 3 + c]! * (1 - ax) + px[(y0 * g.width + x1) * 3 + c]! * ax;
        const bottom = px[(y1 * g.width + x0) * 3 + c]! * (1 - ax) + px[(y1 * g.width + x1) * 3 + c]! * ax;
        const v = top * (1 - ay) + bottom * ay;
        outDisplay[c] = v;
        const lo = Math.floor(v);
        outRadiance[c] = lut[lo]! + (lut[Math.min(255, lo + 1)]! - lut[lo]!) * (v - lo);
      }
    },
  };
}
