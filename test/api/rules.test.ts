import { describe, expect, test } from "vitest";
import {
  checkBatch,
  checkExport,
  checkGeneration,
  defaultResolution,
  generationCost,
  MESSAGES,
  resolutionsFor,
  resolveExport,
  Style,
  styleInfo,
  completesImmediately,
  exportTypesFor,
  type RuleIssue,
} from "../../src/api/index.ts";
import { model3Style, model4Style } from "../fixtures/api-shapes.ts";

const m3 = styleInfo(Style.parse(model3Style));
const m4 = styleInfo(Style.parse(model4Style));
const rules = (issues: RuleIssue[]) => issues.map((i) => `${String(i.path[0])}:${i.rule}`);
const base = { prompt: "a calm sea", skybox_style_id: 2 };

describe("generation rules", () => {
  test("a plain Model 3 request passes", () => expect(checkGeneration(base, { style: m3, plan: "free" })).toEqual([]));
  test("Model 4 needs a variant of its own style", () => {
    expect(rules(checkGeneration({ ...base, skybox_style_id: 101 }, { style: m4 }))).toEqual(["variant_id:model4-needs-variant"]);
    expect(checkGeneration({ ...base, skybox_style_id: 101, variant_id: 1002 }, { style: m4 })).toEqual([]);
    const wrong = checkGeneration({ ...base, skybox_style_id: 101, variant_id: 5 }, { style: m4 });
    expect(wrong[0]?.message).toBe(MESSAGES.invalidVariant);
  });
  test("Model 4 styles need Standard or Business", () => {
    const p = { ...base, skybox_style_id: 101, variant_id: 1001 };
    expect(checkGeneration(p, { style: m4, plan: "business" })).toEqual([]);
    expect(checkGeneration(p, { style: m4, plan: "essential" })[0]).toMatchObject({ rule: "model4-plan", kind: "plan_forbidden" });
  });
  test("variant_id is refused with edit and with image-to-pano", () => {
    const edit = { ...base, edit_skybox_id: 46, center_x: 0, center_y: 0, fov: 60, variant_id: 1001 };
    expect(rules(checkGeneration(edit))).toContain("variant_id:no-variant-with-edit");
    expect(rules(checkGeneration({ ...base, image_to_pano_init_image: "aGVsbG8=", variant_id: 1001 }))).toContain(
      "variant_id:no-variant-with-edit",
    );
  });
  test("edit needs its region and a Model 4 style; the region needs edit", () => {
    expect(rules(checkGeneration({ ...base, edit_skybox_id: 46 }))).toEqual([
      "center_x:edit-needs-region",
      "center_y:edit-needs-region",
      "fov:edit-needs-region",
    ]);
    expect(
      checkGeneration({ ...base, skybox_style_id: 101, edit_skybox_id: 46, center_x: 10, center_y: -5, fov: 60 }, { style: m4 }),
    ).toEqual([]);
    expect(rules(checkGeneration({ ...base, edit_skybox_id: 46, center_x: 10, center_y: -5, fov: 60 }, { style: m3 }))).toEqual([
      "edit_skybox_id:model4-only",
    ]);
    expect(rules(checkGeneration({ ...base, fov: 60 }))).toEqual(["fov:region-needs-edit"]);
  });
  test("negative_text and prompt within the style's maximum", () => {
    expect(checkGeneration({ ...base, negative_text: "x".repeat(200) }, { style: m3 })).toEqual([]);
    const over = checkGeneration({ ...base, negative_text: "x".repeat(201) }, { style: m3 });
    expect(over[0]).toMatchObject({ path: ["negative_text"], rule: "negative-text-max-char" });
    expect(over[0]?.message).toContain("at most 200");
    expect(rules(checkGeneration({ ...base, prompt: "y".repeat(601) }, { style: m3 }))).toEqual(["prompt:prompt-max-char"]);
  });
  test("soft_lines is Model 4 only; init_strength needs an init image; control image needs a model", () => {
    expect(rules(checkGeneration({ ...base, soft_lines: true }, { style: m3 }))).toEqual(["soft_lines:model4-only"]);
    expect(rules(checkGeneration({ ...base, init_strength: 0.5 }))).toEqual(["init_strength:strength-needs-init-image"]);
    expect(checkGeneration({ ...base, init_strength: 0.5, init_image: "aGVsbG8=" })).toEqual([]);
    expect(rules(checkGeneration({ ...base, control_image: "aGVsbG8=" }))).toEqual(["control_model:control-image-needs-model"]);
  });
});

