/**
 * babylon-skybox/proxy: the server side that holds the API key (Node only).
 * @module babylon-skybox/proxy
 */
export { createSkyboxProxy, type SkyboxProxy, type ClientInfo } from "./create-proxy.ts";
export type { SkyboxProxyOptions, PushSettings, RateLimitOptions } from "./proxy-options.ts";
export { toNodeHandler, createSkyboxProxyMiddleware, type FetchHandler, type NodeHandler } from "./node/node-adapter.ts";
export { startSkyboxProxyServer, type SkyboxProxyServer, type SkyboxProxyServerOptions } from "./node/proxy-server.ts";
export type { ProxyConfig as SkyboxProxyConfig, BrowserPushSettings } from "../api/protocol/proxy-config.ts";
export { API_ROUTES, type ApiRoute } from "./upstream/allow-list.ts";
export { verifyWebhookSignature } from "./webhooks/signature-check.ts";
export { signWebhook } from "../api/rules/webhook-signature.ts";
export { REAL_SKYBOX_UPSTREAM, type UpstreamKind } from "./upstream/upstream-address.ts";
export { ProxyError } from "./proxy-error.ts";
export type { UserOptions } from "./users/user-options.ts";
export { createMemoryStore, type MemoryStoreOptions } from "./store/memory-store.ts";
export { createRedisStore, type RedisStoreOptions } from "./store/redis-store.ts";
export { StoreUnavailableError, type ProxyStore } from "./store/proxy-store.ts";
