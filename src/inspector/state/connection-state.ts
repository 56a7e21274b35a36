import { createSkyboxClient, readProxyConfig, type ProxyConfig, type SkyboxClient, type UpstreamKind } from "../../api/index.ts";
import { createStatusTracker, type PushSettings, type StatusTracker } from "../../status/index.ts";
import { observedFetch, type ProxyReach } from "./observed-fetch.ts";
import { Slice } from "./slice.ts";

/** While the proxy cannot be reached, how often the pane asks it again (its `/config`). */
const PROBE_MS = 2000;

/** What the pane knows of the proxy it talks to. */
export interface ConnectionValue {
  /** `local` (the offline local service), `real`, or null before `/config` answered. */
  upstream: UpstreamKind | null;
  /** How status updates arrive: pushed (Pusher channel or webhook relay) or polled only. */
  updates: "push" | "poll" | null;
  /** Why `{baseUrl}/config` could not be read (the pane then polls). */
  configProblem: string | null;
  /**
   * Since when (ms since the epoch) and why the proxy cannot be reached (its server stopped,
   * the network is down); null while it answers. The pane asks again every 2 s meanwhile.
   */
  lost: { since: number; why: string } | null;
  /** pusher-js's connection state (connected, connecting, unavailable...) when the proxy gave a push channel, else null. */
  pushState: string | null;
  /** The dev server's "Save to project" route, or null where there is none (production). */
  saveToProject: string | null;
  /** The folder that route writes into, relative to the project (e.g. `public/skyboxes`), when the dev server says. */
  saveToProjectFolder: string | null;
}

/**
 * The client and the status tracker of the pane. The tracker is made once `{baseUrl}/config`
 * has told where the push channel and the webhook relay are; without that route the pane
 * still works, by polling. Every request of its own client tells whether the proxy is
 * reachable: when it is not, the pane says so and asks again until it answers, then every
 * job it follows polls at once.
 */
export class ConnectionState extends Slice<ConnectionValue> {
  /** The API client (behind the proxy: no key in the browser). */
  public readonly client: SkyboxClient;
  private _tracker: Promise<StatusTracker> | null = null;
  private _ownTracker: StatusTracker | null = null;
  private readonly _fetch: typeof fetch;
  private _probe: ReturnType<typeof setTimeout> | undefined;
  private _stopPushState: (() => void) | null = null;
  private _disposed = false;

  /**
   * @param _options where the proxy is, and optionally a client and tracker to use instead
   */
  public constructor(private readonly _options: { baseUrl: string; client?: SkyboxClient; tracker?: StatusTracker; fetch?: typeof fetch }) {
    super({
      upstream: null,
      updates: _options.tracker ? "push" : null,
      configProblem: null,
      lost: null,
      pushState: null,
      saveToProject: null,
      saveToProjectFolder: null,
    });
    const onReach = (reach: ProxyReach) => this._onReach(reach);
    const global: typeof fetch = (input, init) => globalThis.fetch(input, init);
    this._fetch = observedFetch(_options.fetch ?? global, onReach);
    this.client = _options.client ?? createSkyboxClient({ baseUrl: _options.baseUrl, fetch: observedFetch(global, onReach) });
  }

  /** The status tracker, made on first use. */
  public tracker(): Promise<StatusTracker> {
    this._tracker ??= this._options.tracker ? Promise.resolve(this._options.tracker) : this._makeTracker();
    return this._tracker;
  }

  private async _makeTracker(): Promise<StatusTracker> {
    const config = await this._readConfig();
    const push = config?.push ? { ...config.push } : null;
    const relay = config?.eventsUrl ? { url: config.eventsUrl } : null;
    this._set({
      upstream: config?.upstream ?? null,
      updates: push || relay ? "push" : "poll",
      saveToProject: config?.saveToProject ?? null,
      saveToProjectFolder: config?.saveToProjectFolder ?? null,
    });
    const tracker = createStatusTracker({ client: this.client, push, relay, assetsUrl: config?.assetsUrl ?? null });
    this._ownTracker = tracker;
    if (this._disposed) tracker.dispose();
    else if (tracker.push) this._stopPushState = tracker.push.watchState((pushState) => this._set({ pushState }));
    return tracker;
  }

  private get _configUrl(): string {
    return `${this._options.baseUrl.replace(/\/+$/, "")}/config`;
  }

  private async _readConfig(): Promise<ProxyConfig | null> {
    const url = this._configUrl;
    try {
      const response = await this._fetch(url, { headers: { accept: "application/json" } });
      if (!response.ok) throw new Error(`${url} answered ${response.status}`);
      return readProxyConfig(await response.json());
    } catch (error) {
      // Not fatal: a proxy without /config still forwards the API; updates come by polling.
      this._set({ configProblem: `${(error as Error).message}; status updates are polled` });
      return null;
    }
  }

  private _onReach(reach: ProxyReach): void {
    if (this._disposed) return;
    if (!reach.reached) {
      if (!this.value.lost) this._set({ lost: { since: Date.now(), why: reach.why } });
      this._probe ??= setTimeout(() => this._askAgain(), PROBE_MS);
      return;
    }
    if (!this.value.lost) return;
    this._set({ lost: null });
    if (this._tracker) void this._tracker.then((t) => this._catchUp(t));
  }

  /**
   * Back after an outage: every job polls now instead of after its backoff, and the push
   * channel moves when the proxy names another one (a restarted local service listens on a
   * new port, with a new key).
   */
  private async _catchUp(tracker: StatusTracker): Promise<void> {
    tracker.refresh();
    if (tracker !== this._ownTracker || !tracker.push) return;
    const push = (await this._readConfig())?.push;
    if (push && !this._disposed && !samePush(push, tracker.push.settings)) tracker.push.retarget({ ...push });
  }

  /** Asks the proxy again while it is lost (a request that fails schedules the next ask). */
  private _askAgain(): void {
    this._probe = undefined;
    if (this._disposed || !this.value.lost) return;
    void this._fetch(this._configUrl, { headers: { accept: "application/json" } }).then(
      (response) => response.body?.cancel(),
      () => undefined,
    );
  }

  /** Stops every watch of a tracker the pane made (a given tracker is left alone), and the asking again. */
  public override dispose(): void {
    this._disposed = true;
    clearTimeout(this._probe);
    this._stopPushState?.();
    this._ownTracker?.dispose();
    super.dispose();
  }
}

function samePush(a: PushSettings, b: PushSettings): boolean {
  return a.key === b.key && a.wsHost === b.wsHost && a.wsPort === b.wsPort && a.cluster === b.cluster && a.forceTLS === b.forceTLS;
}
