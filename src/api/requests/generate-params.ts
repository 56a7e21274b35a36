import * as z from "zod";
import { flag, int, num } from "../schemas/fields.ts";
import { rangeSchema, SEED_MAX } from "../rules/number-ranges.ts";
import { FileField } from "./file-input.ts";

/** The largest seed a generation takes (seeds are 0..SEED_MAX, src/api/rules/number-ranges.ts); `0` asks for a seed drawn at random (the real service's documentation). */
export { SEED_MAX };

/** The seed a generation runs with: the one asked for, or one drawn at random for `0` or none. */
export function drawSeed(seed: number | null | undefined, random: () => number = Math.random): number {
  return seed ? seed : 1 + Math.floor(random() * (SEED_MAX - 1));
}

/**
 * Parameters of POST /api/v1/skybox. Strict: an unknown field is refused by name (the local
 * service reads them leniently, like the real one). Numbers and booleans also arrive as
 * strings (multipart forms), so they are coerced.
 *
 * Edit coordinates (the spec does not give their units): `center_x` is the longitude of the
 * edit centre in degrees, -180..180, 0 being the middle of the panorama; `center_y` its
 * latitude, -90..90, 0 the horizon and positive up; `fov` the edited region's field of
 * view in degrees.
 */
export const GenerateParams = z.strictObject({
  prompt: z.string().trim().min(1, { error: "is required" }),
  skybox_style_id: int,
  webhook_url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).nullish(),
  variant_id: int.nullish(),
  negative_text: z.string().nullish(),
  /** 0 (or none) for a seed drawn at random; the record reports the seed used. */
  seed: rangeSchema("seed").nullish(),
  enhance_prompt: flag.nullish(),
  control_image: FileField.nullish(),
  control_image_hash: z.string().nullish(),
  control_model: z.enum(["remix", "sketch", "scribble"]).nullish(),
  init_image: FileField.nullish(),
  init_image_hash: z.string().nullish(),
  init_strength: rangeSchema("init_strength").nullish(),
  remix_imagine_id: int.nullish(),
  /** The source of a remix by its obfuscated id, as the official Node SDK sends it. */
  remix_imagine_obfuscated_id: z.string().trim().min(1).nullish(),
  remix_collection_id: int.nullish(),
  max_wait: z.union([flag, num]).nullish(),
  soft_lines: flag.nullish(),
  edit_skybox_id: int.nullish(),
  center_x: rangeSchema("center_x").nullish(),
  center_y: rangeSchema("center_y").nullish(),
  fov: rangeSchema("fov").nullish(),
  image_to_pano_init_image: FileField.nullish(),
  image_to_pano_init_image_hash: z.string().nullish(),
  /** Deprecated by the spec (depth maps are always generated); accepted and ignored. */
  return_depth: flag.nullish(),
  /** A high-quality depth map (documented; the .NET and Unity SDKs send it). Depth maps are always made. */
  return_depth_hq: flag.nullish(),
});
export type GenerateParams = z.input<typeof GenerateParams>;
export type ParsedGenerateParams = z.output<typeof GenerateParams>;

/** POST /api/v1/skybox/batch: every generation parameter plus quantity. */
export const BatchParams = GenerateParams.extend({
  // Checked by the batch rules, so that every bad value gets the spec's own message.
  quantity: z.unknown().optional(),
});
export type BatchParams = Omit<GenerateParams, "quantity"> & { quantity: number };
