import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeRgbe, rgbeHeader } from "../../../../src/local/imagery/formats/rgbe.ts";
import { warmUp } from "../../../../src/local/imagery/pipeline/warm-up.ts";
import { writeRgbe } from "../../../../src/local/imagery/formats/rgbe-pixel.ts";
import { createImageryPool, type ImageryPool } from "../../../../src/local/imagery/pipeline/render-pool.ts";

let pool: ImageryPool;
beforeAll(() => {
  pool = createImageryPool({ size: 2 });
});
afterAll(() => pool.close());

describe("imagery pool", () => {
  it("runs jobs in worker threads (TypeScript sources, inside vitest)", async () => {
    expect(pool.size).toBe(2);
    // A render keeps its radiance as RGBE bytes; its scanlines are those of the file of the same floats.
    const rgb = new Float32Array(16 * 8 * 3);
    for (let i = 0; i < rgb.length; i++) rgb[i] = (i % 7) * 0.37 + (i % 5) * 40;
    const shared = new SharedArrayBuffer(16 * 8 * 4);
    const bytes = new Uint8Array(shared);
    for (let p = 0; p < 16 * 8; p++) writeRgbe(rgb[p * 3]!, rgb[p * 3 + 1]!, rgb[p * 3 + 2]!, bytes, p * 4);
    const results = await Promise.all([0, 1, 2, 3].map(() => pool.run({ kind: "encode-rgbe", width: 16, radiance: shared, rows: [0, 8] })));
    const file = encodeRgbe(16, 8, rgb).subarray(rgbeHeader(16, 8).length);
    for (const r of results) expect(Buffer.from(r as Uint8Array).equals(Buffer.from(file))).toBe(true);
    expect(pool.stats.byKind.get("encode-rgbe")?.jobs).toBe(4);
  });

  it("reports a job's error and keeps working", async () => {
    await expect(pool.run({ kind: "encode-rgbe", width: 64, radiance: new SharedArrayBuffer(16), rows: [0, 64] })).rejects.toThrow(
      /smaller/,
    );
    const ok = await pool.run({ kind: "encode-rgbe", width: 1, radiance: new SharedArrayBuffer(4), rows: [0, 1] });
    expect(ok).toBeInstanceOf(Uint8Array);
  });

  it("runs exports in a worker (failing cleanly for a missing skybox)", async () => {
    const request = {
      from: "/nonexistent/skybox",
      type: "equirectangular-jpg",
      size: { width: 64, height: 32 },
      out: "/nonexistent/out",
      imageScale: 1,
    } as const;
    await expect(pool.runExport(request)).rejects.toThrow();
  });

  it("collects garbage in every worker and answers once all have, also behind a running job and while closing", async () => {
    await pool.ready();
    const job = pool.run({ kind: "encode-rgbe", width: 8, radiance: new SharedArrayBuffer(8 * 4 * 4), rows: [0, 4] });
    await expect(Promise.all([pool.collect(), job])).resolves.toHaveLength(2);
    const closing = createImageryPool({ size: 1 });
    await closing.ready();
    const collected = closing.collect();
    await closing.close();
    await expect(collected).resolves.toBeUndefined();
  });

  it("keeps a process that only awaits a render alive until the render ends, its collections included, and until close() settles", () => {
    const dir = mkdtempSync(join(tmpdir(), "render-alone-"));
    try {
      const out = execFileSync(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./render-alone.ts", import.meta.url)), dir], {
        encoding: "utf8",
      });
      expect(out).toContain("rendered");
      // Before, the process ended inside close() (exit code 13: its last await never settled).
      expect(out).toContain("closed");
      expect(readdirSync(dir)).toContain("image.jpg");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("warms the workers up with a small render through all of them, leaving no folder behind, failed or not", async () => {
    const root = mkdtempSync(join(tmpdir(), "warm-up-root-"));
    pool.stats.reset();
    await warmUp(pool, { root });
    expect(pool.stats.byKind.get("render-rows")?.jobs).toBeGreaterThanOrEqual(pool.size);
    expect(readdirSync(root)).toEqual([]);
    await expect(warmUp({ generate: () => Promise.reject(new Error("imagery pool is closed")) }, { root })).rejects.toThrow(/closed/);
    expect(readdirSync(root)).toEqual([]);
    // Given way to real work: its jobs not started are dropped, and it ends quietly.
    const arrived = new AbortController();
    arrived.abort(new Error("a render arrived"));
    pool.stats.reset();
    await expect(warmUp(pool, { root, signal: arrived.signal })).resolves.toBeUndefined();
    expect(pool.stats.byKind.size).toBe(0);
    expect(readdirSync(root)).toEqual([]);
    rmSync(root, { recursive: true });
  });

  it("removes the warm-up folders of processes killed while warming up, not those of processes still running", async () => {
    const root = mkdtempSync(join(tmpdir(), "warm-up-root-"));
    // A process killed with SIGKILL during its warm-up: its folder (files half written) stays behind.
    const killed = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"]);
    const gone = new Promise((resolve) => killed.once("exit", resolve));
    killed.kill("SIGKILL");
    await gone;
    mkdirSync(join(root, `babylon-skybox-warm-up-${killed.pid}-abc123`));
    writeFileSync(join(root, `babylon-skybox-warm-up-${killed.pid}-abc123`, "image.jpg"), "half");
    mkdirSync(join(root, `babylon-skybox-warm-up-${process.pid}-running`));
    mkdirSync(join(root, "someone-elses-folder"));
    await warmUp({ generate: async () => ({ enhancedPrompt: null }) }, { root });
    expect(readdirSync(root).sort()).toEqual([`babylon-skybox-warm-up-${process.pid}-running`, "someone-elses-folder"]);
    rmSync(root, { recursive: true });
  });

  it("starts a render worker without loading sharp, most of a worker's start: only decoding and exports load it", () => {
    // In a fresh process, as in a new worker: the native libraries a process loaded are in its report.
    const jobs = fileURLToPath(new URL("../../../../src/local/imagery/pipeline/render-jobs.ts", import.meta.url));
    const code = `await import(${JSON.stringify(jobs)}); console.log(JSON.stringify(process.report.getReport().sharedObjects))`;
    const loaded = JSON.parse(
      execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { encoding: "utf8" }),
    ) as string[];
    expect(loaded.some((file) => file.includes("node_modules"))).toBe(false);
    expect(loaded.length).toBeGreaterThan(0);
  });

  it("refuses work once closed", async () => {
    const p = createImageryPool({ size: 1 });
    await p.close();
    await expect(p.run({ kind: "encode-rgbe", width: 1, radiance: new SharedArrayBuffer(4), rows: [0, 1] })).rejects.toThrow(/closed/);
  });
});