describe("credit costs", () => {
  test("Model 3 1, Model 4 Standard 3, Enhanced 4, Edit 1, Image2Pano 3", () => {
    expect(generationCost(m3, "generate")).toBe(1);
    expect(generationCost(m4, "generate", "Standard")).toBe(3);
    expect(generationCost(m4, "generate", "Enhanced")).toBe(4);
    expect(generationCost(m4, "edit")).toBe(1);
    expect(generationCost(m4, "image-to-pano")).toBe(3);
  });
});

describe("batch rules (spec messages word for word)", () => {
  const business = { plan: "business" as const, credits: 100 };
  test("quantity must be a positive integer", () => {
    for (const quantity of [0, -1, 1.5, "abc", undefined, null])
      expect(checkBatch({ ...base, quantity: quantity })[0]?.message).toBe(MESSAGES.quantity);
    expect(checkBatch({ ...base, quantity: 2 }, { style: m3, account: business })).toEqual([]);
    expect(checkBatch({ ...base, quantity: "2" }, { style: m3, account: business })).toEqual([]);
  });
  test("free plan has no batches", () => {
    expect(checkBatch({ ...base, quantity: 1 }, { style: m3, account: { plan: "free", credits: 10 } })[0]).toMatchObject({
      message: MESSAGES.batchPlan,
      kind: "plan_forbidden",
    });
  });
  test("Model 4 batch requires a variant, of the style's generator", () => {
    expect(checkBatch({ ...base, quantity: 1 }, { style: m4 })[0]?.message).toBe(MESSAGES.batchVariantRequired);
    expect(checkBatch({ ...base, quantity: 1, variant_id: 77 }, { style: m4 })[0]?.message).toBe(MESSAGES.invalidVariant);
  });
  test("per-batch cap: Essential 3, Standard 3, Business 30", () => {
    expect(checkBatch({ ...base, quantity: 3 }, { style: m3, account: { plan: "essential", credits: 100 } })).toEqual([]);
    expect(checkBatch({ ...base, quantity: 4 }, { style: m3, account: { plan: "essential", credits: 100 } })[0]?.message).toBe(
      MESSAGES.batchCap(4, 3),
    );
    expect(checkBatch({ ...base, quantity: 30 }, { style: m3, account: { plan: "business", credits: 100 } })).toEqual([]);
    expect(
      checkBatch({ ...base, quantity: 11, variant_id: 1001 }, { style: m4, variantName: "Standard", account: business })[0]?.message,
    ).toBe(MESSAGES.batchCap(11, 30));
  });
  test("Essential cannot run Model 4 batches", () => {
    expect(
      checkBatch({ ...base, quantity: 1, variant_id: 1001 }, { style: m4, account: { plan: "essential", credits: 100 } })[0]?.kind,
    ).toBe("plan_forbidden");
  });
  test("credits for the whole batch: Model 3 and Model 4 messages, overage", () => {
    expect(checkBatch({ ...base, quantity: 5 }, { style: m3, account: { plan: "business", credits: 4 } })[0]).toMatchObject({
      message: MESSAGES.batchCredits(4, 5, 5),
      kind: "insufficient_credits",
    });
    expect(
      checkBatch(
        { ...base, quantity: 2, variant_id: 1001 },
        { style: m4, variantName: "Standard", account: { plan: "business", credits: 5 } },
      )[0]?.message,
    ).toBe(MESSAGES.model4Credits(5, 6));
    expect(
      checkBatch({ ...base, quantity: 1, variant_id: 1001 }, { style: m4, account: { plan: "business", credits: 50, overage: true } })[0]
        ?.message,
    ).toBe(MESSAGES.model4Overage);
  });
  test("the messages read as the spec prints them", () => {
    expect(MESSAGES.batchCap(12, 3)).toMatch(/^Requested quantity of 12 exceeds your plan limit of 3 credits per batch request/);
    expect(MESSAGES.batchCredits(2, 3, 3)).toBe("You have 2 credits remaining. Generating 3 skyboxes requires 3 credits.");
    expect(MESSAGES.model4Credits(2, 9)).toMatch(/^You have 2 credits remaining\. This Model 4 batch requires 9 credits/);
  });
});

