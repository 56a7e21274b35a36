import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSkyboxClient, isSkyboxApiError, type SkyboxClient } from "../../src/api/index.ts";
import type { Recorded, Reply } from "../helpers/recording-server.ts";
import { batchRecord, completeRecord, creationResponse, exportRecord, model3Style, model4Style } from "../fixtures/api-shapes.ts";
import { BROWSER_KEY, KEY, SECRET, startProxyPair, Transcript } from "./proxy-fixture.ts";

let pair: Awaited<ReturnType<typeof startProxyPair>>;
let client: SkyboxClient;
const transcript = new Transcript();
/** Fixture records with their file URLs on the recording upstream itself (the local service's layout). */
let onUpstream: <T>(value: T) => T;

const page = (data: unknown[]) => ({ data, totalCount: data.length, has_more: false });
const list = (...items: { id: number | string; name: string; key: string }[]) => items;

/** The upstream: answers by route, like the real service would. */
function answer(r: Recorded): Reply {
  const route = `${r.method} ${r.path.replace(/\/\d+$/, "/{id}").replace(/\/[0-9a-f]{32}$/, "/{hash}")}`;
  const bodies: Record<string, unknown> = {
    "GET /api/v1/skybox/styles": [model3Style, model4Style],
    "GET /api/v1/skybox/families": [{ type: "family", id: 1, name: "Realism", items: [model3Style] }],
    "POST /api/v1/skybox": creationResponse,
    "GET /api/v1/imagine/requests/{id}": { request: completeRecord },
    "GET /api/v1/imagine/requests/obfuscated-id/{hash}": { request: completeRecord },
    "GET /api/v1/imagine/myRequests": page([completeRecord]),
    "DELETE /api/v1/imagine/requests/{id}": { success: true },
    "DELETE /api/v1/imagine/requests/pending": { error: "You don't have any pending generations" },
    "DELETE /api/v1/imagine/deleteImagine/{id}": { success: "Item deleted successfully", id: "46" },
    "GET /api/v1/skybox/export": list({ id: 4, name: "HDRI HDR", key: "hdri-hdr" }),
    "GET /api/v1/skybox/export/resolutions": [{ id: 3, name: "4K", width: 4096, height: 2048 }],
    "GET /api/v1/skybox/export/mesh-qualities": list({ id: 2, name: "Medium", key: "medium" }),
    "GET /api/v1/skybox/export/hdri-modes": list({ id: 2, name: "Realism", key: "realism" }),
    "GET /api/v1/skybox/export/history": page([{ ...exportRecord, status: "complete", file_url: "http://127.0.0.1:8790/files/e/x.hdr" }]),
    "POST /api/v1/skybox/export": { ...exportRecord, status: "complete", file_url: "http://127.0.0.1:8790/files/e/x.hdr" },
    "GET /api/v1/skybox/export/{hash}": { data: exportRecord },
    "DELETE /api/v1/skybox/export/{hash}": { success: true },
    "POST /api/v1/skybox/batch": batchRecord,
    "GET /api/v1/skybox/batch": page([{ ...batchRecord, generations: undefined }]),
    "GET /api/v1/skybox/batch/{id}": batchRecord,
    "GET /api/v1/skybox": [model3Style],
    "POST /api/v1/skybox/{id}": creationResponse,
  };
  if (r.path.startsWith("/files/"))
    return { body: `bytes of ${r.path}`, headers: { "content-type": "image/jpeg", "content-length": String(9 + r.path.length) } };
  if (r.path === "/api/v1/skybox/styles" && r.query.get("model_version") === "9")
    return { status: 401, body: { error: `Unknown API key ${KEY}` } };
  return route in bodies ? { body: onUpstream(bodies[route]) } : { status: 404, body: { error: `no route ${route}` } };
}

beforeAll(async () => {
  pair = await startProxyPair(answer);
  onUpstream = (value) => JSON.parse(JSON.stringify(value ?? null).replaceAll("http://127.0.0.1:8790", pair.upstream.url));
  client = createSkyboxClient({ baseUrl: pair.api, fetch: transcript.fetch, retry: 0 });
});
afterAll(() => pair.close());

/** Runs one client call and returns the one upstream request it made. */
async function through<T>(call: () => Promise<T>): Promise<{ result: T; sent: Recorded }> {
  const before = pair.upstream.requests.length;
  const result = await call();
  expect(pair.upstream.requests.length).toBe(before + 1);
  const sent = pair.upstream.last();
  expect(sent.headers["x-api-key"]).toBe(KEY);
  return { result, sent };
}

