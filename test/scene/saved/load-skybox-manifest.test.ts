/**
 * loadSkybox's words when the manifest URL serves something else: a server that answers its
 * index page for a file it does not have (Vite, single-page-app hosts) is named as such, not
 * as a JSON parser's complaint about `<`.
 */
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadSkybox } from "../../../src/scene/saved/load-skybox.ts";

const INDEX = "<!doctype html>\n<html><head><title>App</title></head><body><div id=app></div></body></html>\n";
let server: Server;
let origin: string;

beforeAll(async () => {
  // Every path answers: the index page with its type, or (under /untyped/) the same page with no type, or text.
  server = createServer((req, res) => {
    if (req.url!.startsWith("/text/")) return res.writeHead(200, { "content-type": "text/plain" }).end("skybox: yes");
    if (req.url!.startsWith("/untyped/")) return res.writeHead(200).end(INDEX);
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(INDEX);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("loadSkybox on a URL that serves no manifest", () => {
  const scene = () => new Scene(new NullEngine());

  test("an HTML page is named with the type the server gave, and nothing is left in the scene", async () => {
    const s = scene();
    const meshes = s.meshes.length;
    const url = `${origin}/skyboxes/example/skybox.json`;
    await expect(loadSkybox(s, url, { cache: false })).rejects.toThrow(
      `skybox.json (${url}) is not a skybox manifest: the server answered text/html, an HTML page, not JSON (servers often answer a file they do not have with their index page)`,
    );
    expect(s.meshes.length).toBe(meshes);
    s.getEngine().dispose();
  });

  test("an HTML page sent with no type is recognised by its first tag", async () => {
    const s = scene();
    await expect(loadSkybox(s, `${origin}/untyped/skybox.json`, { cache: false })).rejects.toThrow(
      /is not a skybox manifest: the server answered an HTML page, not JSON/,
    );
    s.getEngine().dispose();
  });

  test("other text is said to be no JSON, with the parser's reason", async () => {
    const s = scene();
    await expect(loadSkybox(s, `${origin}/text/skybox.json`, { cache: false })).rejects.toThrow(
      /is not a skybox manifest: it is not JSON \(Unexpected token/,
    );
    s.getEngine().dispose();
  });
});
