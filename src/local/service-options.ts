import type { Plan } from "../api/reference.ts";

/** Options of the local Skybox service (the `babylon-skybox local` flags). */
export interface LocalServiceOptions {
  /** @default 8790; 0 picks a free port */
  port?: number;
  /** @default "127.0.0.1" */
  host?: string;
  /** Records, images, accounts and pending webhooks. @default ".skybox-local" */
  dataDir?: string;
  /** Key of the default account (created or updated at start); random when not given. */
  apiKey?: string;
  apiSecret?: string;
  /** Plan of the default account. @default "business" */
  plan?: Plan;
  /** Multiplies every lifecycle and webhook retry speed. @default 1 */
  speed?: number;
  /** Renders every image at this fraction of its specified size. @default 1 */
  imageScale?: number;
  /**
   * Renders the exports that name a resolution (HDRI, equirectangular, cube map, depth map)
   * at this fraction of it, from the stored skybox whatever its own scale: 1 gives an "8K"
   * export 8192 x 4096 even when generations are drawn at half size.
   * @default imageScale
   */
  exportScale?: number;
  /** Polling routes: requests a minute per key. @default 600 */
  rateLimit?: number;
  /** Token of the /_admin routes; random when not given. */
  adminToken?: string;
  /**
   * Lets `webhook_url` name private and loopback addresses (127.0.0.1, 10.x, 192.168.x,
   * localhost, ...). While the service listens on loopback only, nothing but local
   * processes can ask it for a webhook, so they are allowed; on any other interface they
   * are refused unless this is `true`.
   * @default true when `host` is a loopback address, else false
   */
  allowPrivateWebhooks?: boolean;
  /** Generations rendered at once. @default 2 */
  concurrency?: number;
  /** Where the service writes its log lines. @default standard error, each line prefixed with `[skybox-local]` */
  log?: (line: string) => void;
  /** `debug` also logs what requests sent that the API ignores (unknown fields). @default "info" */
  logLevel?: "info" | "debug";
}

/** What a running service tells its user (the CLI prints it as one JSON line). */
export interface LocalServiceInfo {
  url: string;
  apiKey: string;
  apiSecret: string;
  adminToken: string;
  pusher: { key: string; appId: string; cluster: string; wsHost: string; wsPort: number; forceTLS: false };
}
