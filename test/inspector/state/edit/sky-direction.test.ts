import { describe, expect, test } from "vitest";
import { anglesOfDirection, directionOfAngles, wrapDegrees } from "../../../../src/inspector/state/edit/sky-direction.ts";

describe("directions on the sky ↔ the Edit request's longitude and latitude", () => {
  test("+Z is the panorama's middle, +X a quarter turn along u, −Z its edges, +Y the top", () => {
    expect(anglesOfDirection({ x: 0, y: 0, z: 1 })).toEqual({ lon: 0, lat: 0 });
    expect(anglesOfDirection({ x: 1, y: 0, z: 0 }).lon).toBeCloseTo(90);
    expect(anglesOfDirection({ x: -1, y: 0, z: 0 }).lon).toBeCloseTo(-90);
    expect(Math.abs(anglesOfDirection({ x: 0, y: 0, z: -1 }).lon)).toBeCloseTo(180);
    expect(anglesOfDirection({ x: 0, y: 1, z: 0 })).toEqual({ lon: 0, lat: 90 });
    expect(anglesOfDirection({ x: 0, y: -2, z: 2 }).lat).toBeCloseTo(-45);
  });

  test("a rotated skybox shows the longitude ψ + θ at world yaw ψ", () => {
    const theta = Math.PI / 6;
    expect(anglesOfDirection({ x: 0, y: 0, z: 1 }, theta).lon).toBeCloseTo(30);
    const d = directionOfAngles({ lon: 30, lat: 0 }, theta);
    expect(d.x).toBeCloseTo(0);
    expect(d.z).toBeCloseTo(1);
  });

  test("directionOfAngles inverts anglesOfDirection", () => {
    for (const [lon, lat] of [
      [0, 0],
      [123.4, -20],
      [-170, 60],
      [45, -89],
    ] as const)
      for (const rotation of [0, 1.1, -2.5]) {
        const back = anglesOfDirection(directionOfAngles({ lon, lat }, rotation), rotation);
        expect(back.lon).toBeCloseTo(lon, 6);
        expect(back.lat).toBeCloseTo(lat, 6);
      }
  });

  test("longitudes wrap into −180..180", () => {
    expect(wrapDegrees(190)).toBe(-170);
    expect(wrapDegrees(-190)).toBe(170);
    expect(wrapDegrees(540)).toBe(180);
    expect(wrapDegrees(-180)).toBe(-180);
  });
});
