/**
 * Replay of the official Node SDK, Blockade-Games/BlockadeLabs-SDK-Node 1.1.7 (npm
 * @blockadelabs/sdk 1.1.7, commit 29ac90c), request by request as src/index.ts writes them
 * with axios: the key as `?api_key=` on every GET and DELETE and as a form field of the
 * generation, whose body is the `form-data` package's multipart. Answers are checked against
 * the SDK's declared response types (src/schemas/skybox.ts, src/schemas/imagine.ts); where
 * a declared type says more than the real service sends, the note says so.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as z from "zod";
import { readAs } from "./client-models.ts";
import { ok, PNG, send, startTargets, untilGenerationEnds, type Target, type Targets } from "./compat-fixture.ts";
import { asInit, nodeFormData, type Field } from "./wire-formats.ts";

let targets: Targets;
beforeAll(async () => {
  targets = await startTargets();
});
afterAll(() => targets.close());

const SDK = "@blockadelabs/sdk 1.1.7";

/** getSkyboxStylesResponse; it declares `max-char` a string, which the real service sends as a number (recorded answers of the UE5 plugin), and does not validate. */
const Styles = z.array(
  z.looseObject({
    id: z.number(),
    name: z.string(),
    "max-char": z.union([z.string(), z.number()]),
    image: z.string().nullable(),
    sort_order: z.number(),
  }),
);

/** generateSkyboxResponse */
const Created = z.looseObject({
  id: z.number(),
  skybox_style_id: z.number(),
  skybox_style_name: z.string(),
  status: z.string(),
  type: z.string(),
  queue_position: z.number(),
  file_url: z.string(),
  thumb_url: z.string(),
  title: z.string(),
  user_id: z.number(),
  username: z.string(),
  obfuscated_id: z.string(),
  pusher_channel: z.string(),
  pusher_event: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  seed: z.number().optional(),
  negative_text: z.string().nullish(),
  depth_map_url: z.string().optional(),
  remix_imagine_id: z.union([z.string(), z.number()]).nullish(),
});

/**
 * getImagineByIdResponse. It declares `dispatched_at`, `processing_at` and `completed_at`
 * required strings; the real service leaves them out until the stage is reached (its
 * creation answer has none), so they are checked present on a complete record only.
 */
const Imagine = Created.omit({ skybox_style_id: true, skybox_style_name: true }).extend({
  skybox_style_id: z.number().optional(),
  skybox_style_name: z.string().optional(),
  prompt: z.string().optional(),
  dispatched_at: z.string().optional(),
  processing_at: z.string().optional(),
  completed_at: z.string().optional(),
});
const Complete = Imagine.extend({ dispatched_at: z.string(), processing_at: z.string(), completed_at: z.string() });
const History = z.looseObject({ data: z.array(Imagine), totalCount: z.number(), has_more: z.boolean() });

describe.each(["local service", "proxy"] as const)("@blockadelabs/sdk 1.1.7 against the %s", (name) => {
  const t = (): Target => targets.all.find((x) => x.name === name)!;
  const get = async <T extends z.ZodType>(path: string, model: T, extra = "") =>
    readAs(model, ok(await send(`${t().api}${path}?api_key=${t().key}${extra}`), `GET ${path}`), SDK);
  const del = async (path: string) =>
    ok(await send(`${t().api}${path}?api_key=${t().key}`, { method: "DELETE" }), `DELETE ${path}`) as Record<string, unknown>;
  /** getImagineById: `data.request ? data.request : data`. */
  const imagine = async (id: number) => {
    const body = (await get(`/imagine/requests/${id}`, z.looseObject({}))) as { request?: unknown };
    return readAs(Imagine, body.request ?? body, SDK);
  };
  /** generateSkybox: api_key first, then the fields it sets, in its order. */
  const generate = async (fields: Field[]) =>
    readAs(Created, ok(await send(`${t().api}/skybox`, asInit(nodeFormData([["api_key", t().key], ...fields]))), "POST /skybox"), SDK);
  let styleId = 0;
  let first: z.infer<typeof Created>;

  test("getSkyboxStyles: GET /skybox/styles?api_key=", async () => {
    styleId = (await get("/skybox/styles", Styles))[0]!.id;
  });
  test("generateSkybox: form-data multipart with the key as a field, enhance_prompt=true, seed, a passthrough field", async () => {
    first = await generate([
      ["prompt", "test"],
      ["skybox_style_id", String(styleId)],
      ["negative_text", "people"],
      ["enhance_prompt", "true"],
      ["seed", "7"],
      ["return_depth_hq", "true"],
    ]);
    expect(first).toMatchObject({ status: "pending", skybox_style_id: styleId, seed: 7 });
  });
  test("getImagineById until complete; getImagineByObfuscatedId", async () => {
    const done = await untilGenerationEnds(() => imagine(first.id));
    readAs(Complete, done, SDK);
    const byHash = (await get(`/imagine/requests/obfuscated-id/${first.obfuscated_id}`, z.looseObject({ request: Imagine }))).request;
    expect(byHash.id).toBe(first.id);
  });
  test("generateSkybox remixes: remix_id as remix_imagine_id, remix_obfuscated_id as remix_imagine_obfuscated_id, a Buffer control_image", async () => {
    const byId = await generate([
      ["prompt", "test2"],
      ["skybox_style_id", String(styleId)],
      ["remix_imagine_id", String(first.id)],
    ]);
    const byHash = await generate([
      ["prompt", "test3"],
      ["skybox_style_id", String(styleId)],
      ["remix_imagine_obfuscated_id", first.obfuscated_id],
      ["control_image", { bytes: PNG, filename: "control_image" }],
      ["control_model", "remix"],
    ]);
    for (const g of [byId, byHash])
      expect(await untilGenerationEnds(() => imagine(g.id))).toMatchObject({ status: "complete", remix_imagine_id: first.id });
  });
  test("getImagineHistory: the key, then its parameters as URLSearchParams writes them", async () => {
    const page = await get("/imagine/myRequests", History, "&status=complete&limit=2&offset=0&order=ASC&query=test");
    expect(page.has_more).toBe(true);
    expect(page.totalCount).toBeGreaterThanOrEqual(3);
    const [a, b] = page.data;
    expect(page.data.length === 2 && a!.id < b!.id && page.data.every((g) => g.status === "complete")).toBe(true);
  });
  test("cancelImagine, cancelAllPendingImagines, deleteImagine: the key in the query of a DELETE", async () => {
    const g = await generate([
      ["prompt", "cancel me"],
      ["skybox_style_id", String(styleId)],
    ]);
    expect(await del(`/imagine/requests/${g.id}`)).toMatchObject({ success: true });
    expect(await del("/imagine/requests/pending")).toMatchObject({ error: expect.stringContaining("You don't have any pending") });
    expect(await del(`/imagine/deleteImagine/${g.id}`)).toEqual({ success: "Item deleted successfully", id: String(g.id) });
  });
});
