/**
 * The manifest of a saved skybox, `skybox.json`: what `loadSkybox` reads, the pane's "Save
 * to project" and `babylon-skybox save` write. One schema for the three, so a folder written
 * by one loads in the other. Every file it names sits beside it (a plain file name: a
 * manifest can never point a loader outside its folder) with its size and SHA-256, which
 * the loader checks before anything reaches the scene.
 */
import * as z from "zod/mini";
import { MESH_QUALITIES, type MeshQualityKey } from "../reference.ts";
import { DEPTH_SCALE } from "../rules/export-rules.ts";

/** The manifest format this package writes and reads; bumped when a reader of the old one would misread the new. */
export const SAVED_SKYBOX_FORMAT = 1;

/** The manifest's file name in a saved skybox's folder. */
export const MANIFEST_FILE = "skybox.json";

const finite = /* @__PURE__ */ z.number().check(z.refine(Number.isFinite, { error: "must be a finite number" }));
const nonNegative = /* @__PURE__ */ z.number().check(z.gte(0, { error: "must be a number of at least 0" }));
// An array checked for its length, not z.tuple: the tuple schema alone would add 2 KiB of zod to the browser entry.
const positiveInt = /* @__PURE__ */ z.int().check(z.gte(1, { error: "must be an integer of at least 1" }));
const vector3 = /* @__PURE__ */ z.array(finite).check(z.refine((v) => v.length === 3, { error: "must be 3 numbers" }));

/** A file name without a folder, `..`, or characters a static host or a file system may treat otherwise. */
const fileName = /* @__PURE__ */ z.string().check(
  z.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, {
    error: "must be a plain file name beside skybox.json (letters, digits, '.', '_', '-')",
  }),
);

/** One file of the folder: its name, byte size and SHA-256 (lowercase hex). */
export const SavedFile = /* @__PURE__ */ z.strictObject({
  path: fileName,
  bytes: z.int().check(z.gte(0, { error: "must be an integer of at least 0" })),
  sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/, { error: "must be 64 lowercase hexadecimal digits" })),
});
export type SavedFile = z.infer<typeof SavedFile>;

/**
 * The sun found in the HDRI when it was saved, in the panorama's frame (the fields of
 * `DetectedSun`), or null when the sky has none.
 */
export const SavedSun = /* @__PURE__ */ z.strictObject({
  direction: vector3,
  azimuth: finite,
  elevation: finite,
  color: vector3,
  intensity: nonNegative,
  illuminance: nonNegative,
  solidAngle: nonNegative,
  /** The disk's own pixels (`measured`) or a clear-sky fit around a clipped disk (`estimated`). */
  source: z.enum(["measured", "estimated"]),
  confidence: z.number().check(z.gte(0), z.lte(1)),
  turbidity: z.nullable(finite),
  /** The disk as the panorama held it: what the environment holds of the sun, taken out while the light shines. */
  disk: z.strictObject({
    sky: vector3,
    pixels: z.array(finite),
    /** Where its pixels are in the panorama it was found in: its size, and each pixel's index. */
    at: z.optional(
      z.strictObject({
        width: positiveInt,
        height: positiveInt,
        indices: z.array(z.int().check(z.gte(0, { error: "must be an integer of at least 0" }))),
      }),
    ),
    /** The size of the saved environment's cube, when it was made from that panorama: the sun's share is then taken out texel by texel. */
    cube: z.optional(positiveInt),
  }),
});
export type SavedSun = z.infer<typeof SavedSun>;

const meshQuality = /* @__PURE__ */ z.enum(MESH_QUALITIES.map((m) => m.key) as [MeshQualityKey, ...MeshQualityKey[]]);

/** The skybox's manifest. */
export const SavedSkybox = /* @__PURE__ */ z.strictObject({
  format: z.literal(SAVED_SKYBOX_FORMAT, {
    error: `must be ${SAVED_SKYBOX_FORMAT} (this version of babylon-skybox reads format ${SAVED_SKYBOX_FORMAT})`,
  }),
  /** The generation it was saved from. */
  skybox: z.strictObject({
    id: z.int(),
    obfuscated_id: z.string().check(z.regex(/./, { error: "must not be empty" })),
    title: z.nullable(z.string()),
    prompt: z.string(),
    style: z.nullable(z.strictObject({ id: z.nullable(z.int()), name: z.nullable(z.string()) })),
    seed: z.nullable(z.int()),
    model: z.literal([3, 4]),
  }),
  /** The Apply settings it was saved with: `loadSkybox`'s defaults. */
  settings: z.strictObject({
    rotation: finite,
    intensity: nonNegative,
    backgroundBlur: z
      .number()
      .check(z.gte(0, { error: "must be a number from 0 to 1" }), z.lte(1, { error: "must be a number from 0 to 1" })),
    /** The backdrop's settings, or null when it was off (then no backdrop file is saved). */
    backdrop: z.nullable(
      z.strictObject({
        depthScale: z
          .number()
          .check(
            z.gte(DEPTH_SCALE.min, { error: `must be a number from ${DEPTH_SCALE.min} to ${DEPTH_SCALE.max}` }),
            z.lte(DEPTH_SCALE.max, { error: `must be a number from ${DEPTH_SCALE.min} to ${DEPTH_SCALE.max}` }),
          ),
        meshQuality,
      }),
    ),
  }),
  sun: z.nullable(SavedSun),
  files: z.strictObject({
    /** The lighting: a prefiltered Babylon `.env`, or a Radiance `.hdr` that the loader prefilters once (and caches). */
    environment: z.extend(SavedFile, { format: z.enum(["env", "hdr"]) }),
    /** The source `.hdr` beside a baked `.env`, when it was asked for. */
    hdr: z.optional(SavedFile),
    /** The panorama (JPEG or WebP) the background dome shows and a depth backdrop is textured with. */
    background: z.extend(SavedFile, { width: z.int().check(z.gte(1)), height: z.int().check(z.gte(1)) }),
    /** The backdrop: the GLB export (Model 3) or the depth map (Model 4). */
    backdrop: z.optional(z.extend(SavedFile, { format: z.enum(["glb", "depth-png"]) })),
  }),
  /** Who wrote it ("pane" or "cli") and when (ISO 8601). */
  saved: z.strictObject({ by: z.enum(["pane", "cli"]), at: z.string() }),
});
export type SavedSkybox = z.infer<typeof SavedSkybox>;

/** The names of the files `files` lists. */
export type SavedFileRole = keyof SavedSkybox["files"];
