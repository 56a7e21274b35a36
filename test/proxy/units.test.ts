import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { isPrivateAddress, publicOnlyLookup } from "../../src/proxy/address-check.ts";
import { matchApiRoute } from "../../src/proxy/allow-list.ts";
import { AssetHosts, assetTarget, proxiedAssetUrl, rewriteAssetUrls } from "../../src/proxy/asset-urls.ts";
import { ReplayGuard } from "../../src/proxy/replay-guard.ts";

describe("allow-list", () => {
  test("covers every route the client sends (read from src/api/client)", () => {
    const dir = join(import.meta.dirname, "../../src/api/client");
    const calls = readdirSync(dir).flatMap((f) => [...readFileSync(join(dir, f), "utf8").matchAll(/send\("(GET|POST|DELETE)", [`"]([^`"]+)[`"]/g)]);
    expect(calls.length).toBeGreaterThanOrEqual(20);
    for (const [, method, template] of calls) {
      const path = template!.replace(/\$\{encodeURIComponent\((\w+)\)\}/g, (_, v: string) => (/id$/i.test(v) && v !== "obfuscatedId" ? "46" : "0a1b2c3d4e5f60718293a4b5c6d7e8f9"));
      const match = matchApiRoute(method!, path);
      expect(match && "route" in match, `${method} ${path}`).toBe(true);
    }
  });

  test("fixed paths win over parameters; parameters are strict", () => {
    expect(matchApiRoute("DELETE", "/imagine/requests/pending")).toEqual({ route: { method: "DELETE", path: "/imagine/requests/pending" } });
    expect(matchApiRoute("GET", "/skybox/export/history")).toEqual({ route: { method: "GET", path: "/skybox/export/history" } });
    expect(matchApiRoute("GET", "/imagine/requests/pending")).toEqual({ allowedMethods: ["DELETE"] });
    expect(matchApiRoute("GET", "/skybox/batch/abc")).toBeNull();
    expect(matchApiRoute("GET", "/skybox/export/..")).toBeNull();
    expect(matchApiRoute("PUT", "/skybox")).toEqual({ allowedMethods: ["POST", "GET"] });
  });
});

describe("private addresses", () => {
  test.each(["127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "::1", "::", "fe80::1", "fd00::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "[::1]", "not-an-ip"])(
    "%s is private",
    (a) => expect(isPrivateAddress(a)).toBe(true),
  );
  test.each(["8.8.8.8", "172.32.0.1", "93.184.216.34", "2606:4700::1111", "::ffff:8.8.8.8"])("%s is public", (a) => expect(isPrivateAddress(a)).toBe(false));

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
      request: { file_url: "http://a.test/1.jpg", thumb_url: "", depth_map_url: null, prompt: "http://not-a-file.test/x", exports: { glb: "http://b.test/m.glb" } },
      data: [{ image: "https://c.test/s.webp", image_jpg: "relative.jpg" }],
    };
    const out = rewriteAssetUrls(body, (u) => (hosts.learn(u), `/p/${u.host}`)) as typeof body;
    expect(out.request).toEqual({ file_url: "/p/a.test", thumb_url: "", depth_map_url: null, prompt: "http://not-a-file.test/x", exports: { glb: "/p/b.test" } });
    expect(out.data[0]).toEqual({ image: "/p/c.test", image_jpg: "relative.jpg" });
    expect(["http://a.test/z", "http://b.test/z", "https://c.test/z", "http://not-a-file.test/x", "https://a.test/z"].map((u) => hosts.has(new URL(u)))).toEqual([true, true, true, false, false]);
  });

  test("learned hosts are bounded, oldest forgotten first", () => {
    const hosts = new AssetHosts(2);
    for (const h of ["a", "b", "c"]) hosts.learn(new URL(`http://${h}.test/`));
    expect(["a", "b", "c"].map((h) => hosts.has(new URL(`http://${h}.test/x`)))).toEqual([false, true, true]);
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
