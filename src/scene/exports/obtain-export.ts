/**
 * Requests one export of a skybox and waits until its file exists: at once when the server
 * answers `complete`, else through the status tracker (push, relay or polling).
 */
import type { SceneClient } from "../scene-client.ts";
import { isRequestTerminal } from "../../api/protocol/statuses.ts";
import type { ExportRecord } from "../../api/schemas/export-request.ts";
import type { StatusTracker } from "../../status/create-tracker.ts";
import { exportParams, type ExportCatalog } from "./export-catalog.ts";
import { describeChoice, type ExportChoice } from "./part-exports.ts";

/** What requesting an export needs. */
export interface ExportContext {
  client: SceneClient;
  tracker: StatusTracker;
  catalog: () => Promise<ExportCatalog>;
  signal?: AbortSignal;
}

/** The file URL of a complete export; rejects naming the export when it is refused or fails. */
export async function obtainExport(ctx: ExportContext, skyboxId: string, model: 3 | 4, choice: ExportChoice): Promise<string> {
  const catalog = await ctx.catalog();
  const label = describeChoice(choice);
  let record: ExportRecord;
  try {
    record = await ctx.client.requestExport(exportParams(skyboxId, choice, catalog), {
      model,
      types: catalog.types,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    if (!isRequestTerminal(record.status)) record = await ctx.tracker.watchExport(record, ctx.signal ? { signal: ctx.signal } : {}).done;
  } catch (error) {
    ctx.signal?.throwIfAborted();
    throw new Error(`The ${label} export of skybox ${skyboxId} failed: ${(error as Error).message}`, { cause: error });
  }
  if (record.status !== "complete" || !record.file_url)
    throw new Error(
      `The ${label} export of skybox ${skyboxId} ended "${record.status}"${record.error_message ? `: ${record.error_message}` : ""}`,
    );
  return record.file_url;
}
