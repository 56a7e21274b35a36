import { createSkyboxClient, readProxyConfig, type ProxyConfig, type SkyboxClient, type UpstreamKind } from "../../api/index.ts";
import { createStatusTracker, type StatusTracker } from "../../status/index.ts";
import { Slice } from "./Slice.ts";

/** What the pane knows of the proxy it talks to. */
export interface ConnectionValue {
  /** `local` (the offline local service), `real`, or null before `/config` answered. */
  upstream: UpstreamKind | null;
  /** How status updates arrive: pushed (Pusher channel or webhook relay) or polled only. */
  updates: "push" | "poll" | null;
  /** Why `{baseUrl}/config` could not be read (the pane then polls). */
  configProblem: string | null;
  /** The dev server's "Save to project" route, or null where there is none (production). */
  saveToProject: string | null;
}

/**
 * The client and the status tracker of the pane. The tracker is made once `{baseUrl}/config`
 * has told where the push channel and the webhook relay are; without that route the pane
 * still works, by polling.
 */
export class ConnectionState extends Slice<ConnectionValue> {
  /** The API client (behind the proxy: no key in the browser). */
  public readonly client: SkyboxClient;
  private _tracker: Promise<StatusTracker> | null = null;
  private _ownTracker: StatusTracker | null = null;

  /**
   * @param _options where the proxy is, and optionally a client and tracker to use instead
   */
  public constructor(private readonly _options: { baseUrl: string; client?: SkyboxClient; tracker?: StatusTracker; fetch?: typeof fetch }) {
    super({ upstream: null, updates: _options.tracker ? "push" : null, configProblem: null, saveToProject: null });
    this.client = _options.client ?? createSkyboxClient({ baseUrl: _options.baseUrl });
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
    this._set({ upstream: config?.upstream ?? null, updates: push || relay ? "push" : "poll", saveToProject: config?.saveToProject ?? null });
    this._ownTracker = createStatusTracker({ client: this.client, push, relay, assetsUrl: config?.assetsUrl ?? null });
    return this._ownTracker;
  }

  private async _readConfig(): Promise<ProxyConfig | null> {
    const url = `${this._options.baseUrl.replace(/\/+$/, "")}/config`;
    try {
      const response = await (this._options.fetch ?? globalThis.fetch)(url, { headers: { accept: "application/json" } });
      if (!response.ok) throw new Error(`${url} answered ${response.status}`);
      return readProxyConfig(await response.json());
    } catch (error) {
      // Not fatal: a proxy without /config still forwards the API; updates come by polling.
      this._set({ configProblem: `${(error as Error).message}; status updates are polled` });
      return null;
    }
  }

  /** Stops every watch of a tracker the pane made (a given tracker is left alone). */
  public override dispose(): void {
    this._ownTracker?.dispose();
    super.dispose();
  }
}
