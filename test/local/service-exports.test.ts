import Pusher from "pusher-js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSkyboxClient, isSkyboxApiError, type Generation, type SkyboxClient } from "../../src/api/index.ts";
import { startLocalProcess, waitFor, type LocalProcess } from "../helpers/local-service.ts";

let svc: LocalProcess;
let client: SkyboxClient;
let m3: Generation;
let m4: Generation;

const settledExport = (id: string) =>
  waitFor(
    async () => {
      const e = await client.getExport(id);
      return ["complete", "error", "abort"].includes(e.status) && e;
    },
    60_000,
    100,
  );
const settledGeneration = (id: number) =>
  waitFor(
    async () => {
      const g = await client.getGeneration(id);
      return g.status === "complete" && g;
    },
    60_000,
    100,
  );

beforeAll(async () => {
  svc = await startLocalProcess({ speed: 100 });
  client = createSkyboxClient({ baseUrl: svc.info.url, apiKey: svc.info.apiKey, retry: 0 });
  const [a, b] = await Promise.all([
    client.generate({ prompt: "alpine lake at sunset", skybox_style_id: 2, seed: 3 }),
    client.generate({ prompt: "neon city at night", skybox_style_id: 104, variant_id: 1041, seed: 3 }),
  ]);
  [m3, m4] = await Promise.all([settledGeneration(a.id), settledGeneration(b.id)]);
});
afterAll(() => svc.stop());

describe("reference lists", () => {
  test("types, resolutions, mesh qualities and HDRI modes of the spec", async () => {
    expect((await client.exportTypes()).map((t) => t.key)).toContain("3d-mesh-glb");
    expect((await client.exportResolutions()).map((r) => r.name)).toEqual(["1K", "2K", "4K", "8K", "16K"]);
    expect((await client.meshQualities()).map((m) => m.key)).toEqual(["low", "medium", "high", "epic"]);
    expect((await client.hdriModes()).map((m) => m.key)).toEqual(["artistic", "realism", "studio", "interior", "space"]);
  });
});

