/**
 * Replay of RageAgainstThePixel/BlockadeLabs-SDK-DotNet 2.0.0 (NuGet BlockadeLabs-SDK-DotNet
 * 2.0.0, commit ee55946), request by request as BlockadeLabs-SDK-DotNet/Skyboxes/SkyboxEndpoint.cs
 * writes them, in the order of its own test fixture (TestFixture_01_Skyboxes.cs), against the
 * local service and through the proxy. Answers are read with the SDK's models
 * (client-models.ts). The key travels in `x-api-key` (BlockadeLabsClient.cs SetupClient).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  DotnetExportOption,
  DotnetExportRequest,
  DotnetHistory,
  DotnetOperation,
  DotnetSkyboxInfo,
  DotnetSkyboxStyle,
  readAs,
  wrapped,
} from "./client-models.ts";
import { ok, PNG, send, startTargets, untilGenerationEnds, type Target, type Targets } from "./compat-fixture.ts";
import { asInit, dotnetMultipart, type Field } from "./wire-formats.ts";
import * as z from "zod";

let targets: Targets;
beforeAll(async () => {
  targets = await startTargets();
});
afterAll(() => targets.close());

const MODEL = "BlockadeLabs-SDK-DotNet 2.0.0";
const headers = (t: Target) => ({ "x-api-key": t.key, "user-agent": "BlockadeLabs-SDK-DotNet" });
/** SkyboxEndpoint.GetUrl: parameters joined as `key=value`, unencoded. */
const url = (t: Target, path: string, params: Record<string, string> = {}) =>
  `${t.api}/${path}${
    Object.keys(params).length
      ? `?${Object.entries(params)
          .map(([k, v]) => `${k}=${v}`)
          .join("&")}`
      : ""
  }`;
const get = async <T extends z.ZodType>(t: Target, path: string, model: T, params: Record<string, string> = {}) =>
  readAs(model, ok(await send(url(t, path, params), { headers: headers(t) }), `GET ${path}`), MODEL);
const del = async (t: Target, path: string) =>
  readAs(DotnetOperation, ok(await send(url(t, path), { method: "DELETE", headers: headers(t) }), `DELETE ${path}`), MODEL);

/** GenerateSkyboxAsync: the multipart form, `bool?.ToString()` ("True") and `int?.ToString()`. */
async function generate(t: Target, fields: Field[]) {
  const sent = await send(url(t, "skybox"), asInit(dotnetMultipart(fields), headers(t)));
  return readAs(DotnetSkyboxInfo, ok(sent, "POST skybox"), MODEL);
}
/** GetSkyboxInfoAsync(int): `{ request }` or `{ imagine }`, each poll read with the model. */
const info = async (t: Target, id: number | string) =>
  (await get(t, `imagine/requests/${id}`, wrapped(DotnetSkyboxInfo))) as { request?: z.infer<typeof DotnetSkyboxInfo> };
const poll = (t: Target, id: number) => untilGenerationEnds(async () => (await info(t, id)).request!);

/** ExportSkyboxAsync: a JSON body of a `Dictionary<string, string>` (type_id is a string), then polling. */
async function exportAs(t: Target, obfuscatedId: string, typeId: number) {
  const body = JSON.stringify({ skybox_id: obfuscatedId, type_id: String(typeId) });
  let record = readAs(
    DotnetExportRequest,
    ok(
      await send(url(t, "skybox/export"), {
        method: "POST",
        headers: { ...headers(t), "content-type": "application/json; charset=utf-8" },
        body,
      }),
      "POST skybox/export",
    ),
    MODEL,
  );
  while (["pending", "dispatched", "processing"].includes(String(record.status))) {
    await new Promise((r) => setTimeout(r, 100));
    record = await get(t, `skybox/export/${record.id}`, DotnetExportRequest);
  }
  return record;
}

