/**
 * Decompression bombs and oversized input images against `babylon-skybox local` run as a
 * child process, directly and through the proxy: refused from the header with a sentence
 * naming the field and the limit, and the service's resident memory (VmHWM, the peak, of the
 * child in /proc) grows by at most 64 MB while it answers and for a while after.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { INPUT_IMAGE_LIMITS } from "../../src/local/imagery/contract.ts";
import { decodeImage } from "../../src/local/imagery/inputs/guide-images.ts";
import { startSkyboxProxyServer, type SkyboxProxyServer } from "../../src/proxy/index.ts";
import { startLocalProcess, waitFor, type LocalProcess } from "../helpers/local-service.ts";
import { pngBomb } from "./records/png-bomb.ts";

const MB = 1024 * 1024;
const MAX_GROWTH_MB = 64;
const MODEL4_STYLE = 101;
const SENTENCE = "image_to_pano_init_image: must be at most 8192×8192 pixels (is 16000×16000)";

const bomb = pngBomb(16_000, 16_000);

/** Resident memory of a process, in bytes: now (VmRSS) and the peak since the last reset (VmHWM). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)![1]) * 1024;
  return { rss: kb("VmRSS"), peak: kb("VmHWM") };
}

/**
 * How much the peak resident memory of `pid` rose above its level before `act`, in MB,
 * watching for `settleMs` after it (a decode after the answer would show there). The peak
 * is reset first (clear_refs 5); where that is not allowed, RSS is sampled instead.
 */
async function peakGrowthMb(pid: number, act: () => Promise<void>, settleMs = 1_500): Promise<number> {
  let resettable = true;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
  } catch {
    resettable = false;
  }
  const before = memoryOf(pid).rss;
  let sampled = before;
  const sampler = setInterval(() => (sampled = Math.max(sampled, memoryOf(pid).rss)), 5);
  try {
    await act();
    await new Promise((r) => setTimeout(r, settleMs));
  } finally {
    clearInterval(sampler);
  }
  const peak = resettable ? Math.max(memoryOf(pid).peak, sampled) : sampled;
  return (peak - before) / MB;
}

let svc: LocalProcess;
let proxy: SkyboxProxyServer;
const growth: Record<string, number> = {};

beforeAll(async () => {
  svc = await startLocalProcess();
  proxy = await startSkyboxProxyServer({ port: 0, apiKey: svc.info.apiKey, upstream: svc.info.url, log: () => {} });
  // Warm: the first request of each kind loads code the bomb should not be blamed for.
  const small = await postJson(svc.info.url, {
    prompt: "warm-up",
    skybox_style_id: MODEL4_STYLE,
    image_to_pano_init_image: Buffer.from(pngBomb(64, 32)).toString("base64"),
  });
  await waitFor(async () => ["complete", "error"].includes(await statusOf(small.json.id!)), 30_000, 100);
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await svc?.stop();
  if (Object.keys(growth).length) console.log(`peak memory growth of the local service (MB): ${JSON.stringify(growth)}`);
});

