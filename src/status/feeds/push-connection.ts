import type { PushSettings } from "../status-options.ts";

/** The part of a pusher-js channel we use. */
export interface PusherChannelLike {
  readonly subscribed: boolean;
  bind(event: string, callback: (data: unknown) => void): unknown;
  unbind(event?: string, callback?: (data: unknown) => void): unknown;
}

/** The part of a pusher-js client we use (the official `pusher-js` 8 fits). */
export interface PusherLike {
  readonly connection: {
    readonly state: string;
    /** Listens to connection state changes. */
    bind(event: string, callback: (change: { previous: string; current: string }) => void): unknown;
  };
  /** Subscribes to a channel. */
  subscribe(channel: string): PusherChannelLike;
  /** Leaves a channel. */
  unsubscribe(channel: string): void;
  /** Opens the connection. */
  connect(): void;
  /** Closes the connection. */
  disconnect(): void;
}

/** The options pusher-js takes, as far as we set them. */
export interface PusherClientOptions {
  cluster: string;
  wsHost?: string;
  wsPort?: number;
  wssPort?: number;
  forceTLS?: boolean;
  enabledTransports?: ("ws" | "wss")[];
}

/** The pusher-js `Pusher` class, or one shaped like it (tests pass their own). */
export type PusherConstructor = new (key: string, options: PusherClientOptions) => PusherLike;

/** Told when a channel's subscription comes up or goes down, and of each message. */
export interface ChannelListener {
  event: string;
  record(data: unknown): void;
  live(up: boolean): void;
}

interface ChannelEntry {
  listeners: Set<ChannelListener>;
  channel: PusherChannelLike | null;
  bound: Set<string>;
  live: boolean;
}

/**
 * The one pusher-js connection of a tracker, shared by its watches. pusher-js is loaded on
 * first use (a separate chunk for bundlers that split), channels are subscribed while at
 * least one watch listens to them, and each listener hears when its channel's
 * subscription comes up (after every reconnect) or goes down.
 */
export class PushConnection {
  private _pusher: PusherLike | null = null;
  private _loading: Promise<PusherLike | null> | null = null;
  private readonly _channels = new Map<string, ChannelEntry>();
  private readonly _waiters = new Set<() => void>();
  private readonly _stateListeners = new Set<(state: string) => void>();
  private _closed = false;
  /** Counts `retarget`s: a connection made for earlier settings is dropped when it arrives. */
  private _target = 0;
  /** Why pusher-js could not be loaded or started, if it could not. */
  lastError: unknown = null;

  /** Made by `createStatusTracker` from the proxy's push settings; pusher-js loads on first use. */
  constructor(
    private _settings: PushSettings,
    private readonly _Pusher?: PusherConstructor,
  ) {}

  /** The pusher-js client, once loaded (for diagnostics and tests). */
  get pusher(): PusherLike | null {
    return this._pusher;
  }

  /** pusher-js's connection state: initialized, connecting, connected, unavailable, failed, disconnected. */
  get state(): string {
    return this._pusher?.connection.state ?? (this._closed || this.lastError ? "failed" : "initialized");
  }

