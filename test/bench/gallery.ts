/**
 * `npm run gallery`: renders twelve prompts across styles and models with the local
 * service's renderer and writes one contact sheet, test-results/gallery.png.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import sharp, { type OverlayOptions } from "sharp";
import { findStyle, variantsOf } from "../../src/local/catalogue/styles.ts";
import { STORED_FILES } from "../../src/local/imagery/contract.ts";
import { createImageryPool } from "../../src/local/imagery/pipeline/render-pool.ts";

const TILE = { width: 768, height: 384 };
const LABEL = 30;
const COLUMNS = 3;

const ENTRIES: { prompt: string; style: number; variant?: "Standard" | "Enhanced" }[] = [
  { prompt: "alpine lake at sunset with snowy mountains", style: 2 },
  { prompt: "stormy ocean under dark clouds", style: 3 },
  { prompt: "misty forest hills at dawn", style: 5 },
  { prompt: "desert dunes at noon", style: 6 },
  { prompt: "red canyon at sunset", style: 7 },
  { prompt: "city skyline at night with stars and moon", style: 9 },
  { prompt: "nebula and planets over a starfield", style: 10 },
  { prompt: "futuristic neon city at night", style: 11 },
  { prompt: "green hills under a cloudy sky", style: 12 },
  { prompt: "ocean at sunset", style: 13 },
  { prompt: "snowy mountains at dawn, foggy valley", style: 101, variant: "Enhanced" },
  { prompt: "city skyline at sunset", style: 103, variant: "Standard" },
];

const escape = (s: string) => s.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

async function main() {
  const pool = createImageryPool();
  const work = mkdtempSync(join(tmpdir(), "skybox-gallery-"));
  const tiles: OverlayOptions[] = [];
  try {
    for (const [i, entry] of ENTRIES.entries()) {
      const style = findStyle(entry.style)!;
      const variant = entry.variant ? variantsOf(style).find((v) => v.name === entry.variant) : undefined;
      const dir = join(work, String(i));
      mkdirSync(dir);
      const t0 = performance.now();
      await pool.generate(
        {
          prompt: entry.prompt, negativeText: null, enhancePrompt: false, seed: 7 + i, look: style.look, model: style.model,
          variant: variant ? (variant.name === "Enhanced" ? "enhanced" : "standard") : null, softLines: false,
          size: TILE, thumbSize: { width: 360, height: 180 }, depthSize: { width: 256, height: 128 },
        },
        dir,
      );
      console.log(`${(performance.now() - t0).toFixed(0).padStart(6)} ms  ${style.name}: ${entry.prompt}`);
      const left = (i % COLUMNS) * TILE.width;
      const top = Math.floor(i / COLUMNS) * (TILE.height + LABEL);
      const label = `${style.name}${entry.variant ? ` (${entry.variant})` : ""} · Model ${style.model} · “${entry.prompt}”`;
      tiles.push({ input: join(dir, STORED_FILES.image), left, top: top + LABEL });
      tiles.push({
        input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${TILE.width}" height="${LABEL}"><rect width="100%" height="100%" fill="#111"/><text x="8" y="21" font-family="sans-serif" font-size="16" fill="#eee">${escape(label)}</text></svg>`),
        left,
        top,
      });
    }
    const rows = Math.ceil(ENTRIES.length / COLUMNS);
    const out = resolve("test-results/gallery.png");
    mkdirSync(resolve("test-results"), { recursive: true });
    await sharp({ create: { width: COLUMNS * TILE.width, height: rows * (TILE.height + LABEL), channels: 3, background: "#111" } }).composite(tiles).png().toFile(out);
    console.log(`contact sheet: ${out}`);
  } finally {
    await pool.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
