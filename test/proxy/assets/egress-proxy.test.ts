/**
 * An egress proxy named by `HTTP_PROXY` (the `proxy` package, a CONNECT and forward proxy on
 * 127.0.0.1): the API and the files go through it, and the check against private addresses
 * still holds for the files' hosts, whose names the egress proxy would resolve itself.
 * The upstream's name resolves only at the egress proxy (it stands for a host on the
 * company's network: the proxy machine itself could not reach it).
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createProxy } from "proxy";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startSkyboxProxyServer, type SkyboxProxyServer } from "../../../src/proxy/index.ts";
import { completeRecord } from "../../fixtures/api-shapes.ts";
import { KEY } from "../proxy-fixture.ts";

const NAME = "skybox-upstream.example.test";
const GLB = Buffer.from(Array.from({ length: 512 * 1024 }, (_, i) => (i * 13) % 256));
const ENV_NAMES = ["HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "NO_PROXY", "no_proxy"];

let upstream: Server;
let egress: Server;
let proxy: SkyboxProxyServer;
let port = 0;
/** Targets the egress proxy was asked for (CONNECT authorities, or absolute URLs). */
const asked: string[] = [];
const savedEnv = new Map<string, string | undefined>();

/** Records what the egress proxy is asked for, and resolves the upstream's name there. */
function resolveAtEgress(req: IncomingMessage): void {
  asked.push(req.url ?? "");
  req.url = (req.url ?? "").replace(NAME, "127.0.0.1");
}

beforeAll(async () => {
  upstream = createServer((req, res) => {
    if (req.url === "/api/v1/imagine/requests/7") {
      res.writeHead(200, { "content-type": "application/json" });
      // A file on the upstream's own host, and one on a name that resolves to a private address
      // (localhost's does on every machine; the machine's own host name may resolve anywhere, or nowhere).
      const record = {
        ...completeRecord,
        id: 7,
        file_url: `http://${NAME}:${port}/files/scene.glb`,
        thumb_url: `http://localhost:${port}/files/scene.glb`,
      };
      return void res.end(JSON.stringify({ request: record }));
    }
    res.writeHead(200, { "content-type": "model/gltf-binary", "content-length": String(GLB.length) });
    res.end(GLB);
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  port = (upstream.address() as AddressInfo).port;
  egress = createProxy(createServer());
  egress.prependListener("connect", resolveAtEgress);
  egress.prependListener("request", resolveAtEgress);
  await new Promise<void>((r) => egress.listen(0, "127.0.0.1", r));
  for (const name of ENV_NAMES) savedEnv.set(name, process.env[name]);
  for (const name of ENV_NAMES) delete process.env[name];
  process.env.HTTP_PROXY = `http://127.0.0.1:${(egress.address() as AddressInfo).port}`;
  proxy = await startSkyboxProxyServer({ port: 0, apiKey: KEY, upstream: `http://${NAME}:${port}`, rateLimit: false, log: () => {} });
});
afterAll(async () => {
  for (const [name, value] of savedEnv) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await proxy.close();
  for (const server of [egress, upstream]) {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});

/** The record through the proxy, its file URLs rewritten to the passthrough. */
async function record(): Promise<{ file_url: string; thumb_url: string }> {
  const res = await fetch(`${proxy.url}/skybox/api/v1/imagine/requests/7`);
  expect(res.status).toBe(200);
  return (await res.json()).request;
}

test("the API and a file go through the egress proxy named by HTTP_PROXY", async () => {
  const { file_url } = await record();
  const before = asked.length;
  const res = await fetch(`${proxy.url}${file_url}`);
  expect(res.status).toBe(200);
  expect(Buffer.from(await res.arrayBuffer()).equals(GLB)).toBe(true);
  expect(asked.slice(before)).toEqual([`${NAME}:${port}`]);
});

test("a file's host that resolves to a private address is refused before the egress proxy is asked", async () => {
  const { thumb_url } = await record();
  const res = await fetch(`${proxy.url}${thumb_url}`);
  expect(res.status).toBe(403);
  expect((await res.json()).error).toBe("This file's host is a private address");
  expect(asked.filter((target) => target.startsWith("localhost"))).toEqual([]);
});
