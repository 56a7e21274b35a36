import { Hono } from "hono";
import { describe, expect, test } from "vitest";
import {
  API_PREFIX,
  batchChannel,
  BATCH_STATUSES,
  BATCH_TERMINAL,
  createSkyboxClient,
  endpointOf,
  ErrorEnvelope,
  errorEnvelope,
  exportChannel,
  generationChannel,
  isBatchTerminal,
  isRequestTerminal,
  isSkyboxApiError,
  isTerminalStatus,
  issuesOf,
  MESSAGES,
  pathOf,
  ProxyConfig,
  PUSH_EVENT,
  readProxyConfig,
  REQUEST_STATUSES,
  REQUEST_TERMINAL,
  ROUTES,
  type RouteName,
  type RouteParams,
} from "../../src/api/index.ts";
import { issue, type RuleIssue } from "../../src/api/rules/rule-issue.ts";
import { registerApiRoutes, type ApiHandlers } from "../../src/local/http/api-routes.ts";
import type { AppEnv } from "../../src/local/http/context.ts";
import { HttpError, ruleError } from "../../src/local/http/http-error.ts";
import { API_ROUTES, matchApiRoute } from "../../src/proxy/upstream/allow-list.ts";
import { resolveProxyOptions } from "../../src/proxy/proxy-options.ts";
import { browserConfig } from "../../src/proxy/browser-config.ts";
import { ProxyError } from "../../src/proxy/proxy-error.ts";

const NAMES = Object.keys(ROUTES) as RouteName[];
const HASH = "0a1b2c3d4e5f60718293a4b5c6d7e8f9";
/** Sample path parameters: a numeric id, a hash id. */
const sample = (_name: RouteName) => ({ id: 46, key: HASH }) as RouteParams<RouteName>;

describe("statuses", () => {
  test("terminal sets are statuses of their records, and the predicates follow them", () => {
    expect(REQUEST_STATUSES).toEqual(expect.arrayContaining([...REQUEST_TERMINAL]));
    expect(BATCH_STATUSES).toEqual(expect.arrayContaining([...BATCH_TERMINAL]));
    expect(REQUEST_STATUSES.filter(isRequestTerminal)).toEqual(["complete", "abort", "error"]);
    expect(BATCH_STATUSES.filter(isBatchTerminal)).toEqual(["finalized", "error", "abort"]);
    expect(["pending", "dispatched", "processing", "unknown"].some(isTerminalStatus)).toBe(false);
    expect(["complete", "finalized", "error", "abort"].every(isTerminalStatus)).toBe(true);
    expect(isRequestTerminal("finalized")).toBe(false);
    expect(isBatchTerminal("complete")).toBe(false);
  });
});

describe("push channel names", () => {
  test("the spec's names for each kind of record, and one event", () => {
    expect(generationChannel("abc")).toBe("status_update_abc");
    expect(exportChannel("e1")).toBe("export_status_update_e1");
    expect(batchChannel("b2")).toBe("batch_status_update_b2");
    expect(PUSH_EVENT).toBe("status_update");
  });
});

describe("route table", () => {
  test("pathOf fills and encodes parameters; endpointOf adds the method and the prefix", () => {
    expect(pathOf("getGeneration", { id: 46 })).toBe("/imagine/requests/46");
    expect(pathOf("getExport", { key: "a/b c" })).toBe("/skybox/export/a%2Fb%20c");
    expect(pathOf("styles", {})).toBe("/skybox/styles");
    expect(endpointOf("cancelExport", { key: HASH })).toEqual({ method: "DELETE", path: `${API_PREFIX}/skybox/export/${HASH}` });
  });

  test("the proxy's allow-list is the table: each route matches itself, nothing else is allowed", () => {
    expect(API_ROUTES).toEqual(Object.values(ROUTES));
    for (const name of NAMES) expect(matchApiRoute(ROUTES[name].method, pathOf(name, sample(name))), name).toEqual({ route: ROUTES[name] });
    expect(matchApiRoute("GET", "/skybox/nope")).toBeNull();
  });

  /** A hono app with the local registration, each handler answering its route's name and parameters. */
  function localApp(handlers: Partial<ApiHandlers> = echoHandlers()) {
    const app = new Hono<AppEnv>();
    const polled: string[] = [];
    registerApiRoutes(app, handlers as ApiHandlers, async (c, next) => {
      polled.push(c.req.path);
      await next();
    });
    return { app, polled };
  }
  const echoHandlers = () =>
    Object.fromEntries(NAMES.map((name) => [name, (c: { json: (v: unknown) => Response }, params: object) => c.json({ name, params })]));

  test("the local service registers each route of the table by name, polling routes behind the limiter", async () => {
    const { app, polled } = localApp();
    for (const name of NAMES) {
      const { method, path } = endpointOf(name, sample(name));
      const res = await app.request(path, { method });
      const params = Object.fromEntries(
        [...ROUTES[name].path.matchAll(/\{(\w+)\}/g)].map(([, p]) => [p, String(sample(name)[p as never])]),
      );
      expect(await res.json(), name).toEqual({ name, params });
    }
    expect(polled).toEqual(NAMES.filter((n) => "polling" in ROUTES[n]).map((n) => endpointOf(n, sample(n)).path));
  });

  test("the proxy and the local service agree on every path: the same route or none", async () => {
    const { app } = localApp();
    const probes: [string, string][] = [
      ["DELETE", "/imagine/requests/pending"],
      ["GET", "/skybox/export/history"],
      ["GET", "/skybox/export/resolutions"],
      ["POST", "/skybox/batch"],
      ["POST", "/skybox/export"],
      ["POST", "/skybox/12"],
      ["GET", "/skybox"],
      ["GET", "/skybox/batch/abc"],
      ["GET", "/imagine/requests/pending"],
      ["GET", "/imagine/requests/1234567890123456789"],
      ["GET", "/skybox/export/a.b"],
      ["GET", "/skybox/styles/extra"],
    ];
    for (const [method, path] of probes) {
      const match = matchApiRoute(method, path);
      const proxyName = match && "route" in match ? NAMES.find((n) => ROUTES[n] === match.route) : undefined;
      const res = await app.request(`${API_PREFIX}${path}`, { method });
      const localName = res.status === 200 ? ((await res.json()) as { name: string }).name : undefined;
      expect(localName, `${method} ${path}`).toBe(proxyName);
    }
  });

  test("a route without a handler, or a handler without a route, is refused at start-up", () => {
    const { getBatch: _, ...missing } = echoHandlers();
    expect(() => localApp(missing)).toThrow(/No handler for the API route getBatch/);
    expect(() => localApp({ ...echoHandlers(), noSuchRoute: () => new Response() } as Partial<ApiHandlers>)).toThrow(/noSuchRoute/);
  });

  test("...and does not compile", () => {
    // @ts-expect-error getBatch has no handler
    const missing: ApiHandlers = {} as Omit<ApiHandlers, "getBatch">;
    // @ts-expect-error no route is named noSuchRoute
    const extra = { noSuchRoute: (c: { json: (v: unknown) => Response }) => c.json({}) } satisfies Partial<ApiHandlers>;
    // @ts-expect-error getGeneration needs its id
    const noId = () => pathOf("getGeneration", {});
    expect([missing, extra, noId]).toHaveLength(3);
  });
});

