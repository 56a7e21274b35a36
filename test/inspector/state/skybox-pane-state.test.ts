/**
 * The pane's state without React or a scene, against the local Skybox service over real
 * HTTP: styles, generating and following, history (search, filters, pages, delete), export,
 * remix and seed reuse, cancel, and what a plan refusal does.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSkyboxClient, type Generation } from "../../../src/api/index.ts";
import { SkyboxPaneState } from "../../../src/inspector/state/skybox-pane-state.ts";
import type { LocalServiceOptions, LocalSkyboxService } from "../../../src/local/index.ts";
import { createStatusTracker } from "../../../src/status/index.ts";

const services: { service: LocalSkyboxService; dir: string }[] = [];

async function paneOn(options: LocalServiceOptions = {}, plan: SkyboxPaneState["plan"] = null): Promise<SkyboxPaneState> {
  const { startLocalSkyboxService } = await import("../../../src/local/index.ts");
  const dir = mkdtempSync(join(tmpdir(), "skybox-pane-"));
  const service = await startLocalSkyboxService({ port: 0, speed: 50, imageScale: 1 / 16, dataDir: dir, log: () => {}, ...options });
  services.push({ service, dir });
  const client = createSkyboxClient({ baseUrl: service.url, apiKey: service.apiKey });
  const tracker = createStatusTracker({ client, pollIntervalMs: 50, maxPollIntervalMs: 200 });
  return new SkyboxPaneState({ client, tracker, plan, pageSize: 2 });
}

/** Resolves with the next value of `read` that passes `ok` (polling; the state changes asynchronously). */
async function until<T>(read: () => T, ok: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out; last value ${JSON.stringify(v)?.slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

afterAll(async () => {
  for (const { service, dir } of services) {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

describe("SkyboxPaneState against the local service", () => {
  let pane: SkyboxPaneState;
  const made: Generation[] = [];
  beforeAll(async () => {
    pane = await paneOn();
    pane.start();
    await until(
      () => pane.styles.value,
      (v) => v.families[4].length > 0 && !v.loading,
    );
  });
  afterAll(() => pane.dispose());

  test("loads both menus and picks the first style", () => {
    expect(pane.styles.value.families[3].map((f) => f.name)).toEqual(["Realism", "Painting", "Illustration", "Stylized"]);
    expect(pane.styles.all.find((s) => s.id === 101)?.variants?.map((v) => v.name)).toEqual(["Standard", "Enhanced"]);
    expect(pane.form.value.styleId).toBe(2);
    expect(pane.problems).toEqual(["Write a prompt."]);
  });

  test("generates, follows every status to complete, enhances the prompt, and the history shows it", async () => {
    for (const prompt of ["alpine lake", "desert dunes", "alpine meadow"]) {
      pane.form.set({ prompt, enhancePrompt: prompt === "desert dunes" });
      const record = await pane.generate();
      expect(record?.status).toBe("pending");
      const job = await until(
        () => pane.jobs.get(`generation:${record!.id}`)!,
        (j) => j.status === "complete",
      );
      expect(job.steps[0]!.status).toBe("pending");
      expect(job.endedAt).not.toBeNull();
      made.push(job.record!);
    }
    expect(made[1]!.enhanced_prompt).toMatch(/desert dunes/);
    const h = await until(
      () => pane.history.value,
      (v) => v.totalCount === 3 && !v.loading,
    );
    // Pages of 2, newest first; offset counts items.
    expect(h.items.map((i) => i.id)).toEqual([made[2]!.id, made[1]!.id]);
    expect(h.hasMore).toBe(true);
    await pane.history.next();
    expect(pane.history.value.items.map((i) => i.id)).toEqual([made[0]!.id]);
    expect(pane.history.value.offset).toBe(2);
    await pane.history.setFilters({ query: "alpine" });
    expect(pane.history.value).toMatchObject({ offset: 0, totalCount: 2 });
    await pane.history.setFilters({ query: "", status: "error" });
    expect(pane.history.value.totalCount).toBe(0);
    await pane.history.setFilters({ status: null, styleId: 5 });
    expect(pane.history.value.totalCount).toBe(0);
    await pane.history.setFilters({ styleId: null });
  });

  test("remix and seed reuse fill the form", () => {
    pane.form.set({ prompt: "" });
    pane.reuseSeed(made[0]!);
    expect(pane.form.value).toMatchObject({ seed: made[0]!.seed, prompt: "alpine lake" });
    pane.remix(made[1]!);
    expect(pane.form.value.remix).toEqual({ id: made[1]!.id, title: made[1]!.title });
    expect(pane.problems).toEqual([]);
  });

  test("exports a history item with the options its type allows and follows it to its file", async () => {
    pane.exportFrom(made[0]!);
    expect(pane.layout.value.open).toContain("export");
    await pane.exports.loadTypes();
    pane.exports.choose({ typeKey: "3d-mesh-glb", depthScale: 5 });
    expect(pane.exports.value).toMatchObject({ resolution: null, meshQuality: "medium", depthScale: 5 });
    const record = await pane.exports.request();
    expect(record).not.toBeNull();
    const job = await until(
      () => pane.exports.value.jobs[0]!,
      (j) => j.status === "complete",
    );
    expect(job.fileUrl).toMatch(/\.glb/);
    const glb = new Uint8Array(await (await fetch(job.fileUrl)).arrayBuffer());
    expect(new TextDecoder().decode(glb.subarray(0, 4))).toBe("glTF");
  });

  test("deletes a history item", async () => {
    await pane.history.remove(made[2]!.id);
    expect(pane.history.value.error).toBeNull();
    expect(pane.history.value.totalCount).toBe(2);
    expect(pane.history.value.items.some((i) => i.id === made[2]!.id)).toBe(false);
    expect(pane.history.value.busy).toEqual({});
  });

  test("uploads: an init image with its strength and a control image, and Image to Pano", async () => {
    const png = async (r: number) =>
      new File(
        [
          await sharp({ create: { width: 64, height: 32, channels: 3, background: { r, g: 60, b: 90 } } })
            .png()
            .toBuffer(),
        ],
        `${r}.png`,
        { type: "image/png" },
      );
    pane.form.set({
      remix: null,
      seed: null,
      prompt: "red canyon",
      initImage: await png(200),
      initStrength: 0.7,
      controlImage: await png(20),
    });
    const guided = await pane.generate();
    expect(guided).not.toBeNull();
    expect(
      (
        await until(
          () => pane.jobs.get(`generation:${guided!.id}`)!,
          (j) => j.endedAt !== null,
        )
      ).status,
    ).toBe("complete");

    pane.form.set({ mode: "image-to-pano", styleId: 101, initImage: null, controlImage: null, panoImage: await png(120) });
    expect(pane.cost).toBe(3);
    const pano = await pane.generate();
    const job = await until(
      () => pane.jobs.get(`generation:${pano!.id}`)!,
      (j) => j.endedAt !== null,
    );
    expect(job).toMatchObject({ status: "complete", mode: "image-to-pano" });
    pane.form.set({ mode: "generate", styleId: 2, panoImage: null });
  });

  test("a batch of 2 is followed to the end with its counters", async () => {
    pane.form.set({ remix: null, quantity: 2, seed: null });
    const id = await pane.generateBatch();
    expect(id).not.toBeNull();
    const job = await until(
      () => pane.jobs.get(`batch:${id}`)!,
      (j) => j.status === "finalized",
    );
    expect(job.batch).toMatchObject({ quantity: 2, completed: 2, errored: 0 });
    expect(new Set(job.batch!.generations.map((g) => g.seed)).size).toBe(2);
  });
});

describe("limits learnt from the service", () => {
  test("a Model 4 request refused by the plan greys out Model 4 with the service's reason", async () => {
    const pane = await paneOn({ plan: "essential" });
    pane.start();
    await until(
      () => pane.styles.value,
      (v) => v.families[4].length > 0,
    );
    pane.form.set({ styleId: 101, variantId: 1011, prompt: "lake" });
    expect(await pane.generate()).toBeNull();
    expect(pane.jobs.value.error).toMatchObject({ kind: "plan_forbidden", status: 403 });
    expect(pane.styles.value.model4Blocked).toBe("skybox_style_id: Model 4 styles need a Standard or Business plan");
    expect(pane.problems).toContain(pane.styles.value.model4Blocked);
    pane.dispose();
  });

  test("a batch over the plan's cap teaches the cap from the refusal's structured issue", async () => {
    const pane = await paneOn();
    pane.start();
    await until(
      () => pane.styles.value,
      (v) => v.families[4].length > 0,
    );
    // Model 4 Standard: 11 × 3 = 33 credits, over the business plan's 30 per batch.
    pane.form.set({ styleId: 101, variantId: 1011, prompt: "storm", quantity: 11 });
    expect(pane.shownBatchCap).toEqual({ cap: undefined, learned: false });
    expect(await pane.generateBatch()).toBeNull();
    expect(pane.jobs.value.batchError).toMatchObject({ kind: "plan_forbidden" });
    expect(pane.jobs.value).toMatchObject({ learnedBatchCap: 30, batchBlocked: null });
    expect(pane.shownBatchCap).toEqual({ cap: 30, learned: true });
    expect(pane.batchProblem).toBe("33 credits is over the plan's limit of 30 credits per batch: lower the quantity.");
    pane.form.set({ quantity: 10 });
    expect(pane.batchProblem).toBeNull();
    pane.dispose();
  });

  test("a plan given up front shows Model 4 and the batch cap before any request", () => {
    const free = new SkyboxPaneState({ baseUrl: "http://127.0.0.1:9", plan: "free" });
    expect(free.styles.value.model4Blocked).toMatch(/free/);
    expect(free.batchCap).toBeNull();
    expect(new SkyboxPaneState({ baseUrl: "http://127.0.0.1:9", plan: "business" }).batchCap).toBe(30);
    expect(new SkyboxPaneState({ baseUrl: "http://127.0.0.1:9" }).batchCap).toBeUndefined();
    free.dispose();
  });

  test("a generation still pending is cancelled from the Progress view, and the history lists it at once", async () => {
    const pane = await paneOn({ speed: 1 });
    pane.start();
    await until(
      () => pane.styles.value,
      (v) => v.families[3].length > 0,
    );
    pane.form.set({ prompt: "storm" });
    const record = await pane.generate();
    await pane.jobs.cancel(`generation:${record!.id}`);
    const job = await until(
      () => pane.jobs.get(`generation:${record!.id}`)!,
      (j) => j.endedAt !== null,
    );
    expect(job.status).toBe("abort");
    expect(job.error?.title).toBe("Generation cancelled");
    // The history lists it as soon as the cancel settles, with no reload.
    const h = await until(
      () => pane.history.value,
      (v) => v.items.some((i) => i.id === record!.id),
    );
    expect(h.items.find((i) => i.id === record!.id)?.status).toBe("abort");
    pane.dispose();
  });
});
