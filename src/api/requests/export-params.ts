import * as z from "zod/mini";
import { int, num } from "../schemas/fields.ts";
import { httpUrl } from "./http-url.ts";

/** Body of POST /api/v1/skybox/export (strict). */
export const ExportParams = z.strictObject({
  skybox_id: /* @__PURE__ */ z.string().check(z.trim(), z.minLength(1, { error: "is required (the obfuscated_id of a complete skybox)" })),
  type_id: int,
  resolution_id: z.nullish(int),
  mesh_quality_id: z.nullish(int),
  hdri_mode_id: z.nullish(int),
  depth_scale: z.nullish(num),
  webhook_url: z.nullish(httpUrl),
});
export type ExportParams = z.input<typeof ExportParams>;
/** Export parameters after validation, as the client sends them. */
export type ParsedExportParams = z.output<typeof ExportParams>;
