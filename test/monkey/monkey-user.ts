/**
 * One simulated user of a monkey run: a seeded loop of what users do, each at a random
 * moment. Generations and batches of both models, exports of every file type but video,
 * remixes and edits of finished skyboxes, history pages, polls, and cancels and deletes
 * aimed at a moment of a generation's life (pending, dispatched, processing, just complete).
 * Every answer must be below 500; what the service acknowledges goes into the ledger.
 */
import type { seededRandom } from "../helpers/seeded-random.ts";
import { type Json, Ledger, LIVE, TERMINAL } from "./ledger.ts";

export type Random = ReturnType<typeof seededRandom>;

/** How a user reaches the API: `api(method, path after /api/v1, body)`. */
export type Api = (method: string, path: string, body?: object) => Promise<{ status: number; json: Json }>;

export interface Styles {
  model3: number[];
  model4: number[];
}

const PROMPTS = [
  "alpine lake at dawn",
  "desert at noon",
  "city at night",
  "stormy sea",
  "forest at sunset",
  "snowy mountains",
  "space nebula",
  "tropical beach",
];
/** Every export type except the videos (minutes of ffmpeg at any size). */
const EXPORT_TYPES = [1, 2, 3, 4, 5, 6, 10, 11];
const MOMENTS = ["pending", "dispatched", "processing", "complete"] as const;
const RANK: Record<string, number> = { pending: 0, dispatched: 1, processing: 2, complete: 3, error: 3, abort: 3 };

export class MonkeyUser {
  constructor(
    readonly name: string,
    private readonly _api: Api,
    private readonly _random: Random,
    private readonly _ledger: Ledger,
    private readonly _styles: Styles,
  ) {}

  /** Runs actions until `count` have run or `deadline` (ms since epoch) has passed. */
  async run(count: number, deadline: number): Promise<void> {
    for (let i = 0; i < count && Date.now() < deadline; i++) {
      const [name, action] = this.pickAction();
      this._ledger.count(name);
      await action();
    }
  }

  private pickAction(): [string, () => Promise<unknown>] {
    const r = this._random;
    const weighted: [number, string, () => Promise<unknown>][] = [
      [18, "generate", () => this.generate({})],
      [4, "batch", () => this.batch()],
      [12, "export", () => this.exportOne()],
      [5, "remix", () => this.fromFinished(3, (g) => this.generate({ remix_imagine_id: g.id }))],
      [
        5,
        "edit",
        () => this.fromFinished(4, (g) => this.generate({ edit_skybox_id: g.id, center_x: r(360) - 180, center_y: r(120) - 60 }, 4)),
      ],
      [8, "history", () => this.call("GET", `/imagine/myRequests?limit=${1 + r(20)}&offset=${r(10)}${r.chance(0.3) ? "&status=all" : ""}`)],
      [10, "poll", () => this.poll()],
      [10, "cancel", () => this.atMoment((g) => this.call("DELETE", `/imagine/requests/${g.id}`))],
      [2, "cancel all", () => this.call("DELETE", "/imagine/requests/pending")],
      [7, "delete", () => this.atMoment((g) => this.deleteGeneration(g), true)],
      [4, "cancel export", () => this.cancelExport()],
      [3, "lists", () => this.call("GET", r.chance(0.5) ? "/skybox/export/history" : "/skybox/batch")],
    ];
    let roll = r(weighted.reduce((s, [w]) => s + w, 0));
    for (const [w, name, action] of weighted) {
      if ((roll -= w) < 0) return [name, action];
    }
    throw new Error("unreachable");
  }

  private async call(method: string, path: string, body?: object): Promise<{ status: number; json: Json }> {
    const answer = await this._api(method, path, body).catch((error: Error) => ({
      status: 599,
      json: { error: `no answer: ${error.message}` },
    }));
    if (answer.status >= 500)
      this._ledger.failures.push(`${this.name} ${method} ${path}: ${answer.status} ${JSON.stringify(answer.json).slice(0, 300)}`);
    return answer;
  }

