import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { createAdaptorServer } from "@hono/node-server";
import type { Server } from "node:http";
import { DEFAULT_POLL_RATE_PER_MINUTE, pollLimit } from "./http/poll-limit.ts";
import { createApp } from "./http/app.ts";
import type { ServiceContext } from "./http/context.ts";
import { StylePreviews } from "./http/style-previews.ts";
import { StatusEvents } from "./events.ts";
import { createWorkerImagery, type Imagery } from "./imagery/imagery.ts";
import { ExportRunner } from "./lifecycle/export-runner.ts";
import { GenerationRunner } from "./lifecycle/generation-runner.ts";
import { createDelays } from "./lifecycle/timing.ts";
import type { LocalServiceInfo, LocalServiceOptions } from "./service-options.ts";
import { PusherServer } from "./pusher-server.ts";
import { RecordViews } from "./records/record-views.ts";
import { Uploads } from "./records/uploads.ts";
import { isLoopbackHost, WebhookTargets } from "./records/webhook-targets.ts";
import { DataStore } from "./store/data-store.ts";
import { WebhookSender } from "./webhook-sender.ts";

export interface LocalSkyboxService extends LocalServiceInfo {
  /** Stops accepting, closes sockets and workers; everything stored stays on disk. */
  close(): Promise<void>;
}

/**
 * Starts the local Skybox service: the whole API on loopback, its Pusher-protocol push
 * channel on the same port, signed webhooks, and rendering in worker threads.
 */
export async function startLocalSkyboxService(options: LocalServiceOptions = {}, imagery?: Imagery): Promise<LocalSkyboxService> {
  const log = options.log ?? ((line: string) => console.error(`[skybox-local] ${line}`));
  const dataDir = resolve(options.dataDir ?? ".skybox-local");
  mkdirSync(dataDir, { recursive: true });
  const speed = options.speed ?? 1;
  const imageScale = options.imageScale ?? 1;
  const exportScale = options.exportScale ?? imageScale;
  const data = new DataStore(dataDir);
  const { accounts, records: store } = data;
  const account = accounts.upsert({
    ...(options.apiKey ? { apiKey: options.apiKey } : accounts.all[0] ? { apiKey: accounts.all[0].apiKey } : {}),
    ...(options.apiSecret ? { apiSecret: options.apiSecret } : {}),
    ...(options.plan ? { plan: options.plan } : {}),
  });
  const pusherConfig = { appId: "skybox-local", key: `local-${randomBytes(6).toString("hex")}`, secret: randomBytes(16).toString("hex") };
  const pusher = new PusherServer(pusherConfig);
  const host = options.host ?? "127.0.0.1";
  const webhookTargets = new WebhookTargets(options.allowPrivateWebhooks ?? isLoopbackHost(host));
  const webhooks = new WebhookSender({
    stateFile: join(dataDir, "webhooks.json"),
    speed,
    log,
    privateAddressOf: (url) => webhookTargets.privateAddressOf(url, true),
  });
  await webhooks.start();
  const pictures = imagery ?? (await createWorkerImagery());
  let baseUrl = "";
  const queuePosition = (kind: "generation" | "export", id: number | string): number =>
    kind === "generation" ? generations.queue.position(id as number) : exports.queue.position(id as string);
  const views = new RecordViews({ store, accounts, queuePosition, baseUrl: () => baseUrl });
  const events = new StatusEvents({ pusher, webhooks, views, accounts, store });
  const delay = createDelays(speed);
  const debug = options.logLevel === "debug" ? (line: string) => log(`debug: ${line}`) : () => {};
  const common = { store, events, imagery: pictures, dataDir, imageScale, delay, log, debug };
  const generations = new GenerationRunner({ ...common, accounts, concurrency: options.concurrency ?? 2 });
  const exports = new ExportRunner({ ...common, exportScale, concurrency: 2 });
  const ctx: ServiceContext = {
    dataDir,
    store,
    accounts,
    views,
    generations,
    exports,
    events,
    pollLimit: pollLimit(options.rateLimit ?? DEFAULT_POLL_RATE_PER_MINUTE),
    settings: { generationsDisabled: false },
    debug,
  };
  const adminToken = options.adminToken ?? randomBytes(16).toString("hex");
  const app = createApp({
    ctx,
    uploads: new Uploads(join(dataDir, "uploads")),
    previews: new StylePreviews(dataDir, pictures),
    webhookTargets,
    adminToken,
    pusherHttp: (r) => pusher.handleHttp(r),
    log,
  });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  pusher.attach(server);
  await new Promise<void>((ok, fail) => server.once("error", fail).listen(options.port ?? 8790, host, () => ok()));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  generations.resume();
  exports.resume();
  return {
    url: baseUrl,
    apiKey: account.apiKey,
    apiSecret: account.apiSecret,
    adminToken,
    pusher: { key: pusherConfig.key, appId: pusherConfig.appId, cluster: "mt1", wsHost: host, wsPort: port, forceTLS: false },
    async close() {
      generations.queue.close();
      exports.queue.close();
      await pusher.close();
      await new Promise<void>((ok) => server.close(() => ok()));
      server.closeAllConnections?.();
      await webhooks.close();
      data.close();
      await pictures.close();
    },
  };
}
