import * as z from "zod/mini";
import { ExportParams } from "../requests/export-params.ts";
import { ExportHistoryQuery } from "../requests/list-queries.ts";
import { checkExport, type ExportContext } from "../rules/export-rules.ts";
import { success } from "../schemas/fields.ts";
import { ExportRecord, ExportResolution, ExportType, HdriMode, MeshQuality, WrappedExport } from "../schemas/export-request.ts";
import { Page } from "../schemas/page.ts";
import { listOf } from "../schemas/wrapped.ts";
import type { CallOptions } from "./client-options.ts";
import type { Send } from "./transport.ts";
import { assertRules, parseParams } from "./validate.ts";

export interface RequestExportOptions extends CallOptions, ExportContext {}

/** The lists an export is chosen from; real clients look ids up by key. */
export function exportOptionRoutes(send: Send) {
  return {
    /** GET /skybox/export: export types `{id, name, key}`; look ids up by key. */
    exportTypes: (options: CallOptions = {}) => send("exportTypes", { ...options, schema: listOf(ExportType) }),
    /** GET /skybox/export/resolutions */
    exportResolutions: (options: CallOptions = {}) => send("exportResolutions", { ...options, schema: listOf(ExportResolution) }),
    /** GET /skybox/export/mesh-qualities */
    meshQualities: (options: CallOptions = {}) => send("meshQualities", { ...options, schema: listOf(MeshQuality) }),
    /** GET /skybox/export/hdri-modes */
    hdriModes: (options: CallOptions = {}) => send("hdriModes", { ...options, schema: listOf(HdriMode) }),
  };
}

/**
 * POST /skybox/export: requests an export, checked first against the spec's rules (give
 * `model` to check the Model 4 ones). May come back `complete` with `file_url` at once.
 * A route of its own, so a client made of a few routes (applySkybox's) can take it alone.
 */
export const requestExportRoute = (send: Send) =>
  async function requestExport(params: ExportParams, options: RequestExportOptions = {}) {
    parseParams(ExportParams, params, "requestExport");
    assertRules(checkExport(params, options), "requestExport");
    return send("requestExport", { ...options, schema: WrappedExport, body: { json: { ...params } } });
  };

export function exportRoutes(send: Send) {
  return {
    /** POST /skybox/export: requests an export, checked first against the spec's rules (give `model` to check the Model 4 ones). May come back `complete` with `file_url` at once. */
    requestExport: requestExportRoute(send),
    /** GET /skybox/export/history: the caller's exports; `offset` counts items. */
    async exportHistory(query: ExportHistoryQuery = {}, options: CallOptions = {}) {
      const q = parseParams(ExportHistoryQuery, query, "exportHistory");
      return send("exportHistory", { ...options, schema: Page(ExportRecord), query: q });
    },
    /** DELETE /skybox/export/{id}: cancels an export request. */
    cancelExport: (id: string, options: CallOptions = {}) =>
      send("cancelExport", { ...options, params: { key: id }, schema: z.looseObject({ success }) }),
  };
}
