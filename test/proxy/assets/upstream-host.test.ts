/**
 * Host equivalence for the asset passthrough: `localhost`, `127.0.0.1` and `[::1]` name the
 * same upstream host, and no other private address opens with them.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSkyboxClient, type Generation } from "../../../src/api/index.ts";
import { isUpstreamHost } from "../../../src/proxy/assets/address-check.ts";
import { startSkyboxProxyServer, type SkyboxProxyServer } from "../../../src/proxy/index.ts";
import { completeRecord } from "../../fixtures/api-shapes.ts";
import { startLocalProcess, waitFor, type LocalProcess } from "../../helpers/local-service.ts";
import { startProxyPair } from "../proxy-fixture.ts";

describe("isUpstreamHost", () => {
  const same = (a: string, b: string) => isUpstreamHost(new URL(a), new URL(b));

  test("the three loopback spellings are one host, on the same port", () => {
    for (const a of ["localhost", "127.0.0.1", "[::1]", "LOCALHOST"])
      for (const b of ["localhost", "127.0.0.1", "[::1]"])
        expect(same(`http://${a}:8790/f.jpg`, `http://${b}:8790`), `${a} ${b}`).toBe(true);
    expect(same("https://cdn.example.test/a.jpg", "https://cdn.example.test")).toBe(true);
    expect(same("http://127.0.0.1/a.jpg", "http://localhost:80")).toBe(true);
    // URL parsing writes 127.1 as 127.0.0.1: the same address, not another spelling let in.
    expect(same("http://127.1:8790/f.jpg", "http://localhost:8790")).toBe(true);
  });

  test("nothing else is: other loopback addresses, other ports, other private hosts", () => {
    expect(same("http://127.0.0.2:8790/f.jpg", "http://localhost:8790")).toBe(false);
    expect(same("http://[::ffff:127.0.0.1]:8790/f.jpg", "http://localhost:8790")).toBe(false);
    expect(same("http://127.0.0.1:8791/f.jpg", "http://localhost:8790")).toBe(false);
    expect(same("http://10.0.0.1:8790/f.jpg", "http://localhost:8790")).toBe(false);
    expect(same("http://localhost.example.test:8790/f.jpg", "http://localhost:8790")).toBe(false);
    expect(same("http://10.0.0.1:8790/f.jpg", "http://10.0.0.2:8790")).toBe(false);
  });
});

describe("an upstream given as localhost", () => {
  test("files named at 127.0.0.1 are served; at 127.0.0.2 they stay private", async () => {
    let port = "";
    const pair = await startProxyPair((r) =>
      r.path.startsWith("/files/")
        ? { body: "jpeg bytes", headers: { "content-type": "image/jpeg" } }
        : {
            body: {
              request: {
                ...completeRecord,
                file_url: `http://127.0.0.1:${port}/files/a.jpg`,
                thumb_url: `http://127.0.0.2:${port}/files/b.jpg`,
              },
            },
          },
    );
    await pair.proxy.close();
    port = new URL(pair.upstream.url).port;
    const proxy = await startSkyboxProxyServer({
      port: 0,
      apiKey: "sk-localhost-test-1234",
      upstream: `http://localhost:${port}`,
      log: () => {},
    });
    try {
      const g = (await (await fetch(`${proxy.url}/skybox/api/v1/imagine/requests/46`)).json()).request as Generation;
      const file = await fetch(`${proxy.url}${g.file_url}`);
      expect(file.status).toBe(200);
      expect(await file.text()).toBe("jpeg bytes");
      const thumb = await fetch(`${proxy.url}${g.thumb_url}`);
      expect(thumb.status).toBe(403);
      expect((await thumb.json()).error).toMatch(/private address/);
    } finally {
      await proxy.close();
      await pair.upstream.close();
    }
  });
});

describe("with the local service as `--upstream http://localhost:PORT`", () => {
  let svc: LocalProcess;
  let proxy: SkyboxProxyServer;
  beforeAll(async () => {
    svc = await startLocalProcess();
    const { port } = new URL(svc.info.url);
    proxy = await startSkyboxProxyServer({ port: 0, apiKey: svc.info.apiKey, upstream: `http://localhost:${port}`, log: () => {} });
  });
  afterAll(async () => {
    await proxy?.close();
    await svc?.stop();
  });

  test("a generation's files load through the proxy", async () => {
    const client = createSkyboxClient({ baseUrl: `${proxy.url}/skybox`, retry: 0 });
    const created = await client.generate({ prompt: "harbour at dusk", skybox_style_id: 2 });
    const done = await waitFor(async () => {
      const g = await client.getGeneration(created.id);
      return g.status === "complete" && g;
    }, 60_000);
    expect(done.file_url).toMatch(/^\/skybox\/assets\/http\/127\.0\.0\.1:\d+\//);
    for (const url of [done.file_url, done.thumb_url, done.depth_map_url]) {
      const res = await fetch(`${proxy.url}${url}`);
      expect(res.status, url).toBe(200);
      expect((await res.arrayBuffer()).byteLength, url).toBeGreaterThan(100);
    }
  }, 90_000);
});
