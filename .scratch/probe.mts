import { readFileSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { createImageryPool } from "../src/local/imagery/pipeline/render-pool.ts";
import { decodeRgbe } from "../src/local/imagery/formats/rgbe.ts";
import { directionOfUv, directionOfDegrees } from "../src/api/panorama/panorama-directions.ts";

const W = Number(process.env.W ?? 1024);
const pool = createImageryPool({ size: 2 });
for (const prompt of (process.env.PROMPTS ?? "desert at noon|mountains at sunset|city at night").split("|")) {
  const dir = mkdtempSync(join(tmpdir(), "sunx-"));
  const t0 = Date.now();
  await pool.generate({ prompt, negativeText: null, enhancePrompt: false, seed: 7, look: "photoreal", model: 3, variant: null, softLines: false, size: { width: W, height: W / 2 }, thumbSize: { width: 180, height: 90 }, depthSize: { width: 256, height: 128 } }, dir);
  const scene = JSON.parse(readFileSync(join(dir, "scene.json"), "utf8"));
  const img = decodeRgbe(new Uint8Array(readFileSync(join(dir, "radiance.hdr"))));
  const [sx, sy, sz] = directionOfDegrees(scene.sun.azimuth, scene.sun.elevation);
  const d = new Float64Array(3);
  const bins = [0.7, 2, 5, 10, 20, 180];
  const e = bins.map(() => [0, 0, 0]);
  let peak = 0, total = [0,0,0], up=[0,0,0];
  for (let y = 0; y < img.height; y++) {
    const v = (y + 0.5) / img.height;
    const dOmega = (2 * Math.PI / img.width) * (Math.PI / img.height) * Math.sin(v * Math.PI);
    for (let x = 0; x < img.width; x++) {
      directionOfUv((x + 0.5) / img.width, v, d);
      const ang = Math.acos(Math.min(1, d[0]*sx + d[1]*sy + d[2]*sz)) * 180 / Math.PI;
      const o = (y * img.width + x) * 3;
      const L = 0.2126*img.rgb[o]! + 0.7152*img.rgb[o+1]! + 0.0722*img.rgb[o+2]!;
      if (ang < 2) peak = Math.max(peak, L);
      const bi = bins.findIndex((b) => ang < b);
      for (let c = 0; c < 3; c++) { e[bi]![c]! += img.rgb[o+c]! * dOmega; total[c]! += img.rgb[o+c]! * dOmega; if (d[1]! > 0) up[c]! += img.rgb[o+c]! * dOmega * d[1]!; }
    }
  }
  console.log(prompt, Date.now() - t0, "ms", JSON.stringify(scene.sun), scene.time, scene.weather, "peakL", peak.toFixed(2));
  console.log("  energy by ring (deg<", bins.join(","), "):", e.map((c) => c.map((v) => v.toFixed(4)).join("/")).join("  "), " E_horiz(up)", up.map(v=>v.toFixed(3)).join("/"));
}
await pool.close();
