import * as z from "zod/mini";
import { flag, int, num, optionalText, urlOrEmpty } from "./fields.ts";
import { RequestStatus } from "./generation.ts";
import { unwrapped } from "./wrapped.ts";

/** An export request record (POST/GET response, history item, status message). */
export const ExportRecord = z.looseObject({
  id: z.string(),
  status: RequestStatus,
  skybox_id: z.nullish(int),
  skybox_obfuscated_id: optionalText,
  skybox_title: optionalText,
  type: optionalText,
  type_id: z.nullish(int),
  resolution: optionalText,
  resolution_id: z.nullish(int),
  mesh_quality: optionalText,
  mesh_quality_id: z.nullish(int),
  hdri_mode: optionalText,
  hdri_mode_id: z.nullish(int),
  depth_scale: z.nullish(num),
  queue_position: z.nullish(int),
  error_message: optionalText,
  pusher_channel: optionalText,
  pusher_event: optionalText,
  webhook_url: optionalText,
  file_url: urlOrEmpty,
  created_at: optionalText,
  updated_at: optionalText,
});
export type ExportRecord = z.infer<typeof ExportRecord>;

/** An export record bare or wrapped in `{ data }`. */
export const WrappedExport = unwrapped(["data"], ExportRecord);

/** An export type; `premium_feature` says whether it needs a paid plan (the real list carries it). */
export const ExportType = z.looseObject({ id: int, name: z.string(), key: z.string(), premium_feature: z.nullish(flag) });
export type ExportType = z.infer<typeof ExportType>;

/** The schema of an export resolution as `/skybox/export/resolutions` lists it. */
export const ExportResolution = z.looseObject({ id: int, name: z.string(), width: int, height: int });
/** An export resolution: id, name and pixel size. */
export type ExportResolution = z.infer<typeof ExportResolution>;

/** The schema of a mesh quality as the service lists it. */
export const MeshQuality = z.looseObject({ id: int, name: z.string(), key: z.string() });
/** A GLB mesh quality: id, name and key. */
export type MeshQuality = z.infer<typeof MeshQuality>;

/** The schema of an HDRI mode as the service lists it. */
export const HdriMode = z.looseObject({ id: int, name: z.string(), key: z.string() });
/** An HDRI mode: id, name and key. */
export type HdriMode = z.infer<typeof HdriMode>;
