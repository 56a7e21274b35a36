/**
 * Replays of the two Unity packages, request by request as their Runtime/.../SkyboxEndpoint.cs
 * writes them with `UnityWebRequest` (a `WWWForm`: URL-encoded without a file, multipart with
 * one), against the local service and through the proxy; answers read with their Newtonsoft
 * models (client-models.ts):
 * - RageAgainstThePixel/com.rest.blockadelabs 2.0.0 (commit d20af1d), package path
 *   BlockadeLabs/Packages/com.rest.blockadelabs/Runtime/Skyboxes/SkyboxEndpoint.cs: booleans
 *   as C# writes them (`True`).
 * - Blockade-Games/BlockadeLabs-SDK-Unity 2.0.2 (com.blockadelabs.sdk, commit 18d5538),
 *   Runtime/API/Skyboxes/SkyboxEndpoint.cs: booleans lower-cased, the favourite toggle.
 * Both send the key in `x-api-key` and read the styles menu at GET /skybox/menu.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as z from "zod";
import {
  readAs,
  UnityExportOption,
  UnityExportRequest,
  UnityHistory,
  UnityOperation,
  UnitySkyboxInfo,
  UnitySkyboxStyle,
} from "./client-models.ts";
import { ok, PNG, send, startTargets, untilGenerationEnds, type Target, type Targets } from "./compat-fixture.ts";
import { asInit, unityWwwForm, type Field } from "./wire-formats.ts";

let targets: Targets;
beforeAll(async () => {
  targets = await startTargets();
});
afterAll(() => targets.close());

const SDKS = [
  { name: "com.rest.blockadelabs 2.0.0", userAgent: "com.rest.blockadelabs", bool: (b: boolean) => (b ? "True" : "False") },
  { name: "BlockadeLabs-SDK-Unity 2.0.2", userAgent: "com.blockadelabs.sdk", bool: (b: boolean) => String(b) },
] as const;

/** `SkyboxInfoRequest`: the record under `request` (2.0.2 also takes `imagine`). */
const Wrapped = z.looseObject({ request: UnitySkyboxInfo });

