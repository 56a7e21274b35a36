import type { GenerateParams } from "../requests/generate-params.ts";
import type { Plan } from "../reference.ts";
import { MESSAGES } from "./messages.ts";
import { PLAN_LIMITS } from "./plans.ts";
import { issue, type RuleIssue } from "./rule-issue.ts";
import type { StyleInfo } from "./style-info.ts";
import { generationMode } from "./credits.ts";

/** What is known when checking a generation: the style and the plan, when known. */
export interface GenerationContext {
  style?: StyleInfo | null;
  plan?: Plan | null;
}

const has = (v: unknown) => v !== undefined && v !== null && v !== "";

/** Rules that need nothing but the request itself. */
function checkShape(p: GenerateParams): RuleIssue[] {
  const out: RuleIssue[] = [];
  const mode = generationMode(p);
  if (has(p.edit_skybox_id) && (has(p.image_to_pano_init_image) || has(p.image_to_pano_init_image_hash)))
    out.push(issue("image_to_pano_init_image", "edit-xor-image-to-pano", "cannot be combined with edit_skybox_id"));
  if (mode !== "generate" && has(p.variant_id))
    out.push(issue("variant_id", "no-variant-with-edit", `is not accepted with ${mode === "edit" ? "Edit" : "Image2Pano"}`));
  if (mode === "edit") {
    for (const f of ["center_x", "center_y", "fov"] as const)
      if (!has(p[f])) out.push(issue(f, "edit-needs-region", "is required with edit_skybox_id"));
  } else {
    for (const f of ["center_x", "center_y", "fov"] as const)
      if (has(p[f])) out.push(issue(f, "region-needs-edit", "is only accepted with edit_skybox_id"));
  }
  if (has(p.init_strength) && !has(p.init_image) && !has(p.init_image_hash))
    out.push(issue("init_strength", "strength-needs-init-image", "needs init_image or init_image_hash"));
  if ((has(p.control_image) || has(p.control_image_hash)) && !has(p.control_model))
    out.push(issue("control_model", "control-image-needs-model", 'is required with control_image (use "remix")'));
  return out;
}

/** Rules that depend on the style (model, variants, text limits). */
function checkStyle(p: GenerateParams, style: StyleInfo): RuleIssue[] {
  const out: RuleIssue[] = [];
  const mode = generationMode(p);
  if (has(p.variant_id) && !style.variantIds.includes(Number(p.variant_id)))
    out.push(issue("variant_id", "variant-of-style", MESSAGES.invalidVariant));
  if (style.model === 4 && mode === "generate" && !has(p.variant_id) && style.variantIds.length > 0)
    out.push(issue("variant_id", "model4-needs-variant", "is required for Model 4 styles (Standard or Enhanced)"));
  if (style.model === 3 && mode !== "generate")
    out.push(issue(mode === "edit" ? "edit_skybox_id" : "image_to_pano_init_image", "model4-only", "needs a Model 4 style"));
  if (style.model === 3 && p.soft_lines === true) out.push(issue("soft_lines", "model4-only", "is a Model 4 option"));
  out.push(...checkTextLimits(p, style));
  return out;
}

/** The style's limits on the prompt and the negative text (`max-char`, `negative-text-max-char`). */
export function checkTextLimits(
  p: Pick<GenerateParams, "prompt" | "negative_text">,
  style: Pick<StyleInfo, "promptMax" | "negativeMax">,
): RuleIssue[] {
  const out: RuleIssue[] = [];
  if (style.promptMax != null && p.prompt.length > style.promptMax)
    out.push(issue("prompt", "prompt-max-char", `must be at most ${style.promptMax} characters for this style (is ${p.prompt.length})`));
  const negative = p.negative_text ?? "";
  if (style.negativeMax != null && negative.length > style.negativeMax)
    out.push(
      issue(
        "negative_text",
        "negative-text-max-char",
        `must be at most ${style.negativeMax} characters for this style (is ${negative.length})`,
      ),
    );
  return out;
}

/** Model 4 by plan (Standard and Business only): one issue when the plan has no Model 4. */
export function checkModel4Plan(plan: Plan): RuleIssue[] {
  if (PLAN_LIMITS[plan].model4) return [];
  return [issue("skybox_style_id", "model4-plan", "Model 4 styles need a Standard or Business plan", "plan_forbidden", 403)];
}

/** Checks a generation request against the spec's rules; an empty list means it may be sent. */
export function checkGeneration(p: GenerateParams, ctx: GenerationContext = {}): RuleIssue[] {
  const out = checkShape(p);
  if (ctx.style) {
    out.push(...checkStyle(p, ctx.style));
    if (ctx.plan && ctx.style.model === 4) out.push(...checkModel4Plan(ctx.plan));
  }
  return out;
}
