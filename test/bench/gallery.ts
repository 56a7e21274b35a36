/**
 * `npm run gallery [-- out-dir]`: renders every catalogue style at three prompts (a lake
 * at sunset, a desert canyon at noon, a city at night) with the local service's renderer
 * and writes two contact sheets into out-dir (default test-results/):
 *
 *   gallery.png        each render, scaled down (rows: styles, columns: prompts)
 *   gallery-crops.png  1:1 crops of each render: the highest ridge against the sky, the
 *                      brightest water or lights below the horizon, and the near ground
 *                      across the wrap column (u = 0/1), where a seam would show
 *
 * Renders are 2048x1024, the size of a Model 4 background in development; a crop at 1:1
 * shows what the playground's camera magnifies. GALLERY_STYLES=anime,neon keeps the styles
 * whose name or look holds one of the words.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import sharp, { type OverlayOptions } from "sharp";
import { STYLES, variantsOf } from "../../src/local/catalogue/styles.ts";
import { STORED_FILES } from "../../src/local/imagery/contract.ts";
import { SKY_DISTANCE } from "../../src/local/imagery/pipeline/generate-skybox.ts";
import { createImageryPool } from "../../src/local/imagery/pipeline/render-pool.ts";

const RENDER = { width: 2048, height: 1024 };
const DEPTH = { width: 512, height: 256 };
const TILE = { width: 512, height: 256 };
const CROP = 160;
const LABEL = 24;
const PROMPTS = ["alpine lake at sunset", "desert canyon at noon", "city at night"];
const WORDS = (process.env.GALLERY_STYLES ?? "").toLowerCase().split(",").filter(Boolean);
const SHOWN = STYLES.filter((s) => WORDS.length === 0 || WORDS.some((w) => `${s.name} ${s.look}`.toLowerCase().includes(w)));

const escape = (s: string) => s.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

function label(text: string, width: number): OverlayOptions["input"] {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${LABEL}"><rect width="100%" height="100%" fill="#111"/><text x="6" y="17" font-family="sans-serif" font-size="13" fill="#eee">${escape(text)}</text></svg>`,
  );
}

interface Crop {
  name: string;
  /** Left column (may be negative: the crop wraps round the panorama). */
  left: number;
  top: number;
}

/** Where the three crops of a render lie, from its distances and its picture. */
function cropsOf(dir: string, rgb: Buffer): Crop[] {
  const b = readFileSync(join(dir, STORED_FILES.distance));
  const distance = new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  // Ridge: the column whose first solid pixel from the top is highest.
  let bestX = 0;
  let bestY = DEPTH.height;
  for (let x = 0; x < DEPTH.width; x++) {
    for (let y = 0; y < DEPTH.height; y++) {
      if (distance[y * DEPTH.width + x]! < SKY_DISTANCE * 0.5) {
        if (y < bestY) [bestX, bestY] = [x, y];
        break;
      }
    }
  }
  const sx = RENDER.width / DEPTH.width;
  const ridge = { name: "ridge", left: Math.round(bestX * sx - CROP / 2), top: Math.max(0, Math.round(bestY * sx - CROP / 2)) };
  // Water glints or lights: the brightest pixel in the band just below the horizon.
  let brightest = -1;
  let gx = 0;
  let gy = 0;
  for (let y = RENDER.height / 2 + 2; y < RENDER.height * 0.62; y++) {
    for (let x = 0; x < RENDER.width; x += 2) {
      const o = (y * RENDER.width + x) * 3;
      const l = rgb[o]! * 0.3 + rgb[o + 1]! * 0.59 + rgb[o + 2]! * 0.11;
      if (l > brightest) [brightest, gx, gy] = [l, x, y];
    }
  }
  const water = { name: "water / lights", left: gx - CROP / 2, top: Math.max(RENDER.height / 2, gy - CROP / 2) };
  const ground = { name: "near ground at the wrap", left: -CROP / 2, top: Math.round(RENDER.height * 0.85) };
  return [ridge, water, ground];
}

/** The CROP x CROP pixels at (left, top) of a raw RGB picture, wrapping columns. */
function cut(rgb: Buffer, crop: Crop): Buffer {
  const out = Buffer.alloc(CROP * CROP * 3);
  for (let y = 0; y < CROP; y++) {
    const sy = Math.min(RENDER.height - 1, crop.top + y);
    for (let x = 0; x < CROP; x++) {
      const sx = (((crop.left + x) % RENDER.width) + RENDER.width) % RENDER.width;
      rgb.copy(out, (y * CROP + x) * 3, (sy * RENDER.width + sx) * 3, (sy * RENDER.width + sx) * 3 + 3);
    }
  }
  return out;
}

async function main() {
  const outDir = resolve(process.argv.slice(2).find((a) => a !== "--") ?? "test-results");
  mkdirSync(outDir, { recursive: true });
  const pool = createImageryPool();
  const work = mkdtempSync(join(tmpdir(), "skybox-gallery-"));
  const tiles: OverlayOptions[] = [];
  const crops: OverlayOptions[] = [];
  const cropRow = PROMPTS.length * 3 * CROP;
  try {
    for (const [row, style] of SHOWN.entries()) {
      const variant = variantsOf(style)[0];
      for (const [column, prompt] of PROMPTS.entries()) {
        const dir = join(work, `${style.id}-${column}`);
        mkdirSync(dir);
        const t0 = performance.now();
        await pool.generate(
          {
            prompt,
            negativeText: null,
            enhancePrompt: false,
            seed: 7,
            look: style.look,
            model: style.model,
            variant: variant ? "standard" : null,
            softLines: false,
            size: RENDER,
            thumbSize: { width: 360, height: 180 },
            depthSize: DEPTH,
          },
          dir,
        );
        console.log(`${(performance.now() - t0).toFixed(0).padStart(6)} ms  ${style.name}: ${prompt}`);
        const top = row * (TILE.height + LABEL);
        const image = join(dir, STORED_FILES.image);
        tiles.push({ input: await sharp(image).resize(TILE.width, TILE.height).toBuffer(), left: column * TILE.width, top: top + LABEL });
        tiles.push({ input: label(`${style.name} (${style.look}) · “${prompt}”`, TILE.width), left: column * TILE.width, top });
        const rgb = await sharp(image).raw().toBuffer();
        const cropTop = row * (CROP + LABEL);
        crops.push({
          input: label(`${style.name} · “${prompt}”: ridge, water/lights, ground at the wrap`, 3 * CROP),
          left: column * 3 * CROP,
          top: cropTop,
        });
        for (const [k, crop] of cropsOf(dir, rgb).entries()) {
          crops.push({
            input: cut(rgb, crop),
            raw: { width: CROP, height: CROP, channels: 3 },
            left: (column * 3 + k) * CROP,
            top: cropTop + LABEL,
          });
        }
        rmSync(dir, { recursive: true, force: true });
      }
    }
    const sheet = join(outDir, "gallery.png");
    const cropSheet = join(outDir, "gallery-crops.png");
    const background = { r: 17, g: 17, b: 17 };
    await sharp({ create: { width: PROMPTS.length * TILE.width, height: SHOWN.length * (TILE.height + LABEL), channels: 3, background } })
      .composite(tiles)
      .png()
      .toFile(sheet);
    await sharp({ create: { width: cropRow, height: SHOWN.length * (CROP + LABEL), channels: 3, background } })
      .composite(crops)
      .png()
      .toFile(cropSheet);
    console.log(`contact sheets: ${sheet}, ${cropSheet}`);
  } finally {
    await pool.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
