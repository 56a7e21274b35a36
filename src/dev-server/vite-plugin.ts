/**
 * `babylon-skybox/vite`: mounts the proxy in Vite's dev and preview servers, so the app's
 * `createSkyboxClient({ baseUrl: "/skybox" })` works with no key in the browser.
 *
 * With a key (`apiKey` option or SKYBOX_API_KEY), it forwards to `upstream` (the real
 * service by default). Without one, it starts the offline local Skybox service, uses it as
 * upstream (its push endpoint handed to browsers by `/skybox/config`, its webhooks relayed
 * as server-sent events), and closes it with the server.
 *
 * @example
 * // vite.config.ts
 * import skyboxProxy from "babylon-skybox/vite";
 * export default defineConfig({ plugins: [skyboxProxy()] });
 * @module babylon-skybox/vite
 */
import type { Server as HttpServer } from "node:http";
import { join, resolve } from "node:path";
import { Server as TlsServer } from "node:tls";
import type { Plugin, PreviewServer, ViteDevServer } from "vite";
import type { LocalServiceOptions } from "../local/index.ts";
import { localSizesLine } from "./local-sizes.ts";
import { createSkyboxProxyMiddleware } from "../proxy/node/node-adapter.ts";
import type { SkyboxProxyOptions } from "../proxy/proxy-options.ts";
import { SAVE_TO_PROJECT_PATH } from "../api/saved/save-request.ts";
import { projectPath, projectRoot } from "./saved/project-root.ts";
import { createSaveRoute } from "./saved/save-route.ts";
import { warmStylePreviews } from "./warm-style-previews.ts";

/** What the plugin needs of a started local service (`startLocalSkyboxService`'s result). */
export interface LocalUpstream {
  url: string;
  apiKey: string;
  apiSecret: string;
  pusher: { key: string; cluster: string; wsHost: string; wsPort: number };
  /** Stops the local service. */
  close(): Promise<void>;
}

/**
 * What the local service started by the plugin uses unless `local` says otherwise: a free
 * port, the lifecycle three times faster than the real service's (pending, dispatched and
 * processing still take about 10 s, queue positions included) and images at half their
 * size (a Model 3 skybox is 4096x2048), so a first skybox completes about 10 s after the
 * click on two cores. `babylon-skybox local` keeps the realistic speed 1 and full sizes.
 * Private webhook targets are allowed even if `local.host` is not loopback: the local
 * service posts its webhooks to this server, on loopback. Exports keep the size their
 * resolution names (an "8K" HDRI is 8192 x 4096, resampled from the half-size panorama),
 * as the pane's labels say.
 */
export const DEV_LOCAL_DEFAULTS = {
  port: 0,
  speed: 3,
  imageScale: 0.5,
  exportScale: 1,
  allowPrivateWebhooks: true,
} as const satisfies LocalServiceOptions;

/** Options of the Vite plugin: the proxy's, plus the local service's and the Save to project folder. */
export interface SkyboxVitePluginOptions extends Partial<SkyboxProxyOptions> {
  /** Options of the local service started when no key is configured, over DEV_LOCAL_DEFAULTS. */
  local?: LocalServiceOptions;
  /** Starts the local service. @default startLocalSkyboxService from babylon-skybox/local */
  startLocal?: (options: LocalServiceOptions) => Promise<LocalUpstream>;
  /**
   * Where the pane's "Save to project" writes skyboxes in the dev server (relative to Vite's
   * root, and inside it), or false to offer no such action. The preview server and the
   * proxy in production never offer it.
   * @default "<publicDir>/skyboxes" (public/skyboxes/)
   */
  saveFolder?: string | false;
}

/** The Vite plugin: mounts the proxy at `/skybox` in the dev and preview servers, with the local service when there is no `SKYBOX_API_KEY`. */
export function skyboxProxy(options: SkyboxVitePluginOptions = {}): Plugin {
  let closeDev: (() => Promise<void>) | null = null;
  let closePreview: (() => Promise<void>) | null = null;
  return {
    name: "babylon-skybox-proxy",
    async configureServer(server) {
      closeDev = await mount(server, options, true);
    },
    async configurePreviewServer(server) {
      closePreview = await mount(server, options, false);
    },
    async closeServer() {
      await closeDev?.();
    },
    async closePreviewServer() {
      await closePreview?.();
    },
  };
}

