/**
 * Energy kept honest, checked on a real HDRI export with Babylon's own code path (panorama
 * to cube, cube to irradiance harmonics, as `HDRCubeTexture` does it): the environment's
 * harmonics minus `sunPolynomial` match the harmonics of the same panorama with the sun
 * painted out, and the sun's share points at the sun in the cube's frame.
 */
import { describe, expect, it } from "vitest";
import type { SphericalPolynomial } from "@babylonjs/core/Maths/sphericalPolynomial.js";
import { CubeMapToSphericalPolynomialTools } from "@babylonjs/core/Misc/HighDynamicRange/cubemapToSphericalPolynomial.js";
import { PanoramaToCubeMapTools } from "@babylonjs/core/Misc/HighDynamicRange/panoramaToCubemap.js";
import { directionOfUv } from "../../../src/api/panorama/panorama-directions.ts";
import { detectSun, type DetectedSun } from "../../../src/scene/analysis/detect-sun.ts";
import type { HdrPixels } from "../../../src/scene/analysis/hdr-pixels.ts";
import { cubeDirection } from "../../../src/scene/sun-light/sun-frame.ts";
import { sunPolynomial, upwardIrradiance, withoutSun } from "../../../src/scene/sun-light/sun-harmonics.ts";
import { renderPool } from "../../local/imagery/render-fixtures.ts";
import { degreesBetween, sunExport } from "../analysis/sun-exports.ts";

const pool = renderPool();

/** Babylon's harmonics of a panorama on a cube of `size` (HDRCubeTexture's path). */
function harmonicsOf(hdr: HdrPixels, size = 256): SphericalPolynomial {
  const cube = PanoramaToCubeMapTools.ConvertPanoramaToCubemap(hdr.rgb, hdr.width, hdr.height, size);
  return CubeMapToSphericalPolynomialTools.ConvertCubeMapToSphericalPolynomial(cube);
}

/**
 * The panorama with its sun painted out: every pixel within 1.3 degrees of it (the renderer's
 * disk is 0.6 degrees in radius, anti-aliased over 2 pixels of 0.35) replaced by the mean of
 * the ring 1.5 to 2.5 degrees out.
 */
function paintedOut(hdr: HdrPixels, sun: DetectedSun): HdrPixels {
  const rgb = new Float32Array(hdr.rgb);
  const d = new Float64Array(3);
  const disk: number[] = [];
  const ring = [0, 0, 0];
  let n = 0;
  for (let y = 0; y < hdr.height; y++) {
    for (let x = 0; x < hdr.width; x++) {
      directionOfUv((x + 0.5) / hdr.width, (y + 0.5) / hdr.height, d);
      const angle = degreesBetween(d, sun.direction);
      const i = (y * hdr.width + x) * 3;
      if (angle < 1.3) disk.push(i);
      else if (angle >= 1.5 && angle < 2.5) {
        for (let c = 0; c < 3; c++) ring[c]! += hdr.rgb[i + c]!;
        n++;
      }
    }
  }
  for (const i of disk) for (let c = 0; c < 3; c++) rgb[i + c] = ring[c]! / n;
  return { ...hdr, rgb };
}

/** A polynomial's value (irradiance over pi) at unit normal n, per channel. */
function at(p: SphericalPolynomial, n: readonly number[]): number[] {
  const [x, y, z] = n as [number, number, number];
  const terms = [
    [p.x, x],
    [p.y, y],
    [p.z, z],
    [p.xx, x * x],
    [p.yy, y * y],
    [p.zz, z * z],
    [p.xy, x * y],
    [p.yz, y * z],
    [p.zx, z * x],
  ] as const;
  return (["x", "y", "z"] as const).map((c) => terms.reduce((s, [v, m]) => s + v[c] * m, 0));
}