describe.each(["local service", "proxy"] as const)("BlockadeLabs-SDK-DotNet 2.0.0 against the %s", (name) => {
  const t = () => targets.all.find((x) => x.name === name)!;
  let styleId = 0;
  let skybox: z.infer<typeof DotnetSkyboxInfo>;

  test("GetSkyboxStylesAsync(Model2): model_version=2, a discontinued model, is an empty list", async () => {
    expect(await get(t(), "skybox/styles", z.array(DotnetSkyboxStyle), { model_version: "2" })).toEqual([]);
  });
  test("GetSkyboxStyleFamiliesAsync(Model3): families whose first item is a Model 3 style", async () => {
    const families = (await get(t(), "skybox/families", z.array(DotnetSkyboxStyle), { model_version: "3" })) as {
      type: string;
      items: { model: string; type: string }[];
    }[];
    expect(families.length).toBeGreaterThan(0);
    for (const f of families) expect([f.type, f.items[0]!.model, f.items[0]!.type]).toEqual(["family", "Model 3", "style"]);
  });
  test("GetSkyboxStylesAsync(Model3): styles the SDK keeps (model == Model 3)", async () => {
    const styles = (await get(t(), "skybox/styles", z.array(DotnetSkyboxStyle), { model_version: "3" })) as { id: number; model: string }[];
    expect(styles.filter((s) => s.model === "Model 3").length).toBe(styles.length);
    styleId = styles[0]!.id;
  });
  test("GenerateSkyboxAsync: unquoted part names, quoted boundary, enhance_prompt=True, return_depth_hq=True, seed 0", async () => {
    skybox = await generate(t(), [
      ["prompt", "mars"],
      ["enhance_prompt", "True"],
      ["seed", "0"],
      ["skybox_style_id", String(styleId)],
      ["return_depth_hq", "True"],
    ]);
    expect(skybox).toMatchObject({ status: "pending", skybox_style_id: styleId });
    expect(skybox.seed).not.toBe(0);
  });
  test("GetSkyboxInfoAsync polling until complete: every record readable, none with a null timestamp", async () => {
    const done = await poll(t(), Number(skybox.id));
    expect(done.status).toBe("complete");
    expect([done.dispatched_at, done.processing_at, done.completed_at].every(Boolean)).toBe(true);
    expect(done.seed).toBe(skybox.seed);
  });
  test("ExportSkyboxAsync, the default exports (PNG, Depth Map), then the record lists both", async () => {
    for (const typeId of [2, 6]) expect((await exportAs(t(), skybox.obfuscated_id!, typeId)).status).toBe("complete");
    const record = (await info(t(), Number(skybox.id))).request!;
    expect(Object.keys(record.exports ?? {}).sort()).toEqual(["depth-map-png", "equirectangular-png"]);
  });
  test("GetSkyboxInfoAsync(obfuscatedId)", async () => {
    expect(
      ((await get(t(), `imagine/requests/obfuscated-id/${skybox.obfuscated_id}`, wrapped(DotnetSkyboxInfo))) as { request: { id: number } })
        .request.id,
    ).toBe(skybox.id);
  });
  test("GetAllSkyboxExportOptionsAsync", async () => {
    const options = await get(t(), "skybox/export", z.array(DotnetExportOption));
    expect(options.map((o) => o.key)).toContain("equirectangular-png");
  });
  test("GenerateSkyboxAsync with a control image (remix): a ByteArrayContent part with filename and filename*", async () => {
    const remix = await generate(t(), [
      ["prompt", "mars"],
      ["enhance_prompt", "True"],
      ["skybox_style_id", String(styleId)],
      ["control_model", "remix"],
      ["control_image", { bytes: PNG, filename: "BlockadeLabs-SDK-DotNet-Icon.png" }],
    ]);
    expect((await poll(t(), Number(remix.id))).status).toBe("complete");
  });
  test("GetSkyboxHistoryAsync: no parameters, then status=all, my_likes=true, order, a '+'-encoded query", async () => {
    const all = await get(t(), "imagine/myRequests", DotnetHistory);
    expect(all.data.length).toBeGreaterThanOrEqual(2);
    const filtered = await get(t(), "imagine/myRequests", DotnetHistory, {
      status: "all",
      limit: "10",
      offset: "0",
      order: "DESC",
      query: "mars",
      generator: "stable-skybox",
    });
    expect(filtered.totalCount).toBe(0);
    const named = await get(t(), "imagine/myRequests", DotnetHistory, { status: "all", query: "mars" });
    expect(named.data.length).toBeGreaterThanOrEqual(2);
    expect((await get(t(), "imagine/myRequests", DotnetHistory, { my_likes: "true" })).data).toEqual([]);
  });
  test("CancelSkyboxGenerationAsync: an aborted record stays readable", async () => {
    const g = await generate(t(), [
      ["prompt", "mars"],
      ["enhance_prompt", "False"],
      ["skybox_style_id", String(styleId)],
    ]);
    expect((await del(t(), `imagine/requests/${g.id}`)).success).toBe(true);
    expect((await poll(t(), Number(g.id))).status).toBe("abort");
  });
  test("CancelAllPendingSkyboxGenerationsAsync: true, then the 'You don't have any pending' answer it reads as false", async () => {
    await generate(t(), [
      ["prompt", "mars"],
      ["skybox_style_id", String(styleId)],
    ]);
    expect((await del(t(), "imagine/requests/pending")).success).toBe(true);
    const none = await del(t(), "imagine/requests/pending");
    expect(none.success).not.toBe(true);
    expect(none.error).toContain("You don't have any pending");
  });
  test("GetSkyboxHistoryAsync(status=abort), then DeleteSkyboxAsync on each: 'Item deleted successfully'", async () => {
    const aborted = await get(t(), "imagine/myRequests", DotnetHistory, { status: "abort" });
    expect(aborted.data.length).toBeGreaterThanOrEqual(2);
    for (const g of aborted.data) expect((await del(t(), `imagine/deleteImagine/${g.id}`)).success).toBe("Item deleted successfully");
  });
});