describe("every client route works through the proxy", () => {
  const assetPrefix = () => `/skybox/assets/http/${new URL(pair.upstream.url).host}/files/46/`;

  test("styles and families (style images rewritten)", async () => {
    const { result: styles, sent } = await through(() => client.styles({ model_version: 3 }));
    expect(`${sent.method} ${sent.path}?${sent.query}`).toBe("GET /api/v1/skybox/styles?model_version=3");
    expect(styles.map((s) => s.id)).toEqual([2, 101]);
    expect(styles[0]!.image_jpg).toBe("/skybox/assets/http/127.0.0.1/styles/2.jpg");
    const { result: families } = await through(() => client.families({ model_version: 4 }));
    expect(families[0]!.items[0]!.name).toBe("Realistic");
  });

  test("generations: generate (JSON and multipart), get, by hash, history, cancel, cancel all, delete", async () => {
    const { result: g, sent } = await through(() => client.generate({ prompt: "alpine lake", skybox_style_id: 2, seed: 3 }));
    expect(sent.json()).toEqual({ prompt: "alpine lake", skybox_style_id: 2, seed: 3 });
    expect(g.status).toBe("pending");
    const png = new Uint8Array([137, 80, 78, 71, 9, 9]);
    const { sent: multi } = await through(() => client.generate({ prompt: "remix", skybox_style_id: 2, init_image: png }));
    expect(new Uint8Array(await ((await multi.form()).get("init_image") as File).arrayBuffer())).toEqual(png);

    const { result: one, sent: s1 } = await through(() => client.getGeneration(46));
    expect(s1.path).toBe("/api/v1/imagine/requests/46");
    expect(one.file_url).toBe(`${assetPrefix()}image.jpg`);
    expect(one.depth_map_url).toBe(`${assetPrefix()}depth.png`);
    expect(one.exports?.["depth-map-png"]).toBe(`${assetPrefix()}depth.png`);
    const { sent: s2 } = await through(() => client.getGenerationByObfuscatedId(creationResponse.obfuscated_id));
    expect(s2.path).toBe(`/api/v1/imagine/requests/obfuscated-id/${creationResponse.obfuscated_id}`);
    const { result: history, sent: s3 } = await through(() => client.history({ status: "complete", query: "lake", limit: 18, offset: 0 }));
    expect(Object.fromEntries(s3.query)).toEqual({ status: "complete", query: "lake", limit: "18", offset: "0" });
    expect(history.data[0]!.thumb_url).toBe(`${assetPrefix()}thumb.jpg`);
    expect((await through(() => client.cancelGeneration(46))).sent.method).toBe("DELETE");
    expect((await through(() => client.cancelAllPending())).result.success).toBe(false);
    expect((await through(() => client.deleteGeneration(46))).sent.path).toBe("/api/v1/imagine/deleteImagine/46");
  });

  test("exports: lists, history, request, get, cancel", async () => {
    expect((await through(() => client.exportTypes())).result[0]!.key).toBe("hdri-hdr");
    await through(() => client.exportResolutions());
    await through(() => client.meshQualities());
    await through(() => client.hdriModes());
    const { result: hist, sent } = await through(() => client.exportHistory({ type_id: 4 }));
    expect(sent.query.get("type_id")).toBe("4");
    expect(hist.data[0]!.file_url).toMatch(/^\/skybox\/assets\/http\/127\.0\.0\.1:\d+\/files\/e\/x\.hdr$/);
    const { result: ex, sent: post } = await through(() =>
      client.requestExport({ skybox_id: creationResponse.obfuscated_id, type_id: 4, resolution_id: 3 }),
    );
    expect(post.json()).toEqual({ skybox_id: creationResponse.obfuscated_id, type_id: 4, resolution_id: 3 });
    expect(ex.status).toBe("complete");
    expect((await through(() => client.getExport(exportRecord.id))).sent.path).toBe(`/api/v1/skybox/export/${exportRecord.id}`);
    expect((await through(() => client.cancelExport(exportRecord.id))).result.success).toBe(true);
  });

  test("batches: submit, list, get", async () => {
    const { result: b, sent } = await through(() => client.generateBatch({ prompt: "p", skybox_style_id: 2, quantity: 2 }));
    expect(sent.json()).toEqual({ prompt: "p", skybox_style_id: 2, quantity: 2 });
    expect(b.generations).toHaveLength(1);
    expect((await through(() => client.batches({ limit: 5 }))).sent.query.get("limit")).toBe("5");
    expect((await through(() => client.getBatch(9))).sent.path).toBe("/api/v1/skybox/batch/9");
  });

  test("the spec's deprecated routes", async () => {
    expect((await transcript.fetch(`${pair.api}/api/v1/skybox`)).status).toBe(200);
    const res = await transcript.fetch(`${pair.api}/api/v1/skybox/46`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(200);
    expect(pair.upstream.last().path).toBe("/api/v1/skybox/46");
  });

  test("a browser client that sends a key anyway (header or query) has it replaced", async () => {
    for (const apiKeyIn of ["header", "query"] as const) {
      const careless = createSkyboxClient({ baseUrl: pair.api, apiKey: BROWSER_KEY, apiKeyIn, fetch: transcript.fetch });
      const { sent } = await through(() => careless.exportTypes());
      expect(sent.query.has("api_key")).toBe(false);
      expect(JSON.stringify(sent.headers)).not.toContain(BROWSER_KEY);
    }
  });

  test("an upstream 401 that echoes the key reaches the client as a typed error without it", async () => {
    const error = await client.styles({ model_version: 9 as 3 }).catch((e: unknown) => e);
    expect(isSkyboxApiError(error) && error.kind).toBe("unauthorized");
    expect(String((error as Error).message)).not.toContain(KEY);
  });

  test("the files the records name load same-origin", async () => {
    const g = await client.getGeneration(46);
    const res = await transcript.fetch(new URL(g.file_url, pair.url));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("bytes of /files/46/image.jpg");
    expect(pair.upstream.last().headers["x-api-key"]).toBeUndefined();
  });

  test("no byte the browser side received holds the key or the secret", async () => {
    await transcript.record(await fetch(`${pair.api}/config`));
    expect(transcript.seen.length).toBeGreaterThan(25);
    expect(transcript.leaks([KEY, SECRET])).toEqual([]);
  });
});
