import { describe, expect, test } from "vitest";
import { createSkyboxClient, ROUTES, type SkyboxClient } from "../../src/api/index.ts";
import { isPrivateAddress, publicOnlyLookup } from "../../src/proxy/assets/address-check.ts";
import { matchApiRoute } from "../../src/proxy/upstream/allow-list.ts";
import { proxiedAssetUrl, rewriteAssetUrls } from "../../src/api/protocol/asset-urls.ts";
import { AssetHosts, assetTarget } from "../../src/proxy/assets/passthrough-urls.ts";
import { createScrubber } from "../../src/proxy/key-scrubber.ts";
import { createPresenter } from "../../src/proxy/presenter.ts";
import { ReplayGuard } from "../../src/proxy/webhooks/replay-guard.ts";

describe("allow-list", () => {
  test("covers every route the client sends (each method of the client, called)", async () => {
    const sent: { method: string; path: string }[] = [];
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      sent.push({ method: request.method, path: new URL(request.url).pathname.slice("/api/v1".length) });
      return new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
    };
    const client = createSkyboxClient({ baseUrl: "http://127.0.0.1:9", apiKey: "k", fetch, retry: 0 });
    const hash = "0a1b2c3d4e5f60718293a4b5c6d7e8f9";
    const calls: Record<keyof SkyboxClient, () => Promise<unknown>> = {
      styles: () => client.styles(),
      families: () => client.families(),
      menu: () => client.menu({ model_version: 3 }),
      generate: () => client.generate({ prompt: "p", skybox_style_id: 2 }),
      getGeneration: () => client.getGeneration(46),
      getGenerationByObfuscatedId: () => client.getGenerationByObfuscatedId(hash),
      history: () => client.history(),
      cancelGeneration: () => client.cancelGeneration(46),
      cancelAllPending: () => client.cancelAllPending(),
      deleteGeneration: () => client.deleteGeneration(46),
      toggleFavorite: () => client.toggleFavorite(46),
      exportTypes: () => client.exportTypes(),
      exportResolutions: () => client.exportResolutions(),
      meshQualities: () => client.meshQualities(),
      hdriModes: () => client.hdriModes(),
      exportHistory: () => client.exportHistory(),
      requestExport: () => client.requestExport({ skybox_id: hash, type_id: 1 }),
      getExport: () => client.getExport(hash),
      cancelExport: () => client.cancelExport(hash),
      generateBatch: () => client.generateBatch({ prompt: "p", skybox_style_id: 2, quantity: 2 }),
      batches: () => client.batches(),
      getBatch: () => client.getBatch(9),
    };
    for (const [name, call] of Object.entries(calls)) {
      await call().catch(() => undefined);
      const { method, path } = sent.at(-1)!;
      // Each method sent one request, to the route of its name, and the allow-list lets it through.
      expect(sent.length, name).toBe(Object.keys(calls).indexOf(name) + 1);
      expect(matchApiRoute(method, path), `${name}: ${method} ${path}`).toEqual({ route: ROUTES[name as keyof SkyboxClient] });
    }
    expect(sent.length).toBeGreaterThanOrEqual(20);
  });

  test("fixed paths win over parameters; parameters are strict", () => {
    expect(matchApiRoute("DELETE", "/imagine/requests/pending")).toEqual({
      route: { method: "DELETE", path: "/imagine/requests/pending" },
    });
    expect(matchApiRoute("GET", "/skybox/export/history")).toEqual({ route: { method: "GET", path: "/skybox/export/history" } });
    expect(matchApiRoute("GET", "/imagine/requests/pending")).toEqual({ allowedMethods: ["DELETE"] });
    expect(matchApiRoute("GET", "/skybox/batch/abc")).toBeNull();
    expect(matchApiRoute("GET", "/skybox/export/..")).toBeNull();
    expect(matchApiRoute("PUT", "/skybox")).toEqual({ allowedMethods: ["POST", "GET"] });
  });
});

describe("private addresses", () => {
  test.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "::1",
    "::",
    "fe80::1",
    "fd00::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "[::1]",
    "not-an-ip",
  ])("%s is private", (a) => expect(isPrivateAddress(a)).toBe(true));
  test.each(["8.8.8.8", "172.32.0.1", "93.184.216.34", "2606:4700::1111", "::ffff:8.8.8.8"])("%s is public", (a) =>
    expect(isPrivateAddress(a)).toBe(false),
  );

  test("the connect-time lookup refuses names that resolve to private addresses", async () => {
    const error = await new Promise<Error | null>((resolve) => publicOnlyLookup("localhost", {}, (e) => resolve(e)));
    expect(error?.name).toBe("PrivateAddressError");
  });
});

