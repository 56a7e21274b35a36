/**
 * Server-sent events for browsers that follow records through the proxy's webhook relay:
 * `GET {basePath}/events?channel=<pusher_channel>` (repeatable), event `status_update`,
 * data the JSON record. A comment line every `heartbeatMs` keeps intermediaries from
 * closing an idle stream. Subscribers are bounded in all and per client (one address must
 * not hold every slot), dropped when they stop reading, and removed when they disconnect.
 */
import { PUSH_EVENT } from "../../api/protocol/channels.ts";
import { ProxyError } from "../proxy-error.ts";

interface Subscriber {
  channels: readonly string[];
  /** The rate limit's key of whoever opened the stream. */
  client: string;
  controller: ReadableStreamDefaultController<Uint8Array>;
}

/** Bytes a slow reader may leave unread before it is dropped. */
const MAX_BACKLOG = 1024 * 1024;
const CHANNEL = /^[A-Za-z0-9_-]{1,200}$/;
const MAX_CHANNELS = 32;
const encoder = new TextEncoder();

export class EventRelay {
  private readonly _byChannel = new Map<string, Set<Subscriber>>();
  private readonly _all = new Set<Subscriber>();
  private readonly _perClient = new Map<string, number>();
  private _heartbeat: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly _maxSubscribers: number,
    private readonly _heartbeatMs: number,
    private readonly _maxPerClient: number = _maxSubscribers,
  ) {}

  get subscriberCount(): number {
    return this._all.size;
  }

  /** Checks the requested channels: 1 to 32 Pusher channel names. */
  static channelsOf(search: URLSearchParams): string[] {
    const channels = [...new Set(search.getAll("channel"))];
    if (channels.length === 0 || channels.length > MAX_CHANNELS || !channels.every((c) => CHANNEL.test(c)))
      throw new ProxyError(400, `Give 1 to ${MAX_CHANNELS} channel parameters, each a pusher_channel of a record`);
    return channels;
  }

  /** Streams `client` holds now. */
  streamsOf(client: string): number {
    return this._perClient.get(client) ?? 0;
  }

  /** An event stream of `client` for `channels`, ended when `signal` aborts or the reader cancels. */
  subscribe(channels: readonly string[], signal: AbortSignal, client = "unknown"): Response {
    // The client's own cap first: a client at its cap is told so even when all slots are taken.
    if (this.streamsOf(client) >= this._maxPerClient)
      throw new ProxyError(
        429,
        `events: this client already holds ${this._maxPerClient} event streams, the most one client may open (events.maxPerClient); close one and retry`,
        { "retry-after": "5" },
      );
    if (this._all.size >= this._maxSubscribers)
      throw new ProxyError(
        503,
        `events: all ${this._maxSubscribers} event streams of the proxy are in use (events.maxSubscribers); retry later`,
        { "retry-after": "5" },
      );
    let subscriber: Subscriber;
    const stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          subscriber = { channels, client, controller };
          this._add(subscriber);
          controller.enqueue(encoder.encode(`retry: 3000\n: subscribed ${channels.join(" ")}\n\n`));
          signal.addEventListener("abort", () => this._end(subscriber), { once: true });
          // A client gone before its stream began would hold its place for good.
          if (signal.aborted) this._end(subscriber);
        },
        cancel: () => this._remove(subscriber),
      },
      { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
    );
    return new Response(stream, {
      headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" },
    });
  }

  /** Sends a record (its JSON text, one line) to the channel's subscribers; returns how many got it. */
  publish(channel: string, json: string): number {
    const subscribers = this._byChannel.get(channel);
    if (!subscribers) return 0;
    const chunk = encoder.encode(`event: ${PUSH_EVENT}\ndata: ${json}\n\n`);
    let sent = 0;
    for (const s of [...subscribers]) if (this._send(s, chunk)) sent++;
    return sent;
  }

  /** Ends every stream. */
  close(): void {
    for (const s of [...this._all]) this._end(s);
  }

  private _add(s: Subscriber): void {
    this._all.add(s);
    this._perClient.set(s.client, this.streamsOf(s.client) + 1);
    for (const c of s.channels) {
      const set = this._byChannel.get(c) ?? new Set();
      set.add(s);
      this._byChannel.set(c, set);
    }
    if (!this._heartbeat) {
      const beat = encoder.encode(": heartbeat\n\n");
      this._heartbeat = setInterval(() => [...this._all].forEach((sub) => this._send(sub, beat)), this._heartbeatMs);
      this._heartbeat.unref?.();
    }
  }

  private _send(s: Subscriber, chunk: Uint8Array): boolean {
    if ((s.controller.desiredSize ?? 0) < -MAX_BACKLOG) {
      this._end(s);
      return false;
    }
    s.controller.enqueue(chunk);
    return true;
  }

  private _end(s: Subscriber): void {
    if (!this._all.has(s)) return;
    this._remove(s);
    try {
      s.controller.close();
    } catch {
      // already closed or errored by the reader
    }
  }

  private _remove(s: Subscriber): void {
    if (!this._all.delete(s)) return;
    const left = this.streamsOf(s.client) - 1;
    if (left > 0) this._perClient.set(s.client, left);
    else this._perClient.delete(s.client);
    for (const c of s.channels) {
      const set = this._byChannel.get(c);
      set?.delete(s);
      if (set?.size === 0) this._byChannel.delete(c);
    }
    if (this._all.size === 0 && this._heartbeat) {
      clearInterval(this._heartbeat);
      this._heartbeat = null;
    }
  }
}
