import { join } from "node:path";
import { Accounts, AccountsFile, type Account } from "./accounts.ts";
import type { BatchEntity, ExportEntity, GenerationEntity } from "./entities.ts";
import { Journal } from "./journal.ts";
import { JsonFile } from "./json-file.ts";
import { RecordStore, RecordsFile } from "./record-store.ts";
import { StoreChange, type ChangeLog, type IdCounters } from "./store-change.ts";

/** Past this, the journal is folded into the snapshots (a rare, whole write of both files). */
const COMPACT_AT_BYTES = 8 * 1024 * 1024;

const NO_RECORDS: RecordsFile = { nextGenerationId: 1, nextBatchId: 1, generations: [], exports: [], batches: [] };

interface Staged {
  accounts: Map<number, Account>;
  generations: Map<number, GenerationEntity>;
  exports: Map<string, ExportEntity>;
  batches: Map<number, BatchEntity>;
  counters?: IdCounters;
}

const nothingStaged = (): Staged => ({ accounts: new Map(), generations: new Map(), exports: new Map(), batches: new Map() });

/**
 * The local service's durable state in its data directory: snapshots (`accounts.json`,
 * `records.json`) and a write-ahead journal (`journal.log`). Every change is appended to
 * the journal and fsynced before the service answers or announces it; a charge or a refund
 * is in the same entry as its record, so a kill at any instant keeps both or neither. On
 * open the journal is replayed over the snapshots and folded into them; `close()` and a
 * large journal fold it too.
 */
export class DataStore implements ChangeLog {
  readonly accounts: Accounts;
  readonly records: RecordStore;
  private readonly _accountsFile: JsonFile<typeof AccountsFile>;
  private readonly _recordsFile: JsonFile<typeof RecordsFile>;
  private readonly _journal: Journal<typeof StoreChange>;
  private _staged = nothingStaged();

  /** Reads the data directory (replaying what a crash left in the journal). A damaged file is an error, never silently replaced. */
  constructor(dataDir: string) {
    this._accountsFile = new JsonFile(join(dataDir, "accounts.json"), AccountsFile);
    this._recordsFile = new JsonFile(join(dataDir, "records.json"), RecordsFile);
    this._journal = new Journal(join(dataDir, "journal.log"), StoreChange);
    const accounts = this._accountsFile.load({ accounts: [] }).accounts;
    const records = this._recordsFile.load(NO_RECORDS);
    const { entries, tornTail } = this._journal.read();
    const replayed = replay(accounts, records, entries);
    this.accounts = new Accounts(replayed.accounts, this);
    this.records = new RecordStore(replayed.records, this);
    if (entries.length > 0 || tornTail) this.compact();
  }

  stage(part: Partial<StoreChange>): void {
    const s = this._staged;
    part.accounts?.forEach((a) => s.accounts.set(a.id, a));
    part.generations?.forEach((g) => s.generations.set(g.id, g));
    part.exports?.forEach((e) => s.exports.set(e.id, e));
    part.batches?.forEach((b) => s.batches.set(b.id, b));
    if (part.counters) s.counters = part.counters;
  }

  commit(): void {
    const s = this._staged;
    if (!s.accounts.size && !s.generations.size && !s.exports.size && !s.batches.size && !s.counters) return;
    this._journal.append({
      accounts: [...s.accounts.values()],
      generations: [...s.generations.values()],
      exports: [...s.exports.values()],
      batches: [...s.batches.values()],
      ...(s.counters ? { counters: s.counters } : {}),
    });
    // Cleared only once written: a failed write is tried again with the next commit.
    this._staged = nothingStaged();
    if (this._journal.size > COMPACT_AT_BYTES) this.compact();
  }

  /** Writes both snapshots from memory, then empties the journal (a kill in between replays it again: entries are absolute). */
  compact(): void {
    this._recordsFile.write(this.records.snapshot());
    this._accountsFile.write({ accounts: [...this.accounts.all] });
    this._journal.clear();
  }

  /** Folds the journal into the snapshots (so the files are tidy for a person) and closes it. */
  close(): void {
    this.commit();
    if (this._journal.size > 0) this.compact();
    this._journal.close();
  }
}

/** The snapshots with the journal's entries applied in order. */
function replay(accounts: Account[], records: RecordsFile, entries: StoreChange[]): { accounts: Account[]; records: RecordsFile } {
  const byId = <K, T>(list: T[], key: (t: T) => K) => new Map(list.map((t) => [key(t), t] as const));
  const a = byId(accounts, (x) => x.id);
  const g = byId(records.generations, (x) => x.id);
  const e = byId(records.exports, (x) => x.id);
  const b = byId(records.batches, (x) => x.id);
  let { nextGenerationId, nextBatchId } = records;
  for (const entry of entries) {
    entry.accounts.forEach((x) => a.set(x.id, x));
    entry.generations.forEach((x) => g.set(x.id, x));
    entry.exports.forEach((x) => e.set(x.id, x));
    entry.batches.forEach((x) => b.set(x.id, x));
    nextGenerationId = Math.max(nextGenerationId, entry.counters?.nextGenerationId ?? 0);
    nextBatchId = Math.max(nextBatchId, entry.counters?.nextBatchId ?? 0);
  }
  return {
    accounts: [...a.values()],
    records: { nextGenerationId, nextBatchId, generations: [...g.values()], exports: [...e.values()], batches: [...b.values()] },
  };
}
