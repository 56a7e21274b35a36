/**
 * The sun part of an apply: the sun known for this skybox's HDRI (from the cache), or found
 * in it (the export downloaded once for lighting and sun alike, decoded and `findSun` run in a
 * worker: sun-finder.ts), then the light, made once the other parts exist. Loaded on demand by `applySkybox`: an app
 * that never asks for the sun never loads lights and shadows for it.
 */
import type { ApplyContext } from "../apply-context.ts";
import { sunKey } from "../cache/cache-keys.ts";
import { exportTitle, sunExport } from "../exports/part-exports.ts";
import type { ResolvedLighting } from "../apply-options.ts";
import { SkyboxSun, type SunNeighbours } from "./skybox-sun.ts";
import { cachedSun, storeSun } from "./sun-cache.ts";
import type { ResolvedSun } from "./sun-options.ts";
import { prepareSunPolynomial } from "./sun-harmonics.ts";
import { findSunOffThread } from "./sun-finder.ts";
import type { DecodedHdr } from "../environment/decoded-hdr.ts";
import type { HdrPixels } from "../analysis/hdr-pixels.ts";

/** Version of the detection's answers: bumped when `detectSun` answers differently, so cached suns are found again. */
const DETECTION = 9;

/** Makes the sun's light once the skybox's other parts are built. */
export type SunFactory = (neighbours: SunNeighbours) => SkyboxSun;

/**
 * Finds the skybox's sun.
 * @param ctx the apply
 * @param options the `sun` option, resolved
 * @param lighting the lighting options (null: lighting off)
 * @param decoded where the decoded export goes when it is the lighting's own (null: it is not)
 * @returns what makes the light, or null when the sky has no sun (the progress says why)
 */
export async function prepareSun(
  ctx: ApplyContext,
  options: ResolvedSun,
  lighting: ResolvedLighting | null,
  decoded: DecodedHdr | null = null,
): Promise<SunFactory | null> {
  const { choice, lightingsOwn } = sunExport(ctx.model, lighting, options.resolution);
  const key = sunKey(ctx.skyboxId, choice, DETECTION);
  let finding = await cachedSun(ctx.cache, key);
  if (finding === undefined) {
    const { bytes } = await ctx.exportBytes(choice, "sun");
    ctx.signal?.throwIfAborted();
    ctx.progress({ stage: "finding-sun", detail: exportTitle(choice) });
    // The lighting's own export is the environment's too: the worker gets a copy of it, and hands back its pixels.
    const onPixels = decoded ? (pixels: HdrPixels) => decoded.give(pixels) : undefined;
    finding = await findSunOffThread({
      bytes,
      owned: !lightingsOwn,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(onPixels ? { onPixels } : {}),
    });
    ctx.downloads.writes.push(storeSun(ctx.cache, key, finding));
  }
  // Known from the cache, nothing is decoded here: the lighting decodes its file.
  decoded?.give(null);
  if (!finding.sun) {
    ctx.progress({ stage: "finding-sun", detail: "none in this sky", noSun: finding.why });
    return null;
  }
  ctx.progress({ stage: "finding-sun", detail: "found" });
  const found = finding.sun;
  const name = ctx.name("sun");
  // Found in the lighting's own export, the disk's pixels are those the environment's cube was made from.
  const cubeSize = lightingsOwn ? lighting!.size : null;
  // Its share of the environment's harmonics computed now, in slices: the light takes it as made.
  await prepareSunPolynomial(found, cubeSize, ctx.signal ?? undefined);
  return (neighbours) => new SkyboxSun({ scene: ctx.scene, sun: found, options, neighbours, name, cubeSize });
}

// The lights a sun replaces come with the sun's code: an apply without a sun loads neither.
export { replacedLights } from "./replaced-lights.ts";