  /** Connects if needed; resolves once connected (rejects after `timeoutMs`). */
  async ready(timeoutMs = 10_000): Promise<void> {
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- what the connection failed with, as Pusher gave it
    if (!(await this._load())) throw this.lastError ?? new Error("The push connection is closed");
    if (this.state === "connected") return;
    await new Promise<void>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this._waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(() => {
        this._waiters.delete(done);
        reject(new Error(`The push connection is ${this.state} after ${timeoutMs} ms`));
      }, timeoutMs);
      this._waiters.add(done);
    });
  }

  /** Calls `listener` with `state` after each change (connected, connecting, unavailable...); returns the function that stops it. */
  watchState(listener: (state: string) => void): () => void {
    this._stateListeners.add(listener);
    return () => this._stateListeners.delete(listener);
  }

  /** Listens to `listener.event` on `channel` until the returned function is called. */
  listen(channel: string, listener: ChannelListener): () => void {
    let entry = this._channels.get(channel);
    if (!entry) {
      entry = { listeners: new Set(), channel: null, bound: new Set(), live: false };
      this._channels.set(channel, entry);
    }
    entry.listeners.add(listener);
    if (this._pusher) this._subscribe(channel, entry);
    else void this._load();
    // Already subscribed for another watch: say so, after the caller has its handle.
    if (entry.live) queueMicrotask(() => entry.listeners.has(listener) && listener.live(true));
    return () => this._forget(channel, listener);
  }

  /** The settings the connection uses (the last ones given to `retarget`). */
  get settings(): PushSettings {
    return this._settings;
  }

  /**
   * Moves to other push settings (the server came back on another port, with another key):
   * the old connection is closed and every channel listened to is subscribed again on the
   * new one; listeners hear their channel go down, then up again once subscribed.
   */
  retarget(settings: PushSettings): void {
    if (this._closed) return;
    this._settings = settings;
    this._target++;
    const old = this._pusher;
    this._pusher = null;
    this._loading = null;
    this.lastError = null;
    for (const entry of this._channels.values()) {
      entry.channel?.unbind();
      entry.channel = null;
      entry.bound.clear();
      this._setLive(entry, false);
    }
    old?.disconnect();
    if (this._channels.size > 0) void this._load();
  }

  /** Disconnects and forgets every channel. */
  close(): void {
    this._closed = true;
    this._stateListeners.clear();
    this._channels.clear();
    this._pusher?.disconnect();
  }

  private _load(): Promise<PusherLike | null> {
    const target = this._target;
    this._loading ??= this._create().then(
      (pusher) => {
        if (this._closed || target !== this._target) {
          pusher.disconnect();
          return null;
        }
        this._pusher = pusher;
        // A connection left behind by `retarget` says nothing any more.
        pusher.connection.bind("state_change", ({ current }) => this._pusher === pusher && this._onState(current));
        for (const [name, entry] of this._channels) this._subscribe(name, entry);
        return pusher;
      },
      (error: unknown) => {
        this.lastError = error;
        for (const l of [...this._stateListeners]) l(this.state);
        return null;
      },
    );
    return this._loading;
  }

  private async _create(): Promise<PusherLike> {
    const Pusher = this._Pusher ?? (await import("pusher-js")).default;
    return new Pusher(this._settings.key, pusherOptions(this._settings));
  }

  private _subscribe(name: string, entry: ChannelEntry): void {
    const pusher = this._pusher!;
    if (!entry.channel) {
      entry.channel = pusher.subscribe(name);
      entry.channel.bind("pusher:subscription_succeeded", () => this._setLive(entry, true));
      entry.channel.bind("pusher:subscription_error", () => this._setLive(entry, false));
    }
    for (const { event } of entry.listeners) {
      if (entry.bound.has(event)) continue;
      entry.bound.add(event);
      entry.channel.bind(event, (data) => [...entry.listeners].filter((l) => l.event === event).forEach((l) => l.record(data)));
    }
  }

  private _forget(name: string, listener: ChannelListener): void {
    const entry = this._channels.get(name);
    if (!entry?.listeners.delete(listener) || entry.listeners.size > 0) return;
    this._channels.delete(name);
    if (entry.channel) {
      entry.channel.unbind();
      this._pusher?.unsubscribe(name);
    }
  }

  private _onState(current: string): void {
    for (const l of [...this._stateListeners]) l(current);
    if (current === "connected") [...this._waiters].forEach((w) => w());
    // pusher-js resubscribes every channel after a reconnect; until then none is live.
    else for (const entry of this._channels.values()) this._setLive(entry, false);
  }

  private _setLive(entry: ChannelEntry, up: boolean): void {
    if (entry.live === up) return;
    entry.live = up;
    for (const l of [...entry.listeners]) l.live(up);
  }
}

/** pusher-js options: cluster only for the real service; a custom host over plain WebSockets. */
export function pusherOptions(settings: PushSettings): PusherClientOptions {
  const cluster = settings.cluster ?? "mt1";
  if (!settings.wsHost) return { cluster, ...(settings.forceTLS === undefined ? {} : { forceTLS: settings.forceTLS }) };
  const tls = settings.forceTLS ?? false;
  return {
    cluster,
    wsHost: settings.wsHost,
    ...(settings.wsPort ? (tls ? { wssPort: settings.wsPort } : { wsPort: settings.wsPort }) : {}),
    forceTLS: tls,
    enabledTransports: ["ws"],
  };
}
