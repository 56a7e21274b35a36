/**
 * A plain static file server on loopback, standing in for any static host or CDN: GET and
 * HEAD of files under its folders, nothing else (no proxy, no API, no rewriting). It records
 * every request path, so a test can show a page asked for nothing but static files.
 */
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".png": "image/png",
  ".glb": "model/gltf-binary",
  ".wasm": "application/wasm",
};

export interface StaticServer {
  url: string;
  /** Paths requested so far (with their query), in order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * @param mounts URL prefix (e.g. "/" or "/skyboxes/") to folder; the longest prefix wins
 * @param options `cors`: let pages of any origin read the files
 */
export async function startStaticServer(mounts: Record<string, string>, { cors = false } = {}): Promise<StaticServer> {
  const requests: string[] = [];
  const prefixes = Object.keys(mounts).sort((a, b) => b.length - a.length);
  const server = createServer((req, res) => {
    requests.push(req.url ?? "");
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    const prefix = prefixes.find((p) => path.startsWith(p));
    const rest = prefix === undefined ? null : normalize(path.slice(prefix.length));
    let file = prefix === undefined || rest === null || rest.startsWith("..") ? null : join(mounts[prefix]!, rest);
    if (file && existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
    if ((req.method !== "GET" && req.method !== "HEAD") || !file || file.split(sep).includes("..") || !existsSync(file)) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    // `cors`: as a CDN serving another origin's app answers.
    res.writeHead(200, {
      "content-type": TYPES[extname(file)] ?? "application/octet-stream",
      "content-length": statSync(file).size,
      ...(cors ? { "access-control-allow-origin": "*" } : {}),
    });
    if (req.method === "HEAD") res.end();
    else createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
