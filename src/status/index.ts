export { createStatusTracker, type StatusTracker, type GenerationWatch, type ExportWatch, type BatchWatch } from "./create-tracker.ts";
export { StatusWatch } from "./StatusWatch.ts";
export type { StatusTrackerOptions, StatusClient, PushSettings, RelaySettings, WatchOptions } from "./options.ts";
export type { StatusUpdate, GenerationUpdate, ExportUpdate, BatchUpdate, UpdateSource } from "./updates.ts";
export { PushConnection, pusherOptions, type PusherConstructor, type PusherLike, type PusherClientOptions } from "./push-connection.ts";
export { compareRequests, compareBatches, statusRank, type Order } from "./status-order.ts";
