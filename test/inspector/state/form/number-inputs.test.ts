/**
 * The pane explains every refused number instead of clearing or clamping it: the API's
 * ranges and sentences (src/api/rules/number-ranges.ts) read what is typed.
 */
import { describe, expect, test } from "vitest";
import { GenerateParams, NUMBER_RANGES, readRanged, SEED_MAX, Style, Generation } from "../../../../src/api/index.ts";
import { batchProblem } from "../../../../src/inspector/state/form/batch-request.ts";
import { GenerateForm } from "../../../../src/inspector/state/form/generate-form.ts";
import { formProblems, paramsOf, type RequestContext } from "../../../../src/inspector/state/form/generation-request.ts";

const m3 = Style.parse({ id: 2, name: "Realistic", "max-char": 600, model: "Model 3", model_version: "3" });
const m4 = Style.parse({
  id: 101,
  name: "M4",
  "max-char": 1000,
  model: "Model 4",
  model_version: "4",
  variants: [{ id: 1011, name: "Standard" }],
});
const applied4 = Generation.parse({ id: 7, obfuscated_id: "x", status: "complete", model: "Model 4" });
const ctx = (style: Style, extra: Partial<RequestContext> = {}): RequestContext => ({
  style,
  editSource: null,
  model4Blocked: null,
  ...extra,
});
const png = new File([new Uint8Array([1, 2, 3])], "a.png", { type: "image/png" });

function filled() {
  const form = new GenerateForm();
  form.set({ prompt: "lake", styleId: 2 });
  return form;
}

describe("the API's ranges", () => {
  test("one sentence names the field, the rule and the value", () => {
    const refused = (field: keyof typeof NUMBER_RANGES, v: string | number) => {
      const read = readRanged(field, v);
      return "issue" in read ? `${String(read.issue.path[0])}: ${read.issue.message}` : read.value;
    };
    expect(refused("seed", "-5")).toBe("seed: must be an integer from 0 to 2147483647 (is -5)");
    expect(refused("seed", "3.7")).toBe("seed: must be an integer from 0 to 2147483647 (is 3.7)");
    expect(refused("seed", "99999999999")).toBe("seed: must be an integer from 0 to 2147483647 (is 99999999999)");
    // Text that is no number is quoted, as the service quotes it.
    expect(refused("seed", "abc")).toBe('seed: must be a number (is "abc")');
    expect(refused("seed", " ")).toBe('seed: must be a number (is " ")');
    // Read as the service reads numbers: an exponent is a number.
    expect(refused("seed", "1e3")).toBe(1000);
    expect(refused("init_strength", 1.5)).toBe("init_strength: must be a number from 0 to 1 (is 1.5)");
    expect(refused("fov", "0")).toBe("fov: must be a number from 1 to 180 (is 0)");
    expect(NUMBER_RANGES.seed.max).toBe(SEED_MAX);
  });

  test("the request schema holds the same ranges", () => {
    const ok = (p: object) => GenerateParams.safeParse({ prompt: "x", skybox_style_id: 2, ...p }).success;
    expect([ok({ seed: SEED_MAX }), ok({ seed: SEED_MAX + 1 }), ok({ seed: -1 })]).toEqual([true, false, false]);
    expect([ok({ init_strength: 1 }), ok({ init_strength: 1.01 })]).toEqual([true, false]);
    expect([ok({ fov: 180, center_x: -180, center_y: 90 }), ok({ fov: 0.5 }), ok({ center_x: 181 }), ok({ center_y: -91 })]).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });
});

