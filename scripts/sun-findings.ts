/**
 * The sun detector's findings on the real-picture corpus, to tell whether a change to
 * src/scene/analysis changes what it finds: every picture of test/fixtures/real-skies in
 * each variant (as shipped and the two 8-bit exports) at 512, 1024 and 2048 wide (searched at
 * 1K, its sun measured again in the whole panorama: detect-sun.ts), and as
 * shipped clipped at 4 and at 16 (HDRIs made from pictures that clipped there), 198 cases.
 * Numbers are kept to 10 significant digits: a refactor that reorders no arithmetic
 * changes none of them.
 *   npx tsx scripts/sun-findings.ts before.json           # write the findings
 *   npx tsx scripts/sun-findings.ts after.json before.json  # write, then list the cases that differ
 * It exits 1 when a case differs. The rendered skies' corpus is checked by
 * test/scene/analysis/sun-corpus.test.ts (npm test), and `npm run bench -- sun` scores both.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { findSun } from "../src/scene/analysis/detect-sun.ts";
import { REAL_SKIES, REAL_VARIANTS, readRealSky, realVariant, resampledReal, truthOf } from "../test/scene/analysis/real-skies.ts";
import { clipped } from "../test/scene/analysis/sun-corpus.ts";

const WIDTHS = [512, 1024, 2048];
const CLIPS = [4, 16];

const [out, base] = process.argv.slice(2);
if (!out) {
  console.error("usage: npx tsx scripts/sun-findings.ts <out.json> [<base.json>]");
  process.exit(2);
}

const findings: Record<string, unknown> = {};
let ms = 0;
const find = (key: string, pixels: Parameters<typeof findSun>[0]) => {
  const t0 = performance.now();
  findings[key] = findSun(pixels);
  ms += performance.now() - t0;
};
for (const sky of REAL_SKIES) {
  const image = readRealSky(sky.name);
  for (const variant of REAL_VARIANTS) {
    const { pixels } = realVariant(image, variant, truthOf(image, sky.shows));
    for (const width of WIDTHS) find(`${sky.name} | ${variant} | ${width}`, resampledReal(pixels, width));
  }
  for (const limit of CLIPS) find(`${sky.name} | as shipped, clipped at ${limit}`, clipped(image, limit));
}
const json = JSON.stringify(findings, (_, v: unknown) => (typeof v === "number" ? Number(v.toPrecision(10)) : v), 1);
writeFileSync(out, json);
console.log(`${Object.keys(findings).length} cases in ${(ms / 1000).toFixed(1)} s of detection, written to ${out}`);

if (base) {
  const before = JSON.parse(readFileSync(base, "utf8")) as Record<string, unknown>;
  const after = JSON.parse(json) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const differ = keys.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  for (const k of differ) console.log(`differs: ${k}\n  before ${summary(before[k])}\n  after  ${summary(after[k])}`);
  console.log(`${differ.length} of ${keys.length} cases differ from ${base}`);
  process.exitCode = differ.length ? 1 : 0;
}

/** A finding in a line: the sun's elevation and azimuth in degrees and its source, or why there is none. */
function summary(finding: unknown): string {
  if (finding === undefined) return "(no such case)";
  const f = finding as { sun: { elevation: number; azimuth: number; source: string; illuminance: number } | null; why: string | null };
  if (!f.sun) return `no sun: ${f.why}`;
  const deg = (r: number) => ((r * 180) / Math.PI).toFixed(2);
  return `${f.sun.source} sun at ${deg(f.sun.elevation)} deg up, azimuth ${deg(f.sun.azimuth)}, illuminance ${f.sun.illuminance}`;
}
