/**
 * From the Generate form to a request: the parameters sent, their price, and the reasons
 * the request cannot be sent yet, in words. Pure functions, so the rules are testable
 * without a pane.
 */
import {
  checkGeneration,
  checkTextLimits,
  describeIssue,
  generationCost,
  recordModel,
  styleInfo,
  styleModel,
  type GenerateParams,
  type Generation,
  type Style,
} from "../../../api/index.ts";
import type { GenerateFormValue } from "./generate-form.ts";
import { numberProblems } from "./number-inputs.ts";

export interface RequestContext {
  /** The chosen style, when loaded. */
  style: Style | undefined;
  /** The skybox an edit changes: the one applied to the scene. */
  editSource: Generation | null;
  /** Why Model 4 is unavailable, when it is. */
  model4Blocked: string | null;
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The parameters of POST /skybox (or /skybox/batch without quantity) for the form. */
export function paramsOf(form: GenerateFormValue, ctx: RequestContext): GenerateParams {
  const p: GenerateParams = { prompt: form.prompt.trim(), skybox_style_id: form.styleId ?? 0 };
  if (form.negativeText.trim()) p.negative_text = form.negativeText.trim();
  if (form.seed != null) p.seed = form.seed;
  if (form.enhancePrompt) p.enhance_prompt = true;
  const model4 = ctx.style ? styleModel(ctx.style) === 4 : false;
  if (form.mode === "edit") {
    p.edit_skybox_id = ctx.editSource?.id ?? null;
    p.center_x = round(form.editCenter?.lon ?? 0);
    p.center_y = round(form.editCenter?.lat ?? 0);
    p.fov = round(form.editFov, 1);
    return p;
  }
  if (form.mode === "image-to-pano") {
    p.image_to_pano_init_image = form.panoImage;
    return p;
  }
  if (model4 && form.variantId != null) p.variant_id = form.variantId;
  if (model4 && form.softLines) p.soft_lines = true;
  if (form.remix) p.remix_imagine_id = form.remix.id;
  if (form.initImage) {
    p.init_image = form.initImage;
    p.init_strength = round(form.initStrength);
  }
  if (form.controlImage) {
    p.control_image = form.controlImage;
    p.control_model = "remix";
  }
  return p;
}

/** Credits one generation of the form costs, or null before a style is chosen. */
export function costOf(form: GenerateFormValue, style: Style | undefined): number | null {
  if (!style) return null;
  const mode = form.mode === "generate" ? "generate" : form.mode;
  const variant = style.variants?.find((v) => v.id === form.variantId)?.name ?? null;
  return generationCost({ model: styleModel(style) }, mode, variant);
}

/** A text field against its style's limit, for a live counter. */
export interface TextLimit {
  length: number;
  max: number | null;
  over: boolean;
}

/** The prompt and the negative text against the style's `max-char` and `negative-text-max-char`. */
export function textLimitsOf(form: GenerateFormValue, style: Style | undefined): { prompt: TextLimit; negative: TextLimit } {
  const info = style ? styleInfo(style) : { promptMax: null, negativeMax: null };
  const broken = new Set(checkTextLimits({ prompt: form.prompt, negative_text: form.negativeText }, info).map((i) => i.path[0]));
  return {
    prompt: { length: form.prompt.length, max: info.promptMax, over: broken.has("prompt") },
    negative: { length: form.negativeText.length, max: info.negativeMax, over: broken.has("negative_text") },
  };
}

/** Why the form cannot be sent yet; empty when it can. Each reason is a sentence. */
export function formProblems(form: GenerateFormValue, ctx: RequestContext): string[] {
  const { style } = ctx;
  if (!style) return ["Pick a style.", ...numberProblems(form)];
  const out: string[] = [];
  const model = styleModel(style);
  if (model === 4 && ctx.model4Blocked) out.push(ctx.model4Blocked);
  if (!form.prompt.trim()) out.push("Write a prompt.");
  if (form.mode !== "generate" && model === 3) out.push(`${form.mode === "edit" ? "Edit" : "Image to Pano"} needs a Model 4 style.`);
  if (form.mode === "edit") out.push(...editProblems(form, ctx.editSource));
  if (form.mode === "image-to-pano" && !form.panoImage) out.push("Choose the image to turn into a panorama.");
  if (form.mode === "generate" && model === 4 && form.variantId == null) out.push("Pick a variant (Standard or Enhanced).");
  out.push(...numberProblems(form));
  // The spec's rules (text limits...) once the form is complete: until then they would repeat the above.
  if (out.length) return out;
  return checkGeneration(paramsOf(form, ctx), { style: styleInfo(style) }).map(describeIssue);
}

function editProblems(form: GenerateFormValue, source: Generation | null): string[] {
  if (!source) return ["Apply a skybox first: Edit changes the skybox shown in the scene."];
  if (recordModel(source) !== 4) return ["Edit changes Model 4 skyboxes: apply one first."];
  if (!form.editCenter) return ["Click the sky in the viewport to pick the centre of the edit."];
  return [];
}
