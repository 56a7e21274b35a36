/**
 * The background, backdrop and sun of a saved skybox, from its checked files: the same
 * parts `applySkybox` builds, kept in the engine's memory cache the same way.
 */
import type { SavedSkybox } from "../../api/saved/saved-skybox.ts";
import type { SkyboxBackdrop } from "../backdrop/backdrop.ts";
import { createBlurredBackground, createDomeBackground } from "../background/background.ts";
import type { BuiltEnvironment } from "../build-parts.ts";
import { keepBackdrop, keepDome, keepGround, keptDome, keptGround } from "../cache/kept-parts.ts";
import type { ResolvedBackground } from "../apply-options.ts";
import type { ResolvedLoad } from "./load-options.ts";
import type { LoadContext } from "./saved-environment.ts";
import type { SavedFolder } from "./saved-folder.ts";
import type { SkyboxPart } from "../skybox-part.ts";
import { SkyboxSun, type SunNeighbours } from "../sun-light/skybox-sun.ts";
import { prepareSunPolynomial } from "../sun-light/sun-harmonics.ts";
import type { ResolvedSun } from "../sun-light/sun-options.ts";

/**
 * The background: the saved panorama on a dome or grounded, or the environment blurred when `blur` > 0.
 * @param ctx the load
 * @param folder the folder
 * @param options blur (0..1) and ground
 * @param environment the environment (needed when blur > 0)
 */
export async function buildSavedBackground(
  ctx: LoadContext,
  folder: SavedFolder,
  options: ResolvedBackground,
  environment: BuiltEnvironment | null,
): Promise<SkyboxPart> {
  const { blur, ground } = options;
  if (ground) {
    const kept = await keptGround(ctx, ground, ctx.name("background"));
    if (kept) return kept;
    const bytes = await folder.bytes(folder.manifest.files.background);
    ctx.signal?.throwIfAborted();
    const part = await (
      await import("../background/grounded-background.ts")
    ).createGroundedBackground(ctx.scene, bytes, ground, ctx.name("background"));
    keepGround(ctx, part);
    return part;
  }
  if (blur > 0) {
    if (!environment) throw new Error("A blurred background needs the environment");
    return createBlurredBackground(ctx.scene, environment.lighting.texture, blur, ctx.name("background"));
  }
  const kept = await keptDome(ctx, ctx.name("background"));
  if (kept) return kept;
  const bytes = await folder.bytes(folder.manifest.files.background);
  ctx.signal?.throwIfAborted();
  const dome = await createDomeBackground(ctx.scene, bytes, ctx.name("background"));
  keepDome(ctx, dome);
  return dome;
}

/**
 * The backdrop: the saved GLB export (Model 3), or the mesh built from the saved depth map
 * and panorama (Model 4). Each builder is loaded on demand, as `applySkybox` does.
 * @param ctx the load
 * @param folder the folder (its manifest has a backdrop)
 * @param options radius, and the saved depth scale and mesh quality
 */
export async function buildSavedBackdrop(
  ctx: LoadContext,
  folder: SavedFolder,
  options: NonNullable<ResolvedLoad["backdrop"]>,
): Promise<SkyboxBackdrop> {
  const entry = folder.manifest.files.backdrop!;
  const name = ctx.name("backdrop");
  ctx.progress({ stage: "building-backdrop", detail: entry.path });
  if (entry.format === "glb") {
    const [bytes, { loadGlbBackdrop }] = await Promise.all([folder.bytes(entry), import("../backdrop/backdrop-glb.ts")]);
    ctx.signal?.throwIfAborted();
    // Named by content: a second load of the same file shares the textures kept from the first.
    const backdrop = await loadGlbBackdrop(
      ctx.scene,
      bytes,
      name,
      options.radius,
      ctx.cache ? `skybox-saved-glb-${entry.sha256.slice(0, 16)}` : name,
    );
    keepBackdrop(ctx, backdrop);
    return backdrop;
  }
  const [png, panorama, { buildDepthBackdrop }] = await Promise.all([
    folder.bytes(entry),
    folder.bytes(folder.manifest.files.background),
    import("../backdrop/backdrop-from-depth.ts"),
  ]);
  ctx.signal?.throwIfAborted();
  return buildDepthBackdrop(
    ctx.scene,
    { panorama, depthPng: png, meshQuality: options.meshQuality, depthScale: options.depthScale, radius: options.radius },
    name,
    ctx.signal ?? undefined,
  );
}

/**
 * The sun light of the sun saved in the manifest (found when saving: nothing to decode here).
 * @param ctx the load
 * @param manifest the manifest (its `sun` is set)
 * @param options the sun's settings
 * @param neighbours the other parts
 */
export async function savedSun(
  ctx: LoadContext,
  manifest: SavedSkybox,
  options: ResolvedSun,
  neighbours: SunNeighbours,
  lightingSize: number | null,
): Promise<SkyboxSun> {
  ctx.progress({ stage: "finding-sun", detail: "from skybox.json" });
  const sun = manifest.sun!;
  const three = (v: readonly number[]): [number, number, number] => [v[0]!, v[1]!, v[2]!];
  const { cube, ...disk } = sun.disk;
  // A .env holds the editor's cube (its size saved with the sun); a .hdr (the sun's own panorama, `babylon-skybox save`) becomes a cube of the lighting's size here.
  const cubeSize = manifest.files.environment.format === "env" ? (cube ?? null) : lightingSize;
  const detected = { ...sun, direction: three(sun.direction), color: three(sun.color), disk: { ...disk, sky: three(disk.sky) } };
  // Its share of the environment's harmonics computed first, in slices: the light takes it as made.
  await prepareSunPolynomial(detected, cubeSize);
  return new SkyboxSun({ scene: ctx.scene, sun: detected, options, neighbours, name: ctx.name("sun"), cubeSize });
}