async function postJson(base: string, body: object, headers: Record<string, string> = { "x-api-key": svc.info.apiKey }) {
  const r = await fetch(`${base}/api/v1/skybox`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return {
    status: r.status,
    json: (await r.json()) as { error?: string; issues?: { path: string[]; rule: string }[]; id?: number; status?: string },
  };
}

const pid = () => svc.child.pid!;

async function statusOf(id: number): Promise<string> {
  const r = await fetch(`${svc.info.url}/api/v1/imagine/requests/${id}`, { headers: { "x-api-key": svc.info.apiKey } });
  return ((await r.json()) as { request: { status: string } }).request.status;
}

describe("a 16000×16000 one-bit PNG (31 KB)", () => {
  test("is 31 KB and declares 16000×16000", () => {
    expect(bomb.byteLength).toBeLessThan(40 * 1024);
    expect(new DataView(bomb.buffer).getUint32(16)).toBe(16_000);
  });

  test("as image_to_pano_init_image in JSON: refused with the sentence; memory grows by at most 64 MB", async () => {
    let answer: Awaited<ReturnType<typeof postJson>> | undefined;
    growth.json = await peakGrowthMb(pid(), async () => {
      answer = await postJson(svc.info.url, {
        prompt: "bomb",
        skybox_style_id: MODEL4_STYLE,
        image_to_pano_init_image: Buffer.from(bomb).toString("base64"),
      });
    });
    expect(answer).toMatchObject({
      status: 422,
      json: { error: SENTENCE, issues: [{ path: ["image_to_pano_init_image"], rule: "image-pixels" }] },
    });
    expect(growth.json).toBeLessThanOrEqual(MAX_GROWTH_MB);
  });

  test("as a multipart file through the proxy: the same sentence, the same bound", async () => {
    let status = 0;
    let error = "";
    growth.proxy = await peakGrowthMb(pid(), async () => {
      const form = new FormData();
      form.append("prompt", "bomb");
      form.append("skybox_style_id", String(MODEL4_STYLE));
      form.append("image_to_pano_init_image", new Blob([bomb], { type: "image/png" }), "bomb.png");
      const r = await fetch(`${proxy.url}/skybox/api/v1/skybox`, { method: "POST", body: form });
      status = r.status;
      error = ((await r.json()) as { error: string }).error;
    });
    expect({ status, error }).toEqual({ status: 422, error: SENTENCE });
    expect(growth.proxy).toBeLessThanOrEqual(MAX_GROWTH_MB);
  });

  test("by hash, stored before these limits: refused naming the _hash field, and as init_image and control_image", async () => {
    const hash = createHash("sha256").update(bomb).digest("hex");
    writeFileSync(join(svc.dataDir, "uploads", hash), bomb);
    growth.hash = await peakGrowthMb(pid(), async () => {
      const byHash = await postJson(svc.info.url, { prompt: "bomb", skybox_style_id: MODEL4_STYLE, image_to_pano_init_image_hash: hash });
      expect(byHash).toMatchObject({
        status: 422,
        json: { error: "image_to_pano_init_image_hash: must be at most 8192×8192 pixels (is 16000×16000)" },
      });
    });
    const init = await postJson(svc.info.url, { prompt: "bomb", skybox_style_id: 2, init_image: Buffer.from(bomb).toString("base64") });
    expect(init.json.error).toBe("init_image: must be at most 8192×8192 pixels (is 16000×16000)");
    const control = await postJson(svc.info.url, {
      prompt: "bomb",
      skybox_style_id: 2,
      control_model: "remix",
      control_image: Buffer.from(bomb).toString("base64"),
    });
    expect(control.json.error).toBe("control_image: must be at most 8192×8192 pixels (is 16000×16000)");
    expect(growth.hash).toBeLessThanOrEqual(MAX_GROWTH_MB);
  });

  test("the decoder refuses it too, past the header check (limitInputPixels), without decoding it", async () => {
    const before = process.memoryUsage().rss;
    await expect(decodeImage(bomb, { width: 64, height: 32 })).rejects.toThrow(/pixel limit/i);
    expect((process.memoryUsage().rss - before) / MB).toBeLessThan(MAX_GROWTH_MB);
  });
});

describe("images at the limits", () => {
  test(`an image over ${INPUT_IMAGE_LIMITS.maxBytes / MB} MB is refused by its size`, async () => {
    const big = new Uint8Array(INPUT_IMAGE_LIMITS.maxBytes + 1);
    big.set(pngBomb(16, 16).subarray(0, 33));
    const form = new FormData();
    form.append("prompt", "big");
    form.append("skybox_style_id", "2");
    form.append("init_image", new Blob([big], { type: "image/png" }), "big.png");
    const r = await fetch(`${svc.info.url}/api/v1/skybox`, { method: "POST", headers: { "x-api-key": svc.info.apiKey }, body: form });
    expect(r.status).toBe(422);
    expect(((await r.json()) as { error: string }).error).toBe(
      `init_image: must be at most 20 MB (is ${INPUT_IMAGE_LIMITS.maxBytes + 1} bytes)`,
    );
  });

  test("an 8192×8192 PNG is accepted, and image-to-pano decodes it shrunk: memory grows by at most 64 MB through the whole generation", async () => {
    const atLimit = pngBomb(8192, 8192);
    let id = 0;
    growth.acceptedAtLimit = await peakGrowthMb(
      pid(),
      async () => {
        const created = await postJson(svc.info.url, {
          prompt: "at the limit",
          skybox_style_id: MODEL4_STYLE,
          image_to_pano_init_image: Buffer.from(atLimit).toString("base64"),
        });
        expect(created.status).toBe(200);
        id = created.json.id!;
        const ended = await waitFor(
          async () => {
            const status = await statusOf(id);
            return ["complete", "error"].includes(status) && status;
          },
          30_000,
          100,
        );
        expect(ended).toBe("complete");
      },
      200,
    );
    expect(growth.acceptedAtLimit).toBeLessThanOrEqual(MAX_GROWTH_MB);
  }, 60_000);
});
