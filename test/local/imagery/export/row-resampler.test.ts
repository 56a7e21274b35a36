import { describe, expect, it } from "vitest";
import { resampleRows, type RowSource } from "../../../../src/local/imagery/export/row-resampler.ts";

function source(width: number, height: number, value: (x: number, y: number) => number): RowSource {
  let y = 0;
  return {
    width,
    height,
    channels: 1,
    next: () => {
      const row = Float32Array.from({ length: width }, (_, x) => value(x, y));
      y++;
      return row;
    },
  };
}

function collect(src: RowSource, width: number, height: number): number[][] {
  const rows: number[][] = [];
  for (const row of resampleRows(src, width, height)) rows.push(Array.from(row)); // the yielded buffer is reused
  return rows;
}

describe("row resampler", () => {
  it("keeps a constant image constant at any size", () => {
    for (const [w, h] of [
      [16, 8],
      [64, 32],
      [7, 3],
      [40, 20],
    ] as const) {
      for (const row of collect(
        source(32, 16, () => 2.5),
        w,
        h,
      ))
        for (const v of row) expect(v).toBeCloseTo(2.5, 5);
    }
  });

  it("averages when shrinking (no aliasing) and interpolates when enlarging", () => {
    // A one-pixel checkerboard shrunk 4x is uniform grey; point sampling would keep 0s and 1s.
    const small = collect(
      source(32, 16, (x, y) => (x + y) % 2),
      8,
      4,
    ).flat();
    for (const v of small) expect(Math.abs(v - 0.5)).toBeLessThan(0.05);
    const big = collect(
      source(4, 4, (_x, y) => y),
      4,
      8,
    );
    expect(big.map((r) => r[0])).toEqual([0, 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3]);
  });

  it("wraps around horizontally (u = 0 meets u = 1)", () => {
    // A spike in the last column leaks into the first output column when enlarging.
    const out = collect(
      source(4, 1, (x) => (x === 3 ? 8 : 0)),
      8,
      1,
    )[0]!;
    expect(out[0]).toBeGreaterThan(0);
    expect(out[7]).toBeGreaterThan(0);
    expect(out[3]).toBe(0);
  });
});