describe("exports", () => {
  test("identical exports requested at once all complete, each with the whole file", async () => {
    const request = { skybox_id: m4.obfuscated_id, type_id: 5, resolution_id: 1, hdri_mode_id: 3 } as const;
    const started = await Promise.all([0, 1, 2, 3].map(() => client.requestExport(request)));
    const done = await Promise.all(started.map((e) => settledExport(e.id)));
    expect(done.map((e) => [e.status, e.error_message ?? null])).toEqual(done.map(() => ["complete", null]));
    // OpenEXR's magic number: each file is whole, not a half-written or missing one.
    for (const e of done)
      expect([...new Uint8Array((await (await fetch(e.file_url)).arrayBuffer()).slice(0, 4))]).toEqual([0x76, 0x2f, 0x31, 0x01]);
  });
  test("JPG and Depth Map complete at once, with their files", async () => {
    const jpg = await client.requestExport({ skybox_id: m3.obfuscated_id, type_id: 1 });
    expect(jpg).toMatchObject({ status: "complete", resolution: "8K", type: "equirectangular-jpg" });
    expect((await fetch(jpg.file_url)).headers.get("content-type")).toBe("image/jpeg");
    const depth = await client.requestExport({ skybox_id: m3.obfuscated_id, type_id: 6 });
    expect(depth).toMatchObject({ status: "complete", resolution: "2K" });
    expect((await fetch(depth.file_url)).headers.get("content-type")).toBe("image/png");
  });
  test("HDRI: pending → complete with events on its channel; defaults realism and 8K; identical export completes at once", async () => {
    const pusher = new Pusher(svc.info.pusher.key, {
      cluster: "mt1",
      wsHost: svc.info.pusher.wsHost,
      wsPort: svc.info.pusher.wsPort,
      forceTLS: false,
      enabledTransports: ["ws"],
    });
    try {
      const hdr = await client.requestExport({ skybox_id: m3.obfuscated_id, type_id: 4, resolution_id: 1 });
      expect(hdr).toMatchObject({
        status: "pending",
        hdri_mode: "realism",
        resolution: "1K",
        pusher_channel: `export_status_update_${hdr.id}`,
      });
      const statuses: string[] = [];
      pusher.subscribe(hdr.pusher_channel!).bind("status_update", (d: { status: string }) => statuses.push(d.status));
      const done = await settledExport(hdr.id);
      expect(done.status).toBe("complete");
      await waitFor(() => statuses.includes("complete"));
      const bytes = new Uint8Array(await (await fetch(done.file_url)).arrayBuffer());
      expect(new TextDecoder().decode(bytes.subarray(0, 10))).toBe("#?RADIANCE");
      const again = await client.requestExport({ skybox_id: m3.obfuscated_id, type_id: 4, resolution_id: 1, hdri_mode_id: 2 });
      expect(again).toMatchObject({ status: "complete", file_url: done.file_url });
      expect(again.id).not.toBe(hdr.id);
      expect((await client.getGeneration(m3.id)).exports?.["hdri-hdr"]).toBe(done.file_url);
    } finally {
      pusher.disconnect();
    }
  });
  test("GLB with mesh quality and depth scale; resolution ignored", async () => {
    const glb = await client.requestExport({
      skybox_id: m3.obfuscated_id,
      type_id: 11,
      mesh_quality_id: 1,
      depth_scale: 6,
      resolution_id: 7,
    });
    expect(glb).toMatchObject({ mesh_quality: "low", depth_scale: 6, resolution: null });
    const done = await settledExport(glb.id);
    const bytes = new Uint8Array(await (await fetch(done.file_url)).arrayBuffer());
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe("glTF");
  });
  test("Model 4: 4K default, no GLB / cube map / depth map, no 8K (422 naming the field)", async () => {
    const png = await client.requestExport({ skybox_id: m4.obfuscated_id, type_id: 2 }, { model: 4 });
    expect(png.resolution).toBe("4K");
    for (const type_id of [3, 6, 10, 11]) {
      const r = await fetch(`${svc.info.url}/api/v1/skybox/export`, {
        method: "POST",
        headers: { "x-api-key": svc.info.apiKey, "content-type": "application/json" },
        body: JSON.stringify({ skybox_id: m4.obfuscated_id, type_id }),
      });
      expect(r.status).toBe(422);
      expect((await r.json()).issues[0]).toMatchObject({ path: ["type_id"], rule: "model4-export-types" });
    }
    const r = await fetch(`${svc.info.url}/api/v1/skybox/export`, {
      method: "POST",
      headers: { "x-api-key": svc.info.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ skybox_id: m4.obfuscated_id, type_id: 2, resolution_id: 4 }),
    });
    expect((await r.json()).issues[0].rule).toBe("resolution-allowed");
  });
  test("unknown skybox 404; unfinished skybox 422", async () => {
    const e = await client.requestExport({ skybox_id: "0".repeat(32), type_id: 2 }).catch((x: unknown) => x);
    expect(isSkyboxApiError(e) && e.status).toBe(404);
    const g = await client.generate({ prompt: "unfinished", skybox_style_id: 2 });
    const u = await client.requestExport({ skybox_id: g.obfuscated_id, type_id: 2 }).catch((x: unknown) => x);
    expect(isSkyboxApiError(u) && u.issues[0]?.rule).toBe("skybox-complete");
    await client.cancelGeneration(g.id);
  });
  test("cancel a pending export; history with filters", async () => {
    const video = await client.requestExport({ skybox_id: m3.obfuscated_id, type_id: 7 });
    expect((await client.cancelExport(video.id)).success).toBe(true);
    expect((await client.getExport(video.id)).status).toBe("abort");
    expect((await client.cancelExport(video.id)).success).toBe(false);
    const hdr = await client.exportHistory({ type_id: 4 });
    expect(hdr.data.length).toBeGreaterThanOrEqual(2);
    expect(hdr.data.every((e) => e.type_id === 4 && e.skybox_id === m3.id)).toBe(true);
    expect((await client.exportHistory({ status: "abort" })).data.map((e) => e.id)).toContain(video.id);
    expect((await client.exportHistory({ mesh_quality_id: 1 })).totalCount).toBe(1);
    expect((await client.exportHistory({ export_id: video.id })).totalCount).toBe(1);
  });
});
