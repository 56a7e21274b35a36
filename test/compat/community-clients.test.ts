/**
 * Replays of the other published clients and of the documented ways to call the API by hand,
 * against the local service and through the proxy:
 * - Blockade-Games/BlockadeLabs-SDK-Laravel 1.0.3 (commit e783783), src/SDKClient.php:
 *   Laravel's HTTP client; the key in the query of GETs and in the JSON body of POSTs and of
 *   DELETEs (`Http::delete($url, ['api_key' => ...])` sends a JSON body).
 * - odinn1984/UE5-Skybox-AI-Plugin 0.1 (commit b47a760), SkyboxAiApi/Private/SkyboxProvider.cpp
 *   and ImagineProvider.cpp: `x-api-key`, `Content-Type: application/json` on every request,
 *   JSON bodies from `FJsonObjectConverter`, answers read into USTRUCTs (SkyboxProvider.h).
 * - Jorgemagic/BlockadeLabs-SDK-Evergine (commit 8537201), SkyboxAI/BlockadeLabs/ApiRequests.cs:
 *   `?api_key=` on every request, a JSON body of strings, then the image downloaded from file_url.
 * - Python `requests` and curl as the real service's documentation shows them: multipart
 *   with a file part, or a URL-encoded form, the key in `x-api-key`.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as z from "zod";
import { readAs } from "./client-models.ts";
import { ok, PNG, send, startTargets, untilGenerationEnds, type Target, type Targets } from "./compat-fixture.ts";
import { asInit, curlForm, pythonRequests } from "./wire-formats.ts";

let targets: Targets;
beforeAll(async () => {
  targets = await startTargets();
});
afterAll(() => targets.close());

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});
type Record_ = { id: number; obfuscated_id: string; status: string; file_url: string };

describe.each(["local service", "proxy"] as const)("published clients against the %s", (name) => {
  const t = (): Target => targets.all.find((x) => x.name === name)!;
  const api = (path: string) => `${t().api}${path}`;
  const poll = (id: number) =>
    untilGenerationEnds(
      async () =>
        (ok(await send(api(`/imagine/requests/${id}`), { headers: { "x-api-key": t().key } }), "poll") as { request: Record_ }).request,
    );

  test("BlockadeLabs-SDK-Laravel 1.0.3: styles, a JSON generation with the key in the body, history, cancel and delete with the key in a DELETE body", async () => {
    const LARAVEL = "BlockadeLabs-SDK-Laravel 1.0.3";
    const q = `api_key=${encodeURIComponent(t().key)}`;
    const styles = ok(await send(api(`/skybox/styles?${q}`)), "getSkyboxStyles") as { id: number }[];
    const created = ok(
      await send(
        api("/skybox"),
        json({ prompt: "desert dunes", skybox_style_id: styles[0]!.id, enhance_prompt: true, seed: 0, api_key: t().key }),
      ),
      "generateSkybox",
    ) as Record_ & { seed: number };
    expect(created.seed).toBeGreaterThan(0);
    expect(JSON.stringify(created)).not.toContain(t().key);
    expect((ok(await send(api(`/imagine/requests/${created.id}?${q}`)), "getImagineById") as { request: Record_ }).request.id).toBe(
      created.id,
    );
    const history = ok(await send(api(`/imagine/myRequests?limit=5&status=all&${q}`)), "getImagineHistory") as { data: Record_[] };
    expect(history.data.map((g) => g.id)).toContain(created.id);
    const deleteWithBody = (path: string) => send(api(path), { ...json({ api_key: t().key }), method: "DELETE" });
    expect(ok(await deleteWithBody(`/imagine/requests/${created.id}`), `${LARAVEL} cancelImagine`)).toMatchObject({ success: true });
    expect(ok(await deleteWithBody("/imagine/requests/pending"), `${LARAVEL} cancelAllPendingImagines`)).toMatchObject({
      error: expect.any(String),
    });
    expect(ok(await deleteWithBody(`/imagine/deleteImagine/${created.id}`), `${LARAVEL} deleteImagine`)).toMatchObject({
      success: "Item deleted successfully",
    });
  });

  test("UE5-Skybox-AI-Plugin 0.1: styles, a JSON generation, its record by hash, export types with premium_feature, an export", async () => {
    const UE5 = "UE5-Skybox-AI-Plugin 0.1";
    const headers = { "x-api-key": t().key, accept: "application/json", "content-type": "application/json" };
    // FSkyboxStyle after GetStylesResponseKeysHyphensToUnderscore: int id, premium, max_char, negative_text_max_char.
    const styles = readAs(
      z.array(
        z.looseObject({
          id: z.number().int(),
          name: z.string(),
          premium: z.number().int(),
          "max-char": z.number().int(),
          "negative-text-max-char": z.number().int(),
        }),
      ),
      ok(await send(api("/skybox/styles"), { headers }), "GetStyles"),
      UE5,
    );
    // RemovePostUnsetFields: negative_text and remix_imagine_id left out when unset.
    const created = readAs(
      z.looseObject({ obfuscated_id: z.string(), status: z.string() }),
      ok(
        await send(api("/skybox"), {
          method: "POST",
          headers,
          body: JSON.stringify({ prompt: "canyon at sunset", enhance_prompt: false, skybox_style_id: styles[0]!.id }),
        }),
        "Post",
      ),
      UE5,
    );
    const done = await poll(
      (
        ok(await send(api(`/imagine/requests/obfuscated-id/${created.obfuscated_id}`), { headers }), "GetRequestsObfuscatedId") as {
          request: Record_;
        }
      ).request.id,
    );
    expect(done.status).toBe("complete");
    const types = readAs(
      z.array(z.looseObject({ id: z.number().int(), name: z.string(), premium_feature: z.boolean() })),
      ok(await send(api("/skybox/export"), { headers }), "GetExport"),
      UE5,
    );
    expect(types.find((x) => x.id === 1)?.premium_feature).toBe(false);
    const exported = readAs(
      z.looseObject({ id: z.string(), status: z.string(), file_url: z.string() }),
      ok(
        await send(api("/skybox/export"), {
          method: "POST",
          headers,
          body: JSON.stringify({ skybox_id: created.obfuscated_id, type_id: 1 }),
        }),
        "PostExport",
      ),
      UE5,
    );
    expect((ok(await send(api(`/skybox/export/${exported.id}`), { headers }), "GetExportById") as Record_).status).toBe("complete");
  });

  test("BlockadeLabs-SDK-Evergine: ?api_key= and a JSON body of strings; the image downloaded from file_url", async () => {
    const q = `?api_key=${t().key}`;
    const styles = ok(await send(api(`/skybox/styles${q}`)), "GetSkyboxStyles") as { id: number }[];
    const created = ok(
      await send(api(`/skybox${q}`), {
        method: "POST",
        headers: { "content-type": "application/json; charset=utf-8" },
        body: JSON.stringify({ skybox_style_id: String(styles[0]!.id), prompt: "snowy mountains" }),
      }),
      "CreateSkybox",
    ) as Record_;
    const done = await poll(created.id);
    const polled = (
      ok(await send(api(`/imagine/requests/obfuscated-id/${created.obfuscated_id}${q}`)), "GetImagine") as { request: Record_ }
    ).request;
    expect(polled.status).toBe(done.status);
    // Behind the proxy the URL is the proxy's own passthrough, absolute on its public URL.
    expect(polled.file_url.startsWith(name === "proxy" ? `${targets.proxy.url}/skybox/assets/http/` : targets.local.info.url)).toBe(true);
    const image = await fetch(polled.file_url);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/jpeg");
  });

  test("Python requests and curl, as documented: multipart with an init_image file, and a URL-encoded form", async () => {
    const styleId = (ok(await send(api("/skybox/styles"), { headers: { "x-api-key": t().key } }), "styles") as { id: number }[])[0]!.id;
    const fields = (prompt: string) =>
      [
        ["prompt", prompt],
        ["skybox_style_id", String(styleId)],
        ["enhance_prompt", "on"],
        ["init_image", { bytes: PNG, filename: "init.png" }],
        ["init_strength", "0.5"],
      ] as const;
    for (const [who, write] of [
      ["python requests", pythonRequests],
      ["curl -F", curlForm],
    ] as const) {
      const created = ok(
        await send(api("/skybox"), asInit(write([...fields(`${who} lake`)] as never), { "x-api-key": t().key })),
        who,
      ) as Record_;
      expect((await poll(created.id)).status).toBe("complete");
    }
    const form = new URLSearchParams({
      prompt: "python data= form",
      skybox_style_id: String(styleId),
      enhance_prompt: "0",
      api_key: t().key,
    });
    const created = ok(
      await send(api("/skybox"), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form.toString(),
      }),
      "requests data=",
    ) as Record_;
    expect((await poll(created.id)).status).toBe("complete");
  });
});