  private async generate(extra: Json, model: 3 | 4 = this._random.chance(0.5) ? 3 : 4): Promise<void> {
    const style = this._random.pick(model === 3 ? this._styles.model3 : this._styles.model4);
    const { status, json } = await this.call("POST", "/skybox", { prompt: this._random.pick(PROMPTS), skybox_style_id: style, ...extra });
    if (status === 200) this._ledger.generation(json, this.name, model);
  }

  private async batch(): Promise<void> {
    const model = this._random.chance(0.5) ? 3 : 4;
    const style = this._random.pick(model === 3 ? this._styles.model3 : this._styles.model4);
    const { status, json } = await this.call("POST", "/skybox/batch", {
      prompt: this._random.pick(PROMPTS),
      skybox_style_id: style,
      quantity: 2 + this._random(2),
    });
    if (status !== 200) return;
    this._ledger.batches.set(json.id, { user: this.name });
    for (const g of json.generations ?? []) this._ledger.generation(g, this.name, model);
  }

  private async exportOne(): Promise<void> {
    await this.fromFinished(null, async (g) => {
      const type = this._random.pick(EXPORT_TYPES);
      const { status, json } = await this.call("POST", "/skybox/export", {
        skybox_id: g.obfuscatedId,
        type_id: type,
        resolution_id: 1 + this._random(2),
        ...(type === 4 || type === 5 ? { hdri_mode_id: 1 + this._random(5) } : {}),
        ...(type === 11 ? { mesh_quality_id: 1 + this._random(2) } : {}),
      });
      if (status === 200) this._ledger.exports.set(json.id, { user: this.name, status: json.status });
    });
  }

  private async cancelExport(): Promise<void> {
    const mine = [...this._ledger.exports].filter(([, e]) => e.user === this.name && LIVE.has(e.status));
    if (!mine.length) return;
    const [id, e] = this._random.pick(mine);
    const { status, json } = await this.call("DELETE", `/skybox/export/${id}`);
    if (status === 200 && json.success === true) e.status = "abort";
  }

  private async poll(): Promise<void> {
    const mine = this._ledger.mine(this.name, new Set([...LIVE, ...TERMINAL]));
    if (!mine.length) return;
    await this.read(this._random.pick(mine));
  }

  /** Reads a generation again; its status in the ledger follows. */
  private async read(g: { id: number }): Promise<string | null> {
    const { status, json } = await this.call("GET", `/imagine/requests/${g.id}`);
    if (status !== 200) return null;
    this._ledger.generation(json.request, this.name);
    return json.request.status as string;
  }

  /** Runs `act` on one of this user's finished skyboxes (of `model`, or any). */
  private async fromFinished(model: 3 | 4 | null, act: (g: { id: number; obfuscatedId: string }) => Promise<unknown>): Promise<void> {
    const done = this._ledger.mine(this.name, new Set(["complete"])).filter((g) => model === null || g.model === model);
    if (done.length) await act(this._random.pick(done));
    else await this.generate({}, model ?? 3);
  }

  /**
   * Waits until one of this user's live generations reaches a randomly chosen moment of its
   * life, then acts on it at once (after up to 20 ms more). With `finishedToo`, finished ones may be chosen too.
   */
  private async atMoment(act: (g: { id: number; obfuscatedId: string }) => Promise<unknown>, finishedToo = false): Promise<void> {
    const live = this._ledger.mine(this.name, finishedToo ? new Set([...LIVE, "complete"]) : LIVE);
    if (!live.length) return;
    const g = this._random.pick(live);
    const moment = this._random.pick(MOMENTS);
    const end = Date.now() + 15_000;
    for (;;) {
      const status = await this.read(g);
      if (status === null || RANK[status]! >= RANK[moment]! || Date.now() > end) break;
      await sleep(5);
    }
    await sleep(this._random(20));
    await act(g);
  }

  private async deleteGeneration(g: { id: number }): Promise<void> {
    const seen = this._ledger.generations.get(g.id)!;
    const before = seen.status;
    const { status } = await this.call("DELETE", `/imagine/deleteImagine/${g.id}`);
    if (status !== 200) return;
    // Refunded if it was live when deleted; a status read just before may be stale by now.
    seen.deleted = { wasLive: TERMINAL.has(before) ? false : "unknown" };
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
