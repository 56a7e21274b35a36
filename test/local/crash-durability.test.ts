/**
 * kill -9 of `babylon-skybox local` at many points, restarted each time on the same data
 * directory: before, during and right after the answers of generation, batch and export
 * creation; right after a cancel; while a webhook waits for its retry; while an export is
 * written. After every restart: every acknowledged record exists with its ids and no
 * acknowledged status went back; no id (numeric or obfuscated) is ever handed out twice; the
 * balance is the starting credits minus the costs of the generations that exist plus the
 * refunds of those that ended in error or abort.
 *
 * Kill points come from a seeded generator (CRASH_SEED to replay another run).
 */
import { createServer, type Server, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { startLocalProcess, waitFor, type LocalProcess } from "../helpers/local-service.ts";
import { seededRandom } from "../helpers/seeded-random.ts";

const SEED = Number(process.env.CRASH_SEED ?? 20261121);
const ROUNDS = 14;
const FLAGS = { speed: 100, "rate-limit": 1_000_000 } as const;
const TERMINAL = new Set(["complete", "error", "abort"]);
const RANK: Record<string, number> = { pending: 0, dispatched: 1, processing: 2 };
const rankOf = (status: string) => RANK[status] ?? 3;

type Json = Record<string, any>;

const random = seededRandom(SEED);

/** What the service acknowledged (answered 200 about), and every id it ever handed out. */
class Acknowledged {
  readonly generations = new Map<number, { obfuscated: string; status: string }>();
  readonly batches = new Map<number, { obfuscated: string; generationIds: number[] }>();
  readonly exports = new Map<string, { status: string }>();
  private readonly _obfuscated = new Map<string, string>();
  private readonly _ids = new Map<string, string>();

  generation(g: Json, where: string): void {
    this.unique(`generation ${g.id}`, g.obfuscated_id, where);
    const known = this.generations.get(g.id);
    if (known && TERMINAL.has(known.status) && known.status !== g.status)
      throw new Error(`${where}: generation ${g.id} was ${known.status}, now ${g.status}`);
    if (!known || rankOf(g.status) >= rankOf(known.status)) this.generations.set(g.id, { obfuscated: g.obfuscated_id, status: g.status });
  }

  batch(b: Json, where: string): void {
    this.unique(`batch ${b.id}`, b.obfuscated_id ?? `batch-${b.id}`, where);
    const ids = (b.generations ?? []).map((g: Json) => g.id as number);
    for (const g of b.generations ?? []) this.generation(g, where);
    this.batches.set(b.id, { obfuscated: b.obfuscated_id, generationIds: ids });
  }

  exportRecord(e: Json, where: string): void {
    this.unique(`export ${e.id}`, `export-${e.id}`, where);
    const known = this.exports.get(e.id);
    if (!known || rankOf(e.status) >= rankOf(known.status)) this.exports.set(e.id, { status: e.status });
  }

  /** An id names one record for ever, and an obfuscated id too. */
  private unique(id: string, obfuscated: string, where: string): void {
    const before = this._ids.get(id);
    if (before !== undefined && before !== obfuscated)
      throw new Error(`${where}: ${id} handed out again (was ${before}, now ${obfuscated})`);
    const owner = this._obfuscated.get(obfuscated);
    if (owner !== undefined && owner !== id)
      throw new Error(`${where}: obfuscated id ${obfuscated} handed out again (${owner}, now ${id})`);
    this._ids.set(id, obfuscated);
    this._obfuscated.set(obfuscated, id);
  }
}

function api(svc: LocalProcess) {
  const call = async (method: string, path: string, body?: object) => {
    const r = await fetch(`${svc.info.url}/api/v1${path}`, {
      method,
      headers: { "x-api-key": svc.info.apiKey, ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: r.status, json: (await r.json()) as Json };
  };
  return {
    get: (path: string) => call("GET", path),
    post: (path: string, body: object) => call("POST", path, body),
    delete: (path: string) => call("DELETE", path),
  };
}

async function credits(svc: LocalProcess): Promise<number> {
  const r = await fetch(`${svc.info.url}/_admin/accounts`, { headers: { authorization: `Bearer ${svc.info.adminToken}` } });
  return ((await r.json()) as Json[])[0]!.credits;
}

/** Every generation of the account, from the history route. */
async function allGenerations(svc: LocalProcess): Promise<Json[]> {
  const out: Json[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = (await api(svc).get(`/imagine/myRequests?limit=100&offset=${offset}`)).json;
    out.push(...page.data);
    if (!page.has_more) return out;
  }
}

/** A webhook receiver on loopback: fails while `failing`, records every delivery. */
async function receiver() {
  const hits: { body: Json; status: number }[] = [];
  const state = { failing: true };
  const server: Server = createServer((req, res) => void answer(req, res));
  async function answer(req: IncomingMessage, res: ServerResponse) {
    let body = "";
    for await (const c of req) body += c;
    const status = state.failing ? 500 : 200;
    hits.push({ body: JSON.parse(body), status });
    res.writeHead(status).end();
  }
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    hits,
    state,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

interface Round {
  svc: LocalProcess;
  acked: Acknowledged;
  /** A completed skybox to export from (the newest). */
  source: () => string;
  hook: Awaited<ReturnType<typeof receiver>>;
  /** Checks the next service must pass, besides the common ones. */
  after: ((svc: LocalProcess) => Promise<void>)[];
}

const prompt = () => `crash test sky ${random(1_000_000)}`;

/** The kill points: each acts on a running service and ends by killing it with SIGKILL. */
const KILL_POINTS: Record<string, (r: Round) => Promise<void>> = {
  async "right after a generation's answer"({ svc, acked }) {
    const { status, json } = await api(svc).post("/skybox", { prompt: prompt(), skybox_style_id: 2 });
    await svc.kill();
    expect(status).toBe(200);
    acked.generation(json, "answer");
  },

  async "right after the answers of a batch and of exports"({ svc, acked, source }) {
    const batch = await api(svc).post("/skybox/batch", { prompt: prompt(), skybox_style_id: 2, quantity: 2 });
    expect(batch.status).toBe(200);
    acked.batch(batch.json, "answer");
    // One that completes within the request (its file written before the answer), one queued.
    const exports = await Promise.all([
      api(svc).post("/skybox/export", { skybox_id: source(), type_id: 1, resolution_id: 1 + random(2) }),
      api(svc).post("/skybox/export", { skybox_id: source(), type_id: 4, resolution_id: 1 + random(2), hdri_mode_id: 1 + random(5) }),
    ]);
    await svc.kill();
    for (const e of exports) {
      expect(e.status).toBe(200);
      acked.exportRecord(e.json, "answer");
    }
  },

  async "before the answer (0-6 ms after sending)"({ svc, acked }) {
    // Settled from the start: a request the kill cuts off rejects while the test waits.
    const sent = Promise.allSettled([
      api(svc).post("/skybox", { prompt: prompt(), skybox_style_id: 2 }),
      api(svc).post("/skybox/batch", { prompt: prompt(), skybox_style_id: 2, quantity: 2 }),
    ]);
    await new Promise((r) => setTimeout(r, random(7)));
    await svc.kill();
    const [g, b] = (await sent).map((r) => (r.status === "fulfilled" && r.value.status === 200 ? r.value.json : null));
    if (g) acked.generation(g, "answer");
    if (b) acked.batch(b, "answer");
  },

  async "among the answers of generations, a batch, exports and a cancel"({ svc, acked, source }) {
    const { json: toCancel } = await api(svc).post("/skybox", { prompt: prompt(), skybox_style_id: 2 });
    acked.generation(toCancel, "answer");
    type Send = [kind: string, send: () => Promise<{ status: number; json: Json }>];
    const requests: Send[] = [
      ...[0, 1, 2].map((): Send => ["generation", () => api(svc).post("/skybox", { prompt: prompt(), skybox_style_id: 2 })]),
      ["batch", () => api(svc).post("/skybox/batch", { prompt: prompt(), skybox_style_id: 2, quantity: 3 })],
      ["export", () => api(svc).post("/skybox/export", { skybox_id: source(), type_id: 6 })],
      ["export", () => api(svc).post("/skybox/export", { skybox_id: source(), type_id: 4, resolution_id: 1, hdri_mode_id: 1 + random(5) })],
      ["cancel", () => api(svc).delete(`/imagine/requests/${toCancel.id}`)],
    ];
    // A seeded shuffle: which answers are out when the kill lands changes from round to round.
    for (let i = requests.length - 1; i > 0; i--) {
      const j = random(i + 1);
      [requests[i], requests[j]] = [requests[j]!, requests[i]!];
    }
    const killAfter = 1 + random(requests.length - 1);
    let answered = 0;
    const results = await Promise.allSettled(
      requests.map(async ([kind, send]) => {
        const answer = await send();
        if (++answered === killAfter) void svc.kill();
        return { kind, ...answer };
      }),
    );
    await svc.kill();
    for (const r of results) {
      if (r.status !== "fulfilled" || r.value.status !== 200) continue;
      const { kind, json } = r.value;
      if (kind === "generation") acked.generation(json, "answer");
      if (kind === "batch") acked.batch(json, "answer");
      if (kind === "export") acked.exportRecord(json, "answer");
      if (kind === "cancel" && json.success === true) acked.generation({ ...toCancel, status: "abort" }, "cancel");
    }
  },

  async "right after a cancel's answer"({ svc, acked }) {
    const { json: g } = await api(svc).post("/skybox", { prompt: prompt(), skybox_style_id: 2 });
    acked.generation(g, "answer");
    const cancel = await api(svc).delete(`/imagine/requests/${g.id}`);
    await svc.kill();
    expect(cancel.json).toEqual({ success: true });
    acked.generation({ ...g, status: "abort" }, "cancel");
  },

  async "while a webhook waits for its retry"({ svc, acked, hook, after }) {
    hook.state.failing = true;
    const { json: g } = await api(svc).post("/skybox", { prompt: prompt(), skybox_style_id: 2, webhook_url: hook.url });
    acked.generation(g, "answer");
    await waitFor(() => hook.hits.some((h) => h.body.id === g.id && h.status === 500), 10_000, 5);
    await svc.kill();
    hook.state.failing = false;
    // The delivery that failed before the kill is retried by the next service.
    after.push(() => waitFor(() => hook.hits.some((h) => h.body.id === g.id && h.status === 200), 20_000).then(() => undefined));
  },

  async "while an export is written"({ svc, acked, source }) {
    const { json: e } = await api(svc).post("/skybox/export", { skybox_id: source(), type_id: 5, resolution_id: 1 + random(2) });
    acked.exportRecord(e, "answer");
    await waitFor(async () => rankOf((await api(svc).get(`/skybox/export/${e.id}`)).json.status) >= 1, 10_000, 2);
    await svc.kill();
  },
};

/** What every restarted service must show. */
async function check(svc: LocalProcess, acked: Acknowledged, startCredits: number, where: string): Promise<void> {
  const client = api(svc);
  for (const [id, before] of acked.generations) {
    const { status, json } = await client.get(`/imagine/requests/${id}`);
    expect(status, `${where}: acknowledged generation ${id}`).toBe(200);
    expect(json.request.obfuscated_id, `${where}: generation ${id}`).toBe(before.obfuscated);
    if (TERMINAL.has(before.status)) expect(json.request.status, `${where}: generation ${id}`).toBe(before.status);
    else
      expect(rankOf(json.request.status), `${where}: generation ${id} went back from ${before.status}`).toBeGreaterThanOrEqual(
        rankOf(before.status),
      );
    acked.generation(json.request, where);
  }
  for (const [id, before] of acked.batches) {
    const { status, json } = await client.get(`/skybox/batch/${id}`);
    expect(status, `${where}: acknowledged batch ${id}`).toBe(200);
    expect(json.obfuscated_id).toBe(before.obfuscated);
    expect((json.generations ?? []).map((g: Json) => g.id)).toEqual(expect.arrayContaining(before.generationIds));
    acked.batch(json, where);
  }
  for (const [id, before] of acked.exports) {
    const { status, json } = await client.get(`/skybox/export/${id}`);
    expect(status, `${where}: acknowledged export ${id}`).toBe(200);
    expect(rankOf(json.status), `${where}: export ${id} went back from ${before.status}`).toBeGreaterThanOrEqual(rankOf(before.status));
    acked.exportRecord(json, where);
  }
  // Balance: read twice around the list, so a status change in between is noticed and read again.
  await waitFor(async () => {
    const first = await credits(svc);
    const all = await allGenerations(svc);
    if ((await credits(svc)) !== first) return false;
    const charged = all.reduce((s, g) => s + g.cost, 0);
    const refunded = all.filter((g) => g.status === "error" || g.status === "abort").reduce((s, g) => s + g.cost, 0);
    expect(first, `${where}: credits = start ${startCredits} - charged ${charged} + refunded ${refunded}`).toBe(
      startCredits - charged + refunded,
    );
    return true;
  });
}

/** Lets the resumed work finish (pending limits, one batch at a time), and checks it does. */
async function settle(svc: LocalProcess, acked: Acknowledged): Promise<void> {
  await waitFor(async () => (await allGenerations(svc)).every((g) => TERMINAL.has(g.status)), 30_000, 100);
  for (const id of acked.exports.keys())
    await waitFor(async () => TERMINAL.has((await api(svc).get(`/skybox/export/${id}`)).json.status), 30_000, 50);
}

test(`kill -9 at ${ROUNDS} points: no acknowledged record lost, no id reused, credits = charges - refunds (seed ${SEED})`, async () => {
  const began = Date.now();
  const dataDir = mkdtempSync(join(tmpdir(), "skybox-crash-"));
  dirs.push(dataDir);
  const acked = new Acknowledged();
  const hook = await receiver();
  let svc = await startLocalProcess(FLAGS, dataDir);
  const startCredits = await credits(svc);
  const first = await api(svc).post("/skybox", { prompt: "the first, complete skybox", skybox_style_id: 2 });
  acked.generation(first.json, "setup");
  await settle(svc, acked);
  const source = () => {
    const complete = [...acked.generations].filter(([, g]) => g.status === "complete");
    return complete.at(-1)![1].obfuscated;
  };
  const names = Object.keys(KILL_POINTS);
  const ran: string[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const name = names[round % names.length]!;
      const after: Round["after"] = [];
      await KILL_POINTS[name]!({ svc, acked, source, hook, after });
      ran.push(name);
      svc = await startLocalProcess(FLAGS, dataDir);
      const where = `round ${round + 1} (${name}, seed ${SEED})`;
      await check(svc, acked, startCredits, where);
      for (const more of after) await more(svc);
      // A new generation after the restart: its ids must be new (Acknowledged throws otherwise).
      acked.generation((await api(svc).post("/skybox", { prompt: prompt(), skybox_style_id: 2 })).json, `${where}, new after restart`);
      await settle(svc, acked);
      await check(svc, acked, startCredits, `${where}, settled`);
    }
  } finally {
    await svc.stop();
    await hook.close();
  }
  expect(ran).toHaveLength(ROUNDS);
  expect(acked.generations.size).toBeGreaterThan(ROUNDS);
  console.log(
    `crash test: ${ROUNDS} kill rounds in ${Math.round((Date.now() - began) / 1000)} s; ${acked.generations.size} generations, ${acked.batches.size} batches, ${acked.exports.size} exports acknowledged, all found after restart`,
  );
}, 240_000);
