/**
 * The `sun` option of `applySkybox`: its schema (zod/mini, small enough for the browser
 * entry), its type inferred from it, and its defaults. A wrong value throws before anything
 * is downloaded, naming the field and the rule: `sun.shadowMapSize: must be a power of two (is 300)`.
 */
import type { Light } from "@babylonjs/core/Lights/light.js";
import * as z from "zod/mini";
import { quotedInput, ruleSentence } from "../../api/errors/rule-sentence.ts";
import { EXPORT_RESOLUTIONS, type ResolutionName } from "../../api/reference.ts";

const isPowerOfTwo = (n: number) => n > 0 && (n & (n - 1)) === 0;
/** A Babylon light, by its shape: importing the class would load lights into apps that never ask for a sun. */
const isLight = (value: unknown): value is Light =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as Light).getTypeID === "function" &&
  typeof (value as Light).setEnabled === "function" &&
  "shadowEnabled" in value;

/** The sun light's settings. */
export const SunOptionsSchema = z.strictObject({
  /**
   * Multiplies the sun's irradiance found in the HDRI (measured in its disk, or estimated from
   * its sky when the disk is clipped): 1 lights the scene as the HDRI holds it.
   * @default 1
   */
  intensity: z.optional(z.number().check(z.minimum(0))),
  /** Shadows cast by the scene's meshes onto each other and onto the backdrop. @default true */
  shadows: z.optional(z.boolean()),
  /** Shadow map size in pixels (a power of two, 256 to 8192). @default 2048 */
  shadowMapSize: z.optional(z.int().check(z.minimum(256), z.maximum(8192), z.refine(isPowerOfTwo, { error: "must be a power of two" }))),
  /**
   * Babylon's `CascadedShadowGenerator` instead of a `ShadowGenerator`, for large scenes (a
   * standard one where the engine has no cascades: WebGL 1). @default false
   */
  cascaded: z.optional(z.boolean()),
  /**
   * Takes the sun's diffuse share out of the environment's lighting while the light is on,
   * so nothing is lit twice (see the README, "The sun light").
   * @default true
   */
  balance: z.optional(z.boolean()),
  /**
   * Lights of the scene the skybox's sun takes the place of: switched off, shadows and all,
   * while the sun is shown (also when the sky has no sun: their shadows would contradict the
   * picture), and on again when it is hidden or the skybox is disposed. A replacing skybox
   * takes them over in the same frame, so the scene never has two suns, nor none.
   * @default []
   */
  replaces: z.optional(z.array(z.custom<Light>(isLight, { error: "must be a Babylon Light" }))),
  /**
   * Resolution of the `hdri-hdr` export the sun is found in (1K places it within a tenth of
   * a degree). @default the lighting's export when it is an `hdri-hdr` of 2K or less (one
   * download for both), else 1K: decoding an 8K HDRI takes seconds
   */
  resolution: z.optional(z.enum(EXPORT_RESOLUTIONS.map((r) => r.name) as [ResolutionName, ...ResolutionName[]])),
});

/** Settings of the sun light (`applySkybox(scene, id, { sun: { ... } })`). */
export type SunOptions = z.infer<typeof SunOptionsSchema>;

/** The sun light's settings with their defaults (`resolution` null: chosen from the lighting's). */
export type ResolvedSun = Required<Omit<SunOptions, "resolution">> & { resolution: ResolutionName | null };

const DEFAULTS: ResolvedSun = {
  intensity: 1,
  shadows: true,
  shadowMapSize: 2048,
  cascaded: false,
  balance: true,
  replaces: [],
  resolution: null,
};

/**
 * The `sun` option with its defaults, or null when off (`false` or absent).
 * @param value `true`, `false`, undefined or settings
 * @returns the resolved settings
 * @throws Error naming each wrong field and its rule
 */
export function resolveSun(value: unknown): ResolvedSun | null {
  if (value === undefined || value === false) return null;
  if (value === true) return { ...DEFAULTS };
  if (value === null || typeof value !== "object")
    throw new Error(`applySkybox: sun: must be a boolean or an object of sun settings${quotedInput(value)}`);
  const parsed = SunOptionsSchema.safeParse(value, { error: ruleSentence, reportInput: true });
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `sun${i.path.map((p) => `.${String(p)}`).join("")}: ${i.message}${quotedInput(i.input)}`);
    throw new Error(`applySkybox: ${issues.join("; ")}`);
  }
  return { ...DEFAULTS, ...(Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined)) as SunOptions) };
}
