import { describe, expect, test } from "vitest";
import { ConnectionState } from "../../../src/inspector/state/connection-state.ts";

/** The pane's connection with a proxy whose `/config` answers `body`. */
async function connect(body: unknown) {
  const fetch = async () => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
  const connection = new ConnectionState({ baseUrl: "http://127.0.0.1:9/skybox", fetch: fetch });
  await connection.tracker();
  const value = connection.value;
  connection.dispose();
  return value;
}

describe("the pane reads the proxy's /config with its schema", () => {
  test("a proxy's answer: upstream and updates follow it", async () => {
    const value = await connect({
      upstream: "local",
      push: null,
      webhooksRelayed: true,
      eventsUrl: "/skybox/events",
      assetsUrl: "/skybox/assets",
    });
    expect(value).toEqual({
      upstream: "local",
      updates: "push",
      configProblem: null,
      lost: null,
      pushState: null,
      saveToProject: null,
      saveToProjectFolder: null,
    });
  });

  test("a dev server's answer names its Save to project route", async () => {
    const value = await connect({
      upstream: "local",
      push: null,
      webhooksRelayed: false,
      eventsUrl: null,
      assetsUrl: "/skybox/assets",
      saveToProject: "/skybox/project/skyboxes",
      saveToProjectFolder: "app/public/skyboxes",
    });
    expect(value.saveToProject).toBe("/skybox/project/skyboxes");
    expect(value.saveToProjectFolder).toBe("app/public/skyboxes");
  });

  test("an answer that does not fit: a clear problem, and updates are polled", async () => {
    const value = await connect({ upstream: "local", push: { key: 7 } });
    expect(value.upstream).toBeNull();
    expect(value.updates).toBe("poll");
    expect(value.configProblem).toMatch(/\/config answer does not fit: .*push\.key.*; status updates are polled$/);
  });
});

describe("the pane knows when the proxy cannot be reached", () => {
  test("a request the network fails marks the proxy lost; asked again, it answers and is back", async () => {
    let up = false;
    const asked: number[] = [];
    const fetch = async () => {
      asked.push(Date.now());
      if (!up) throw new TypeError("Failed to fetch");
      return new Response(JSON.stringify({ upstream: "local", push: null }), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    };
    const connection = new ConnectionState({ baseUrl: "http://127.0.0.1:9/skybox", fetch: fetch });
    try {
      await connection.tracker();
      expect(connection.value.lost?.why).toBe("Failed to fetch");
      const since = connection.value.lost!.since;
      up = true;
      await expect.poll(() => connection.value.lost, { timeout: 5000 }).toBeNull();
      // Asked again once, about 2 s after it was lost.
      expect(asked).toHaveLength(2);
      expect(asked[1]! - since).toBeGreaterThanOrEqual(1900);
    } finally {
      connection.dispose();
    }
  });

  test("a request the caller aborted says nothing of the proxy", async () => {
    const fetch = async () => {
      throw new DOMException("The operation was aborted.", "AbortError");
    };
    const connection = new ConnectionState({ baseUrl: "http://127.0.0.1:9/skybox", fetch: fetch });
    try {
      await connection.tracker();
      expect(connection.value.lost).toBeNull();
      expect(connection.value.configProblem).toContain("aborted");
    } finally {
      connection.dispose();
    }
  });
});
