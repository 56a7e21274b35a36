/**
 * Real HDRI exports of the local service for the sun's tests: a prompt rendered by the
 * imagery pool at a reduced size, exported as `hdri-hdr` (realism, what `applySkybox` lights
 * with), decoded the way the scene decodes it, with the renderer's own sun read from the
 * stored scene description (test-only: the API's records do not carry it).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { directionOfDegrees } from "../../../src/api/panorama/panorama-directions.ts";
import type { ImageryPool } from "../../../src/local/imagery/pipeline/render-pool.ts";
import type { SceneSpec } from "../../../src/local/imagery/scene/scene-spec.ts";
import { STORED_FILES } from "../../../src/local/imagery/contract.ts";
import { decodeHdr, type HdrPixels } from "../../../src/scene/analysis/hdr-pixels.ts";
import { request, tempDir } from "../../local/imagery/render-fixtures.ts";

/** A rendered and exported skybox. */
export interface SunExport {
  prompt: string;
  hdr: HdrPixels;
  /** The scene the renderer drew. */
  scene: SceneSpec;
  /** Unit direction of the renderer's sun, in the panorama's frame. */
  truth: [number, number, number];
}

/**
 * Renders `prompt` at `width` x `width / 2` and exports its HDRI at the same size.
 * @param pool the test file's imagery pool (`renderPool()`)
 */
export async function sunExport(pool: ImageryPool, prompt: string, seed = 7, width = 1024): Promise<SunExport> {
  const dir = tempDir("sun");
  const size = { width, height: width / 2 };
  await pool.generate(request({ prompt, seed, model: 3, variant: null, size }), dir);
  const result = await pool.runExport({ from: dir, type: "hdri-hdr", hdriMode: "realism", size, out: join(dir, "export"), imageScale: 1 });
  const scene = JSON.parse(readFileSync(join(dir, STORED_FILES.scene), "utf8")) as SceneSpec;
  return {
    prompt,
    hdr: decodeHdr(new Uint8Array(readFileSync(result.path))),
    scene,
    truth: directionOfDegrees(scene.sun.azimuth, scene.sun.elevation),
  };
}

export { degreesBetween } from "./angles.ts";
