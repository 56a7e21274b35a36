/**
 * The local service's imagery: the procedural renderer of generations and the exporters of
 * stored skyboxes. The service uses this file and `contract.ts` (what it asks and gets
 * back), nothing else of the folder. Inside, in the order a generation flows:
 *
 *   prompt/    the prompt's words -> the scene (SceneSpec); negatives; enhance_prompt
 *   inputs/    images a request brings: remix (init and control image), edit, image-to-pano
 *   scene/     the scene's content as functions of a view direction: sky/ (sky, sun, moon
 *              and stars, clouds, aurora, space), terrain/, ground/, city/, water, fog
 *   math/      seeded random numbers, value noise, scalar shaping
 *   render/    the per-pixel passes: render, water reflection, finishing, distances;
 *              looks/ (look parameters, stylize, tone map)
 *   pipeline/  one generation as parallel jobs on a pool of worker threads, the planes
 *              they draw into, and the files a stored skybox holds
 *   export/    every export type, written from a stored skybox (hdri/, cube/, mesh/, video/)
 *   formats/   file encoders: Radiance RGBE, OpenEXR, 16-bit depth PNG, binary glTF
 *
 * Panorama directions and wrap-around sampling follow `src/api/panorama/`, shared with
 * the browser.
 */
import type { ExportRequest, ExportResult, RenderRequest, RenderResult } from "./contract.ts";

/** What the service needs of its imagery: render a generation, write an export, stop. */
export interface Imagery {
  /**
   * Renders into `dir`. Aborting `signal` stops the render early; the promise settles only
   * after every write it started, so `dir` may be removed then.
   */
  generate(request: RenderRequest, dir: string, signal?: AbortSignal): Promise<RenderResult>;
  /** Renders one export of a generation's files. */
  runExport(request: ExportRequest): Promise<ExportResult>;
  /** Stops the render workers. */
  close(): Promise<void>;
}

/**
 * The worker-thread imagery, in a render process of its own (render-host.ts): the host's
 * V8 flags stay untouched, and an idle render process ends, giving its memory back. The
 * process starts at once, loads the renderer's modules (sharp among them) and its workers,
 * and renders a small warm-up scene while the service starts: the first generation waits
 * for none of it and runs compiled code. A service given its own `Imagery` starts none.
 */
export async function createWorkerImagery(): Promise<Imagery> {
  const { RenderHost } = await import("./pipeline/render-host.ts");
  const host = new RenderHost();
  // A warm-up that fails (no temporary folder, the host closed meanwhile) only leaves the
  // first generation to compile the renderer itself.
  void host.ready({ warmUp: true }).catch(() => {});
  return host;
}
