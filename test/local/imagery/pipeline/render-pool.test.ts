import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeRgbe } from "../../../../src/local/imagery/formats/rgbe.ts";
import { createImageryPool, type ImageryPool } from "../../../../src/local/imagery/pipeline/render-pool.ts";

let pool: ImageryPool;
beforeAll(() => {
  pool = createImageryPool({ size: 2 });
});
afterAll(() => pool.close());

describe("imagery pool", () => {
  it("runs jobs in worker threads (TypeScript sources, inside vitest)", async () => {
    expect(pool.size).toBe(2);
    const shared = new SharedArrayBuffer(16 * 8 * 3 * 4);
    const rgb = new Float32Array(shared);
    for (let i = 0; i < rgb.length; i++) rgb[i] = (i % 7) * 0.37;
    const results = await Promise.all(
      [0, 1, 2, 3].map(() => pool.run({ kind: "encode-rgbe", width: 16, height: 8, radiance: shared })),
    );
    for (const r of results) expect(Buffer.from(r as Uint8Array).equals(Buffer.from(encodeRgbe(16, 8, rgb)))).toBe(true);
    expect(pool.stats.byKind.get("encode-rgbe")?.jobs).toBe(4);
  });

  it("reports a job's error and keeps working", async () => {
    await expect(pool.run({ kind: "encode-rgbe", width: 64, height: 64, radiance: new SharedArrayBuffer(12) })).rejects.toThrow(/smaller/);
    const ok = await pool.run({ kind: "encode-rgbe", width: 1, height: 1, radiance: new SharedArrayBuffer(12) });
    expect(ok).toBeInstanceOf(Uint8Array);
  });

  it("runs exports in a worker (failing cleanly for a missing skybox)", async () => {
    const request = { from: "/nonexistent/skybox", type: "equirectangular-jpg", size: { width: 64, height: 32 }, out: "/nonexistent/out", imageScale: 1 } as const;
    await expect(pool.runExport(request)).rejects.toThrow();
  });

  it("refuses work once closed", async () => {
    const p = createImageryPool({ size: 1 });
    await p.close();
    await expect(p.run({ kind: "encode-rgbe", width: 1, height: 1, radiance: new SharedArrayBuffer(12) })).rejects.toThrow(/closed/);
  });
});
