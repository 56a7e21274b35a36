/**
 * Energy kept honest: the sun's share of an environment's diffuse lighting, as Babylon's
 * irradiance harmonics hold it, so it can be taken out while a light carries it instead.
 *
 * Babylon projects the cube's radiance L onto order-2 spherical harmonics and convolves
 * them with the clamped cosine; PBR materials read the result as the diffuse irradiance
 * E(n) / pi. A small sun of irradiance E_sun (per channel) from direction s adds to the
 * radiance coefficients exactly E_sun * Y_lm(s), so (all of it linear)
 *
 *   L'_lm = L_lm - E_sun * Y_lm(s)        and so        E'(n) = E(n) - E_sun * A(n . s)
 *
 * with A the order-2 approximation of max(0, n . s) the harmonics already use for the sun.
 * The light then adds E_sun * max(0, n . s), shadowed.
 */
import { Color3 } from "@babylonjs/core/Maths/math.color.js";
import { SphericalHarmonics, SphericalPolynomial } from "@babylonjs/core/Maths/sphericalPolynomial.js";
import { CubeMapToSphericalPolynomialTools } from "@babylonjs/core/Misc/HighDynamicRange/cubemapToSphericalPolynomial.js";
import { PanoramaToCubeMapTools } from "@babylonjs/core/Misc/HighDynamicRange/panoramaToCubemap.js";
import type { DetectedSun, DiskPlace } from "../analysis/detect-sun.ts";
import { cubeDirection } from "./sun-frame.ts";

const TERMS = ["x", "y", "z", "xx", "yy", "zz", "xy", "yz", "zx"] as const;

/**
 * The texel-by-texel shares computed, per sun and cube size (read only by their users). Beside
 * the sun, not in it: a DetectedSun is plain data, stored in the cache as JSON, and its
 * shares are Babylon objects derived from it. Weak: a sun let go takes its shares with it.
 */
const sampled = new WeakMap<DetectedSun, Map<number, SphericalPolynomial>>();

/** Most of an environment's ambient term the sun may take (what it takes cannot exceed what is there). */
const MAX_SHARE = 0.95;

/**
 * The polynomial of the sun's diffuse light in the cube's frame, as Babylon holds it in an
 * environment it made from the panorama's pixels: radiance above `MAX_HDRI_VALUE` is clamped
 * there, pixel by pixel, so a disk brighter than that counts for what its clamped pixels
 * hold (and a clipped disk for what its clipped pixels hold, whatever energy the light gets).
 *
 * With `cubeSize` (the environment is a cube of that size made from the very panorama the
 * disk was found in), the disk's share is computed as Babylon computes the environment's:
 * a panorama holding only what the disk adds, turned into a cube of that size by Babylon's
 * own conversion (one panorama pixel per texel: a disk of a few pixels is sampled by some
 * texels and skipped by others) and projected by Babylon's own harmonics. Otherwise, the
 * disk's pixels are summed as the panorama holds them, which is what a cube holds on
 * average over where the disk falls.
 * @param sun the detected sun
 * @param cubeSize the size of the environment's cube made from the disk's panorama, or null
 */
export function sunPolynomial(sun: DetectedSun, cubeSize: number | null): SphericalPolynomial {
  const at = sun.disk.at;
  if (cubeSize !== null && at && at.indices.length > 0) {
    // A whole cube is converted and projected (0.1 to 0.6 s on a slow core): once per sun and size,
    // so a re-apply of a skybox, whose sun the sun cache hands back as the same object, pays nothing.
    const sizes = sampled.get(sun) ?? new Map<number, SphericalPolynomial>();
    sampled.set(sun, sizes);
    const known = sizes.get(cubeSize);
    if (known) return known;
    const polynomial = sampledSunPolynomial(sun, at, cubeSize);
    sizes.set(cubeSize, polynomial);
    return polynomial;
  }
  const irradiance = heldIrradiance(sun, CubeMapToSphericalPolynomialTools.MAX_HDRI_VALUE);
  const harmonics = new SphericalHarmonics();
  harmonics.addLight(cubeDirection(sun.direction), new Color3(irradiance[0], irradiance[1], irradiance[2]), 1);
  harmonics.convertIncidentRadianceToIrradiance();
  harmonics.convertIrradianceToLambertianRadiance();
  return SphericalPolynomial.FromHarmonics(harmonics);
}

