import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { DataStore } from "../../../src/local/store/data-store.ts";
import type { GenerationEntity } from "../../../src/local/store/entities.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "skybox-store-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const journal = () => join(dir, "journal.log");

function generation(store: DataStore, accountId: number, cost = 1): GenerationEntity {
  const id = store.records.nextGenerationId();
  const now = "2026-11-21T05:00:00+00:00";
  return {
    id,
    obfuscatedId: `obf-${id}-${Math.random().toString(16).slice(2)}`,
    accountId,
    status: "pending",
    prompt: "p",
    enhancePrompt: false,
    enhancedPrompt: null,
    negativeText: null,
    seed: 1,
    styleId: 2,
    variantId: null,
    mode: "generate",
    softLines: false,
    webhookUrl: null,
    batchId: null,
    remixImagineId: null,
    remixCollectionId: null,
    initStrength: null,
    controlModel: null,
    edit: null,
    inputs: {},
    cost,
    favorite: false,
    errorMessage: null,
    createdAt: now,
    updatedAt: now,
    dispatchedAt: null,
    processingAt: null,
    completedAt: null,
    deleted: false,
  };
}

/** What a generation request does: build, charge, store and commit (generation-routes). */
function createCharged(store: DataStore, cost = 1): GenerationEntity {
  const account = store.accounts.all[0]!;
  const g = generation(store, account.id, cost);
  store.accounts.charge(account, cost);
  store.records.generations.set(g.id, g);
  store.records.changed(g);
  return g;
}

describe("DataStore", () => {
  test("a committed change is on disk at once: another open (a restart after kill -9) sees it, with its charge and the id counter", () => {
    const store = new DataStore(dir);
    store.accounts.upsert({ credits: 100 });
    const g = createCharged(store, 3);
    const lost = store.records.nextGenerationId(); // drawn, never committed with a record: only the counter is written, with the next commit
    const h = createCharged(store, 3);
    const after = new DataStore(dir); // no close(): as after a crash
    expect(after.records.generations.get(g.id)).toEqual(g);
    expect(after.records.generations.get(h.id)).toEqual(h);
    expect(after.accounts.all[0]!.credits).toBe(94);
    expect(after.records.nextGenerationId()).toBe(Math.max(lost, h.id) + 1);
  });

  test("a charge not yet committed with its record is not on disk", () => {
    const store = new DataStore(dir);
    const account = store.accounts.upsert({ credits: 10 });
    store.accounts.charge(account, 4);
    expect(new DataStore(dir).accounts.all[0]!.credits).toBe(10);
  });

  test("a refund is written with the status change; a generation with its batch", () => {
    const store = new DataStore(dir);
    const account = store.accounts.upsert({ credits: 10 });
    const g = createCharged(store, 2);
    g.status = "abort";
    store.accounts.refund(account, 2);
    store.records.changed(g);
    const batchId = store.records.nextBatchId();
    store.records.batches.set(batchId, {
      id: batchId,
      obfuscatedId: "b",
      accountId: account.id,
      quantity: 1,
      generationIds: [],
      submissionErrors: [],
      webhookUrl: null,
      lastEvent: null,
      createdAt: "t",
      updatedAt: "t",
    });
    const item = { ...generation(store, account.id), batchId };
    store.records.batches.get(batchId)!.generationIds.push(item.id);
    store.records.generations.set(item.id, item);
    store.records.changed(item);
    const after = new DataStore(dir);
    expect(after.accounts.all[0]!.credits).toBe(10);
    expect(after.records.generations.get(g.id)!.status).toBe("abort");
    expect(after.records.batches.get(batchId)!.generationIds).toEqual([item.id]);
  });

  test("opening folds the journal into the snapshots and empties it; replaying it twice (a kill during that fold) changes nothing", () => {
    const store = new DataStore(dir);
    store.accounts.upsert({ credits: 50 });
    createCharged(store);
    createCharged(store);
    copyFileSync(journal(), `${journal()}.copy`);
    const folded = new DataStore(dir);
    expect(statSync(journal()).size).toBe(0);
    const once = { accounts: folded.accounts.all, records: folded.records.snapshot() };
    copyFileSync(`${journal()}.copy`, journal()); // snapshots written, journal not yet emptied
    const twice = new DataStore(dir);
    expect({ accounts: twice.accounts.all, records: twice.records.snapshot() }).toEqual(once);
  });

  test("a torn last line (a kill mid-append, never acknowledged) is left out; a damaged line before intact ones is an error and the file is kept", () => {
    const store = new DataStore(dir);
    store.accounts.upsert({ credits: 50 });
    const g = createCharged(store);
    appendFileSync(journal(), '0123456789abcdef {"generations":[{"id":');
    const after = new DataStore(dir);
    expect(after.records.generations.get(g.id)).toEqual(g);
    expect(statSync(journal()).size).toBe(0);

    createCharged(after);
    createCharged(after);
    const lines = readFileSync(journal(), "utf8").split("\n");
    lines[0] = lines[0]!.replace('"p"', '"q"'); // a changed byte: the checksum no longer matches
    writeFileSync(journal(), lines.join("\n"));
    expect(() => new DataStore(dir)).toThrow(/journal\.log is damaged at line 1/);
    expect(readFileSync(journal(), "utf8")).toBe(lines.join("\n"));
  });

  test("close() folds the journal; accounts.json and records.json are what a person reads", () => {
    const store = new DataStore(dir);
    store.accounts.upsert({ credits: 5, username: "ada" });
    createCharged(store);
    store.close();
    expect(statSync(journal()).size).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "accounts.json"), "utf8")).accounts[0]).toMatchObject({ username: "ada", credits: 4 });
    expect(JSON.parse(readFileSync(join(dir, "records.json"), "utf8")).generations).toHaveLength(1);
  });
});
