import { describe, expect, test } from "vitest";
import { Generation, Style } from "../../../../src/api/index.ts";
import { DEFAULT_FORM, type GenerateFormValue } from "../../../../src/inspector/state/form/generate-form.ts";
import { costOf, formProblems, paramsOf, type RequestContext } from "../../../../src/inspector/state/form/generation-request.ts";

const m3 = Style.parse({ id: 2, name: "Realistic", "max-char": "10", "negative-text-max-char": 5, model: "Model 3", model_version: "3" });
const m4 = Style.parse({
  id: 101,
  name: "M4",
  "max-char": 1000,
  model: "Model 4",
  model_version: "4",
  variants: [
    { id: 1011, name: "Standard" },
    { id: 1012, name: "Enhanced" },
  ],
});
const applied4 = Generation.parse({ id: 7, obfuscated_id: "x", status: "complete", model: "Model 4" });
const applied3 = Generation.parse({ id: 8, obfuscated_id: "y", status: "complete", model: "Model 3" });
const ctx = (style: Style | undefined, extra: Partial<RequestContext> = {}): RequestContext => ({
  style,
  editSource: null,
  model4Blocked: null,
  ...extra,
});
const form = (patch: Partial<GenerateFormValue>): GenerateFormValue => ({ ...DEFAULT_FORM, prompt: "lake", ...patch });
const png = new File([new Uint8Array([1, 2, 3])], "a.png", { type: "image/png" });

describe("the Generate form as a request", () => {
  test("Generate sends the options the style's model takes", () => {
    const f = form({
      styleId: 101,
      variantId: 1012,
      softLines: true,
      seed: 5,
      enhancePrompt: true,
      negativeText: " fog ",
      remix: { id: 3, title: "t" },
      initImage: png,
      initStrength: 0.333,
      controlImage: png,
    });
    expect(paramsOf(f, ctx(m4))).toEqual({
      prompt: "lake",
      skybox_style_id: 101,
      negative_text: "fog",
      seed: 5,
      enhance_prompt: true,
      variant_id: 1012,
      soft_lines: true,
      remix_imagine_id: 3,
      init_image: png,
      init_strength: 0.33,
      control_image: png,
      control_model: "remix",
    });
    // Variant and soft lines are Model 4 only.
    expect(paramsOf({ ...f, styleId: 2 }, ctx(m3))).not.toHaveProperty("variant_id");
    expect(paramsOf({ ...f, styleId: 2 }, ctx(m3))).not.toHaveProperty("soft_lines");
  });

  test("Edit sends the applied skybox, the picked centre and the field of view, and no variant", () => {
    const f = form({ mode: "edit", styleId: 101, variantId: 1011, editCenter: { lon: 12.345, lat: -3.21 }, editFov: 75 });
    expect(paramsOf(f, ctx(m4, { editSource: applied4 }))).toEqual({
      prompt: "lake",
      skybox_style_id: 101,
      edit_skybox_id: 7,
      center_x: 12.35,
      center_y: -3.21,
      fov: 75,
    });
    expect(formProblems(f, ctx(m4, { editSource: applied4 }))).toEqual([]);
    expect(formProblems(f, ctx(m4))).toEqual(["Apply a skybox first: Edit changes the skybox shown in the scene."]);
    expect(formProblems(f, ctx(m4, { editSource: applied3 }))).toEqual(["Edit changes Model 4 skyboxes: apply one first."]);
    expect(formProblems({ ...f, editCenter: null }, ctx(m4, { editSource: applied4 }))).toEqual([
      "Click the sky in the viewport to pick the centre of the edit.",
    ]);
  });

  test("Image to Pano sends the image and needs one", () => {
    const f = form({ mode: "image-to-pano", styleId: 101, panoImage: png });
    expect(paramsOf(f, ctx(m4))).toEqual({ prompt: "lake", skybox_style_id: 101, image_to_pano_init_image: png });
    expect(formProblems({ ...f, panoImage: null }, ctx(m4))).toEqual(["Choose the image to turn into a panorama."]);
    expect(formProblems(f, ctx(m3))).toContain("Image to Pano needs a Model 4 style.");
  });

  test("cost: Model 3 1, Model 4 Standard 3, Enhanced 4, Edit 1, Image to Pano 3", () => {
    expect(costOf(form({}), undefined)).toBeNull();
    expect(costOf(form({}), m3)).toBe(1);
    expect(costOf(form({ variantId: 1011 }), m4)).toBe(3);
    expect(costOf(form({ variantId: 1012 }), m4)).toBe(4);
    expect(costOf(form({ mode: "edit" }), m4)).toBe(1);
    expect(costOf(form({ mode: "image-to-pano" }), m4)).toBe(3);
  });

  test("problems in words: style, prompt, the style's limits, Model 4 blocked by the plan", () => {
    expect(formProblems(form({}), ctx(undefined))).toEqual(["Pick a style."]);
    expect(formProblems(form({ prompt: "  " }), ctx(m3))).toEqual(["Write a prompt."]);
    expect(formProblems(form({ prompt: "lake" }), ctx(m3))).toEqual([]);
    expect(formProblems(form({ prompt: "a".repeat(11), negativeText: "b".repeat(6) }), ctx(m3))).toEqual([
      "prompt: must be at most 10 characters for this style (is 11)",
      "negative_text: must be at most 5 characters for this style (is 6)",
    ]);
    expect(formProblems(form({ variantId: 1011 }), ctx(m4, { model4Blocked: "No Model 4 on this plan." }))).toEqual([
      "No Model 4 on this plan.",
    ]);
    expect(formProblems(form({}), ctx(m4))).toEqual(["Pick a variant (Standard or Enhanced)."]);
  });
});
