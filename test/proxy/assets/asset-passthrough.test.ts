import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { startSkyboxProxyServer } from "../../../src/proxy/index.ts";
import { startRecordingServer, type Recorded, type Reply } from "../../helpers/recording-server.ts";
import { completeRecord } from "../../fixtures/api-shapes.ts";
import { KEY, startProxyPair } from "../proxy-fixture.ts";

const FILE = "0123456789abcdefghijklmnopqrstuvwxyz";
let pair: Awaited<ReturnType<typeof startProxyPair>>;
let other: Awaited<ReturnType<typeof startRecordingServer>>;
let record: Record<string, unknown>;

/** The upstream: the API, plus files on its own host with Range support. */
function answer(r: Recorded): Reply {
  if (r.path === "/api/v1/imagine/requests/46") return { body: { request: record } };
  if (r.path === "/files/moved.jpg") return { status: 302, headers: { location: String(r.query.get("to")) } };
  if (r.path === "/files/page.html") return { body: "<script>alert(1)</script>", headers: { "content-type": "text/html" } };
  if (!r.path.startsWith("/files/")) return { status: 404, body: { error: "no" } };
  const m = /^bytes=(\d+)-(\d+)$/.exec(String(r.headers.range ?? ""));
  const body = m ? FILE.slice(Number(m[1]), Number(m[2]) + 1) : FILE;
  const headers: Record<string, string> = {
    "content-type": "image/jpeg",
    "content-length": String(body.length),
    "accept-ranges": "bytes",
    etag: '"v1"',
    "set-cookie": "cdn=1",
  };
  if (m) headers["content-range"] = `bytes ${m[1]}-${m[2]}/${FILE.length}`;
  return { status: m ? 206 : 200, body, headers };
}

beforeAll(async () => {
  pair = await startProxyPair(answer);
  other = await startRecordingServer(() => ({ body: "private" }));
});
afterAll(async () => {
  await pair.close();
  await other.close();
});
beforeEach(() => {
  pair.upstream.requests.length = 0;
  other.requests.length = 0;
  record = {
    ...completeRecord,
    file_url: `${pair.upstream.url}/files/46/image.jpg`,
    thumb_url: `${other.url}/files/46/thumb.jpg`,
    depth_map_url: "http://10.0.0.1/depth.png",
    exports: { x: "http://localhost:1/e.glb", y: `${pair.upstream.url}/files/page.html` },
  };
});

/** Fetches the record through the proxy, so its hosts are learned; returns its rewritten fields. */
async function learn() {
  const res = await fetch(`${pair.api}/api/v1/imagine/requests/46`);
  return (await res.json()).request as { file_url: string; thumb_url: string; depth_map_url: string; exports: Record<string, string> };
}

describe("asset passthrough", () => {
  test("a file the upstream named streams through with type, length, ranges and a long cache, and without the key", async () => {
    const g = await learn();
    expect(g.file_url).toBe(`/skybox/assets/http/${new URL(pair.upstream.url).host}/files/46/image.jpg`);
    const res = await fetch(`${pair.url}${g.file_url}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(FILE);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(res.headers.get("content-length")).toBe(String(FILE.length));
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("set-cookie")).toBeNull();
    const sent = pair.upstream.last();
    expect(sent.path).toBe("/files/46/image.jpg");
    expect(sent.headers["x-api-key"]).toBeUndefined();
  });

  test("Range requests pass through as 206 with Content-Range", async () => {
    const g = await learn();
    const res = await fetch(`${pair.url}${g.file_url}`, { headers: { range: "bytes=10-19" } });
    expect(res.status).toBe(206);
    expect(await res.text()).toBe("abcdefghij");
    expect(res.headers.get("content-range")).toBe(`bytes 10-19/${FILE.length}`);
    expect(pair.upstream.last().headers.range).toBe("bytes=10-19");
  });

  test("HEAD, and the ?url= form", async () => {
    await learn();
    const url = `${pair.api}/assets?url=${encodeURIComponent(`${pair.upstream.url}/files/46/image.jpg`)}`;
    const head = await fetch(url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(FILE.length));
    expect(pair.upstream.last().method).toBe("HEAD");
    expect(await (await fetch(url)).text()).toBe(FILE);
  });

  test("a host the upstream never named is refused without a request", async () => {
    await learn();
    const res = await fetch(`${pair.api}/assets/http/127.0.0.1:1/files/x.jpg`);
    expect(res.status).toBe(403);
    const foreign = await fetch(`${pair.api}/assets?url=${encodeURIComponent("https://cdn.elsewhere.example.test/a.jpg")}`);
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).error).toMatch(/not one the Skybox API has named/);
  });

  test("private addresses are refused even when named, unless they are the upstream's own host", async () => {
    const g = await learn();
    for (const url of [g.thumb_url, g.depth_map_url, g.exports.x!]) {
      const res = await fetch(`${pair.url}${url}`);
      expect(res.status, url).toBe(403);
      expect((await res.json()).error).toMatch(/private address/);
    }
    expect(other.requests).toHaveLength(0);
  });

  test("redirects are followed within the host only", async () => {
    await learn();
    const host = new URL(pair.upstream.url).host;
    const away = await fetch(`${pair.api}/assets/http/${host}/files/moved.jpg?to=${encodeURIComponent(`${other.url}/steal`)}`);
    expect(away.status).toBe(502);
    expect(other.requests).toHaveLength(0);
    const within = await fetch(`${pair.api}/assets/http/${host}/files/moved.jpg?to=/files/46/image.jpg`);
    expect(within.status).toBe(200);
    expect(await within.text()).toBe(FILE);
  });

  test("active content is never served as such from the app's origin", async () => {
    const g = await learn();
    const res = await fetch(`${pair.url}${g.exports.y}`);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
  });

  test("user-info and malformed names are refused", async () => {
    await learn();
    const host = new URL(pair.upstream.url).host;
    for (const path of [
      `/assets/http/evil@${host}/files/a.jpg`,
      "/assets/ftp/x/y",
      "/assets/http/%zz/a",
      `/assets?url=${encodeURIComponent(`http://u:p@${host}/files/a`)}`,
    ]) {
      expect((await fetch(`${pair.api}${path}`)).status, path).toBe(400);
    }
    expect(pair.upstream.requests).toHaveLength(1);
  });
});

describe("streaming", () => {
  let server: Server;
  let release: () => void = () => {};
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/api/v1/imagine/requests/1") {
        res.writeHead(200, { "content-type": "application/json" });
        return void res.end(
          JSON.stringify({
            id: 1,
            obfuscated_id: "a",
            status: "complete",
            file_url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/files/big.bin`,
          }),
        );
      }
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": "8" });
      res.write("first");
      release = () => res.end("end");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  test("the first bytes arrive before the asset host has finished", async () => {
    const proxy = await startSkyboxProxyServer({
      port: 0,
      apiKey: KEY,
      upstream: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      log: () => {},
    });
    try {
      const g = await (await fetch(`${proxy.url}/skybox/api/v1/imagine/requests/1`)).json();
      const res = await fetch(`${proxy.url}${g.file_url}`);
      const reader = res.body!.getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toBe("first");
      release();
      let rest = "";
      for (let c = await reader.read(); !c.done; c = await reader.read()) rest += new TextDecoder().decode(c.value);
      expect(rest).toBe("end");
    } finally {
      release();
      await proxy.close();
    }
  });
});
