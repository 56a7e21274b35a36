/**
 * A production-like deployment on loopback for the multi-user tests: a real redis-server,
 * the local Skybox service as a process, and several proxy instances (real HTTP servers)
 * sharing Redis, each trusting `x-user` as the user header, as an auth layer would set it.
 */
import { createSkyboxClient, type SkyboxClient } from "../../../src/api/index.ts";
import { signWebhook } from "../../../src/api/rules/webhook-signature.ts";
import { startSkyboxProxyServer, type SkyboxProxyServer, type SkyboxProxyServerOptions } from "../../../src/proxy/index.ts";
import type { ProxyStore } from "../../../src/proxy/store/proxy-store.ts";
import { createRedisStore } from "../../../src/proxy/store/redis-store.ts";
import { startLocalProcess, waitFor, type LocalProcess } from "../../helpers/local-service.ts";
import { startRedisServer, type RedisServer } from "../../helpers/redis-server.ts";

export const USER_HEADER = "x-user";
export const ADMIN = "root";

export interface Instance {
  server: SkyboxProxyServer;
  store: ProxyStore;
  url: string;
  /** The proxy's base, `{url}/skybox`. */
  base: string;
}

export interface Deployment {
  redis: RedisServer;
  svc: LocalProcess;
  instances: Instance[];
  /** Starts one more instance on the same Redis. */
  addInstance(options?: Partial<SkyboxProxyServerOptions>, keyPrefix?: string): Promise<Instance>;
  /** A fetch as `user` to instance `i` (path after `/skybox`); no user header with `null`. */
  as(user: string | null, i?: number): (path: string, init?: RequestInit) => Promise<Response>;
  /** The API client a browser of `user` on instance `i` would have. */
  client(user: string, i?: number): SkyboxClient;
  /** Posts a signed status message to instance `i`'s webhook. */
  deliver(record: object, i?: number): Promise<Response>;
  close(): Promise<void>;
}

/** Reads an event stream with fetch, as an EventSource would, and collects its events. */
export async function openStream(url: string, headers: Record<string, string>) {
  const aborter = new AbortController();
  const res = await fetch(url, { headers, signal: aborter.signal });
  const events: { event: string; data: string }[] = [];
  let ended = false;
  if (res.ok) {
    void (async () => {
      const reader = res.body!.getReader();
      let buffer = "";
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += new TextDecoder().decode(value);
          for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const fields = Object.fromEntries(
              block
                .split("\n")
                .filter((l) => !l.startsWith(":"))
                .map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 1).trim()]),
            );
            if (fields.event) events.push({ event: fields.event, data: fields.data ?? "" });
          }
        }
      } catch {
        // aborted or cut
      }
      ended = true;
    })();
  }
  return {
    status: res.status,
    events,
    get ended() {
      return ended;
    },
    close: () => aborter.abort(),
  };
}

/** Waits until the store answers commands and its subscription delivers. */
export async function storeReady(store: ProxyStore): Promise<void> {
  await waitFor(
    () =>
      store.get(["ready"]).then(
        () => true,
        () => false,
      ),
    10_000,
  );
  let heard = false;
  const stop = store.subscribe("ready-probe", () => void (heard = true));
  await waitFor(async () => (await store.publish("ready-probe", "?").catch(() => 0), heard), 10_000);
  stop();
}

export async function startDeployment(count: number, options: Partial<SkyboxProxyServerOptions> = {}): Promise<Deployment> {
  const redis = await startRedisServer();
  const svc = await startLocalProcess({ speed: 20, "rate-limit": 1_000_000 });
  const instances: Instance[] = [];
  const addInstance = async (extra: Partial<SkyboxProxyServerOptions> = {}, keyPrefix = "skybox:") => {
    const store = createRedisStore({ url: redis.url, keyPrefix, log: () => {} });
    let url = "";
    const server = await startSkyboxProxyServer({
      port: 0,
      apiKey: svc.info.apiKey,
      apiSecret: svc.info.apiSecret,
      upstream: svc.info.url,
      // The local service posts each record's webhooks to the instance it was created on.
      webhookBaseUrl: () => url,
      userHeader: USER_HEADER,
      adminUsers: [ADMIN],
      rateLimit: false,
      log: () => {},
      store,
      ...options,
      ...extra,
    });
    url = server.url;
    await storeReady(store);
    const instance = { server, store, url, base: `${url}/skybox` };
    instances.push(instance);
    return instance;
  };
  for (let i = 0; i < count; i++) await addInstance();
  return {
    redis,
    svc,
    instances,
    addInstance,
    as:
      (user, i = 0) =>
      (path, init = {}) =>
        fetch(`${instances[i]!.base}${path}`, {
          ...init,
          headers: { ...(user === null ? {} : { [USER_HEADER]: user }), ...(init.headers as Record<string, string> | undefined) },
        }),
    client: (user, i = 0) => createSkyboxClient({ baseUrl: instances[i]!.base, headers: { [USER_HEADER]: user }, retry: 0 }),
    async deliver(record, i = 0) {
      const body = JSON.stringify(record);
      return fetch(`${instances[i]!.base}/webhook`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-timestamp": String(Math.floor(Date.now() / 1000)),
          "x-signature": await signWebhook(body, svc.info.apiSecret),
        },
        body,
      });
    },
    async close() {
      await Promise.all(instances.map(async (p) => (await p.server.close(), await p.store.close())));
      await svc.stop();
      await redis.stop();
    },
  };
}
