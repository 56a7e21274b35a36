/**
 * The renderer's entry point: `generateSkybox(req, dir)` renders a generation and writes
 * the STORED_FILES of contract.ts into `dir`:
 *
 *   image.jpg     full size, tone-mapped sRGB JPEG (quality 90)
 *   thumb.jpg     thumbSize JPEG
 *   depth.png     depthSize, 16-bit greyscale, near = bright, logarithmic (see depth-map.ts), sky = 0
 *   distance.f32  depthSize Float32 LE metres along each pixel's ray, sky = SKY_DISTANCE
 *   radiance.hdr  full size linear radiance, Radiance RGBE (RLE)
 *   scene.json    the resolved SceneSpec (re-rendered by remix, extended by edit)
 *
 * Panoramas are equirectangular (src/api/panorama/panorama-directions.ts: the centre
 * column looks at -Z, the top row at +Y).
 */
import type { RenderRequest, RenderResult } from "../contract.ts";
import { createImageryPool, type ImageryPool } from "./render-pool.ts";

export { SKY_DISTANCE } from "../render/depth-map.ts";

let shared: ImageryPool | null = null;

/** The process-wide pool used when none is given (its idle workers never hold the process). */
export function defaultImageryPool(): ImageryPool {
  shared ??= createImageryPool();
  return shared;
}

export function generateSkybox(req: RenderRequest, dir: string, options: { pool?: ImageryPool } = {}): Promise<RenderResult> {
  return (options.pool ?? defaultImageryPool()).generate(req, dir);
}
