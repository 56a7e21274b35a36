export { createStatusTracker, type StatusTracker, type GenerationWatch, type ExportWatch, type BatchWatch } from "./create-tracker.ts";
export { StatusWatch } from "./status-watch.ts";
export type { StatusTrackerOptions, StatusClient, PushSettings, RelaySettings, WatchOptions } from "./status-options.ts";
export type { StatusUpdate, GenerationUpdate, ExportUpdate, BatchUpdate, UpdateSource } from "./updates.ts";
export {
  PushConnection,
  pusherOptions,
  type PusherConstructor,
  type PusherLike,
  type PusherClientOptions,
} from "./feeds/push-connection.ts";
export { compareRequests, compareBatches, statusRank, type Order } from "./tracked/status-order.ts";
