import { readFileSync, mkdtempSync, existsSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { createImageryPool } from "../src/local/imagery/pipeline/render-pool.ts";
import { directionOfDegrees } from "../src/api/panorama/panorama-directions.ts";
import { decodeHdr } from "../src/scene/sun/hdr-pixels.ts";
import { detectSun } from "../src/scene/sun/detect-sun.ts";
import { scanSky } from "../src/scene/sun/sun-candidates.ts";

const W = Number(process.env.W ?? 1024);
const pool = createImageryPool({ size: 2 });
const prompts = (process.env.PROMPTS ?? "clear desert at noon|clear desert dunes at sunset|ocean at sunset|lake at noon|snowy mountains at noon|cloudy hills at noon|overcast meadow|moonlit night over hills|city at night|storm over the sea|foggy forest at morning|space nebula with planets|alpine lake at sunset").split("|");
const seeds = (process.env.SEEDS ?? "7").split(",").map(Number);
for (const prompt of prompts) for (const seed of seeds) {
  const dir = mkdtempSync(join(tmpdir(), "sunx-"));
  await pool.generate({ prompt, negativeText: null, enhancePrompt: false, seed, look: "photoreal", model: 3, variant: null, softLines: false, size: { width: W, height: W / 2 }, thumbSize: { width: 180, height: 90 }, depthSize: { width: 256, height: 128 } }, dir);
  const scene = JSON.parse(readFileSync(join(dir, "scene.json"), "utf8"));
  const img = decodeHdr(new Uint8Array(readFileSync(join(dir, "radiance.hdr"))));
  const t0 = performance.now();
  const sun = detectSun(img);
  const ms = performance.now() - t0;
  const scan = scanSky(img, 3);
  const truth = directionOfDegrees(scene.sun.azimuth, scene.sun.elevation);
  const err = sun ? Math.acos(Math.min(1, sun.direction[0]*truth[0]+sun.direction[1]*truth[1]+sun.direction[2]*truth[2])) * 180 / Math.PI : NaN;
  console.log(`${prompt} s${seed}: time=${scene.time} weather=${scene.weather} sun=${scene.sun.azimuth.toFixed(1)}/${scene.sun.elevation.toFixed(1)} vis=${scene.sun.visible} moon=${scene.moon.visible ? scene.moon.elevation.toFixed(0) : "-"} skyMean=${scan.skyMean.toFixed(3)} cands=${scan.candidates.map(c=>c.luminance.toFixed(2)).join(",")}`);
  console.log(`   -> ${sun ? `az ${(sun.azimuth*180/Math.PI).toFixed(2)} el ${(sun.elevation*180/Math.PI).toFixed(2)} err ${err.toFixed(3)}° color ${sun.color.map(c=>c.toFixed(3)).join(",")} I ${sun.intensity.toFixed(4)} lum ${sun.illuminance.toFixed(4)} Ω ${sun.solidAngle.toExponential(2)}` : "null"}  (${ms.toFixed(1)} ms)`);
}
await pool.close();
