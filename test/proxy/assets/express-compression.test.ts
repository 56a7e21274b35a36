/**
 * The proxy mounted behind Express 5 with `compression()`, as an app serves it: a GLB
 * (compressible, so compression() takes over the response's write and drain) streams
 * through whole, compressed, without waiting for the proxy's timeout.
 */
import compression from "compression";
import express from "express";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createSkyboxProxyMiddleware } from "../../../src/proxy/index.ts";
import { KEY } from "../proxy-fixture.ts";

/** Large enough to fill every buffer between the host and compression() many times over. */
const GLB = Buffer.from(Array.from({ length: 8 * 1024 * 1024 }, (_, i) => (i * 7) % 251));

let host: Server;
let app: Server;
let middleware: ReturnType<typeof createSkyboxProxyMiddleware>;
let upstream = "";

beforeAll(async () => {
  host = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "model/gltf-binary", "content-length": String(GLB.length) });
    res.end(GLB);
  });
  await new Promise<void>((r) => host.listen(0, "127.0.0.1", r));
  upstream = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  // A timeout well past the download's own time: a response stalled behind compression() would end at it, broken.
  middleware = createSkyboxProxyMiddleware({ apiKey: KEY, upstream, rateLimit: false, timeoutMs: 5000, log: () => {} });
  const application = express();
  application.use(compression());
  application.use(middleware);
  app = application.listen(0, "127.0.0.1");
  await new Promise<void>((r) => app.once("listening", r));
});
afterAll(async () => {
  middleware.proxy.close();
  for (const server of [app, host]) {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});

test("a GLB streams through the proxy behind Express's compression(): whole, compressed, in time", async () => {
  const url = `http://127.0.0.1:${(app.address() as AddressInfo).port}/skybox/assets/http/${new URL(upstream).host}/files/scene.glb`;
  const res = await fetch(url, { headers: { "accept-encoding": "gzip" } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-encoding")).toBe("gzip");
  const body = Buffer.from(await res.arrayBuffer());
  expect(body.length).toBe(GLB.length);
  expect(body.equals(GLB)).toBe(true);
}, 30_000);
