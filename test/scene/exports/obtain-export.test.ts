import { describe, expect, test } from "vitest";
import {
  EXPORT_RESOLUTIONS,
  EXPORT_TYPES,
  HDRI_MODES,
  MESH_QUALITIES,
  SkyboxApiError,
  type ExportRecord,
  type Generation,
  type SkyboxClient,
} from "../../../src/api/index.ts";
import type { StatusTracker } from "../../../src/status/index.ts";
import { obtainExport } from "../../../src/scene/exports/obtain-export.ts";
import { completeRecord } from "../../../src/scene/skybox-record.ts";

const catalog = async () => ({
  types: [...EXPORT_TYPES],
  resolutions: [...EXPORT_RESOLUTIONS],
  hdriModes: [...HDRI_MODES],
  meshQualities: [...MESH_QUALITIES],
});
const choice = { typeKey: "hdri-hdr", resolution: "1K", hdriMode: "realism", meshQuality: null, depthScale: null } as const;
const exportRecord = (status: ExportRecord["status"], extra: Partial<ExportRecord> = {}) =>
  ({ id: "e1", status, file_url: "", ...extra }) as ExportRecord;

function fakes(first: ExportRecord | Error, final?: ExportRecord) {
  const sent: unknown[] = [];
  const client = {
    requestExport: async (params: unknown) => {
      sent.push(params);
      if (first instanceof Error) throw first;
      return first;
    },
  } as unknown as SkyboxClient;
  const tracker = { watchExport: () => ({ done: Promise.resolve(final) }) } as unknown as StatusTracker;
  return { client, tracker, sent };
}

describe("obtainExport", () => {
  test("an export complete at once needs no watch; the body carries the ids of the catalog", async () => {
    const f = fakes(exportRecord("complete", { file_url: "/f.hdr" }));
    expect(await obtainExport({ ...f, catalog }, "abc", 3, choice)).toBe("/f.hdr");
    expect(f.sent).toEqual([{ skybox_id: "abc", type_id: 4, resolution_id: 1, hdri_mode_id: 2 }]);
  });

  test("a pending export is watched until it ends; an error ending rejects naming the export and the server's message", async () => {
    const ok = fakes(exportRecord("pending"), exportRecord("complete", { file_url: "/g.hdr" }));
    expect(await obtainExport({ ...ok, catalog }, "abc", 3, choice)).toBe("/g.hdr");
    const failed = fakes(exportRecord("pending"), exportRecord("error", { error_message: "renderer crashed" }));
    await expect(obtainExport({ ...failed, catalog }, "abc", 3, choice)).rejects.toThrow(
      'The hdri-hdr 1K realism export of skybox abc ended "error": renderer crashed',
    );
  });

  test("a refused request rejects with the reason", async () => {
    const f = fakes(new SkyboxApiError({ kind: "insufficient_credits", status: 402, serverMessage: "No credits remaining" }));
    await expect(obtainExport({ ...f, catalog }, "abc", 3, choice)).rejects.toThrow(
      "The hdri-hdr 1K realism export of skybox abc failed: No credits remaining",
    );
  });
});

describe("completeRecord", () => {
  const record = (status: Generation["status"], extra: Partial<Generation> = {}) =>
    ({ id: 7, obfuscated_id: "o7", status, file_url: "", thumb_url: "", depth_map_url: "", ...extra }) as Generation;
  const tracker = (final: Generation) => ({ watchGeneration: () => ({ done: Promise.resolve(final) }) }) as unknown as StatusTracker;

  test("a complete record is used as it is; a pending one is waited for", async () => {
    const done = record("complete", { file_url: "/p.jpg" });
    expect(await completeRecord(done, tracker(record("error")), () => undefined)).toBe(done);
    const stages: string[] = [];
    expect(await completeRecord(7, tracker(done), (p) => stages.push(p.stage))).toBe(done);
    expect(stages).toEqual(["waiting"]);
  });

  test("a generation that failed rejects with its message", async () => {
    await expect(completeRecord(7, tracker(record("error", { error_message: "prompt refused" })), () => undefined)).rejects.toThrow(
      'Skybox 7 ended "error": prompt refused',
    );
    await expect(completeRecord(7, tracker(record("abort")), () => undefined)).rejects.toThrow('Skybox 7 ended "abort"');
  });
});
