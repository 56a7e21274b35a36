/**
 * The users' parts in one process, against a recording upstream: `identify` in code, two
 * proxies sharing one memory store as two instances would share Redis, the options' checks,
 * a store failing between the upstream's answer and the ledger, and the request fields.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { userOptionsOf } from "../../../src/cli/user-flags.ts";
import { createMemoryStore, createSkyboxProxy, StoreUnavailableError, type ProxyStore } from "../../../src/proxy/index.ts";
import { requestFields } from "../../../src/proxy/users/request-fields.ts";
import { startRecordingServer } from "../../helpers/recording-server.ts";
import { KEY } from "../proxy-fixture.ts";

let upstream: Awaited<ReturnType<typeof startRecordingServer>>;
let nextId = 100;
const record = (id: number) => ({
  id,
  obfuscated_id: `${id}`.padStart(32, "a"),
  status: "pending",
  pusher_channel: `status_update_${`${id}`.padStart(32, "a")}`,
});

beforeAll(async () => {
  upstream = await startRecordingServer((req) => {
    if (req.method === "POST" && req.path === "/api/v1/skybox") return { body: record(nextId++) };
    const one = /^\/api\/v1\/imagine\/requests\/(\d+)$/.exec(req.path);
    if (one) return { body: { request: record(Number(one[1])) } };
    return { body: [] };
  });
});
afterAll(() => upstream.close());

/** A session cookie names the user, as an app's own auth would. */
const identify = async (request: Request) => /session=(\w+)/.exec(request.headers.get("cookie") ?? "")?.[1] ?? null;
const call = (proxy: ReturnType<typeof createSkyboxProxy>, path: string, session: string | null, init: RequestInit = {}) =>
  proxy(
    new Request(`http://127.0.0.1/skybox/api/v1${path}`, {
      ...init,
      headers: { ...(session ? { cookie: `session=${session}` } : {}), "content-type": "application/json" },
    }),
  );

describe("identify in code", () => {
  test("names the user; two proxies on one store are two instances of one deployment", async () => {
    const store = createMemoryStore();
    const [a, b] = [0, 1].map(() => createSkyboxProxy({ apiKey: KEY, upstream: upstream.url, identify, store, log: () => {} }));
    const denied = await call(a!, "/skybox/styles", null);
    expect([denied.status, await denied.json()]).toEqual([401, { error: "The app did not identify a user for this request" }]);
    const created = (await (
      await call(a!, "/skybox", "ann", { method: "POST", body: JSON.stringify({ prompt: "p", skybox_style_id: 2 }) })
    ).json()) as { id: number };
    expect((await call(b!, `/imagine/requests/${created.id}`, "ann")).status).toBe(200);
    expect((await call(b!, `/imagine/requests/${created.id}`, "ben")).status).toBe(404);
    a!.close();
    b!.close();
  });

  test("the options are checked when the proxy is made", async () => {
    const base = { apiKey: KEY, upstream: upstream.url };
    expect(() => createSkyboxProxy({ ...base, identify, userHeader: "x-user" })).toThrow(/not both/);
    expect(() => createSkyboxProxy({ ...base, userHeader: "x user" })).toThrow(/header name/);
    expect(() => createSkyboxProxy({ ...base, userDailyCredits: 1.5 })).toThrow(/whole number/);
    await expect(userOptionsOf({ "user-daily-credits": "lots" }, {})).rejects.toThrow(/--user-daily-credits/);
    await expect(userOptionsOf({ redis: "http://x" }, {})).rejects.toThrow(/--redis/);
    expect(await userOptionsOf({ "admin-users": "a, b,," }, { SKYBOX_USER_HEADER: "x-user" })).toEqual({
      userHeader: "x-user",
      adminUsers: ["a", "b"],
    });
  });
});

describe("a store failing after the upstream answered", () => {
  test("the create is a 503 saying the record is shown to administrators only", async () => {
    const memory = createMemoryStore();
    const failing: ProxyStore = { ...memory, put: () => Promise.reject(new StoreUnavailableError("down")) };
    const proxy = createSkyboxProxy({ apiKey: KEY, upstream: upstream.url, identify, store: failing, log: () => {} });
    const res = await call(proxy, "/skybox", "ann", { method: "POST", body: JSON.stringify({ prompt: "p", skybox_style_id: 2 }) });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: string }).error).toMatch(/could not record that it is yours.*administrators only/);
    proxy.close();
  });
});

describe("request fields", () => {
  test("are read from JSON, forms and the query, a file part counting as present", async () => {
    const query = new URLSearchParams("edit_skybox_id=7");
    const json = await requestFields(
      new TextEncoder().encode('{"skybox_style_id":2,"variant_id":null,"remix_imagine_id":5}'),
      "application/json",
      query,
    );
    expect(Object.fromEntries(json)).toEqual({ skybox_style_id: ["2"], remix_imagine_id: ["5"], edit_skybox_id: ["7"] });
    const form = new FormData();
    form.set("skybox_style_id", "3");
    form.set("image_to_pano_init_image", new Blob([new Uint8Array([1, 2])]), "a.png");
    const multipart = new Request("http://x/", { method: "POST", body: form });
    const bytes = new Uint8Array(await multipart.arrayBuffer());
    expect(Object.fromEntries(await requestFields(bytes, multipart.headers.get("content-type"), new URLSearchParams()))).toEqual({
      skybox_style_id: ["3"],
      image_to_pano_init_image: ["(file)"],
    });
    expect(
      Object.fromEntries(
        await requestFields(new TextEncoder().encode("quantity=4"), "application/x-www-form-urlencoded", new URLSearchParams()),
      ),
    ).toEqual({ quantity: ["4"] });
    expect((await requestFields(new TextEncoder().encode("{oops"), "application/json", new URLSearchParams())).size).toBe(0);
  });
});
