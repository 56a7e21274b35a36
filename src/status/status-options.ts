import type { SkyboxClient } from "../api/client/create-client.ts";
import type { PusherConstructor } from "./feeds/push-connection.ts";
import type { StatusUpdate } from "./updates.ts";

/** The client methods a tracker polls with (a full `SkyboxClient` fits). */
export type StatusClient = Pick<SkyboxClient, "getGeneration" | "getGenerationByObfuscatedId" | "getExport" | "getBatch">;

import type { PushSettings } from "../api/protocol/push-settings.ts";

export type { PushSettings };

/** The proxy's relay of webhooks as server-sent events. */
export interface RelaySettings {
  /**
   * The relay's events URL; `?channel=` parameters are added to it.
   * @example "/skybox/events"
   */
  url: string;
  /**
   * `eventsource` uses the browser's `EventSource`; `fetch` reads the stream with fetch (Node,
   * or when headers are needed); `auto` picks `EventSource` when there is one.
   * @default "auto"
   */
  transport?: "auto" | "eventsource" | "fetch";
  /** Headers of the `fetch` transport. */
  headers?: Record<string, string>;
  /** Sends cookies with `EventSource` to another origin. @default false */
  withCredentials?: boolean;
  /** Wait before reopening a closed stream when the server named none (`retry:`). @default 3000 */
  reconnectMs?: number;
}

/** Options of `createStatusTracker`. */
export interface StatusTrackerOptions {
  /** The client to poll with; in a browser, one whose `baseUrl` is the proxy. */
  client: StatusClient;
  /** The push channel, or null for none. @default null */
  push?: PushSettings | null;
  /** The proxy's webhook relay, or null for none. @default null */
  relay?: RelaySettings | null;
  /**
   * Where the proxy serves files: its `/config` `assetsUrl`. Records pushed by Pusher reach
   * the browser without passing the proxy, so their file URLs are mapped there, as the
   * proxy maps those of its answers and relayed webhooks. Null leaves them as sent.
   * @default null
   * @example "/skybox/assets"
   */
  assetsUrl?: string | null;
  /**
   * First polling interval while no push source is live; doubles while nothing changes and
   * falls back to this after a change.
   * @default 1000
   */
  pollIntervalMs?: number;
  /** Longest polling interval while no push source is live. @default 15000 */
  maxPollIntervalMs?: number;
  /**
   * Interval of the safety poll while a push source is live (push can lose a message).
   * It also runs once each time a source comes up, to catch what was sent before.
   * @default 30000
   */
  safetyPollMs?: number;
  /** The pusher-js constructor, when the app loads its own build. @default import("pusher-js") */
  Pusher?: PusherConstructor;
  /** fetch of the relay's `fetch` transport. @default globalThis.fetch */
  fetch?: typeof fetch;
}

/** Options of one watch. */
export interface WatchOptions<U extends StatusUpdate = StatusUpdate> {
  /** Stops the watch: `done` rejects and iterators throw a SkyboxApiError of kind `aborted`. */
  signal?: AbortSignal;
  /**
   * Called with every update as it is accepted, the first one included (an Observable's
   * `notifyObservers` fits here).
   */
  onUpdate?: (update: U) => void;
}

/** Options with their defaults filled in. */
export interface Timing {
  pollIntervalMs: number;
  maxPollIntervalMs: number;
  safetyPollMs: number;
}

export function timingOf(options: StatusTrackerOptions): Timing {
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  return {
    pollIntervalMs,
    maxPollIntervalMs: Math.max(pollIntervalMs, options.maxPollIntervalMs ?? 15_000),
    safetyPollMs: options.safetyPollMs ?? 30_000,
  };
}
