import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createSkyboxClient, type SkyboxClient } from "../../src/api/index.ts";
import { startRecordingServer, type Reply } from "../helpers/recording-server.ts";
import { batchRecord, completeRecord, creationResponse, exportRecord, model3Style, model4Style } from "../fixtures/api-shapes.ts";

const KEY = "sk-test-0123456789abcdef";
let server: Awaited<ReturnType<typeof startRecordingServer>>;
let client: SkyboxClient;
let reply: Reply;

beforeAll(async () => {
  server = await startRecordingServer(() => reply);
  client = createSkyboxClient({ baseUrl: server.url, apiKey: KEY, headers: { "x-app": "test" } });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

/** Asserts the one request the call made: method, path, query and the key header. */
function expectRequest(method: string, path: string, query: Record<string, string> = {}) {
  expect(server.requests).toHaveLength(1);
  const r = server.last();
  expect(r.method).toBe(method);
  expect(r.path).toBe(path);
  expect(Object.fromEntries(r.query)).toEqual(query);
  expect(r.headers["x-api-key"]).toBe(KEY);
  expect(r.headers["x-app"]).toBe("test");
  return r;
}

describe("styles", () => {
  test("styles() with model_version", async () => {
    reply = { body: [model3Style, model4Style] };
    const styles = await client.styles({ model_version: 3 });
    expectRequest("GET", "/api/v1/skybox/styles", { model_version: "3" });
    expect(styles.map((s) => s.id)).toEqual([2, 101]);
  });
  test("families()", async () => {
    reply = { body: [{ type: "family", id: 1, name: "Realism", items: [model3Style] }] };
    const families = await client.families({ model_version: 4 });
    expectRequest("GET", "/api/v1/skybox/families", { model_version: "4" });
    expect(families[0]?.items[0]?.name).toBe("Realistic");
  });
});

describe("generations", () => {
  test("generate() sends JSON with every parameter type", async () => {
    reply = { body: creationResponse };
    const params = {
      prompt: "a calm sea",
      skybox_style_id: 2,
      negative_text: "boats",
      seed: 42,
      enhance_prompt: true,
      webhook_url: "http://127.0.0.1:9/hook",
      init_image: "aGVsbG8=",
      init_strength: 0.4,
      remix_collection_id: 3,
      max_wait: true,
    };
    const g = await client.generate(params);
    const r = expectRequest("POST", "/api/v1/skybox");
    expect(r.headers["content-type"]).toContain("application/json");
    expect(r.json()).toEqual(params);
    expect(g).toMatchObject({ id: 46, status: "pending" });
  });
  test("generate() sends bytes and Blobs as multipart file parts", async () => {
    reply = { body: creationResponse };
    const png = new Uint8Array([137, 80, 78, 71, 1, 2, 3]);
    await client.generate({
      prompt: "p",
      skybox_style_id: 101,
      image_to_pano_init_image: png,
      control_image: new Blob([new Uint8Array([1, 2])], { type: "image/png" }),
      control_model: "remix",
    });
    const form = await expectRequest("POST", "/api/v1/skybox").form();
    expect(form.get("prompt")).toBe("p");
    expect(form.get("skybox_style_id")).toBe("101");
    expect(form.get("control_model")).toBe("remix");
    const file = form.get("image_to_pano_init_image") as File;
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(png);
    expect((await (form.get("control_image") as File).arrayBuffer()).byteLength).toBe(2);
  });
  test("generate() with encoding json sends bytes base64-encoded; multipart forces a form", async () => {
    reply = { body: creationResponse };
    await client.generate({ prompt: "p", skybox_style_id: 2, init_image: new Uint8Array([1, 2, 3]) }, { encoding: "json" });
    expect((server.last().json() as { init_image: string }).init_image).toBe("AQID");
    await client.generate({ prompt: "p", skybox_style_id: 2, seed: 7 }, { encoding: "multipart" });
    expect((await server.last().form()).get("seed")).toBe("7");
  });
  test("edit parameters travel as given", async () => {
    reply = { body: creationResponse };
    await client.generate({ prompt: "add a castle", skybox_style_id: 101, edit_skybox_id: 46, center_x: -30, center_y: 5, fov: 60 });
    expect(server.last().json()).toMatchObject({ edit_skybox_id: 46, center_x: -30, center_y: 5, fov: 60 });
  });
  test("getGeneration unwraps {request}; by obfuscated id unwraps {imagine}", async () => {
    reply = { body: { request: completeRecord } };
    expect((await client.getGeneration(46)).file_url).toContain("image.jpg");
    expectRequest("GET", "/api/v1/imagine/requests/46");
    server.requests.length = 0;
    reply = { body: { imagine: completeRecord } };
    expect((await client.getGenerationByObfuscatedId(completeRecord.obfuscated_id)).id).toBe(46);
    expectRequest("GET", `/api/v1/imagine/requests/obfuscated-id/${completeRecord.obfuscated_id}`);
  });
  test("history with filters", async () => {
    reply = { body: { data: [completeRecord], totalCount: 1, has_more: false } };
    const page = await client.history({ limit: 10, offset: 20, order: "ASC", status: "complete", query: "lake", skybox_style_id: 2 });
    expectRequest("GET", "/api/v1/imagine/myRequests", {
      limit: "10",
      offset: "20",
      order: "ASC",
      status: "complete",
      query: "lake",
      skybox_style_id: "2",
    });
    expect(page.data[0]?.id).toBe(46);
  });
  test("the real service's vocabulary: status=all, my_likes, return_depth_hq, remix by hash, a True/on boolean read back", async () => {
    reply = { body: { data: [{ ...completeRecord, isMyFavorite: "True" }], totalCount: 1, has_more: "off" } };
    const page = await client.history({ status: "all", my_likes: true });
    expectRequest("GET", "/api/v1/imagine/myRequests", { status: "all", my_likes: "true" });
    expect([page.data[0]?.isMyFavorite, page.has_more]).toEqual([true, false]);
    server.requests.length = 0;
    reply = { body: creationResponse };
    await client.generate({
      prompt: "p",
      skybox_style_id: 2,
      return_depth_hq: true,
      remix_imagine_obfuscated_id: completeRecord.obfuscated_id,
      seed: 0,
    });
    expect(server.last().json()).toEqual({
      prompt: "p",
      skybox_style_id: 2,
      return_depth_hq: true,
      remix_imagine_obfuscated_id: completeRecord.obfuscated_id,
      seed: 0,
    });
    server.requests.length = 0;
    reply = { body: { request: { ...completeRecord, isMyFavorite: true } } };
    expect((await client.toggleFavorite(46)).isMyFavorite).toBe(true);
    expectRequest("POST", "/api/v1/imagine/favorite/46");
    server.requests.length = 0;
    reply = { body: [{ type: "family", id: 1, name: "Realism", items: [{ ...model3Style, type: "style" }] }] };
    expect((await client.menu({ model_version: 3 }))[0]?.items[0]?.type).toBe("style");
    expectRequest("GET", "/api/v1/skybox/menu", { model_version: "3" });
  });
  test("cancel, cancel all pending (with and without pending), delete", async () => {
    reply = { body: { success: true } };
    expect((await client.cancelGeneration(46)).success).toBe(true);
    expectRequest("DELETE", "/api/v1/imagine/requests/46");
    server.requests.length = 0;
    reply = { body: { error: "You don't have any pending requests" } };
    expect(await client.cancelAllPending()).toMatchObject({ success: false, error: expect.stringContaining("pending") });
    expectRequest("DELETE", "/api/v1/imagine/requests/pending");
    server.requests.length = 0;
    reply = { body: { success: "Item deleted successfully", id: "46" } };
    expect((await client.deleteGeneration(46)).success).toBe(true);
    expectRequest("DELETE", "/api/v1/imagine/deleteImagine/46");
  });
});

describe("exports", () => {
  test.each([
    ["exportTypes", "/api/v1/skybox/export", [{ id: 1, name: "JPG", key: "equirectangular-jpg" }]],
    ["exportResolutions", "/api/v1/skybox/export/resolutions", [{ id: 1, name: "1K", width: 1024, height: 512 }]],
    ["meshQualities", "/api/v1/skybox/export/mesh-qualities", [{ id: 2, name: "Medium", key: "medium" }]],
    ["hdriModes", "/api/v1/skybox/export/hdri-modes", [{ id: 2, name: "Realism", key: "realism" }]],
  ] as const)("%s", async (method, path, body) => {
    reply = { body };
    const list = await client[method]();
    expectRequest("GET", path);
    expect(list[0]?.id).toBe(body[0].id);
  });
  test("requestExport posts JSON and may come back complete", async () => {
    reply = { body: { ...exportRecord, status: "complete", file_url: "http://127.0.0.1/x.jpg" } };
    const e = await client.requestExport({
      skybox_id: exportRecord.skybox_obfuscated_id,
      type_id: 4,
      hdri_mode_id: 3,
      webhook_url: "http://127.0.0.1:9/h",
    });
    expect(expectRequest("POST", "/api/v1/skybox/export").json()).toEqual({
      skybox_id: exportRecord.skybox_obfuscated_id,
      type_id: 4,
      hdri_mode_id: 3,
      webhook_url: "http://127.0.0.1:9/h",
    });
    expect(e.file_url).toBe("http://127.0.0.1/x.jpg");
  });
  test("getExport, cancelExport, exportHistory", async () => {
    reply = { body: exportRecord };
    expect((await client.getExport(exportRecord.id)).type_id).toBe(4);
    expectRequest("GET", `/api/v1/skybox/export/${exportRecord.id}`);
    server.requests.length = 0;
    reply = { body: { success: true } };
    expect((await client.cancelExport(exportRecord.id)).success).toBe(true);
    expectRequest("DELETE", `/api/v1/skybox/export/${exportRecord.id}`);
    server.requests.length = 0;
    reply = { body: { data: [exportRecord], totalCount: 1, has_more: false } };
    await client.exportHistory({
      type_id: 4,
      resolution_id: 3,
      hdri_mode_id: 2,
      mesh_quality_id: 1,
      status: "pending",
      export_id: 5,
      api_key_id: 1,
      limit: 5,
    });
    expectRequest("GET", "/api/v1/skybox/export/history", {
      type_id: "4",
      resolution_id: "3",
      hdri_mode_id: "2",
      mesh_quality_id: "1",
      status: "pending",
      export_id: "5",
      api_key_id: "1",
      limit: "5",
    });
  });
});

describe("batches", () => {
  test("generateBatch, batches, getBatch", async () => {
    reply = { body: batchRecord };
    const b = await client.generateBatch({ prompt: "p", skybox_style_id: 2, quantity: 2 });
    expect(expectRequest("POST", "/api/v1/skybox/batch").json()).toEqual({ prompt: "p", skybox_style_id: 2, quantity: 2 });
    expect(b.generations).toHaveLength(1);
    server.requests.length = 0;
    reply = { body: { data: [batchRecord], totalCount: 1, has_more: false } };
    await client.batches({ status: "pending", batch_id: 9, order: "desc" });
    expectRequest("GET", "/api/v1/skybox/batch", { status: "pending", batch_id: "9", order: "DESC" });
    server.requests.length = 0;
    reply = { body: batchRecord };
    expect((await client.getBatch(9)).quantity).toBe(2);
    expectRequest("GET", "/api/v1/skybox/batch/9");
  });
});

describe("keys", () => {
  test("the query form sends api_key and no header", async () => {
    const q = createSkyboxClient({ baseUrl: server.url, apiKey: KEY, apiKeyIn: "query" });
    reply = { body: [model3Style] };
    await q.styles();
    expect(server.last().query.get("api_key")).toBe(KEY);
    expect(server.last().headers["x-api-key"]).toBeUndefined();
  });
  test("with no apiKey (the browser behind the proxy) no key is sent at all", async () => {
    const browser = createSkyboxClient({ baseUrl: server.url });
    reply = { body: creationResponse };
    await browser.generate({ prompt: "p", skybox_style_id: 2 });
    const r = server.last();
    expect(r.headers["x-api-key"]).toBeUndefined();
    expect(r.query.has("api_key")).toBe(false);
    expect(r.body.toString()).not.toContain("api_key");
  });
});
