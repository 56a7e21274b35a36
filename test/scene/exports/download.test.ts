/**
 * Downloads of skybox files from a real HTTP server: a 429 with Retry-After (the proxy's
 * answer to a burst of re-applies) and a 502 (a restarting proxy) are waited out, a 404
 * fails at once naming the URL and status, and an abort during the wait ends it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { downloadBytes } from "../../../src/scene/exports/download.ts";

/** Each path's answers in turn (status, Retry-After); the last one repeats. */
const script = new Map<string, [number, string?][]>();
const served = new Map<string, number>();
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const answers = script.get(req.url!) ?? [[404]];
    const n = served.get(req.url!) ?? 0;
    served.set(req.url!, n + 1);
    const [status, after] = answers[Math.min(n, answers.length - 1)]!;
    if (after !== undefined) res.setHeader("retry-after", after);
    res.statusCode = status;
    res.end(status === 200 ? "skybox bytes" : "no");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("downloadBytes", () => {
  it("waits out a 429 with Retry-After and a 502, then returns the bytes", async () => {
    script.set("/busy.hdr", [[429, "0"], [502], [200]]);
    const bytes = await downloadBytes(`${base}/busy.hdr`, "hdri-hdr 1K", {});
    expect(new TextDecoder().decode(bytes)).toBe("skybox bytes");
    expect(served.get("/busy.hdr")).toBe(3);
  });

  it("fails at once on a 404, naming the file, the URL and the status", async () => {
    script.set("/gone.hdr", [[404]]);
    await expect(downloadBytes(`${base}/gone.hdr`, "hdri-hdr 1K", {})).rejects.toThrow(
      `Download of the hdri-hdr 1K failed (${base}/gone.hdr): HTTP 404 Not Found`,
    );
    expect(served.get("/gone.hdr")).toBe(1);
  });

  it("gives up after the client's retries, with the last status", async () => {
    script.set("/limited.hdr", [[429, "0"]]);
    await expect(downloadBytes(`${base}/limited.hdr`, "depth map", {})).rejects.toThrow(/depth map failed .*: HTTP 429 Too Many Requests/);
    expect(served.get("/limited.hdr")).toBe(3);
  });

  it("ends with the abort's reason when aborted while it waits to retry", async () => {
    script.set("/slow.hdr", [[429, "30"]]);
    const abort = new AbortController();
    const download = downloadBytes(`${base}/slow.hdr`, "hdri-hdr 1K", { signal: abort.signal });
    setTimeout(() => abort.abort(new Error("replaced by another skybox")), 100);
    await expect(download).rejects.toThrow("replaced by another skybox");
  });
});
