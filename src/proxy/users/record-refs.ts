/**
 * The names under which the ledger knows a record: every id a route, a request field or an
 * event stream can name it by. A generation is named by its numeric id, its hash id and its
 * push channel; a batch likewise; an export by its id and channel.
 */
import { batchChannel, exportChannel, generationChannel } from "../../api/protocol/channels.ts";
import { unwrap } from "../../api/schemas/wrapped.ts";

export type RecordKind = "generation" | "export" | "batch";

/** What a name refers to: the id fields of the spec, and push channels. */
export type RefKind = RecordKind | "generation-hash" | "batch-hash" | "channel";

export const refOf = (kind: RefKind, id: string | number) => `${kind}:${id}`;

type Fields = Record<string, unknown>;

const text = (v: unknown) => ((typeof v === "string" && v !== "") || typeof v === "number" ? String(v) : null);

/** The record inside a response that may wrap it (`{ request }`, `{ imagine }`), or null when it is none. */
export function recordIn(body: unknown): Fields | null {
  const inner = unwrap(body, ["request", "imagine"]);
  return typeof inner === "object" && inner !== null && !Array.isArray(inner) ? (inner as Fields) : null;
}

/** The record's own id (the one its list and its index use), or null. */
export function idOf(record: Fields): string | null {
  return text(record.id);
}

/** Every name of a record of `kind`. */
export function refsOf(kind: RecordKind, record: Fields): string[] {
  const id = text(record.id);
  const hash = text(record.obfuscated_id);
  const refs = new Set<string>();
  if (id) refs.add(refOf(kind, id));
  if (kind === "generation" && hash)
    [refOf("generation-hash", hash), refOf("channel", generationChannel(hash))].forEach((r) => refs.add(r));
  if (kind === "batch" && hash) [refOf("batch-hash", hash), refOf("channel", batchChannel(hash))].forEach((r) => refs.add(r));
  if (kind === "export" && id) refs.add(refOf("channel", exportChannel(id)));
  const channel = text(record.pusher_channel);
  if (channel) refs.add(refOf("channel", channel));
  return [...refs];
}

/** Records created by one response: the record itself and, for a batch, each of its generations. */
export function createdRecords(kind: RecordKind, body: unknown): { kind: RecordKind; record: Fields }[] {
  const record = recordIn(body);
  if (!record || !idOf(record)) return [];
  const generations = kind === "batch" ? generationsIn("batch", record).filter((g) => idOf(g) !== null) : [];
  return [{ kind, record }, ...generations.map((g) => ({ kind: "generation" as const, record: g }))];
}

/**
 * Where a record sits in its owner's list: its numeric id, in which the API orders lists;
 * an export's id is a hash, so its creation time.
 */
export function orderOf(record: Fields, now: number): number {
  const id = Number(record.id);
  if (Number.isSafeInteger(id)) return id;
  const created = typeof record.created_at === "string" ? Date.parse(record.created_at) : NaN;
  return Number.isFinite(created) ? created : now;
}

const isFields = (v: unknown): v is Fields => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The generation records a response about `kind` shows, with their status: a generation
 * (wrapped or bare), a page of them, or the generations of a batch.
 */
export function generationsIn(kind: RecordKind, body: unknown): Fields[] {
  if (kind === "export") return [];
  const data = isFields(body) ? body.data : undefined;
  const records = (Array.isArray(data) ? data : [recordIn(body)]).filter(isFields);
  if (kind === "generation") return records;
  return records.flatMap((batch) => (Array.isArray(batch.generations) ? batch.generations.filter(isFields) : []));
}