describe("export rules", () => {
  const sky = "2d5a1e0f9c8b7a6d5e4f3a2b1c0d9e8f";
  test("Model 4: 1K/2K/4K only, default 4K; Model 3 default 8K", () => {
    expect(resolutionsFor("equirectangular-png", 4).map((r) => r.name)).toEqual(["1K", "2K", "4K"]);
    expect(defaultResolution("equirectangular-png", 4)?.name).toBe("4K");
    expect(defaultResolution("hdri-hdr", 3)?.name).toBe("8K");
    expect(checkExport({ skybox_id: sky, type_id: 2, resolution_id: 3 }, { model: 4 })).toEqual([]);
    expect(rules(checkExport({ skybox_id: sky, type_id: 2, resolution_id: 4 }, { model: 4 }))).toEqual([
      "resolution_id:resolution-allowed",
    ]);
    expect(checkExport({ skybox_id: sky, type_id: 2, resolution_id: 7 }, { model: 3 })).toEqual([]);
  });
  test("no cube maps, depth map or GLB for Model 4", () => {
    for (const type_id of [3, 10, 6, 11])
      expect(rules(checkExport({ skybox_id: sky, type_id }, { model: 4 }))[0]).toBe("type_id:model4-export-types");
    expect(exportTypesFor(4).map((t) => t.id)).toEqual([1, 2, 4, 5, 7, 8, 9]);
    expect(checkExport({ skybox_id: sky, type_id: 11 }, { model: 3 })).toEqual([]);
  });
  test("depth maps only in 2K", () => {
    expect(checkExport({ skybox_id: sky, type_id: 6, resolution_id: 2 }, { model: 3 })).toEqual([]);
    expect(rules(checkExport({ skybox_id: sky, type_id: 6, resolution_id: 3 }, { model: 3 }))).toEqual([
      "resolution_id:resolution-allowed",
    ]);
    expect(defaultResolution("depth-map-png", 3)?.name).toBe("2K");
  });
  test("HDRI modes only for HDRI types, default realism", () => {
    expect(checkExport({ skybox_id: sky, type_id: 5, hdri_mode_id: 5 })).toEqual([]);
    expect(rules(checkExport({ skybox_id: sky, type_id: 2, hdri_mode_id: 1 }))).toEqual(["hdri_mode_id:hdri-mode-hdri-only"]);
    expect(rules(checkExport({ skybox_id: sky, type_id: 4, hdri_mode_id: 9 }))).toEqual(["hdri_mode_id:hdri-mode-exists"]);
    expect(resolveExport({ skybox_id: sky, type_id: 4 }, 3).hdriMode?.key).toBe("realism");
  });
  test("mesh quality and depth scale GLB only; quality replaces resolution; depth scale 3..10, default 3 and medium", () => {
    expect(rules(checkExport({ skybox_id: sky, type_id: 1, mesh_quality_id: 1 }))).toEqual(["mesh_quality_id:mesh-quality-glb-only"]);
    expect(rules(checkExport({ skybox_id: sky, type_id: 1, depth_scale: 5 }))).toEqual(["depth_scale:depth-scale-glb-only"]);
    expect(rules(checkExport({ skybox_id: sky, type_id: 11, depth_scale: 2.9 }))).toEqual(["depth_scale:depth-scale-range"]);
    expect(rules(checkExport({ skybox_id: sky, type_id: 11, depth_scale: 10.5 }))).toEqual(["depth_scale:depth-scale-range"]);
    expect(checkExport({ skybox_id: sky, type_id: 11, depth_scale: 10, resolution_id: 99 })).toEqual([]);
    const glb = resolveExport({ skybox_id: sky, type_id: 11, resolution_id: 4 }, 3);
    expect(glb).toMatchObject({ resolution: null, depthScale: 3 });
    expect(glb.meshQuality?.key).toBe("medium");
  });
  test("unknown ids are refused by field; ids resolve through the server's type list first", () => {
    expect(rules(checkExport({ skybox_id: sky, type_id: 42 }))).toEqual(["type_id:export-type-exists"]);
    expect(rules(checkExport({ skybox_id: sky, type_id: 1, resolution_id: 5 }))).toEqual(["resolution_id:resolution-exists"]);
    const types = [{ id: 42, name: "GLB", key: "3d-mesh-glb" }];
    expect(rules(checkExport({ skybox_id: sky, type_id: 42 }, { types, model: 4 }))).toEqual(["type_id:model4-export-types"]);
  });
  test("JPG and depth map complete at once", () => {
    expect(completesImmediately("equirectangular-jpg")).toBe(true);
    expect(completesImmediately("depth-map-png")).toBe(true);
    expect(completesImmediately("hdri-hdr")).toBe(false);
  });
});
