import { describe, expect, test } from "vitest";
import * as z from "zod/mini";
import {
  Batch,
  ExportRecord,
  ExportResolution,
  ExportType,
  Generation,
  HdriMode,
  MeshQuality,
  Page,
  Style,
  StyleFamily,
  WrappedGeneration,
  EXPORT_TYPES,
  EXPORT_RESOLUTIONS,
  MESH_QUALITIES,
  HDRI_MODES,
  success,
} from "../../src/api/index.ts";
import { batchRecord, completeRecord, creationResponse, exportRecord, model3Style, model4Style } from "../fixtures/api-shapes.ts";

describe("Generation", () => {
  test("parses the creation response with defaults for what it lacks", () => {
    const g = Generation.parse(creationResponse);
    expect(g).toMatchObject({ id: 46, status: "pending", queue_position: 2, file_url: "", depth_map_url: "" });
  });
  test("parses a complete record with real clients' extra fields, coercing numbers and flags", () => {
    const g = Generation.parse(completeRecord);
    expect(g.seed).toBe(1234);
    expect(g.api_key_id).toBe(3);
    expect(g.isMyFavorite).toBe(false);
    expect(g.exports?.["depth-map-png"]).toContain("depth.png");
    expect((g as Record<string, unknown>).some_future_field).toEqual({ nested: true });
  });
  test("accepts null where the spec says not shown", () => {
    const g = Generation.parse({ ...creationResponse, username: null, queue_position: null, thumb_url: null, title: null });
    expect(g.thumb_url).toBe("");
  });
  test("refuses an unknown status and names the field", () => {
    const r = Generation.safeParse({ ...creationResponse, status: "done" });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(["status"]);
  });
  test("unwraps {request}, {imagine} and a bare record alike", () => {
    for (const body of [{ request: completeRecord }, { imagine: completeRecord }, completeRecord])
      expect(WrappedGeneration.parse(body).id).toBe(46);
  });
});

describe("Style and families", () => {
  test("Model 3 style with numbers as strings and 0/1 flags", () => {
    const s = Style.parse(model3Style);
    expect(s).toMatchObject({
      id: 2,
      "max-char": 600,
      "negative-text-max-char": 200,
      sort_order: 1,
      new: true,
      experimental: false,
      model_version: "3",
    });
  });
  test("Model 4 style with variants; model_version as number becomes a string", () => {
    const s = Style.parse(model4Style);
    expect(s.variants?.map((v) => v.name)).toEqual(["Standard", "Enhanced"]);
    expect(s.model_version).toBe("4");
  });
  test("the spec's skybox_style_id / skybox_style_name aliases", () => {
    expect(Style.parse({ skybox_style_id: "5", skybox_style_name: "Anime" })).toMatchObject({ id: 5, name: "Anime" });
  });
  test("a non-numeric max-char is refused with its path", () => {
    const r = Style.safeParse({ ...model3Style, "max-char": "lots" });
    expect(r.error?.issues[0]?.path).toEqual(["max-char"]);
  });
  test("families: family entries with items, style entries without", () => {
    const f = z.array(StyleFamily).parse([
      { type: "family", id: 1, name: "Realism", sort_order: 1, items: [model3Style] },
      { type: "style", id: 3, name: "Lone", sort_order: "2" },
    ]);
    expect(f[0]?.items[0]?.id).toBe(2);
    expect(f[1]?.items).toEqual([]);
  });
});

describe("Exports", () => {
  test("export record with string ids coerced and nulls for non-GLB fields", () => {
    const e = ExportRecord.parse(exportRecord);
    expect(e).toMatchObject({ type_id: 4, hdri_mode_id: 2, mesh_quality: null, file_url: "" });
  });
  test("reference lists of the spec parse with their schemas", () => {
    expect(z.array(ExportType).parse(EXPORT_TYPES)).toHaveLength(11);
    expect(
      z
        .array(ExportResolution)
        .parse(EXPORT_RESOLUTIONS)
        .map((r) => r.width),
    ).toEqual([1024, 2048, 4096, 8192, 16384]);
    expect(z.array(MeshQuality).parse(MESH_QUALITIES)).toHaveLength(4);
    expect(
      z
        .array(HdriMode)
        .parse(HDRI_MODES)
        .find((m) => m.id === 2)?.key,
    ).toBe("realism");
  });
});

describe("Batch and pages", () => {
  test("batch with generations, counters coerced", () => {
    const b = Batch.parse(batchRecord);
    expect(b.errored).toBe(0);
    expect(b.generations?.[0]?.variant_id).toBe(1001);
  });
  test("batch list item without generations, with submission errors of unknown types", () => {
    const { generations: _omit, ...item } = batchRecord;
    const b = Batch.parse({
      ...item,
      status: "error",
      submission_errors: [{ index: "1", message: "Skybox style does not exist", status: 404 }],
    });
    expect(b.generations).toBeUndefined();
    expect(b.submission_errors[0]).toMatchObject({ index: 1, status: 404 });
  });
  test("refuses a batch status outside the spec", () => {
    expect(Batch.safeParse({ ...batchRecord, status: "complete" }).success).toBe(false);
  });
  test("paginated list: totalCount as string, has_more as 0/1", () => {
    const p = Page(Generation).parse({ data: [completeRecord], totalCount: "41", has_more: 1 });
    expect(p).toMatchObject({ totalCount: 41, has_more: true });
    expect(Page(Generation).safeParse({ data: [completeRecord] }).error?.issues[0]?.path).toEqual(["totalCount"]);
  });
  test("success as a boolean or a sentence", () => {
    expect(success.parse(true)).toBe(true);
    expect(success.parse("Item deleted successfully")).toBe(true);
    expect(success.parse(false)).toBe(false);
  });
});
