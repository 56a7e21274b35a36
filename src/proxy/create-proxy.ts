/**
 * The Skybox proxy as a Fetch-API handler: `(request) => Promise<Response>`. It holds the
 * API key and serves, under its base path:
 *
 * | route | what |
 * |---|---|
 * | `{basePath}/api/v1/...` | the routes of the Skybox API (allow-list.ts), key added |
 * | `GET {basePath}/assets/{http,https}/{host}/{path}` or `?url=` | files the API named, same-origin |
 * | `GET {basePath}/config` | push settings and upstream kind for the browser |
 * | `POST {basePath}/webhook` | the upstream's signed status messages |
 * | `GET {basePath}/events?channel=` | those messages as server-sent events |
 *
 * Anything else is a 404 from the proxy itself: it is not an open proxy.
 */
import { API_PREFIX } from "../api/protocol/routes.ts";
import type { ApiContext } from "./upstream/api-forward.ts";
import { AssetClient } from "./assets/asset-client.ts";
import { serveAsset, type AssetContext } from "./assets/asset-passthrough.ts";
import { checkOrigin, corsHeaders, preflight, type OriginVerdict } from "./cors.ts";
import { EventRelay } from "./webhooks/event-relay.ts";
import { createScrubber } from "./key-scrubber.ts";
import { resolveProxyOptions, type ResolvedProxyOptions, type SkyboxProxyOptions } from "./proxy-options.ts";
import { createPresenter } from "./presenter.ts";
import { browserConfig } from "./browser-config.ts";
import { jsonResponse, ProxyError } from "./proxy-error.ts";
import { clientOf } from "./rate-limit-client.ts";
import { createMemoryStore } from "./store/memory-store.ts";
import { SharedAssetHosts } from "./store/shared-asset-hosts.ts";
import { shareRelay } from "./store/shared-relay.ts";
import { sharedReplayGuard } from "./store/shared-replay-guard.ts";
import { limitKeyOf, type Caller } from "./users/caller.ts";
import { createProxyUsers } from "./users/proxy-users.ts";
import { nodeUpstreamClient } from "./upstream/node-upstream.ts";
import type { ProxyRequest } from "./proxy-request.ts";
import { fetchUpstreamClient } from "./upstream/upstream-client.ts";
import { toResponse, withHeaders, type RouteResponse } from "./text-response.ts";
import { WebhookGate } from "./webhooks/webhook-gate.ts";
import { receiveWebhook } from "./webhooks/webhook-receiver.ts";
import { WEBHOOK_TOLERANCE_SECONDS } from "./webhooks/signature-check.ts";

/** What the runtime adapter knows about the connection. */
export interface ClientInfo {
  /** The peer's address, used as the rate limit's client. */
  clientAddress?: string;
}

/** The proxy as a Fetch-API handler, with where it is mounted and how to stop it. */
export interface SkyboxProxy {
  /** Responds to one request: the API, assets, `/config`, `/events` or `/webhook` under `basePath`, else 404. */
  (request: Request, info?: ClientInfo): Promise<Response>;
  /** Where it is mounted, e.g. "/skybox". */
  readonly basePath: string;
  /** Ends every event stream and its heartbeat. */
  close(): void;
}

/**
 * The key-holding proxy as a Fetch-API handler (`(Request) => Promise<Response>`): it forwards
 * only the API's own routes, adds the key, and strips and scrubs any key from what passes.
 * On Node, `createSkyboxProxyMiddleware` wraps it for `http`, Express and connect.
 * @param options the key, and optionally the webhook secret, public URL, origins, limits, users and store
 * @returns the handler
 */