describe("error envelope", () => {
  const capIssue: RuleIssue = { ...issue("quantity", "batch-cap", MESSAGES.batchCap(40, 30), "plan_forbidden"), limit: 30 };

  test("written by the builder, it parses, and its issues read back with their limit", () => {
    const body = errorEnvelope("Too many", [capIssue, issue("prompt", "prompt-required", "is required")]);
    expect(ErrorEnvelope.parse(JSON.parse(JSON.stringify(body)))).toEqual(body);
    expect(issuesOf(body)).toEqual([
      { path: ["quantity"], rule: "batch-cap", message: MESSAGES.batchCap(40, 30), limit: 30 },
      { path: ["prompt"], rule: "prompt-required", message: "is required" },
    ]);
    expect(errorEnvelope("Not found")).toEqual({ error: "Not found" });
    expect(issuesOf({ error: "x", issues: "not a list" })).toEqual([]);
    expect(issuesOf("plain text")).toEqual([]);
    expect(ErrorEnvelope.parse({ error: "x", code: 7 })).toEqual({ error: "x", code: 7 });
  });

  test("the local service and the proxy write it", async () => {
    expect(ruleError([capIssue]).body).toEqual(errorEnvelope(MESSAGES.batchCap(40, 30), [capIssue]));
    expect(new HttpError(404, "Gone").body).toEqual({ error: "Gone" });
    expect(await new ProxyError(405, "Use GET", { allow: "GET" }).toResponse().json()).toEqual({ error: "Use GET" });
  });

  test("the client reads it into SkyboxApiError: message and issues with their limit", async () => {
    const body = ruleError([capIssue]).body;
    const fetch = async () => new Response(JSON.stringify(body), { status: 422, headers: { "content-type": "application/json" } });
    const client = createSkyboxClient({ baseUrl: "http://127.0.0.1:9", fetch, retry: 0 });
    const e = await client.getBatch(1).catch((x: unknown) => x);
    expect(isSkyboxApiError(e) && [e.status, e.serverMessage, e.method, e.path]).toEqual([
      422,
      MESSAGES.batchCap(40, 30),
      "GET",
      `${API_PREFIX}/skybox/batch/1`,
    ]);
    expect(isSkyboxApiError(e) && e.issues).toEqual([
      { path: ["quantity"], rule: "batch-cap", message: MESSAGES.batchCap(40, 30), kind: "plan_forbidden", limit: 30 },
    ]);
  });
});

describe("proxy /config", () => {
  const config = (o: Parameters<typeof resolveProxyOptions>[0]) => browserConfig(resolveProxyOptions(o), "/skybox");

  test("what the proxy produces is what the schema reads", () => {
    const local = config({
      apiKey: "k",
      upstream: "http://127.0.0.1:8790",
      apiSecret: "s",
      publicUrl: "http://127.0.0.1:5173",
      pusher: { key: "pk", wsHost: "127.0.0.1", wsPort: 8790, appId: "1" },
    });
    expect(readProxyConfig(JSON.parse(JSON.stringify(local)))).toEqual(local);
    expect(local.push).toEqual({
      key: "pk",
      cluster: "mt1",
      forceTLS: false,
      wsHost: "127.0.0.1",
      wsPort: 8790,
      enabledTransports: ["ws"],
    });
    const bare = config({ apiKey: "k" });
    expect(readProxyConfig(bare)).toEqual({
      upstream: "real",
      push: null,
      webhooksRelayed: false,
      eventsUrl: null,
      assetsUrl: "/skybox/assets",
    });
  });

  test("loose for fields a newer proxy adds; a clear error for a wrong answer", () => {
    const answer = { ...config({ apiKey: "k" }), future: 1 };
    expect(ProxyConfig.parse(answer)).toMatchObject({ future: 1 });
    expect(() => readProxyConfig({ upstream: "elsewhere", push: null })).toThrow(/\/config answer does not fit: .*upstream/);
    expect(() => readProxyConfig("<html>")).toThrow(/\/config answer does not fit/);
  });
});
