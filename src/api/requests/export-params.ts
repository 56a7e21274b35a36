import * as z from "zod";
import { int, num } from "../schemas/fields.ts";

/** Body of POST /api/v1/skybox/export (strict). */
export const ExportParams = z.strictObject({
  skybox_id: z.string().trim().min(1, { error: "is required (the obfuscated_id of a complete skybox)" }),
  type_id: int,
  resolution_id: int.nullish(),
  mesh_quality_id: int.nullish(),
  hdri_mode_id: int.nullish(),
  depth_scale: num.nullish(),
  webhook_url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).nullish(),
});
export type ExportParams = z.input<typeof ExportParams>;
export type ParsedExportParams = z.output<typeof ExportParams>;
