/**
 * Who owns which record: each name of a record (record-refs.ts) maps to its owner, and each
 * user has an ordered list of their records of each kind, which pages their history. Kept
 * in the proxy's store, so every instance reads the same ledger; entries never expire (a
 * record must not become visible to others by being forgotten: with no owner it is shown
 * to administrators only).
 */
import type { ProxyStore } from "../store/proxy-store.ts";
import { idOf, orderOf, refsOf, type RecordKind } from "./record-refs.ts";

type Fields = Record<string, unknown>;

const ownerKey = (ref: string) => `owner:${ref}`;
const listKey = (kind: RecordKind, user: string) => `list:${kind}:${user}`;

export class OwnershipLedger {
  constructor(
    private readonly _store: ProxyStore,
    private readonly _now: () => number = Date.now,
  ) {}

  /** Makes `user` the owner of every name of `records` and lists them as theirs. */
  async record(user: string, records: readonly { kind: RecordKind; record: Fields }[]): Promise<void> {
    const entries = records.flatMap(({ kind, record }) => refsOf(kind, record).map((ref) => [ownerKey(ref), user] as const));
    await this._store.put(entries);
    const now = this._now();
    await Promise.all(records.map(({ kind, record }) => this._store.indexAdd(listKey(kind, user), idOf(record)!, orderOf(record, now))));
  }

  /** The owner of each name, null where none is known. */
  ownersOf(refs: readonly string[]): Promise<(string | null)[]> {
    return this._store.get(refs.map(ownerKey));
  }

  async ownerOf(ref: string): Promise<string | null> {
    return (await this.ownersOf([ref]))[0] ?? null;
  }

  /** Takes records off their owner's list (deleted, or gone upstream); their names stay owned. */
  unlist(user: string, kind: RecordKind, ids: readonly string[]): Promise<void> {
    return this._store.indexRemove(listKey(kind, user), ids);
  }

  /** A page of the user's records of `kind`, newest first with `desc`, and how many there are. */
  page(user: string, kind: RecordKind, offset: number, count: number, desc: boolean): Promise<{ members: string[]; total: number }> {
    return this._store.indexPage(listKey(kind, user), offset, count, desc);
  }
}