/**
 * `sunPolynomial(sun, cubeSize)` computed ahead, in slices (sliced-cube.ts: Babylon's
 * conversion and projection, the same floats), so the light made next takes it at once
 * instead of converting and projecting a whole cube in one task.
 * @param sun the detected sun
 * @param cubeSize as `sunPolynomial` takes it
 * @param signal stops it between slices (it rejects with the reason)
 */
export async function prepareSunPolynomial(sun: DetectedSun, cubeSize: number | null, signal?: AbortSignal): Promise<void> {
  const at = sun.disk.at;
  if (cubeSize === null || !at || at.indices.length === 0) return;
  const sizes = sampled.get(sun) ?? new Map<number, SphericalPolynomial>();
  sampled.set(sun, sizes);
  if (sizes.has(cubeSize)) return;
  // The sliced steps load with the first sun whose share is sampled (the core entry stays in its budget).
  const [{ cubeHarmonics, panoramaToCube }, { nextTaskSlice, WorkSlices }] = await Promise.all([
    import("../environment/sliced-cube.ts"),
    import("../scheduling/work-slices.ts"),
  ]);
  const slices = new WorkSlices(nextTaskSlice, signal);
  const cube = await panoramaToCube(diskPanorama(sun, at), at.width, at.height, cubeSize, slices);
  sizes.set(cubeSize, await cubeHarmonics(cube, slices));
}

/** The disk's share of a cube of `size` made from its panorama by Babylon, texel by texel. */
function sampledSunPolynomial(sun: DetectedSun, at: DiskPlace, size: number): SphericalPolynomial {
  const cube = PanoramaToCubeMapTools.ConvertPanoramaToCubemap(diskPanorama(sun, at), at.width, at.height, size);
  return CubeMapToSphericalPolynomialTools.ConvertCubeMapToSphericalPolynomial(cube);
}

/** A panorama holding only what the disk adds, as clamped radiance; rows from the top, as Babylon's HDR reader hands them to its conversion and as the disk's indices count them. */
function diskPanorama(sun: DetectedSun, at: DiskPlace): Float32Array {
  const { sky, pixels } = sun.disk;
  const max = CubeMapToSphericalPolynomialTools.MAX_HDRI_VALUE;
  const panorama = new Float32Array(at.width * at.height * 3);
  at.indices.forEach((index, k) => {
    for (let c = 0; c < 3; c++) panorama[index * 3 + c] = heldExcess(sky[c]!, pixels[k * 4 + c]!, max);
  });
  return panorama;
}

/** What the disk's pixels add to their sky's irradiance with each channel clamped at `max`. */
function heldIrradiance(sun: DetectedSun, max: number): [number, number, number] {
  const { sky, pixels } = sun.disk;
  const held: [number, number, number] = [0, 0, 0];
  for (let k = 0; k < pixels.length; k += 4) {
    for (let c = 0; c < 3; c++) held[c]! += heldExcess(sky[c]!, pixels[k + c]!, max) * pixels[k + 3]!;
  }
  return held;
}

/** What a pixel adding `added` to its sky `sky` holds above that sky once both are clamped at `max`. */
function heldExcess(sky: number, added: number, max: number): number {
  return Math.max(0, Math.min(sky + added, max) - Math.min(sky, max));
}

/**
 * The environment's polynomial without the sun: `environment - sun`, the sun scaled down
 * when it would take more than MAX_SHARE of the environment's ambient (zeroth) term in some
 * channel (a sun the cube shows dimmer than the panorama, at a small cube size).
 * @param environment the environment's polynomial (not changed)
 * @param sun `sunPolynomial` of its sun
 * @returns a new polynomial
 */
export function withoutSun(environment: SphericalPolynomial, sun: SphericalPolynomial): SphericalPolynomial {
  const env = SphericalHarmonics.FromPolynomial(environment).l00;
  const own = SphericalHarmonics.FromPolynomial(sun).l00;
  let share = 1;
  for (const c of ["x", "y", "z"] as const) if (own[c] > 0) share = Math.min(share, (MAX_SHARE * Math.max(0, env[c])) / own[c]);
  const out = new SphericalPolynomial();
  for (const term of TERMS) environment[term].subtractToRef(sun[term].scale(share), out[term]);
  return out;
}

/**
 * The irradiance over pi an upward surface gets from a polynomial, per channel (Babylon's
 * `computeEnvironmentIrradiance` at n = +Y: the y, yy terms).
 * @param p a polynomial
 */
export function upwardIrradiance(p: SphericalPolynomial): Color3 {
  return new Color3(p.y.x + p.yy.x, p.y.y + p.yy.y, p.y.z + p.yy.z);
}
