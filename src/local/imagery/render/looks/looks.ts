/**
 * What each look (style) changes. The renderer reads these numbers: detail and lighting
 * during rendering (render-rows.ts, surface.ts), colour and neighbourhood effects when
 * finishing (finish-rows.ts, stylize.ts).
 *
 *   photoreal    the physical render, filmic tone map
 *   painterly    brush strokes (smudged along a flowing direction field), canvas grain, richer colour
 *   anime        cel-shaded light (two tones), crisp clouds, posterized colour, dark outlines
 *   watercolor   less detail, soft washes, pigment pooling at edges, paper grain, lighter values
 *   low-poly     faceted: flat-coloured polygons (Voronoi cells on the direction sphere)
 *   neon         sci-fi night palette: magenta/cyan sky, glowing grid on the ground, neon windows
 *   pixel-art    large pixels, a small palette with ordered dithering
 *   digital-art  vivid, contrasty concept-art grade with a soft glow
 */
import type { Look } from "../../contract.ts";

export interface LookParams {
  look: Look;
  /** Added to noise octaves (negative: simpler shapes). */
  octaveBias: number;
  /** Quantize diffuse light into bands (0 = smooth). */
  celBands: number;
  cloudSharpness: number;
  saturation: number;
  contrast: number;
  /** Display levels per channel (0 = none). */
  posterize: number;
  /** Outline darkness 0..1 at depth/colour edges. */
  outline: number;
  neon: boolean;
  /** Pixel-art block size as a fraction of the width (0 = none). */
  pixelBlocks: number;
  /** Facet cells per unit of direction (low-poly, 0 = none). */
  facets: number;
  /** Painterly stroke length in pixels at 1024 wide (0 = none). */
  brush: number;
  /** Watercolor paper/pigment effects strength. */
  paper: number;
  /** Soft glow of bright areas (digital-art). */
  glow: number;
  /** Lift of dark values toward paper white (watercolor). */
  lift: number;
}

const BASE: LookParams = {
  look: "photoreal",
  octaveBias: 0,
  celBands: 0,
  cloudSharpness: 1,
  saturation: 1,
  contrast: 1,
  posterize: 0,
  outline: 0,
  neon: false,
  pixelBlocks: 0,
  facets: 0,
  brush: 0,
  paper: 0,
  glow: 0,
  lift: 0,
};

const LOOK_PARAMS: Record<Look, Partial<LookParams>> = {
  photoreal: {},
  painterly: { octaveBias: -1, saturation: 1.18, contrast: 1.05, brush: 9 },
  anime: { octaveBias: -2, celBands: 2, cloudSharpness: 3.5, saturation: 1.3, contrast: 1.08, posterize: 9, outline: 0.85 },
  watercolor: { octaveBias: -3, saturation: 0.85, contrast: 0.9, paper: 1, lift: 0.22, cloudSharpness: 0.7 },
  "low-poly": { octaveBias: -4, saturation: 1.1, facets: 22 },
  neon: { octaveBias: -1, neon: true, saturation: 1.35, contrast: 1.15, glow: 0.5 },
  "pixel-art": { octaveBias: -3, saturation: 1.2, pixelBlocks: 1 / 256, posterize: 8 },
  "digital-art": { saturation: 1.35, contrast: 1.18, glow: 0.35 },
};

/** Parameters of a look; softLines softens outlines and edges. */
export function lookParams(look: Look, softLines: boolean): LookParams {
  const p: LookParams = { ...BASE, ...LOOK_PARAMS[look], look };
  if (softLines) {
    p.outline *= 0.45;
    p.cloudSharpness = Math.min(p.cloudSharpness, 1.5) * 0.8;
    p.celBands = p.celBands > 0 ? p.celBands + 1 : 0;
  }
  return p;
}
