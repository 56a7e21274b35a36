import type * as z from "zod/mini";
import { ExportRecord } from "../../api/schemas/export-request.ts";
import { Generation } from "../../api/schemas/generation.ts";
import { exportChannel, generationChannel, isRequestTerminal, PUSH_EVENT } from "../../api/protocol/index.ts";
import type { StatusClient } from "../status-options.ts";
import { compareRequests } from "./status-order.ts";
import { asObject, type ChannelRef, type Tracked } from "./tracked.ts";
import type { ExportUpdate, GenerationUpdate, UpdateSource } from "../updates.ts";

/** How one kind of request (generation, export) is recognised, fetched and named. */
interface RequestKind<R> {
  schema: z.ZodMiniType<R>;
  /** Whether a record is the one watched. */
  matches(record: R): boolean;
  fetch(signal: AbortSignal): Promise<R>;
  /** The spec's channel name, for a record that does not carry one. */
  channelOf(record: R): string;
}

type RequestRecord = Generation | ExportRecord;

/** A generation or an export being watched: its newest record, forward only. */
class TrackedRequest<R extends RequestRecord, U extends GenerationUpdate | ExportUpdate> implements Tracked<R, U> {
  record: R | undefined;

  constructor(
    private readonly _kind: RequestKind<R>,
    private readonly _subject: U["subject"],
    initial: R | undefined,
  ) {
    // Checked like any message: a record that does not parse is fetched instead.
    if (initial) this.merge(initial);
  }

  get terminal(): boolean {
    return this.record !== undefined && isRequestTerminal(this.record.status);
  }

  channels(): ChannelRef[] {
    const r = this.record;
    return r ? [{ channel: r.pusher_channel || this._kind.channelOf(r), event: r.pusher_event || PUSH_EVENT }] : [];
  }

  merge(raw: unknown): boolean {
    const parsed = this._kind.schema.safeParse(asObject(raw));
    if (!parsed.success || !this._kind.matches(parsed.data)) return false;
    const next = parsed.data;
    const current = this.record;
    if (current && compareRequests(current, next) <= 0) return false;
    this.record = next;
    return !current || current.status !== next.status || (current.queue_position ?? null) !== (next.queue_position ?? null);
  }

  async poll(signal: AbortSignal): Promise<boolean> {
    return this.merge(await this._kind.fetch(signal));
  }

  update(source: UpdateSource): U {
    const record = this.record!;
    return {
      subject: this._subject,
      status: record.status,
      record,
      source,
      queuePosition: record.queue_position ?? null,
      terminal: this.terminal,
    } as U;
  }
}

/** Tracks a generation from its record, its numeric id or its obfuscated id. */
export function trackGeneration(client: StatusClient, subject: number | string | Generation): Tracked<Generation, GenerationUpdate> {
  const initial = typeof subject === "object" ? subject : undefined;
  let id = typeof subject === "number" ? subject : initial?.id;
  let obfuscatedId = typeof subject === "string" ? subject : initial?.obfuscated_id;
  return new TrackedRequest<Generation, GenerationUpdate>(
    {
      schema: Generation,
      matches(g) {
        if (id !== undefined ? g.id !== id : g.obfuscated_id !== obfuscatedId) return false;
        id = g.id;
        obfuscatedId = g.obfuscated_id;
        return true;
      },
      fetch: (signal) =>
        id !== undefined ? client.getGeneration(id, { signal }) : client.getGenerationByObfuscatedId(obfuscatedId!, { signal }),
      channelOf: (g) => generationChannel(g.obfuscated_id),
    },
    "generation",
    initial,
  );
}

/** Tracks an export request from its record or its id. */
export function trackExport(client: StatusClient, subject: string | ExportRecord): Tracked<ExportRecord, ExportUpdate> {
  const id = typeof subject === "string" ? subject : subject.id;
  return new TrackedRequest<ExportRecord, ExportUpdate>(
    {
      schema: ExportRecord,
      matches: (e) => e.id === id,
      fetch: (signal) => client.getExport(id, { signal }),
      channelOf: (e) => exportChannel(e.id),
    },
    "export",
    typeof subject === "string" ? undefined : subject,
  );
}