describe("asset URLs", () => {
  test("rewritten to the passthrough path and back, query kept byte for byte", () => {
    const url = new URL("https://cdn.example.test/a/b%20c/image.jpg?X-Amz-Signature=ab%2Fcd&x=1+2");
    const path = proxiedAssetUrl(url, "/skybox/assets");
    expect(path).toBe("/skybox/assets/https/cdn.example.test/a/b%20c/image.jpg?X-Amz-Signature=ab%2Fcd&x=1+2");
    const back = assetTarget(path.slice("/skybox/assets".length).split("?")[0]!, `?${path.split("?")[1]}`);
    expect(back?.href).toBe(url.href);
  });

  test("rewrites the record fields at any depth and learns their hosts, nothing else", () => {
    const hosts = new AssetHosts();
    const body = {
      request: {
        file_url: "http://a.test/1.jpg",
        thumb_url: "",
        depth_map_url: null,
        prompt: "http://not-a-file.test/x",
        exports: { glb: "http://b.test/m.glb" },
      },
      data: [{ image: "https://c.test/s.webp", image_jpg: "relative.jpg" }],
    };
    const out = rewriteAssetUrls(body, (u) => (hosts.learn(u), `/p/${u.host}`)) as typeof body;
    expect(out.request).toEqual({
      file_url: "/p/a.test",
      thumb_url: "",
      depth_map_url: null,
      prompt: "http://not-a-file.test/x",
      exports: { glb: "/p/b.test" },
    });
    expect(out.data[0]).toEqual({ image: "/p/c.test", image_jpg: "relative.jpg" });
    expect(
      ["http://a.test/z", "http://b.test/z", "https://c.test/z", "http://not-a-file.test/x", "https://a.test/z"].map((u) =>
        hosts.has(new URL(u)),
      ),
    ).toEqual([true, true, true, false, false]);
  });

  test("learned hosts are bounded, oldest forgotten first", () => {
    const hosts = new AssetHosts(2);
    for (const h of ["a", "b", "c"]) hosts.learn(new URL(`http://${h}.test/`));
    expect(["a", "b", "c"].map((h) => hosts.has(new URL(`http://${h}.test/x`)))).toEqual([false, true, true]);
  });
});

describe("presenter", () => {
  const scrub = createScrubber(["s3cr3t-key"]);
  const record = (host: string, extra = "") =>
    JSON.stringify({ request: { id: 1, file_url: `https://${host}/f.jpg`, prompt: `p${extra}` } });

  test("an answer seen again comes out the same, and its hosts are learned again though forgotten meanwhile", () => {
    const hosts = new AssetHosts(1);
    const present = createPresenter(hosts, "/skybox/assets", scrub);
    const first = present.text(record("a.test"));
    expect(JSON.parse(first)).toEqual({ request: { id: 1, file_url: "/skybox/assets/https/a.test/f.jpg", prompt: "p" } });
    present.text(record("b.test"));
    expect(hosts.has(new URL("https://a.test/x"))).toBe(false);
    expect(present.text(record("a.test"))).toBe(first);
    expect(hosts.has(new URL("https://a.test/x"))).toBe(true);
  });

  test("a changed answer is presented anew; text that is not JSON and long answers are scrubbed all the same", () => {
    const hosts = new AssetHosts();
    const present = createPresenter(hosts, "/skybox/assets", scrub);
    expect(present.text(record("a.test", "1"))).not.toBe(present.text(record("a.test", "2")));
    expect(present.text("<html>bad key s3cr3t-key</html>")).toBe("<html>bad key [redacted]</html>");
    const long = present.text(record("c.test", `${"x".repeat(40_000)} s3cr3t-key`));
    expect(long).not.toContain("s3cr3t-key");
    expect(JSON.parse(long).request.file_url).toBe("/skybox/assets/https/c.test/f.jpg");
    expect(hosts.has(new URL("https://c.test/x"))).toBe(true);
  });
});

describe("replay guard", () => {
  test("refuses a repeat within its lifetime, accepts it after, and stays bounded", () => {
    let now = 0;
    const guard = new ReplayGuard(1000, 2, () => now);
    expect([guard.firstSeen("x"), guard.firstSeen("x")]).toEqual([true, false]);
    now = 1001;
    expect(guard.firstSeen("x")).toBe(true);
    guard.firstSeen("y");
    guard.firstSeen("z"); // bound 2: "x" forgotten
    expect(guard.firstSeen("x")).toBe(true);
  });
});