describe.each(SDKS.flatMap((sdk) => (["local service", "proxy"] as const).map((where) => [sdk.name, where, sdk] as const)))(
  "%s against the %s",
  (name, where, sdk) => {
    const t = (): Target => targets.all.find((x) => x.name === where)!;
    const headers = () => ({ "x-api-key": t().key, "user-agent": sdk.userAgent });
    /** `GetUrl(endpoint, params)` of com.utilities.rest: `key=value` pairs, values escaped by the caller. */
    const url = (path: string, params: Record<string, string> = {}) =>
      `${t().api}/${path}${
        Object.keys(params).length
          ? `?${Object.entries(params)
              .map(([k, v]) => `${k}=${v}`)
              .join("&")}`
          : ""
      }`;
    const get = async <T extends z.ZodType>(path: string, model: T, params: Record<string, string> = {}) =>
      readAs(model, ok(await send(url(path, params), { headers: headers() }), `GET ${path}`), name);
    const post = async <T extends z.ZodType>(path: string, model: T, init: { headers?: Record<string, string>; body?: BodyInit }) =>
      readAs(
        model,
        ok(await send(url(path), { method: "POST", ...init, headers: { ...headers(), ...init.headers } }), `POST ${path}`),
        name,
      );
    const generate = (fields: Field[]) => {
      const init = asInit(unityWwwForm(fields), headers());
      return post("skybox", UnitySkyboxInfo, init);
    };
    const poll = (id: number) => untilGenerationEnds(async () => (await get(`imagine/requests/${id}`, Wrapped)).request);
    let styleId = 0;
    let skybox: z.infer<typeof UnitySkyboxInfo>;

    test("GetSkyboxStylesAsync(Model3), GetSkyboxStyleFamiliesAsync(Model3), GetSkyboxStylesMenuAsync (GET /skybox/menu)", async () => {
      const styles = (await get("skybox/styles", z.array(UnitySkyboxStyle), { model_version: "3" })) as {
        id: number;
        skybox_style_families: unknown[];
      }[];
      styleId = styles[0]!.id;
      expect(styles[0]!.skybox_style_families.length).toBe(1);
      for (const path of ["skybox/families", "skybox/menu"]) {
        const families = (await get(path, z.array(UnitySkyboxStyle), { model_version: "3" })) as {
          items: { model: string; type: string }[];
        }[];
        expect(families.every((f) => f.items[0]!.model === "Model 3" && f.items[0]!.type === "style")).toBe(true);
      }
    });
    test("GenerateSkyboxAsync without a file: a URL-encoded WWWForm with enhance_prompt, seed and return_depth_hq", async () => {
      skybox = await generate([
        ["prompt", "alpine lake at dawn"],
        ["negative_text", "fog"],
        ["enhance_prompt", sdk.bool(true)],
        ["seed", "42"],
        ["skybox_style_id", String(styleId)],
        ["return_depth_hq", sdk.bool(false)],
      ]);
      expect(skybox).toMatchObject({ status: "pending", seed: 42, negative_text: "fog" });
      expect((await poll(Number(skybox.id))).status).toBe("complete");
    });
    test("ExportSkyboxAsync: a JSON string payload, polled by export id", async () => {
      let record = await post("skybox/export", UnityExportRequest, {
        headers: { "content-type": "application/json" },
        body: `{"skybox_id":"${skybox.obfuscated_id}","type_id":1}`,
      });
      while (!["complete", "error", "abort"].includes(String(record.status)))
        record = await get(`skybox/export/${record.id}`, UnityExportRequest);
      expect(record.status).toBe("complete");
      const options = await get("skybox/export", z.array(UnityExportOption));
      expect(options.length).toBeGreaterThan(0);
    });
    test('GenerateSkyboxAsync with a control image: a multipart WWWForm (Content-disposition, charset="utf-8")', async () => {
      const remix = await generate([
        ["prompt", "same lake, at night"],
        ["enhance_prompt", sdk.bool(false)],
        ["skybox_style_id", String(styleId)],
        ["remix_imagine_id", String(skybox.id)],
        ["control_model", "remix"],
        ["control_image", { bytes: PNG, filename: "control.png", type: "image/png" }],
      ]);
      const done = await poll(Number(remix.id));
      expect(done).toMatchObject({ status: "complete", remix_imagine_id: skybox.id, remix_obfuscated_id: skybox.obfuscated_id });
    });
    test("toggle favourite (2.0.2's POST imagine/favorite/{id}, no body) and history with my_likes, status=all, a '+' query", async () => {
      const liked = (await post(`imagine/favorite/${skybox.id}`, Wrapped, {})).request;
      expect(liked.isMyFavorite).toBe(true);
      const likes = await get("imagine/myRequests", UnityHistory, {
        status: "all",
        my_likes: "true",
        order: "DESC",
        query: "alpine+lake",
        skybox_style_id: String(styleId),
      });
      expect(likes.data.map((g) => g.id)).toContain(skybox.id);
      expect(likes.data.every((g) => g.isMyFavorite === true && /alpine lake/i.test(String(g.prompt)))).toBe(true);
    });
    test("CancelSkyboxGenerationAsync ('true'), CancelAllPending (no pending: false), DeleteSkyboxAsync", async () => {
      const g = await generate([
        ["prompt", "to cancel"],
        ["skybox_style_id", String(styleId)],
      ]);
      expect(
        readAs(UnityOperation, ok(await send(url(`imagine/requests/${g.id}`), { method: "DELETE", headers: headers() }), "DELETE"), name)
          .success,
      ).toBe(true);
      expect(await poll(Number(g.id))).toMatchObject({ status: "abort" });
      const none = readAs(
        UnityOperation,
        ok(await send(url("imagine/requests/pending"), { method: "DELETE", headers: headers() }), "DELETE pending"),
        name,
      );
      expect(none.error).toContain("You don't have any pending");
      const deleted = readAs(
        UnityOperation,
        ok(await send(url(`imagine/deleteImagine/${g.id}`), { method: "DELETE", headers: headers() }), "DELETE"),
        name,
      );
      expect(deleted.success).toBe("Item deleted successfully");
    });
  },
);