describe("the seed input", () => {
  test.each([
    ["-5", "seed: must be an integer from 0 to 2147483647 (is -5)"],
    ["3.7", "seed: must be an integer from 0 to 2147483647 (is 3.7)"],
    ["99999999999", "seed: must be an integer from 0 to 2147483647 (is 99999999999)"],
    ["12ab", 'seed: must be a number (is "12ab")'],
  ])("%s stays as typed, is not sent, and the Generate button says why", (text, sentence) => {
    const form = filled();
    form.set({ seed: 42 });
    form.type("seed", text);
    expect(form.value.typed.seed).toBe(text);
    expect(form.value.seed).toBe(42);
    expect(formProblems(form.value, ctx(m3))).toEqual([sentence]);
  });

  test("a seed that reads is the seed sent; empty is a new one each time; a shuffle replaces what was typed", () => {
    const form = filled();
    form.type("seed", "1e3");
    expect(form.value.seed).toBe(1000);
    expect(form.value.typed.seed).toBe("1e3");
    expect(paramsOf(form.value, ctx(m3)).seed).toBe(1000);
    expect(formProblems(form.value, ctx(m3))).toEqual([]);
    form.type("seed", "-5");
    form.type("seed", "");
    expect(form.value.seed).toBeNull();
    expect(formProblems(form.value, ctx(m3))).toEqual([]);
    form.type("seed", "-5");
    form.set({ seed: 77 });
    expect(form.value.typed.seed).toBeUndefined();
    expect(formProblems(form.value, ctx(m3))).toEqual([]);
  });

  test("a seed set from code out of range is listed too, as the style is still unknown", () => {
    const form = filled();
    form.set({ seed: -1, styleId: null });
    expect(formProblems(form.value, { style: undefined, editSource: null, model4Blocked: null })).toEqual([
      "Pick a style.",
      "seed: must be an integer from 0 to 2147483647 (is -1)",
    ]);
  });
});

describe("the other numbers of the form", () => {
  test("quantity: typed out of range, the Batch section says why and nothing is clamped", () => {
    const form = filled();
    const batch = { each: 1, cap: 30, blocked: null };
    for (const [text, sentence] of [
      ["0", "quantity: must be an integer from 1 to 30 (is 0)"],
      ["31", "quantity: must be an integer from 1 to 30 (is 31)"],
      ["2.5", "quantity: must be an integer from 1 to 30 (is 2.5)"],
      ["", 'quantity: must be a number (is "")'],
    ] as const) {
      form.type("quantity", text);
      expect(form.value.quantity).toBe(2);
      expect(batchProblem(form.value, batch)).toBe(sentence);
    }
    form.type("quantity", "11");
    expect(form.value.quantity).toBe(11);
    expect(batchProblem(form.value, batch)).toBeNull();
  });

  test("edit centre typed out of range is explained; a pick in the viewport replaces it", () => {
    const form = filled();
    form.set({ mode: "edit", styleId: 101, editCenter: { lon: 10, lat: 5 } });
    const edit = ctx(m4, { editSource: applied4 });
    expect(formProblems(form.value, edit)).toEqual([]);
    form.type("lon", "200");
    form.type("lat", "-90.5");
    expect(form.value.editCenter).toEqual({ lon: 10, lat: 5 });
    expect(formProblems(form.value, edit)).toEqual([
      "center_x: must be a number from -180 to 180 (is 200)",
      "center_y: must be a number from -90 to 90 (is -90.5)",
    ]);
    form.type("lon", "-179.5");
    expect(form.value.editCenter).toEqual({ lon: -179.5, lat: 5 });
    form.set({ editCenter: { lon: 1, lat: 2 } });
    expect(form.value.typed).toEqual({});
    expect(formProblems(form.value, edit)).toEqual([]);
  });

  test("init strength and field of view set from code out of range are listed, not clamped", () => {
    const form = filled();
    form.set({ initImage: png, initStrength: 3 });
    expect(formProblems(form.value, ctx(m3))).toEqual(["init_strength: must be a number from 0 to 1 (is 3)"]);
    form.set({ initStrength: 0.4, mode: "edit", styleId: 101, editCenter: { lon: 0, lat: 0 }, editFov: 0 });
    expect(formProblems(form.value, ctx(m4, { editSource: applied4 }))).toEqual(["fov: must be a number from 1 to 180 (is 0)"]);
  });
});