describe("the sun's share of the environment's diffuse light", () => {
  it("taken out of the harmonics, leaves what the panorama gives without its sun (noon and sunset)", async () => {
    for (const prompt of ["clear desert at noon", "clear desert dunes at sunset"]) {
      const { hdr } = await sunExport(pool(), prompt);
      const sun = detectSun(hdr)!;
      const whole = harmonicsOf(hdr);
      const without = harmonicsOf(paintedOut(hdr, sun));
      const balanced = withoutSun(whole, sunPolynomial(sun, null));
      const s = cubeDirection(sun.direction);
      const towards = [s.x, s.y, s.z];
      const normals = [towards, towards.map((v) => -v), [0, 1, 0], [0, -1, 0], [1, 0, 0], [0, 0, 1], [-1, 0, 0], [0, 0, -1]];
      for (const n of normals) {
        const share = at(whole, n).map((v, c) => v - at(without, n)[c]!);
        const left = at(balanced, n).map((v, c) => v - at(without, n)[c]!);
        // What remains of the sun is a small part of what it gave: the cube takes the nearest
        // pixel, so a disk 3 pixels across is sampled a few times and its share comes out 15%
        // off either way (the clamp at MAX_HDRI_VALUE, which the sun passes, adds little).
        for (let c = 0; c < 3; c++)
          expect(Math.abs(left[c]!), `${prompt}, normal ${n.map((v) => v.toFixed(2)).join(",")}, channel ${c}`).toBeLessThan(
            0.2 * Math.abs(share[c]!) + 1e-4,
          );
      }
      // In the cube's frame the sun's share is largest facing the sun.
      const share = (n: number[]) => at(whole, n)[0]! - at(without, n)[0]!;
      expect(share(towards)).toBeGreaterThan(4 * Math.abs(share(towards.map((v) => -v))));
      expect(share(towards)).toBeGreaterThan(0);
    }
  });

  it("for a cube made from the sun's own panorama, takes out what that cube holds of the sun, texel by texel, at every size", async () => {
    for (const prompt of ["clear desert at noon", "clear desert dunes at sunset"]) {
      const { hdr } = await sunExport(pool(), prompt);
      const sun = detectSun(hdr)!;
      for (const size of [64, 128, 256]) {
        const whole = harmonicsOf(hdr, size);
        const without = harmonicsOf(paintedOut(hdr, sun), size);
        const share = sunPolynomial(sun, size);
        // Computed once per sun and size: a re-apply (the same cached sun) converts no cube again.
        expect(sunPolynomial(sun, size)).toBe(share);
        const sampled = withoutSun(whole, share);
        const averaged = withoutSun(whole, sunPolynomial(sun, null));
        const towards = (() => {
          const s = cubeDirection(sun.direction);
          return [s.x, s.y, s.z];
        })();
        for (const n of [towards, [0, 1, 0]]) {
          const share = at(whole, n)[0]! - at(without, n)[0]!;
          const left = at(sampled, n)[0]! - at(without, n)[0]!;
          const leftAveraged = at(averaged, n)[0]! - at(without, n)[0]!;
          // What is left is the painted-out sky's own error (its ring mean against the disk's sky): a few percent.
          expect(
            Math.abs(left),
            `${prompt}, cube ${size}, normal ${n.map((v) => v.toFixed(2)).join(",")}: left ${left} of ${share} (averaged: ${leftAveraged})`,
          ).toBeLessThan(0.03 * Math.abs(share) + 1e-4);
        }
      }
    }
  });

  it("never takes more than the environment holds, whatever sun it is given", () => {
    const { polynomial } = { polynomial: harmonicsOf({ width: 64, height: 32, rgb: new Float32Array(64 * 32 * 3).fill(0.1) }) };
    const huge: DetectedSun = {
      direction: [0, 1, 0],
      azimuth: 0,
      elevation: Math.PI / 2,
      color: [1, 1, 1],
      intensity: 100,
      illuminance: 100,
      solidAngle: 1e-4,
      source: "measured",
      confidence: 1,
      turbidity: null,
      disk: { sky: [0, 0, 0], pixels: [1e6, 1e6, 1e6, 1e-4] },
    };
    const left = withoutSun(polynomial, sunPolynomial(huge, null));
    // The zenith-facing irradiance stays positive: at most 95 % of the ambient term goes.
    expect(upwardIrradiance(left).r).toBeGreaterThan(0);
    expect(upwardIrradiance(left).r).toBeLessThan(upwardIrradiance(polynomial).r);
  });
});
