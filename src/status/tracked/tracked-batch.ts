import { Batch } from "../../api/schemas/batch.ts";
import { Generation } from "../../api/schemas/generation.ts";
import { batchChannel, generationChannel, isBatchTerminal, isRequestTerminal, PUSH_EVENT } from "../../api/protocol/index.ts";
import type { StatusClient } from "../status-options.ts";
import { compareBatches, compareRequests } from "./status-order.ts";
import { asObject, type ChannelRef, type Tracked } from "./tracked.ts";
import type { BatchUpdate, UpdateSource } from "../updates.ts";

/**
 * A batch being watched, with each of its generations. Push brings the batch's counters on
 * its own channel and each generation's status on the generation's channel; a poll of the
 * batch (`GET /skybox/batch/{id}`) brings both at once. A batch that ends before every
 * generation's end was seen is settled by one more poll.
 */
export class TrackedBatch implements Tracked<Batch, BatchUpdate> {
  private _batch: Batch | undefined;
  private readonly _generations = new Map<number, Generation>();
  /** A terminal batch record with its generations was merged: nothing more to learn. */
  private _settled = false;

  constructor(
    private readonly _client: StatusClient,
    private readonly _id: number,
    initial?: Batch,
  ) {
    if (initial) this.merge(initial);
  }

  get record(): Batch | undefined {
    return this._batch && { ...this._batch, generations: this.generations() };
  }

  /** The batch ended; its generations' ends are known (or the service says they are). */
  get terminal(): boolean {
    return this.batchEnded && (this._settled || this.generations().every((g) => isRequestTerminal(g.status)));
  }

  /** The batch ended but a generation's end was not seen: one poll settles it. */
  get needsPoll(): boolean {
    return this.batchEnded && !this.terminal;
  }

  private get batchEnded(): boolean {
    return this._batch !== undefined && isBatchTerminal(this._batch.status);
  }

  generations(): Generation[] {
    return [...this._generations.values()];
  }

  channels(): ChannelRef[] {
    const b = this._batch;
    if (!b) return [];
    const own = { channel: b.pusher_channel || batchChannel(b.obfuscated_id), event: b.pusher_event || PUSH_EVENT };
    const children = this.generations().map((g) => ({
      channel: g.pusher_channel || generationChannel(g.obfuscated_id),
      event: g.pusher_event || PUSH_EVENT,
    }));
    return [own, ...children];
  }

  merge(raw: unknown): boolean {
    const value = asObject(raw);
    if (typeof value === "object" && value !== null && "quantity" in value) return this._mergeBatch(value);
    const parsed = Generation.safeParse(value);
    return parsed.success ? this._mergeGeneration(parsed.data) : false;
  }

  async poll(signal: AbortSignal): Promise<boolean> {
    return this.merge(await this._client.getBatch(this._id, { signal }));
  }

  update(source: UpdateSource): BatchUpdate {
    const generations = this.generations();
    const queued = generations.map((g) => g.queue_position).filter((q): q is number => typeof q === "number" && q > 0);
    return {
      subject: "batch",
      status: this._batch!.status,
      record: { ...this._batch!, generations },
      generations,
      source,
      queuePosition: queued.length ? Math.min(...queued) : null,
      terminal: this.terminal,
    };
  }

  private _mergeBatch(value: object): boolean {
    const parsed = Batch.safeParse(value);
    if (!parsed.success || parsed.data.id !== this._id) return false;
    const next = parsed.data;
    // A poll's generations may be newer even when the batch record itself is not.
    let changed = false;
    for (const g of next.generations ?? []) changed = this._mergeGeneration(g, true) || changed;
    const current = this._batch;
    if (!current || compareBatches(current, next) > 0) {
      this._batch = next;
      changed ||= !current || current.status !== next.status || counters(current) !== counters(next);
    }
    if (next.generations && isBatchTerminal(next.status)) this._settled = true;
    return changed;
  }

  private _mergeGeneration(next: Generation, fromBatch = false): boolean {
    const current = this._generations.get(next.id);
    // Only generations the batch listed belong to it; the batch's own record lists them.
    if (!current && !fromBatch) return false;
    if (current && compareRequests(current, next) <= 0) return false;
    // Batch items leave out fields a pushed record had; a missing queue position is gone, not kept.
    this._generations.set(next.id, current ? { ...current, ...next, queue_position: next.queue_position ?? null } : next);
    return !current || current.status !== next.status || (current.queue_position ?? null) !== (next.queue_position ?? null);
  }
}

const counters = (b: Batch) => `${b.completed}/${b.errored}/${b.aborted}/${b.successfully_submitted}`;
