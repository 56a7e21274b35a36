/**
 * Fixture of the scene's browser tests: the built test pages behind the proxy and a local
 * Skybox service, one Chromium page running test/browser/pages/scene.html, generations made
 * through the proxy, and the panorama decoded in Node to know what pixels to expect.
 */
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import sharp from "sharp";
import { createSkyboxClient, type Generation, type SkyboxClient } from "../../src/api/index.ts";
import { decodeRgbe } from "../../src/local/imagery/formats/rgbe.ts";
import { launchBrowser, servePages, WEBGPU_ARGS, type ServedPages, type ServePagesOptions } from "../browser/harness.ts";
import type { EngineKind } from "../browser/pages/scene-page.ts";

/** How the scene page sets its scene up. */
export interface SceneSetup {
  rightHanded?: boolean;
  /** @default "webgl" */
  engine?: EngineKind;
}

export interface SceneFixture {
  pages: ServedPages;
  browser: Browser;
  page: Page;
  client: SkyboxClient;
  /** Asset requests (`/skybox/assets/...`) the page made since the last `assetRequests.length = 0`. */
  assetRequests: string[];
  /** Errors the page logged or threw. */
  pageErrors: string[];
  /** Console messages of any level (warnings included: WebGPU's validation errors are logged as warnings). */
  consoleMessages: string[];
  /** Requests the page tried to send anywhere but 127.0.0.1 (each was refused). */
  externalRequests: string[];
  close(): Promise<void>;
}

export async function openSceneFixture(
  setup: SceneSetup = {},
  serving: Pick<ServePagesOptions, "proxy" | "local"> = {},
): Promise<SceneFixture> {
  const pages = await servePages({ root: join(import.meta.dirname, "../browser/pages"), ...serving });
  const browser = await launchBrowser(setup.engine === "webgpu" ? { args: WEBGPU_ARGS } : {});
  const page = await browser.newPage();
  const assetRequests: string[] = [];
  const pageErrors: string[] = [];
  const consoleMessages: string[] = [];
  const externalRequests: string[] = [];
  // Nothing leaves the machine (a CDN fetch for a shader compiler would): refused and listed.
  await page.route(
    (url) => url.protocol.startsWith("http") && url.hostname !== "127.0.0.1",
    (route) => {
      externalRequests.push(route.request().url());
      return route.abort("blockedbyclient");
    },
  );
  page.on("request", (r) => {
    if (new URL(r.url()).pathname.startsWith("/skybox/assets")) assetRequests.push(r.url());
  });
  page.on("pageerror", (e) => pageErrors.push(e.message));
  page.on("console", (m) => {
    consoleMessages.push(`${m.type()}: ${m.text()}`);
    if (m.type() === "error") pageErrors.push(m.text());
  });
  await openPage(page, pages.url, setup);
  const client = createSkyboxClient({ baseUrl: `${pages.url}/skybox` });
  return {
    pages,
    browser,
    page,
    client,
    assetRequests,
    pageErrors,
    consoleMessages,
    externalRequests,
    async close() {
      await browser.close();
      await pages.close();
    },
  };
}

/** Loads the scene page and sets its scene up. */
export async function openPage(page: Page, url: string, setup: SceneSetup = {}): Promise<void> {
  await page.goto(`${url}/scene.html`);
  await page.waitForFunction(() => window.skyboxTestReady === true);
  await page.evaluate((s) => window.skyboxTest.setup(s), setup);
}

/** Starts a generation (Model 3 "Realistic" style unless `model` is 4) and returns it pending. */
export async function generate(client: SkyboxClient, prompt: string, model: 3 | 4 = 3, seed?: number): Promise<Generation> {
  const styles = await client.styles();
  const style = styles.find((s) => (model === 4 ? s.model_version === "4" : s.model_version !== "4"))!;
  const variant = model === 4 ? { variant_id: style.variants![0]!.id } : {};
  return client.generate({ prompt, skybox_style_id: style.id, ...variant, ...(seed ? { seed } : {}) });
}

