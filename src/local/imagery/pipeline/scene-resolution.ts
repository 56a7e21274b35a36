/**
 * From a request to the scene and guide images of its render: the prompt's scene (on top
 * of a remixed or edited skybox's scene.json), a control image's skyline, the source of
 * an edit, the picture of image-to-pano, the init image.
 */
import type { RenderRequest } from "../contract.ts";
import { loadEditGuide } from "../inputs/edit.ts";
import { adaptSceneToPicture, loadPanoGuide } from "../inputs/image-to-pano.ts";
import { sceneFromPrompt } from "../prompt/prompt-scene.ts";
import { type Concept, conceptsIn } from "../prompt/prompt-words.ts";
import { loadControlProfile, loadInitGuide, readStoredScene } from "../inputs/remix.ts";
import type { TaskGuides } from "./render-jobs.ts";
import type { SceneSpec } from "../scene/scene-spec.ts";

const TIMES: Concept[] = ["dawn", "morning", "noon", "afternoon", "sunset", "dusk", "night"];

export interface ResolvedRender {
  scene: SceneSpec;
  guides: TaskGuides;
  /** What scene.json records (an edit records the source scene plus the edit). */
  stored: SceneSpec;
}

export async function resolveRender(req: RenderRequest): Promise<ResolvedRender> {
  const baseDir = req.edit?.from ?? req.remixFrom;
  const base = baseDir ? await readStoredScene(baseDir) : undefined;
  const scene = sceneFromPrompt(req, base);
  const guides: TaskGuides = {};
  if (req.controlImage) scene.control = { profile: await loadControlProfile(req.controlImage) };
  if (req.imageToPano) {
    const { guide, analysis } = await loadPanoGuide(req.imageToPano);
    const words = conceptsIn(req.prompt);
    const named = TIMES.some((t) => words.has(t));
    adaptSceneToPicture(scene, analysis, named);
    guides.pano = guide;
  }
  if (req.initImage) guides.init = await loadInitGuide(req.initImage.bytes, req.initImage.strength, req.size.width, req.size.height);
  let stored = scene;
  if (req.edit && base) {
    guides.edit = await loadEditGuide(req.edit, req.size, req.depthSize);
    const { centerX, centerY, fov } = req.edit;
    stored = { ...base, edits: [...(base.edits ?? []), { azimuth: centerX, elevation: centerY, fov, scene }] };
  }
  return { scene, guides, stored };
}
