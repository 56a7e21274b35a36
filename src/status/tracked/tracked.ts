import type { StatusUpdate, UpdateSource } from "../updates.ts";

/** A push channel and the event its status messages carry. */
export interface ChannelRef {
  channel: string;
  event: string;
}

/**
 * What a watch knows of its subject and how to refresh it: the part that differs between
 * generations, exports and batches. The watch drives it; it holds the newest state.
 */
export interface Tracked<R, U extends StatusUpdate> {
  /** The newest record accepted, once there is one. */
  readonly record: R | undefined;
  /** True once the record's status is terminal (and, for a batch, its generations are known). */
  readonly terminal: boolean;
  /** The subject ended but part of its end was not seen (a batch's generations): poll now. */
  readonly needsPoll?: boolean;
  /** Channels to listen on; empty until the first record is in. */
  channels(): ChannelRef[];
  /**
   * Takes a record from any source (a parsed object or raw JSON of this subject, or of a
   * generation of this batch); records of other subjects and stale ones are ignored.
   * @returns true when the change is worth an update (status, queue position, counters)
   */
  merge(raw: unknown): boolean;
  /** Fetches the current record with one request (a poll) and merges it. */
  poll(signal: AbortSignal): Promise<boolean>;
  /** The update describing the current state. */
  update(source: UpdateSource): U;
}

/** A record from a message: pusher-js hands over parsed JSON, some transports a JSON string. */
export function asObject(raw: unknown): unknown {
  if (typeof raw !== "string") return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