export function createSkyboxProxy(options: SkyboxProxyOptions): SkyboxProxy {
  const o = resolveProxyOptions(options);
  const scrub = createScrubber([o.apiKey, o.apiSecret]);
  // Shared by every instance with a Redis store; this process's own without one.
  const store = options.store ?? createMemoryStore({ maxBucketKeys: o.rateLimit ? o.rateLimit.maxClients : undefined });
  const hosts = new SharedAssetHosts(store);
  const relay = new EventRelay(o.maxSubscribers, o.heartbeatMs, o.maxStreamsPerClient);
  const events = shareRelay(relay, store);
  const replays = sharedReplayGuard(store, 2 * WEBHOOK_TOLERANCE_SECONDS * 1000);
  const limiter = o.rateLimit;
  const gate = new WebhookGate(o.webhooks, (key) => store.takeToken(`webhook:${key}`, o.webhooks.burst, o.webhooks.perSecond));
  // Asset URLs are absolute only on a configured public URL; a same-origin app resolves the path.
  const prefix = `${o.publicUrl ?? ""}${o.basePath}`;
  const present = createPresenter(hosts, `${prefix}/assets`, scrub);
  const upstream = o.fetch ? fetchUpstreamClient(o.fetch) : nodeUpstreamClient(o.upstream);
  const api: ApiContext = { options: o, upstream, scrub, present };
  const assets: AssetContext = { hosts, client: new AssetClient(o.timeoutMs), upstream: o.upstream, basePath: o.basePath };
  const users = createProxyUsers(options, store, api);

  /** `client`: the rate limit's key of the request, which the event streams and webhooks are capped by too. */
  const route = async (request: ProxyRequest, rest: string, caller: Caller | null, client: string): Promise<RouteResponse> => {
    if (rest.startsWith(`${API_PREFIX}/`)) return users.forward(caller!, request, rest);
    if (rest === "/assets" || rest.startsWith("/assets/")) return serveAsset(assets, request, rest.slice("/assets".length));
    if (rest === "/config") {
      if (request.method !== "GET" && request.method !== "HEAD") throw new ProxyError(405, "Read the config with GET", { allow: "GET" });
      return jsonResponse(browserConfig(o, prefix));
    }
    if (rest === "/webhook" && o.apiSecret)
      return receiveWebhook(
        { secret: o.apiSecret, replays, relay: events, gate, present: present.record, observe: users.observe },
        request,
        client,
      );
    if (rest === "/events" && o.apiSecret) {
      if (request.method !== "GET") throw new ProxyError(405, "Subscribe with GET", { allow: "GET" });
      const channels = EventRelay.channelsOf(new URL(request.url).searchParams);
      await users.checkChannels(caller!, channels);
      return relay.subscribe(channels, request.signal, client);
    }
    throw new ProxyError(404, "Not found");
  };

  const respond = async (request: ProxyRequest, info: ClientInfo = {}): Promise<RouteResponse> => {
    let verdict: OriginVerdict = "none";
    try {
      const path = pathnameOf(request.url);
      if (!path.startsWith(`${o.basePath}/`)) throw new ProxyError(404, "Not found");
      const rest = path.slice(o.basePath.length);
      verdict = checkOrigin(request, o.allowedOrigins, o.publicUrl);
      if (request.method === "OPTIONS") return preflight(request, verdict);
      const caller = await users.callerOf(request, rest);
      const client = limitKeyOf(caller, clientOf(request, info.clientAddress, limiter ? limiter.clientHeader : null));
      // The upstream's webhooks come from one address in bursts: they have their own limit (webhook-gate.ts).
      if (limiter && rest !== "/webhook") {
        const decision = await store.takeToken(client, limiter.burst, limiter.perSecond);
        if (!decision.ok)
          throw new ProxyError(429, "Too many requests to the Skybox proxy", { "retry-after": String(decision.retryAfter) });
      }
      return withCors(await route(request, rest, caller, client), request, verdict);
    } catch (error) {
      return withCors(errorResponse(error, o, scrub.text), request, verdict);
    }
  };
  const handle = async (request: Request, info?: ClientInfo): Promise<Response> => toResponse(await respond(request, info));

  const close = () => {
    relay.close();
    events.close();
    hosts.close();
    upstream.close();
    assets.client.close();
    if (!options.store) void store.close();
  };
  const fast: NodeFastPath = { respond };
  return Object.assign(handle, { basePath: o.basePath, close, [FAST_PATH]: fast });
}

/** What the Node adapter uses of a SkyboxProxy instead of its Fetch-API face. */
export interface NodeFastPath {
  /** The response to a request read through a light view of Node's, before it is made a Response. */
  respond(request: ProxyRequest, info?: ClientInfo): Promise<RouteResponse>;
}

/**
 * Kept on the handler under a symbol rather than in the public SkyboxProxy type: it takes a
 * ProxyRequest, an internal shape no app should call with, yet toNodeHandler must find it on
 * whichever SkyboxProxy an app hands it (one created by createSkyboxProxy, not by the adapter).
 */
const FAST_PATH = Symbol("babylon-skybox.nodeFastPath");

/** The fast path of a handler that is a SkyboxProxy, else null. */
export function nodeFastPathOf(handler: object): NodeFastPath | null {
  return (handler as { [FAST_PATH]?: NodeFastPath })[FAST_PATH] ?? null;
}

/** The path of a request's URL; a 400 when the URL is none (a Host header that names no host). */
function pathnameOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    throw new ProxyError(400, "Bad request");
  }
}

function withCors(response: RouteResponse, request: ProxyRequest, verdict: OriginVerdict): RouteResponse {
  const origin = request.headers.get("origin");
  if (verdict !== "allowed" || !origin) return response;
  return withHeaders(response, corsHeaders(origin));
}

function errorResponse(error: unknown, o: ResolvedProxyOptions, scrub: (text: string) => string): RouteResponse {
  if (error instanceof ProxyError) return error.toTextResponse();
  // An aborted request has no one left to respond to; anything else is our bug, logged without secrets.
  if (!(error instanceof Error && error.name === "AbortError"))
    o.log(scrub(`babylon-skybox proxy: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
  return new ProxyError(500, "The Skybox proxy failed").toTextResponse();
}