/** Waits for a generation by polling the proxy. */
export async function complete(client: SkyboxClient, id: number): Promise<Generation> {
  for (let i = 0; i < 300; i++) {
    const record = await client.getGeneration(id);
    if (record.status === "complete") return record;
    if (record.status === "error" || record.status === "abort") throw new Error(`generation ${id} ended ${record.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`generation ${id} did not complete`);
}

/** The panorama of a complete generation, decoded, with samplers in panorama coordinates. */
export async function panoramaOf(baseUrl: string, record: Generation) {
  const bytes = Buffer.from(await (await fetch(new URL(record.file_url, baseUrl))).arrayBuffer());
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  const pixel = (x: number, y: number): number[] => {
    const xi = ((x % width) + width) % width;
    const yi = Math.min(height - 1, Math.max(0, y));
    const o = (yi * width + xi) * channels;
    return [data[o]!, data[o + 1]!, data[o + 2]!];
  };
  /** Bilinear sRGB colour at panorama (u, v), as a GPU samples it. */
  const at = (u: number, v: number): number[] => {
    const fx = u * width - 0.5;
    const fy = v * height - 0.5;
    const x = Math.floor(fx);
    const y = Math.floor(fy);
    const tx = fx - x;
    const ty = fy - y;
    const [a, b, c, d] = [pixel(x, y), pixel(x + 1, y), pixel(x, y + 1), pixel(x + 1, y + 1)];
    return [0, 1, 2].map((k) => (a[k]! * (1 - tx) + b[k]! * tx) * (1 - ty) + (c[k]! * (1 - tx) + d[k]! * tx) * ty);
  };
  const uv = (yawDeg: number, pitchDeg: number) => [0.5 + yawDeg / 360, 0.5 - pitchDeg / 180] as const;
  return {
    width,
    height,
    at,
    /** sRGB colour seen looking at yaw/pitch (degrees; yaw 0 = centre of the panorama). */
    seen: (yawDeg: number, pitchDeg: number) => at(...uv(yawDeg, pitchDeg)),
    /**
     * Distance of `rgb` to the panorama at yaw/pitch, allowing `slack` panorama pixels of
     * misregistration (a 3-pixel screen sample straddling an edge, or a mesh's facets).
     */
    distance(rgb: readonly number[], yawDeg: number, pitchDeg: number, slack = 1): number {
      const [u, v] = uv(yawDeg, pitchDeg);
      let best = Infinity;
      for (let dy = -slack; dy <= slack; dy++)
        for (let dx = -slack; dx <= slack; dx++) best = Math.min(best, colourDistance(rgb, at(u + dx / width, v + dy / height)));
      return best;
    },
  };
}

/** Mean absolute difference per channel. */
export function colourDistance(a: readonly number[], b: readonly number[]): number {
  return (Math.abs(a[0]! - b[0]!) + Math.abs(a[1]! - b[1]!) + Math.abs(a[2]! - b[2]!)) / 3;
}

/** Pearson correlation of two series. */
export function correlation(a: readonly number[], b: readonly number[]): number {
  const mean = (x: readonly number[]) => x.reduce((s, v) => s + v, 0) / x.length;
  const ma = mean(a);
  const mb = mean(b);
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += (a[i]! - ma) * (b[i]! - mb);
    aa += (a[i]! - ma) ** 2;
    bb += (b[i]! - mb) ** 2;
  }
  return ab / Math.sqrt(aa * bb);
}

/** Directions sampled around the viewer (yaw, pitch in degrees). */
export const DIRECTIONS: readonly [number, number][] = [0, 60, 120, 180, 240, 300].flatMap(
  (yaw) =>
    [
      [yaw, -15],
      [yaw, 15],
    ] as [number, number][],
);

/** A linear HDR panorama with the light a sphere at the centre would see. */
export interface HdrPanorama {
  width: number;
  height: number;
  rgb: Float32Array;
}

/** The hdri-hdr export (1K, realism: what `applySkybox` lights with by default), decoded. */
export async function hdrOf(baseUrl: string, client: SkyboxClient, record: Generation): Promise<HdrPanorama> {
  let e = await client.requestExport({ skybox_id: record.obfuscated_id, type_id: 4, resolution_id: 1, hdri_mode_id: 2 }, { model: 3 });
  for (let i = 0; e.status !== "complete" && i < 300; i++) {
    await new Promise((r) => setTimeout(r, 100));
    e = await client.getExport(e.id);
  }
  const bytes = new Uint8Array(await (await fetch(new URL(e.file_url, baseUrl))).arrayBuffer());
  return decodeRgbe(bytes);
}

/** Babylon (left-handed) direction of panorama (u, v): u = 0.5 at +Z, 0.75 at +X. */
function directionOf(u: number, v: number): [number, number, number] {
  const phi = (u - 0.5) * 2 * Math.PI;
  const theta = v * Math.PI;
  return [Math.sin(theta) * Math.sin(phi), Math.cos(theta), Math.sin(theta) * Math.cos(phi)];
}

/**
 * Sum of radiance weighted by `weight(cosine to axis)` and solid angle, divided by the sum
 * of weights (or by pi for irradiance), as sRGB 0..255 the way Babylon writes it.
 */
function integrate(
  hdr: HdrPanorama,
  axis: [number, number, number],
  weight: (c: number) => number,
  normalise: "weights" | "irradiance",
): number[] {
  const sum = [0, 0, 0];
  let total = 0;
  for (let y = 0; y < hdr.height; y++) {
    const v = (y + 0.5) / hdr.height;
    const solid = Math.sin(v * Math.PI);
    for (let x = 0; x < hdr.width; x++) {
      const d = directionOf((x + 0.5) / hdr.width, v);
      const w = weight(d[0] * axis[0] + d[1] * axis[1] + d[2] * axis[2]) * solid;
      if (w <= 0) continue;
      const o = (y * hdr.width + x) * 3;
      for (let c = 0; c < 3; c++) sum[c]! += hdr.rgb[o + c]! * w;
      total += w;
    }
  }
  // Irradiance: integral of L cos / pi; the solid-angle element is (2pi/W)(pi/H) sin.
  const scale = normalise === "weights" ? 1 / total : (2 * Math.PI * Math.PI) / (hdr.width * hdr.height) / Math.PI;
  return sum.map((s) => Math.round(255 * Math.min(1, Math.max(0, s * scale)) ** (1 / 2.2)));
}

/** The 9 real spherical harmonics of order 2 at unit direction (x, y, z). */
function harmonics9(x: number, y: number, z: number): number[] {
  return [
    0.282095,
    0.488603 * y,
    0.488603 * z,
    0.488603 * x,
    1.092548 * x * y,
    1.092548 * y * z,
    0.315392 * (3 * z * z - 1),
    1.092548 * x * z,
    0.546274 * (x * x - y * y),
  ];
}

/**
 * What a white, fully rough sphere shows where its normal points at yaw (degrees, pitch 0):
 * the irradiance over pi as Babylon computes it, from the radiance's order-2 harmonics (each
 * texel clamped at its MAX_HDRI_VALUE, 4096) convolved with the clamped cosine (Ramamoorthi
 * and Hanrahan 2001). An HDRI whose sun carries its real energy is dominated by it, and the
 * order-2 lobe is not the exact cosine: the exact integral would differ by that much.
 */
export function expectedDiffuse(hdr: HdrPanorama, yawDeg: number): number[] {
  const yaw = (yawDeg * Math.PI) / 180;
  const coefficients = Array.from({ length: 9 }, () => [0, 0, 0]);
  for (let y = 0; y < hdr.height; y++) {
    const v = (y + 0.5) / hdr.height;
    const solid = ((2 * Math.PI) / hdr.width) * (Math.PI / hdr.height) * Math.sin(v * Math.PI);
    for (let x = 0; x < hdr.width; x++) {
      const basis = harmonics9(...directionOf((x + 0.5) / hdr.width, v));
      const o = (y * hdr.width + x) * 3;
      for (let k = 0; k < 9; k++) for (let c = 0; c < 3; c++) coefficients[k]![c]! += Math.min(hdr.rgb[o + c]!, 4096) * basis[k]! * solid;
    }
  }
  const band = [
    Math.PI,
    (2 * Math.PI) / 3,
    (2 * Math.PI) / 3,
    (2 * Math.PI) / 3,
    Math.PI / 4,
    Math.PI / 4,
    Math.PI / 4,
    Math.PI / 4,
    Math.PI / 4,
  ];
  const at = harmonics9(Math.sin(yaw), 0, Math.cos(yaw));
  return [0, 1, 2].map((c) => {
    const irradiance = coefficients.reduce((sum, lm, k) => sum + band[k]! * lm[c]! * at[k]!, 0);
    return Math.round(255 * Math.min(1, Math.max(0, irradiance / Math.PI)) ** (1 / 2.2));
  });
}

/** What a near-mirror reflects looking at yaw (degrees): radiance averaged over a narrow cone. */
export function expectedMirror(hdr: HdrPanorama, yawDeg: number, coneDeg = 12): number[] {
  const yaw = (yawDeg * Math.PI) / 180;
  const cos = Math.cos((coneDeg * Math.PI) / 180);
  return integrate(hdr, [Math.sin(yaw), 0, Math.cos(yaw)], (c) => (c >= cos ? 1 : 0), "weights");
}
