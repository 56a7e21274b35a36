/**
 * How an asset's body crosses the proxy (asset-client.ts, on undici): at the client's pace,
 * with the host's connection paused meanwhile; stopped when the client leaves, or takes
 * nothing for longer than timeoutMs; broken, never short, when the host fails mid-body; the
 * same bytes through the Fetch-API face; transfer codings taken off and content codings
 * passed on with their header; a 502 for a response that is not HTTP/1.1 (the host's
 * connection closed, the proxy serving on), a 504 when the host sends no head in time.
 */
import { createServer, get, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSkyboxProxy, startSkyboxProxyServer, type SkyboxProxyServer } from "../../../src/proxy/index.ts";
import { waitFor } from "../../helpers/local-service.ts";
import { KEY } from "../proxy-fixture.ts";

const MB = 1024 * 1024;
const BIG = 96 * MB;
const chunk = Buffer.alloc(64 * 1024, 7);

/** What the asset host did for the last large file: bytes it could write, and whether its client went away. */
let sent = 0;
let hostSawClose = false;
let upstreamUrl = "";
/** Whether the proxy closed the connection of the response with a NUL in a header. */
let nulConnectionClosed = false;

/** A mesh file's bytes: compressible, as GLB files are. */
const GLB = Buffer.from(Array.from({ length: 256 * 1024 }, (_, i) => (i % 97) * (i % 3)));
const GLB_GZIPPED = gzipSync(GLB);

/** The upstream's own host, whose files the proxy serves: a large one written as fast as its client takes it, one that fails midway, one that never answers. */
function host(req: IncomingMessage, res: ServerResponse): void {
  if (req.url === "/files/big.bin") {
    sent = 0;
    hostSawClose = false;
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(BIG) });
    res.once("close", () => (hostSawClose = !res.writableFinished));
    const pump = () => {
      while (sent < BIG && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      res.end();
    };
    return pump();
  }
  if (req.url === "/files/broken.bin") {
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": "1000" });
    res.write(Buffer.alloc(500, 1));
    return void setTimeout(() => res.destroy(), 20);
  }
  if (req.url === "/files/counted.bin") {
    res.writeHead(200, { "content-type": "application/octet-stream" });
    // Chunked, in many small writes: the web stream sees them a chunk per pull.
    for (let i = 0; i < 200; i++) res.write(Buffer.alloc(1000, i));
    return void res.end();
  }
  // Hosts that write their response by hand and keep the connection open after it (saying
  // "close", so that the proxy sends no other request on it to a server that would not answer).
  if (req.url === "/files/empty-open.bin")
    return void req.socket.write("HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
  if (req.url === "/files/short-open.bin")
    return void req.socket.write("HTTP/1.1 200 OK\r\nconnection: close\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n");
  if (req.url === "/files/garbage.bin") return void req.socket.end("ICY 200 OK\r\n\r\nmusic");
  // gzip as a transfer coding: the host's connection's business, taken off by the proxy.
  if (req.url === "/files/te-gzip.glb") {
    req.socket.write(
      `HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-type: model/gltf-binary\r\ntransfer-encoding: gzip, chunked\r\n\r\n${GLB_GZIPPED.length.toString(16)}\r\n`,
    );
    return void req.socket.write(Buffer.concat([GLB_GZIPPED, Buffer.from("\r\n0\r\n\r\n")]));
  }
  // gzip as a content coding: part of the file as the host serves it.
  if (req.url === "/files/ce-gzip.glb") {
    res.writeHead(200, { "content-type": "model/gltf-binary", "content-encoding": "gzip", "content-length": String(GLB_GZIPPED.length) });
    return void res.end(GLB_GZIPPED);
  }
  // A NUL in a header value, the body promised and left pending on an open connection.
  if (req.url === "/files/nul-header.bin") {
    nulConnectionClosed = false;
    req.socket.once("close", () => (nulConnectionClosed = true));
    return void req.socket.write(
      `HTTP/1.1 200 OK\r\ncontent-type: image/jpeg\r\nx-note: a\0b\r\ncontent-length: 1000\r\n\r\n${"x".repeat(500)}`,
    );
  }
  // /files/silent.bin: never answers.
}

let server: Server;
let proxy: SkyboxProxyServer;
/** The same with a short timeoutMs. */
let impatient: SkyboxProxyServer;
/** The same with a long timeoutMs, which would not end anything within a test. */
let patient: SkyboxProxyServer;
const asset = (name: string, through = proxy) => `${through.url}/skybox/assets/http/${new URL(upstreamUrl).host}/files/${name}`;

beforeAll(async () => {
  server = createServer(host);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  upstreamUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy = await startSkyboxProxyServer({ port: 0, apiKey: KEY, upstream: upstreamUrl, rateLimit: false, timeoutMs: 3000, log: () => {} });
  impatient = await startSkyboxProxyServer({
    port: 0,
    apiKey: KEY,
    upstream: upstreamUrl,
    rateLimit: false,
    timeoutMs: 300,
    log: () => {},
  });
  patient = await startSkyboxProxyServer({
    port: 0,
    apiKey: KEY,
    upstream: upstreamUrl,
    rateLimit: false,
    timeoutMs: 600_000,
    log: () => {},
  });
});
afterAll(async () => {
  await proxy.close();
  await impatient.close();
  await patient.close();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

/** A GET whose response is left unread after its first chunk. */
function stalledDownload(url: string): Promise<{ res: IncomingMessage; first: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      res.once("data", (first: Buffer) => {
        res.pause();
        resolve({ res, first });
      });
    }).once("error", reject);
  });
}

