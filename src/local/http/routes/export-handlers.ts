import { ExportParams } from "../../../api/requests/export-params.ts";
import type { Context } from "hono";
import { ExportHistoryQuery, matchesStatus } from "../../../api/requests/list-queries.ts";
import { EXPORT_RESOLUTIONS, EXPORT_TYPES, HDRI_MODES, MESH_QUALITIES } from "../../../api/reference.ts";
import { checkExport, resolveExport } from "../../../api/rules/export-rules.ts";
import { issue } from "../../../api/rules/rule-issue.ts";
import { findStyle } from "../../catalogue/styles.ts";
import type { Account } from "../../store/accounts.ts";
import type { ExportEntity } from "../../store/entities.ts";
import { hashId, microTimestamp } from "../../store/record-store.ts";
import type { ApiHandlers } from "../api-routes.ts";
import type { AppEnv, ServiceContext } from "../context.ts";
import { notFound, ruleError } from "../http-error.ts";
import { paginate } from "../paginate.ts";
import { bodyInput, queryInput } from "../lenient-input.ts";

function ownExport(ctx: ServiceContext, account: Account, id: string): ExportEntity {
  const e = ctx.store.exports.get(id);
  if (!e || e.accountId !== account.id) throw notFound(`Export ${id} not found`);
  return e;
}

async function createExport(ctx: ServiceContext, c: Context<AppEnv>) {
  const account = c.get("account");
  const params = bodyInput(ctx, c, ExportParams);
  const g = ctx.store.generationByObfuscatedId(params.skybox_id);
  if (!g || g.accountId !== account.id || g.deleted) throw notFound(`Skybox ${params.skybox_id} not found`);
  if (g.status !== "complete")
    throw ruleError([issue("skybox_id", "skybox-complete", `must be a completed skybox (this one is ${g.status})`)]);
  const model = findStyle(g.styleId)?.model ?? 3;
  const issues = checkExport(params, { model });
  if (issues.length) throw ruleError(issues);
  const r = resolveExport(params, model);
  const now = microTimestamp();
  const entity: ExportEntity = {
    id: hashId(),
    accountId: account.id,
    generationId: g.id,
    typeId: r.type.id,
    typeKey: r.type.key,
    resolutionId: r.resolution?.id ?? null,
    meshQualityId: r.meshQuality?.id ?? null,
    hdriModeId: r.hdriMode?.id ?? null,
    depthScale: r.depthScale,
    status: "pending",
    errorMessage: null,
    webhookUrl: params.webhook_url ?? null,
    file: null,
    cacheKey: [g.obfuscatedId, r.type.key, r.resolution?.name, r.hdriMode?.key, r.meshQuality?.key, r.depthScale]
      .filter((v) => v != null)
      .join("-"),
    createdAt: now,
    updatedAt: now,
  };
  await ctx.exports.submit(entity);
  return ctx.views.exportRecord(entity);
}

export const exportHandlers = (ctx: ServiceContext) =>
  ({
    exportTypes: (c) => c.json(EXPORT_TYPES),
    exportResolutions: (c) => c.json(EXPORT_RESOLUTIONS),
    meshQualities: (c) => c.json(MESH_QUALITIES),
    hdriModes: (c) => c.json(HDRI_MODES),
    exportHistory: (c) => {
      const q = queryInput(ctx, c, ExportHistoryQuery);
      const account = c.get("account");
      const items = [...ctx.store.exports.values()].filter(
        (e) =>
          e.accountId === account.id &&
          matchesStatus(q.status, e.status) &&
          (q.export_id == null || e.id === String(q.export_id)) &&
          (q.api_key_id == null || account.apiKeyId === q.api_key_id) &&
          (q.type_id == null || e.typeId === q.type_id) &&
          (q.resolution_id == null || e.resolutionId === q.resolution_id) &&
          (q.mesh_quality_id == null || e.meshQualityId === q.mesh_quality_id) &&
          (q.hdri_mode_id == null || e.hdriModeId === q.hdri_mode_id),
      );
      return c.json(
        paginate(
          items,
          (e) => e.createdAt,
          q,
          (e) => ctx.views.exportRecord(e),
        ),
      );
    },
    requestExport: async (c) => c.json(await createExport(ctx, c)),
    getExport: (c, { key }) => c.json(ctx.views.exportRecord(ownExport(ctx, c.get("account"), key))),
    cancelExport: (c, { key }) => c.json({ success: ctx.exports.cancel(ownExport(ctx, c.get("account"), key)) }),
  }) satisfies Partial<ApiHandlers>;
