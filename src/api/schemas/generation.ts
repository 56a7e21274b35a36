import * as z from "zod";
import { REQUEST_STATUSES } from "../protocol/statuses.ts";
import { flag, int, num, optionalText, urlOrEmpty } from "./fields.ts";

export const RequestStatus = z.enum(REQUEST_STATUSES);
export type RequestStatus = z.infer<typeof RequestStatus>;

/**
 * A generation (skybox) record: the creation response, a status message, a polled record or
 * a history item. Only id, obfuscated_id and status are always present; the rest depends on
 * which of those it is (spec "Resources"), plus fields real responses carry.
 */
export const Generation = z.looseObject({
  id: int,
  obfuscated_id: z.string(),
  status: RequestStatus,
  user_id: int.nullish(),
  username: optionalText,
  queue_position: int.nullish(),
  pusher_channel: optionalText,
  pusher_event: optionalText,
  error_message: optionalText,
  type: optionalText,
  title: optionalText,
  prompt: optionalText,
  /** The expanded prompt when enhance_prompt was set (local service; null otherwise). */
  enhanced_prompt: optionalText,
  negative_text: optionalText,
  seed: int.nullish(),
  skybox_style_id: int.nullish(),
  skybox_style_name: optionalText,
  skybox_id: int.nullish(),
  skybox_name: optionalText,
  variant_id: int.nullish(),
  model: optionalText,
  file_url: urlOrEmpty,
  thumb_url: urlOrEmpty,
  depth_map_url: urlOrEmpty,
  remix_imagine_id: int.nullish(),
  remix_obfuscated_id: optionalText,
  isMyFavorite: flag.nullish(),
  api_key_id: int.nullish(),
  soft_lines: flag.nullish(),
  created_at: optionalText,
  updated_at: optionalText,
  dispatched_at: optionalText,
  processing_at: optionalText,
  completed_at: optionalText,
  exports: z.record(z.string(), z.string()).nullish(),
  cost: num.nullish(),
});
export type Generation = z.infer<typeof Generation>;

/**
 * The polling routes wrap the record as `{ request }`; some clients see `{ imagine }` or
 * the bare record. Accept all three and return the record.
 */
export const WrappedGeneration = z.preprocess((body) => unwrap(body, ["request", "imagine"]), Generation);

/** The value under the first of `keys` that the body has as an object, else the body itself. */
export function unwrap(body: unknown, keys: readonly string[]): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  for (const key of keys) {
    const inner = (body as Record<string, unknown>)[key];
    if (typeof inner === "object" && inner !== null) return inner;
  }
  return body;
}
