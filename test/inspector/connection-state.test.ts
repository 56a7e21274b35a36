import { describe, expect, test } from "vitest";
import { ConnectionState } from "../../src/inspector/state/ConnectionState.ts";

/** The pane's connection with a proxy whose `/config` answers `body`. */
async function connect(body: unknown) {
  const fetch = async () => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
  const connection = new ConnectionState({ baseUrl: "http://127.0.0.1:9/skybox", fetch: fetch as typeof globalThis.fetch });
  await connection.tracker();
  const value = connection.value;
  connection.dispose();
  return value;
}

describe("the pane reads the proxy's /config with its schema", () => {
  test("a proxy's answer: upstream and updates follow it", async () => {
    const value = await connect({ upstream: "local", push: null, webhooksRelayed: true, eventsUrl: "/skybox/events", assetsUrl: "/skybox/assets" });
    expect(value).toEqual({ upstream: "local", updates: "push", configProblem: null, saveToProject: null });
  });

  test("a dev server's answer names its Save to project route", async () => {
    const value = await connect({ upstream: "local", push: null, webhooksRelayed: false, eventsUrl: null, assetsUrl: "/skybox/assets", saveToProject: "/skybox/project/skyboxes" });
    expect(value.saveToProject).toBe("/skybox/project/skyboxes");
  });

  test("an answer that does not fit: a clear problem, and updates are polled", async () => {
    const value = await connect({ upstream: "local", push: { key: 7 } });
    expect(value.upstream).toBeNull();
    expect(value.updates).toBe("poll");
    expect(value.configProblem).toMatch(/\/config answer does not fit: .*push\.key.*; status updates are polled$/);
  });
});
