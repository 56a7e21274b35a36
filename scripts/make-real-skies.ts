/**
 * Makes the real-picture corpus of the sun detection (test/fixtures/real-skies/*.hdr) from
 * the CC0 Poly Haven HDRIs that @pmndrs/assets ships (512 x 256, OpenEXR with lossy DWAB
 * compression, base64 in JavaScript modules). The files are committed; this script says how
 * they were made. It needs two packages the project does not depend on:
 *   npm install --no-save three@0.187.0 @pmndrs/assets@1.7.0
 *   npx tsx scripts/make-real-skies.ts
 * three's EXRLoader decodes DWAB (Babylon's EXR reader does not). The pixels are written as
 * Radiance RGBE, top row first, as delivered: the DWAB ringing around the sun included,
 * its negative lobes at 0 (RGBE holds no negative values).
 */
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { encodeRgbe } from "../src/local/imagery/formats/rgbe.ts";

const require = createRequire(import.meta.url);
/** The part of three's EXRLoader this script uses (three is installed only to remake the corpus). */
interface ExrLoader {
  setDataType(type: number): void;
  parse(buffer: ArrayBuffer): { width: number; height: number; data: Float32Array };
}
// Names in variables: the type checker does not look for packages the project does not install.
const [threeModule, exrModule] = ["three", "three/examples/jsm/loaders/EXRLoader.js"];
const { EXRLoader } = (await import(exrModule)) as { EXRLoader: new () => ExrLoader };
const { FloatType } = (await import(threeModule)) as { FloatType: number };
const hdri = join(dirname(require.resolve("@pmndrs/assets/package.json")), "hdri");
const out = join(import.meta.dirname, "../test/fixtures/real-skies");

const loader = new EXRLoader();
loader.setDataType(FloatType);
for (const file of readdirSync(hdri).filter((f) => f.endsWith(".exr.js"))) {
  const base64 = /base64,([A-Za-z0-9+/=]+)/.exec(readFileSync(join(hdri, file), "utf8"))![1]!;
  const bytes = Buffer.from(base64, "base64");
  const { width, height, data } = loader.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  // three's loader gives RGBA rows bottom first; a panorama file holds RGB rows top first.
  const rgb = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const from = ((height - 1 - y) * width + x) * 4;
      const to = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) rgb[to + c] = Math.max(0, data[from + c]!);
    }
  }
  writeFileSync(join(out, file.replace(".exr.js", ".hdr")), encodeRgbe(width, height, rgb));
  console.log(file, width, height);
}