export default skyboxProxy;

async function mount(server: ViteDevServer | PreviewServer, options: SkyboxVitePluginOptions, dev: boolean): Promise<() => Promise<void>> {
  const { local: localOptions, startLocal, saveFolder, ...rest } = options;
  const saves = dev && saveFolder !== false;
  const { root, publicDir: vitePublicDir, base } = server.config;
  const publicDir = vitePublicDir || join(root, "public");
  const folder = resolve(root, saveFolder || join(publicDir, "skyboxes"));
  const project = projectRoot(root);
  const proxyOptions = {
    ...rest,
    ...(saves ? { saveToProject: SAVE_TO_PROJECT_PATH, saveToProjectFolder: projectPath(project, folder) } : {}),
  };
  const apiKey = proxyOptions.apiKey ?? process.env.SKYBOX_API_KEY;
  const local = apiKey ? null : await (startLocal ?? startLocalService)({ ...DEV_LOCAL_DEFAULTS, ...localOptions });
  const middleware = createSkyboxProxyMiddleware(
    local
      ? {
          ...proxyOptions,
          upstream: local.url,
          apiKey: local.apiKey,
          apiSecret: local.apiSecret,
          upstreamKind: "local",
          pusher: proxyOptions.pusher ?? { ...local.pusher, forceTLS: false },
          // The local service posts its webhooks to this server on loopback.
          webhookBaseUrl: proxyOptions.webhookBaseUrl ?? proxyOptions.publicUrl ?? (() => loopbackUrl(server.httpServer)),
        }
      : {
          ...proxyOptions,
          apiKey: apiKey!,
          apiSecret: proxyOptions.apiSecret ?? process.env.SKYBOX_API_SECRET,
          publicUrl: proxyOptions.publicUrl ?? process.env.SKYBOX_PUBLIC_URL,
        },
  );
  if (saves) server.middlewares.use(createSaveRoute({ root, project, folder, publicDir, base, basePath: middleware.proxy.basePath }));
  server.middlewares.use(middleware);
  server.config.logger.info(
    `  babylon-skybox proxy at ${middleware.proxy.basePath} → ${local ? `local Skybox service ${local.url}` : "Skybox API"}`,
  );
  if (local && !startLocal)
    server.config.logger.info(`  local Skybox service: ${localSizesLine({ ...DEV_LOCAL_DEFAULTS, ...localOptions })}`);
  // In the dev server, a local service the plugin started itself renders the style previews
  // now rather than when the pane first asks (a caller's own `startLocal` is left alone).
  const warming = new AbortController();
  if (dev && local && !startLocal) void warmStylePreviews(local, warming.signal);
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      warming.abort();
      middleware.proxy.close();
      await local?.close();
    })());
  server.httpServer?.once(
    "close",
    () => void close().catch((error: Error) => server.config.logger.error(`babylon-skybox: closing the proxy failed: ${error.message}`)),
  );
  return close;
}

async function startLocalService(options: LocalServiceOptions): Promise<LocalUpstream> {
  try {
    const { startLocalSkyboxService } = await import("../local/index.ts");
    return await startLocalSkyboxService(options);
  } catch (error) {
    throw new Error(
      `babylon-skybox: the local Skybox service did not start (set SKYBOX_API_KEY to use the real service): ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/** This server's own address on loopback, once listening (plain HTTP only: the local service would not trust a dev certificate). */
function loopbackUrl(server: HttpServer | ViteDevServer["httpServer"] | null): string | undefined {
  if (!server || server instanceof TlsServer) return undefined;
  const address = server.address();
  if (!address || typeof address === "string") return undefined;
  const a = address.address;
  const host = a === "::" || a === "0.0.0.0" ? "127.0.0.1" : a.includes(":") ? `[${a}]` : a;
  return `http://${host}:${address.port}`;
}
