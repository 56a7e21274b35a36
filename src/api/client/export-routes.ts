import * as z from "zod";
import { ExportParams } from "../requests/export-params.ts";
import { ExportHistoryQuery } from "../requests/list-queries.ts";
import { checkExport, type ExportContext } from "../rules/export-rules.ts";
import { success } from "../schemas/fields.ts";
import { ExportRecord, ExportResolution, ExportType, HdriMode, MeshQuality } from "../schemas/export-request.ts";
import { Page } from "../schemas/page.ts";
import { unwrap } from "../schemas/generation.ts";
import type { CallOptions } from "./options.ts";
import type { Send } from "./transport.ts";
import { listOf } from "./style-routes.ts";
import { assertRules, parseParams } from "./validate.ts";

/** An export record bare or wrapped in `{ data }`. */
const OneExport = z.preprocess((body) => unwrap(body, ["data"]), ExportRecord);

export interface RequestExportOptions extends CallOptions, ExportContext {}

export function exportRoutes(send: Send) {
  return {
    /** GET /skybox/export: export types `{id, name, key}`; look ids up by key. */
    exportTypes: (options: CallOptions = {}) => send("exportTypes", { ...options, schema: listOf(ExportType) }),
    /** GET /skybox/export/resolutions */
    exportResolutions: (options: CallOptions = {}) =>
      send("exportResolutions", { ...options, schema: listOf(ExportResolution) }),
    /** GET /skybox/export/mesh-qualities */
    meshQualities: (options: CallOptions = {}) =>
      send("meshQualities", { ...options, schema: listOf(MeshQuality) }),
    /** GET /skybox/export/hdri-modes */
    hdriModes: (options: CallOptions = {}) => send("hdriModes", { ...options, schema: listOf(HdriMode) }),
    /** GET /skybox/export/history: the caller's exports; `offset` counts items. */
    async exportHistory(query: ExportHistoryQuery = {}, options: CallOptions = {}) {
      const q = parseParams(ExportHistoryQuery, query, "exportHistory");
      return send("exportHistory", { ...options, schema: Page(ExportRecord), query: q });
    },
    /**
     * POST /skybox/export: requests an export, checked first against the spec's rules (give
     * `model` to check the Model 4 ones). May come back `complete` with `file_url` at once.
     */
    async requestExport(params: ExportParams, options: RequestExportOptions = {}) {
      parseParams(ExportParams, params, "requestExport");
      assertRules(checkExport(params, options), "requestExport");
      return send("requestExport", { ...options, schema: OneExport, body: { json: { ...params } } });
    },
    /** GET /skybox/export/{id} */
    getExport: (id: string, options: CallOptions = {}) =>
      send("getExport", { ...options, params: { key: id }, schema: OneExport }),
    /** DELETE /skybox/export/{id}: cancels an export request. */
    cancelExport: (id: string, options: CallOptions = {}) =>
      send("cancelExport", { ...options, params: { key: id }, schema: z.looseObject({ success }) }),
  };
}
