/**
 * Edit: the new prompt's scene replaces the stored skybox only inside a cone around the
 * chosen direction (full inside 70% of the half-angle, feathered to nothing at fov/2).
 * Outside it the source's own bytes and radiance are copied unchanged, and only pixels
 * near the cone are rendered at all.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type RenderRequest, STORED_FILES } from "../contract.ts";
import { directionOfDegrees, directionOfUv } from "../../../api/panorama/panorama-directions.ts";
import type { Overlay } from "../render/finish-rows.ts";
import { decodeRgbe } from "../formats/rgbe.ts";
import { decodeImage, sharedCopy } from "./guide-images.ts";
import { smoothstep } from "../math/scalar.ts";

const DEG = Math.PI / 180;
/** Extra rendered margin around the cone, so that looks' neighbourhood effects see real pixels. */
const MARGIN = 4 * DEG;

export interface EditGuide {
  cx: number;
  cy: number;
  cz: number;
  /** Angles (radians) where the new render starts to fade and where it is gone. */
  inner: number;
  outer: number;
  sourceDisplay: SharedArrayBuffer;
  sourceRadiance: SharedArrayBuffer;
  sourceDistance: SharedArrayBuffer;
}

type EditArea = NonNullable<RenderRequest["edit"]>;

/** Loads the source skybox of an edit at the requested sizes. */
export async function loadEditGuide(
  edit: EditArea,
  size: RenderRequest["size"],
  depthSize: RenderRequest["depthSize"],
): Promise<EditGuide> {
  const [jpg, hdr, dist] = await Promise.all([
    readFile(join(edit.from, STORED_FILES.image)),
    readFile(join(edit.from, STORED_FILES.radiance)),
    readFile(join(edit.from, STORED_FILES.distance)),
  ]);
  const display = await decodeImage(jpg, size);
  const radiance = decodeRgbe(hdr);
  if (radiance.width !== size.width || radiance.height !== size.height) {
    throw new Error(`edit: source radiance is ${radiance.width}x${radiance.height}, expected ${size.width}x${size.height}`);
  }
  const distance = new Float32Array(dist.buffer, dist.byteOffset, dist.byteLength / 4);
  if (distance.length !== depthSize.width * depthSize.height) throw new Error("edit: source distance.f32 has the wrong size");
  const [cx, cy, cz] = directionOfDegrees(edit.centerX, edit.centerY);
  const half = (Math.min(179, Math.max(2, edit.fov)) / 2) * DEG;
  return {
    cx,
    cy,
    cz,
    inner: half * 0.7,
    outer: half,
    sourceDisplay: sharedCopy(display.data),
    sourceRadiance: sharedCopy(radiance.rgb),
    sourceDistance: sharedCopy(distance),
  };
}

/** Weight (0..1) of the new render along a direction. */
export function editWeight(g: EditGuide, dx: number, dy: number, dz: number): number {
  const a = Math.acos(Math.max(-1, Math.min(1, dx * g.cx + dy * g.cy + dz * g.cz)));
  return 1 - smoothstep(g.inner, g.outer, a);
}

/** Whether a direction needs rendering (inside the cone plus a margin). */
export function editActive(g: EditGuide, dx: number, dy: number, dz: number): boolean {
  return dx * g.cx + dy * g.cy + dz * g.cz > Math.cos(Math.min(Math.PI, g.outer + MARGIN));
}

/** The source shown over the render outside the cone. */
export function editOverlay(g: EditGuide, width: number, height: number): Overlay {
  const display = new Uint8Array(g.sourceDisplay);
  const radiance = new Float32Array(g.sourceRadiance);
  const dir = new Float64Array(3);
  return {
    weight(x, y) {
      directionOfUv((x + 0.5) / width, (y + 0.5) / height, dir);
      return 1 - editWeight(g, dir[0]!, dir[1]!, dir[2]!);
    },
    sample(x, y, outDisplay, outRadiance) {
      const o = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) {
        outDisplay[c] = display[o + c]!;
        outRadiance[c] = radiance[o + c]!;
      }
    },
  };
}
