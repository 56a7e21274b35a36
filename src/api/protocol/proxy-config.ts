/**
 * `GET {basePath}/config` of the proxy: what a browser may know to follow records, and
 * nothing secret. The proxy produces it, the pane parses it.
 *
 * ```json
 * { "upstream": "local", "push": { "key": "...", "cluster": "mt1", "wsHost": "127.0.0.1", "wsPort": 8790,
 *   "forceTLS": false, "enabledTransports": ["ws"] }, "webhooksRelayed": true,
 *   "eventsUrl": "/skybox/events", "assetsUrl": "/skybox/assets" }
 * ```
 */
import * as z from "zod/mini";
import { ruleSentence } from "../errors/rule-sentence.ts";
import { PushSettings } from "./push-settings.ts";

/** What the proxy talks to: the real service or the offline local one. */
export const UpstreamKind = z.enum(["local", "real"]);
export type UpstreamKind = z.infer<typeof UpstreamKind>;

/** Push settings as the proxy hands them to browsers: defaults applied, no app id. */
export const BrowserPushSettings = z.extend(z.omit(PushSettings, { appId: true }), {
  cluster: z.string(),
  forceTLS: z.boolean(),
  /** Set with wsHost, so pusher-js tries no other transport (real-clients.md). */
  enabledTransports: z.optional(z.array(z.enum(["ws", "wss"]))),
});
export type BrowserPushSettings = z.infer<typeof BrowserPushSettings>;

/** Loose: a newer proxy may tell more. */
export const ProxyConfig = z.looseObject({
  upstream: UpstreamKind,
  /** Null when no push settings were configured. */
  push: z.nullable(BrowserPushSettings),
  /** The proxy adds its webhook URL to requests, so their events arrive on `eventsUrl`. */
  webhooksRelayed: z.boolean(),
  /** The webhook relay (server-sent events); null when it is off (no API secret). */
  eventsUrl: z.nullable(z.string()),
  /** Where asset URLs of records are served through the proxy. */
  assetsUrl: z.string(),
  /** The dev server's "Save to project" route (src/api/saved/save-request.ts); absent in production, where the pane hides the action. */
  saveToProject: z.optional(z.string()),
  /** The folder that route writes skyboxes into, relative to the project (where its package.json is), e.g. `public/skyboxes`. */
  saveToProjectFolder: z.optional(z.string()),
});
export type ProxyConfig = z.infer<typeof ProxyConfig>;

/** A `/config` answer checked; throws naming what does not fit. */
export function readProxyConfig(body: unknown): ProxyConfig {
  const parsed = ProxyConfig.safeParse(body, { error: ruleSentence });
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`);
  throw new Error(`The proxy's /config answer does not fit: ${problems.join("; ")}`);
}
