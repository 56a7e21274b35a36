import * as z from "zod/mini";
import { flag, int, num, optionalText } from "../schemas/fields.ts";
import { rangeSchema, SEED_MAX } from "../rules/number-ranges.ts";
import { FileField } from "./file-input.ts";
import { httpUrl } from "./http-url.ts";

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
  prompt: /* @__PURE__ */ z.string().check(z.trim(), z.minLength(1, { error: "is required" })),
  skybox_style_id: int,
  webhook_url: z.nullish(httpUrl),
  variant_id: z.nullish(int),
  negative_text: optionalText,
  /** 0 (or none) for a seed drawn at random; the record reports the seed used. */
  seed: z.nullish(rangeSchema("seed")),
  enhance_prompt: z.nullish(flag),
  control_image: z.nullish(FileField),
  control_image_hash: optionalText,
  control_model: z.nullish(z.enum(["remix", "sketch", "scribble"])),
  init_image: z.nullish(FileField),
  init_image_hash: optionalText,
  init_strength: z.nullish(rangeSchema("init_strength")),
  remix_imagine_id: z.nullish(int),
  /** The source of a remix by its obfuscated id, as the official Node SDK sends it. */
  remix_imagine_obfuscated_id: z.nullish(/* @__PURE__ */ z.string().check(z.trim(), z.minLength(1))),
  remix_collection_id: z.nullish(int),
  max_wait: z.nullish(z.union([flag, num])),
  soft_lines: z.nullish(flag),
  edit_skybox_id: z.nullish(int),
  center_x: z.nullish(rangeSchema("center_x")),
  center_y: z.nullish(rangeSchema("center_y")),
  fov: z.nullish(rangeSchema("fov")),
  image_to_pano_init_image: z.nullish(FileField),
  image_to_pano_init_image_hash: optionalText,
  /** Deprecated by the spec (depth maps are always generated); accepted and ignored. */
  return_depth: z.nullish(flag),
  /** A high-quality depth map (documented; the .NET and Unity SDKs send it). Depth maps are always made. */
  return_depth_hq: z.nullish(flag),
});
export type GenerateParams = z.input<typeof GenerateParams>;
/** Generation parameters after validation, as the client sends them. */
export type ParsedGenerateParams = z.output<typeof GenerateParams>;

/** POST /api/v1/skybox/batch: every generation parameter plus quantity. */
export const BatchParams = z.extend(GenerateParams, {
  // Checked by the batch rules, so that every bad value gets the spec's own message.
  quantity: z.optional(z.unknown()),
});
export type BatchParams = Omit<GenerateParams, "quantity"> & { quantity: number };
