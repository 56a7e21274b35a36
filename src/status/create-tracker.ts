import type { Batch } from "../api/schemas/batch.ts";
import type { ExportRecord } from "../api/schemas/export-request.ts";
import type { Generation } from "../api/schemas/generation.ts";
import { loadedFeed, type Feed } from "./feeds/feed.ts";
import { timingOf, type StatusTrackerOptions, type WatchOptions } from "./status-options.ts";
import { PushConnection } from "./feeds/push-connection.ts";
import { openPushFeed } from "./feeds/push-feed.ts";
import { withProxiedAssets } from "./feeds/pushed-assets.ts";
import { StatusWatch, type WatchContext } from "./status-watch.ts";
import { TrackedBatch } from "./tracked/tracked-batch.ts";
import { trackExport, trackGeneration } from "./tracked/tracked-request.ts";
import type { Tracked } from "./tracked/tracked.ts";
import type { BatchUpdate, ExportUpdate, GenerationUpdate, StatusUpdate } from "./updates.ts";

/** A watch of one generation. */
export type GenerationWatch = StatusWatch<GenerationUpdate, Generation>;
/** A watch of one export. */
export type ExportWatch = StatusWatch<ExportUpdate, ExportRecord>;
/** A watch of one batch and its generations. */
export type BatchWatch = StatusWatch<BatchUpdate, Batch>;

/** Follows generations, exports and batches by push, the webhook relay or polling; one per app. */
export interface StatusTracker {
  /** Follows a generation, given by record, numeric id or obfuscated id, until it ends. */
  watchGeneration(subject: number | string | Generation, options?: WatchOptions<GenerationUpdate>): GenerationWatch;
  /** Follows an export request, given by record or id, until it ends. */
  watchExport(subject: string | ExportRecord, options?: WatchOptions<ExportUpdate>): ExportWatch;
  /**
   * Follows a batch, given by record or id, and each of its generations until the batch
   * ends: its own channel and each generation's channel while push is live, one poll of
   * the batch (which lists its generations) otherwise.
   */
  watchBatch(subject: number | Batch, options?: WatchOptions<BatchUpdate>): BatchWatch;
  /** The push connection shared by every watch; null without push settings. */
  readonly push: PushConnection | null;
  /** Watches not yet ended. */
  readonly activeWatches: number;
  /** Every watch polls at once (the connection came back after an outage). */
  refresh(): void;
  /** Stops every watch (their `done` rejects with kind `aborted`) and disconnects push. */
  dispose(): void;
}

/**
 * Creates a status tracker: one merged, ordered stream of updates per generation, export
 * or batch, from the push channel (pusher-js), the proxy's webhook relay (server-sent
 * events) and polling, whichever are available.
 *
 * @example
 * const tracker = createStatusTracker({ client, push: { key, cluster } });
 * const watch = tracker.watchGeneration(await client.generate(params), { onUpdate: (u) => show(u.status, u.queuePosition) });
 * const skybox = await watch.done; // complete, error or abort: check skybox.status
 */
export function createStatusTracker(options: StatusTrackerOptions): StatusTracker {
  const timing = timingOf(options);
  const push = options.push ? new PushConnection(options.push, options.Pusher) : null;
  const relay = options.relay ?? null;
  const active = new Set<StatusWatch<StatusUpdate, unknown>>();
  let disposed = false;

  const ctx: WatchContext = {
    timing,
    openFeeds(channels, listener) {
      const feeds: Feed[] = [];
      if (push) {
        const pushed = listener("push");
        feeds.push(openPushFeed(push, channels, options.assetsUrl ? withProxiedAssets(pushed, options.assetsUrl) : pushed));
      }
      if (relay) {
        const relayed = listener("relay");
        feeds.push(
          loadedFeed(
            import("./feeds/relay-feed.ts").then(
              (m) => () => m.openRelayFeed({ relay, channels, listener: relayed, fetch: options.fetch }),
            ),
          ),
        );
      }
      return feeds;
    },
    ended: (watch) => active.delete(watch),
  };

  function start<U extends StatusUpdate, R>(tracked: Tracked<R, U>, watchOptions?: WatchOptions<U>): StatusWatch<U, R> {
    const watch = new StatusWatch<U, R>(tracked, ctx, watchOptions);
    if (disposed) watch.stop(new Error("The status tracker was disposed"));
    else active.add(watch as unknown as StatusWatch<StatusUpdate, unknown>);
    return watch;
  }

  return {
    watchGeneration: (subject, o) => start(trackGeneration(options.client, subject), o),
    watchExport: (subject, o) => start(trackExport(options.client, subject), o),
    watchBatch: (subject, o) =>
      start(
        new TrackedBatch(
          options.client,
          typeof subject === "number" ? subject : subject.id,
          typeof subject === "number" ? undefined : subject,
        ),
        o,
      ),
    push,
    get activeWatches() {
      return active.size;
    },
    refresh() {
      for (const watch of [...active]) watch.pollNow();
    },
    dispose() {
      disposed = true;
      for (const watch of [...active]) watch.stop(new Error("The status tracker was disposed"));
      push?.close();
    },
  };
}
