import * as z from "zod/mini";
import { REQUEST_STATUSES } from "../protocol/statuses.ts";
import { flag, int, num, optionalText, urlOrEmpty } from "./fields.ts";
import { unwrapped } from "./wrapped.ts";

/** The schema of a generation's or export's status. */
export const RequestStatus = z.enum(REQUEST_STATUSES);
/** A generation's or export's status: `pending` to `complete`, `abort` or `error`. */
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
  user_id: z.nullish(int),
  username: optionalText,
  queue_position: z.nullish(int),
  pusher_channel: optionalText,
  pusher_event: optionalText,
  error_message: optionalText,
  type: optionalText,
  title: optionalText,
  prompt: optionalText,
  /** The expanded prompt when enhance_prompt was set (local service; null otherwise). */
  enhanced_prompt: optionalText,
  negative_text: optionalText,
  seed: z.nullish(int),
  skybox_style_id: z.nullish(int),
  skybox_style_name: optionalText,
  skybox_id: z.nullish(int),
  skybox_name: optionalText,
  variant_id: z.nullish(int),
  model: optionalText,
  file_url: urlOrEmpty,
  thumb_url: urlOrEmpty,
  depth_map_url: urlOrEmpty,
  remix_imagine_id: z.nullish(int),
  remix_obfuscated_id: optionalText,
  isMyFavorite: z.nullish(flag),
  api_key_id: z.nullish(int),
  soft_lines: z.nullish(flag),
  created_at: optionalText,
  updated_at: optionalText,
  dispatched_at: optionalText,
  processing_at: optionalText,
  completed_at: optionalText,
  /** Export type key to file URL. (An object whose every field is a string: `z.record` reads the same JSON but costs the browser bundle 1 KiB.) */
  exports: z.nullish(z.catchall(z.object({}), z.string())),
  cost: z.nullish(num),
});
export type Generation = z.infer<typeof Generation>;

/**
 * The polling routes wrap the record as `{ request }`; some clients see `{ imagine }` or
 * the bare record. Accept all three and return the record.
 */
export const WrappedGeneration = unwrapped(["request", "imagine"], Generation);
