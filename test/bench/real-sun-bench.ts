/**
 * The sun detection on photographs (test/scene/analysis/real-skies.ts): every picture of the
 * real-picture corpus as shipped and as 8-bit exports, with its truth measured from its
 * own pixels, the tuning part and the held-out part reported apart; then `detectSun`'s
 * time on real pictures resampled to 1K and 8K, 8-bit exports included.
 */
import { detectSun } from "../../src/scene/analysis/detect-sun.ts";
import type { HdrPixels } from "../../src/scene/analysis/hdr-pixels.ts";
import { ms, percentile } from "./percentiles.ts";
import {
  REAL_SKIES,
  REAL_VARIANTS,
  type RealScore,
  readRealSky,
  realVariant,
  resampledReal,
  scoreReal,
  truthOf,
  zeroedAround,
} from "../scene/analysis/real-skies.ts";

const RUNS = Number(process.env.SKYBOX_BENCH_RUNS ?? 7);
const DEG = 180 / Math.PI;

export function realSunBench(): string[] {
  const scores = REAL_SKIES.flatMap((sky) => {
    const image = readRealSky(sky.name);
    return REAL_VARIANTS.map((variant) => scoreReal(sky, variant, (p) => detectSun(p), image));
  });
  const lines = [
    `Real pictures: ${REAL_SKIES.length} photographed HDRIs (Poly Haven, CC0, 512 x 256 as @pmndrs/assets ships them), each as shipped and as two 8-bit exports.`,
    "ok = sun placed within 2 deg (shipped) / 3 deg (8-bit), energy within 50% where the disk holds it; glow: within 5 deg or none; none: no sun. WRONG = a sun where none shows, or > 5 deg away.",
    "",
    `${"picture".padEnd(10)} ${"shows".padEnd(5)} ${"part".padEnd(8)} ${REAL_VARIANTS.map((v) => v.padEnd(34)).join(" ")}`,
  ];
  for (const sky of REAL_SKIES) {
    const cells = REAL_VARIANTS.map((variant) => cell(scores.find((s) => s.sky === sky && s.variant === variant)!).padEnd(34));
    lines.push(`${sky.name.padEnd(10)} ${sky.shows.padEnd(5)} ${(sky.heldOut ? "held out" : "tuning").padEnd(8)} ${cells.join(" ")}`);
  }
  lines.push(
    "",
    `${"part".padEnd(9)} ${"variant".padEnd(24)} ${"suns placed".padStart(11)} ${"glow ok".padStart(8)} ${"no sun ok".padStart(9)} ${"wrong".padStart(6)}`,
  );
  for (const part of ["tuning", "held out", "all"] as const) {
    for (const variant of [...REAL_VARIANTS, "every variant"] as const) {
      const of = scores.filter(
        (s) => (part === "all" || s.sky.heldOut === (part === "held out")) && (variant === "every variant" || s.variant === variant),
      );
      const count = (shows: string) => {
        const group = of.filter((s) => s.sky.shows === shows);
        return `${group.filter((s) => s.ok).length}/${group.length}`;
      };
      lines.push(
        `${part.padEnd(9)} ${variant.padEnd(24)} ${count("sun").padStart(11)} ${count("glow").padStart(8)} ${count("none").padStart(9)} ${String(of.filter((s) => s.wrong).length).padStart(6)}`,
      );
    }
  }
  return [...lines, "", damageLine(), "", ...speedLines()];
}

/** What compression left of each sun's disk: an 8-bit export of a disk with a zeroed channel cannot clip white. */
function damageLine(): string {
  const disks = REAL_SKIES.filter((sky) => sky.shows === "sun").map((sky) => {
    const image = readRealSky(sky.name);
    return `${sky.name} ${zeroedAround(image, truthOf(image, sky.shows)!)}`;
  });
  return `Pixels within 3 deg of the sun with a channel at 0 as shipped, lossy DWAB's doing: ${disks.join(", ")}. The 8-bit exports give them the disk's or the aureole's light, as the camera recorded it (realVariant).`;
}

function cell(s: RealScore): string {
  if (!s.found) return `${s.ok ? "ok" : "--"}    no sun`;
  const energy = s.energy === null ? "" : ` E x${s.energy.toFixed(2)}`;
  const at = s.error === null ? ` at ${(s.found.elevation * DEG).toFixed(1)} deg up` : ` ${s.error.toFixed(1)} deg off`;
  return `${s.wrong ? "WRONG" : s.ok ? "ok" : "--"}${" ".repeat(s.wrong ? 1 : s.ok ? 4 : 4)}${s.found.source}${at}${energy}`;
}

/** Widths a detection is timed at: a 1K and an 8K panorama. */
const WIDTHS = [1024, 8192] as const;

/** A width of WIDTHS as the table names it. */
const label = (width: number) => (width === 1024 ? "1K" : "8K");

/**
 * `detectSun`'s time on every picture of the corpus in every variant, at each of WIDTHS:
 * a table, then for each width how many detections stay under the goal and which is the
 * slowest (three pictures chosen by hand, which this table once timed, hid the slowest).
 */
function speedLines(): string[] {
  const runs = (width: number) => (width > 2048 ? Math.min(RUNS, 3) : RUNS);
  const lines = [
    `detectSun on every real picture resampled to 1K (median of ${runs(1024)} runs) and 8K (median of ${runs(8192)}), one thread (goal: under 100 ms):`,
    `  ${"picture".padEnd(10)} ${REAL_VARIANTS.map((v) => `${v.padEnd(24)}`).join(" ")}`,
    `  ${"".padEnd(10)} ${REAL_VARIANTS.map(() => WIDTHS.map((w) => label(w).padStart(11)).join("")).join("   ")}`,
  ];
  const timed: { at: string; width: number; ms: number }[] = [];
  for (const sky of REAL_SKIES) {
    const image = readRealSky(sky.name);
    const cells = REAL_VARIANTS.map((variant) => {
      const { pixels } = realVariant(image, variant, truthOf(image, sky.shows));
      return WIDTHS.map((width) => {
        const t = medianTime(resampledReal(pixels, width), runs(width));
        timed.push({ at: `${sky.name}, ${variant}`, width, ms: t });
        return ms(t).padStart(11);
      }).join("");
    });
    lines.push(`  ${sky.name.padEnd(10)} ${cells.join("   ")}`);
  }
  for (const width of WIDTHS) {
    const of = timed.filter((t) => t.width === width);
    const slowest = of.reduce((a, b) => (b.ms > a.ms ? b : a));
    const median = percentile(
      of.map((t) => t.ms),
      50,
    );
    const under = of.filter((t) => t.ms < 100).length;
    lines.push(`  ${label(width)}: ${under}/${of.length} under 100 ms, median ${ms(median)}, slowest ${ms(slowest.ms)} (${slowest.at})`);
  }
  return lines;
}

/** Median wall time of `runs` detections of `image`, after one untimed. */
function medianTime(image: HdrPixels, runs: number): number {
  detectSun(image);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    detectSun(image);
    times.push(performance.now() - t0);
  }
  return percentile(times, 50);
}
