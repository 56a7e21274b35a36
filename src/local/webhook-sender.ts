/**
 * Webhook delivery for the local Skybox service: signed POSTs with the spec's retry series,
 * persisted so that a pending delivery survives a restart.
 *
 * Guarantees and choices:
 * - At least once: a delivery is written to `stateFile` (fsynced) before `send()` returns, and
 *   removed after a 2xx (or after the last retry); each attempt's outcome is written before
 *   the next is scheduled. An attempt cut short by `close()` or a crash is made again after
 *   restart, so a receiver may see a duplicate.
 * - Order per URL: attempts to the same URL run one at a time, in the order they fall due. A
 *   failed delivery gets its retry schedule and then no longer holds back later ones, so a
 *   retried status may arrive after a newer one (receivers compare `updated_at`).
 * - `stateFile` holds each delivery's signing secret (the account's API secret): it lives in
 *   the service's private data directory and is written with mode 0600. Secrets never reach the log.
 */
import { randomUUID } from "node:crypto";
import { mkdir, readFile, rename } from "node:fs/promises";
import { dirname } from "node:path";
import * as z from "zod";
import { signWebhook } from "../api/rules/webhook-signature.ts";
import { WEBHOOK_RETRY_DELAYS_MS, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from "../api/rules/webhooks.ts";
import { writeAtomically } from "./store/durable-files.ts";

export { WEBHOOK_RETRY_DELAYS_MS } from "../api/rules/webhooks.ts";

const MAX_TIMER_MS = 2 ** 31 - 1;

export interface WebhookSenderOptions {
  /** JSON file where pending deliveries are persisted (with their signing secrets), so they survive a restart. */
  stateFile: string;
  /** Divides every retry delay: speed 60 turns the 1-minute retry into 1 s. @default 1 */
  speed?: number;
  fetch?: typeof fetch;
  /** Per attempt. @default 10_000 */
  timeoutMs?: number;
  /**
   * Called before each attempt: the private address the URL reaches, or null. A delivery to a
   * private address is given up without a request; a check that fails (DNS) counts as a
   * failed attempt. @default every address allowed
   */
  privateAddressOf?: (url: string) => Promise<string | null>;
  /** Clock in ms, for tests. @default Date.now */
  now?: () => number;
  log?: (line: string) => void;
}

export interface WebhookAttempt {
  id: string;
  url: string;
  /** 1 for the first attempt, up to 1 + WEBHOOK_RETRY_DELAYS_MS.length. */
  attempt: number;
  ok: boolean;
  status?: number;
  error?: string;
  /** Set when a retry was scheduled (already divided by speed). */
  nextDelayMs?: number;
}

const Delivery = z.object({
  id: z.string(),
  url: z.string(),
  body: z.string(),
  secret: z.string(),
  /** Attempts completed so far. */
  attempts: z.number().int().min(0),
  dueAt: z.number(),
  seq: z.number().int(),
});
type Delivery = z.infer<typeof Delivery>;
const StateFile = z.object({ version: z.literal(1), deliveries: z.array(Delivery) });

interface Outcome {
  ok: boolean;
  status?: number;
  error?: string;
  interrupted?: boolean;
  /** No retry can succeed (the target is refused). */
  final?: boolean;
}

export class WebhookSender {
  /** Called after every attempt (tests, bench). */
  onAttempt?: (info: WebhookAttempt) => void;

  private readonly _stateFile: string;
  private readonly _speed: number;
  private readonly _fetch: typeof fetch;
  private readonly _timeoutMs: number;
  private readonly _privateAddressOf: (url: string) => Promise<string | null>;
  private readonly _now: () => number;
  private readonly _log: (line: string) => void;
  private readonly _deliveries = new Map<string, Delivery>();
  private readonly _timers = new Map<string, NodeJS.Timeout>();
  /** Tail of the attempt chain of each URL: what keeps deliveries to one receiver in order. */
  private readonly _lanes = new Map<string, Promise<void>>();
  private readonly _inFlight = new Set<AbortController>();
  private readonly _idleWaiters = new Set<() => void>();
  private _nextSeq = 0;
  private _state: "new" | "started" | "closed" = "new";

  constructor(options: WebhookSenderOptions) {
    const speed = options.speed ?? 1;
    if (!(speed > 0 && Number.isFinite(speed))) throw new RangeError(`speed must be a positive number, got ${speed}`);
    this._stateFile = options.stateFile;
    this._speed = speed;
    this._fetch = options.fetch ?? fetch;
    this._timeoutMs = options.timeoutMs ?? 10_000;
    this._privateAddressOf = options.privateAddressOf ?? (async () => null);
    this._now = options.now ?? Date.now;
    this._log = options.log ?? (() => undefined);
  }

  /** Deliveries not yet delivered nor given up: in flight, waiting for their turn, or scheduled. */
  get pendingCount(): number {
    return this._deliveries.size;
  }

  /** Loads persisted deliveries and schedules them; those already due go out at once. Call once, before send(). */
  async start(): Promise<void> {
    if (this._state !== "new") throw new Error("WebhookSender.start() may be called only once");
    this._state = "started";
    await mkdir(dirname(this._stateFile), { recursive: true, mode: 0o700 });
    const loaded = (await this._load()).sort((a, b) => a.dueAt - b.dueAt || a.seq - b.seq);
    for (const delivery of loaded) {
      this._deliveries.set(delivery.id, delivery);
      this._nextSeq = Math.max(this._nextSeq, delivery.seq + 1);
    }
    for (const delivery of loaded) this._schedule(delivery);
    if (loaded.length > 0) this._log(`webhooks: resumed ${loaded.length} pending deliveries`);
  }

  /** Queues a signed POST of JSON.stringify(body) to url; returns the delivery id. */
  send(url: string, body: unknown, secret: string): string {
    if (this._state !== "started") throw new Error(`WebhookSender.send() needs start() first and no close() (state: ${this._state})`);
    const protocol = new URL(url).protocol;
    if (protocol !== "http:" && protocol !== "https:") throw new TypeError(`Webhook URL must be http or https, got ${protocol}`);
    const raw = JSON.stringify(body);
    if (raw === undefined) throw new TypeError("Webhook body must be JSON-serialisable");
    const delivery: Delivery = { id: randomUUID(), url, body: raw, secret, attempts: 0, dueAt: this._now(), seq: this._nextSeq++ };
    this._deliveries.set(delivery.id, delivery);
    this._persist();
    this._schedule(delivery);
    return delivery.id;
  }

  /** Resolves once nothing is pending (or the sender is closed), or after timeoutMs. */
  idle(timeoutMs = 30_000): Promise<void> {
    if (this._deliveries.size === 0 || this._state === "closed") return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this._idleWaiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this._idleWaiters.add(done);
    });
  }

  /** Stops timers and interrupts attempts in flight; pending deliveries stay in the state file. */
  async close(): Promise<void> {
    if (this._state === "closed") return;
    const wasStarted = this._state === "started";
    this._state = "closed";
    for (const timer of this._timers.values()) clearTimeout(timer);
    this._timers.clear();
    for (const controller of this._inFlight) controller.abort(new Error("sender closed"));
    await Promise.allSettled(this._lanes.values());
    if (wasStarted) this._persist();
    for (const wake of [...this._idleWaiters]) wake();
  }

  private _schedule(delivery: Delivery): void {
    if (this._state === "closed") return;
    const waitMs = Math.max(0, delivery.dueAt - this._now());
    const timer = setTimeout(
      () => {
        this._timers.delete(delivery.id);
        // setTimeout caps at ~24.8 days; a longer wait (speed < 1) just sleeps again.
        if (waitMs > MAX_TIMER_MS) this._schedule(delivery);
        else this._enqueue(delivery);
      },
      Math.min(waitMs, MAX_TIMER_MS),
    );
    // The service's HTTP server keeps the process alive; a pending retry alone should not.
    timer.unref();
    this._timers.set(delivery.id, timer);
  }

  private _enqueue(delivery: Delivery): void {
    // An attempt that throws (a failing onAttempt, a state write) is logged, and the lane goes on.
    const tail = (this._lanes.get(delivery.url) ?? Promise.resolve())
      .then(() => this._attempt(delivery))
      .catch((error: unknown) => this._log(`webhook ${delivery.id}: attempt failed inside the service: ${describe(error)}`));
    this._lanes.set(delivery.url, tail);
    void tail.finally(() => {
      if (this._lanes.get(delivery.url) === tail) this._lanes.delete(delivery.url);
    });
  }

  private async _attempt(delivery: Delivery): Promise<void> {
    if (this._state === "closed") return;
    const attempt = delivery.attempts + 1;
    const outcome = await this._post(delivery);
    if (outcome.interrupted) return;
    delivery.attempts = attempt;
    const retryDelay = WEBHOOK_RETRY_DELAYS_MS[attempt - 1];
    const nextDelayMs = outcome.ok || outcome.final || retryDelay === undefined ? undefined : retryDelay / this._speed;
    const where = redact(delivery.url);
    if (nextDelayMs !== undefined) {
      delivery.dueAt = this._now() + nextDelayMs;
      this._schedule(delivery);
      this._log(`webhook ${delivery.id} attempt ${attempt} to ${where} failed (${outcome.error}); retry in ${Math.round(nextDelayMs)} ms`);
    } else {
      this._deliveries.delete(delivery.id);
      if (!outcome.ok) this._log(`webhook ${delivery.id} attempt ${attempt} to ${where} failed (${outcome.error}); giving up`);
    }
    this._persist();
    this.onAttempt?.({
      id: delivery.id,
      url: delivery.url,
      attempt,
      ok: outcome.ok,
      status: outcome.status,
      error: outcome.error,
      nextDelayMs,
    });
    if (this._deliveries.size === 0) for (const wake of [...this._idleWaiters]) wake();
  }

  private async _post(delivery: Delivery): Promise<Outcome> {
    // Checked again at each attempt: what a name resolves to may have changed since the request.
    let refused: string | null;
    try {
      refused = await this._privateAddressOf(delivery.url);
    } catch (error) {
      return { ok: false, error: describe(error) }; // unverified: retried like a failed request
    }
    if (refused !== null) return { ok: false, error: `refused: the URL reaches the private address ${refused}`, final: true };
    const controller = new AbortController();
    this._inFlight.add(controller);
    const timer = setTimeout(() => controller.abort(new Error(`timed out after ${this._timeoutMs} ms`)), this._timeoutMs);
    try {
      const signature = await signWebhook(delivery.body, delivery.secret);
      const response = await this._fetch(delivery.url, {
        method: "POST",
        body: delivery.body,
        headers: {
          "content-type": "application/json",
          [WEBHOOK_TIMESTAMP_HEADER]: String(Math.floor(this._now() / 1000)),
          [WEBHOOK_SIGNATURE_HEADER]: signature,
        },
        // A redirect is not a delivery (and following it would turn the POST into a GET).
        redirect: "manual",
        signal: controller.signal,
      });
      await response.body?.cancel().catch(() => undefined);
      const ok = response.status >= 200 && response.status < 300;
      return ok ? { ok, status: response.status } : { ok, status: response.status, error: `HTTP ${response.status}` };
    } catch (error) {
      return { ok: false, error: describe(error), interrupted: this._state === "closed" };
    } finally {
      clearTimeout(timer);
      this._inFlight.delete(controller);
    }
  }

  private async _load(): Promise<Delivery[]> {
    let text: string;
    try {
      text = await readFile(this._stateFile, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    let parsed: ReturnType<typeof StateFile.safeParse> | undefined;
    try {
      parsed = StateFile.safeParse(JSON.parse(text));
    } catch {
      parsed = undefined;
    }
    if (parsed?.success) return parsed.data.deliveries;
    // Keep the unreadable file for a person to look at instead of overwriting it.
    const aside = `${this._stateFile}.unreadable-${this._now()}`;
    await rename(this._stateFile, aside);
    this._log(`webhooks: state file unreadable, moved to ${aside}; starting with no pending deliveries`);
    return [];
  }

  /** Writes the current state (fsynced, atomically replaced) before returning. Failures are logged, never thrown. */
  private _persist(): void {
    const deliveries = [...this._deliveries.values()].sort((a, b) => a.seq - b.seq);
    try {
      writeAtomically(this._stateFile, JSON.stringify({ version: 1, deliveries }));
    } catch (error) {
      this._log(`webhooks: could not persist pending deliveries: ${describe(error)}`);
    }
  }
}

/** Logs show where a delivery went, not query strings that may carry a receiver's token. */
function redact(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: string; message?: string } | undefined;
  return cause ? `${error.message}: ${cause.code ?? cause.message}` : error.message;
}