/** A GET through Node's client, which leaves a content coding on: the bytes as the proxy sent them. */
function rawGet(url: string): Promise<{ headers: IncomingMessage["headers"]; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.once("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      res.once("error", reject);
    }).once("error", reject);
  });
}

describe("an asset's body through the proxy", () => {
  test("goes at the client's pace: while the client reads nothing, the host can write only what the sockets hold", async () => {
    const { res, first } = await stalledDownload(asset("big.bin"));
    await new Promise((r) => setTimeout(r, 700));
    const stalled = sent;
    await new Promise((r) => setTimeout(r, 300));
    // Loopback socket buffers hold a few MB on each side; nothing in the proxy holds more.
    expect(stalled).toBeLessThan(32 * MB);
    expect(sent).toBe(stalled);
    // Read on: the rest comes, and all of it.
    let received = first.length;
    res.on("data", (c: Buffer) => (received += c.length));
    res.resume();
    await new Promise((resolve, reject) => {
      res.once("end", resolve);
      res.once("error", reject);
    });
    expect(received).toBe(BIG);
    expect(res.complete).toBe(true);
  }, 60_000);

  test("stops at the host when the client leaves mid-file", async () => {
    const { res } = await stalledDownload(asset("big.bin"));
    res.destroy();
    await waitFor(() => hostSawClose, 5000);
    expect(sent).toBeLessThan(BIG);
  });

  test("lets go of a client that takes nothing for timeoutMs: the host's connection is closed, the response broken", async () => {
    const { res } = await stalledDownload(asset("big.bin", impatient));
    const broken = new Promise((resolve) => res.once("error", resolve).once("aborted", resolve));
    await waitFor(() => hostSawClose, 5000);
    res.resume();
    await broken;
    expect(res.complete).toBe(false);
  });

  test("breaks the response when the host fails mid-body, so that the client never takes it as complete", async () => {
    const outcome = await new Promise<string>((resolve) => {
      get(asset("broken.bin"), (res) => {
        let bytes = 0;
        res.on("data", (c: Buffer) => (bytes += c.length));
        res.once("end", () => resolve(`ended after ${bytes} bytes, complete: ${res.complete}`));
        res.once("error", () => resolve(`broken after ${bytes} bytes`));
      }).once("error", () => resolve("broken before the head"));
    });
    expect(outcome).toBe("broken after 500 bytes");
  });

  test("reads the same through the Fetch-API face (a web stream, a chunk per pull)", async () => {
    const handler = createSkyboxProxy({ apiKey: KEY, upstream: upstreamUrl, rateLimit: false, log: () => {} });
    try {
      const res = await handler(new Request(`http://app.test/skybox/assets/http/${new URL(upstreamUrl).host}/files/counted.bin`));
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(bytes.length).toBe(200_000);
      for (let i = 0; i < 200; i++) expect(bytes[i * 1000 + 999], `part ${i}`).toBe(i);
    } finally {
      handler.close();
    }
  });

  test("ends a body at its length or last chunk, even when the host keeps the connection open", async () => {
    const t0 = performance.now();
    for (const [name, body] of [
      ["empty-open.bin", ""],
      ["short-open.bin", "hello"],
    ]) {
      const res = await fetch(asset(name!));
      expect(res.status, name).toBe(200);
      expect(await res.text(), name).toBe(body);
    }
    // Well within the proxy's timeoutMs (3 s), which would otherwise end them.
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  test("answers 502 naming the fault when the host's response is not HTTP/1.1", async () => {
    const res = await fetch(asset("garbage.bin"));
    expect(res.status).toBe(502);
    expect((await res.json()).error).toBe("The asset host's response is not valid HTTP/1.1");
  });

  test("a NUL in a host's header fails that one request with a sentence and closes the host's connection; the proxy serves on", async () => {
    const res = await fetch(asset("nul-header.bin", patient));
    expect(res.status).toBe(502);
    expect((await res.json()).error).toBe("The asset host's response is not valid HTTP/1.1");
    // Closed at once, not when timeoutMs (10 minutes) would end it.
    await waitFor(() => nulConnectionClosed, 5000);
    const next = await fetch(asset("counted.bin", patient));
    expect(next.status).toBe(200);
    expect((await next.arrayBuffer()).byteLength).toBe(200_000);
  });

  test("a transfer coding (gzip, chunked) is taken off: the browser gets the file's bytes, not gzip under a plain header", async () => {
    const res = await fetch(asset("te-gzip.glb"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(Buffer.from(await res.arrayBuffer()).equals(GLB)).toBe(true);
  });

  test("a content coding (Content-Encoding: gzip) is passed on with its header, and the browser decodes it", async () => {
    const raw = await rawGet(asset("ce-gzip.glb"));
    expect(raw.headers["content-encoding"]).toBe("gzip");
    expect(raw.body.equals(GLB_GZIPPED)).toBe(true);
    const res = await fetch(asset("ce-gzip.glb"));
    expect(Buffer.from(await res.arrayBuffer()).equals(GLB)).toBe(true);
  });

  test("answers 504 when the host sends no head within timeoutMs", async () => {
    const t0 = performance.now();
    const res = await fetch(asset("silent.bin", impatient));
    expect(res.status).toBe(504);
    expect((await res.json()).error).toMatch(/did not answer in time/);
    expect(performance.now() - t0).toBeLessThan(3000);
  });
});
