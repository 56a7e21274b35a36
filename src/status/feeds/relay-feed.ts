import { createParser } from "eventsource-parser";
import { PUSH_EVENT } from "../../api/protocol/channels.ts";
import type { Feed, FeedListener } from "./feed.ts";
import type { RelaySettings } from "../status-options.ts";
import type { ChannelRef } from "../tracked/tracked.ts";

const DEFAULT_RECONNECT_MS = 3000;

/** The relay's URL for `channels`: `url?channel=a&channel=b`. */
export function relayUrl(url: string, channels: readonly ChannelRef[]): string {
  const query = [...new Set(channels.map((c) => c.channel))].map((c) => `channel=${encodeURIComponent(c)}`).join("&");
  return `${url}${url.includes("?") ? "&" : "?"}${query}`;
}

/** What `openRelayFeed` opens: one watch's channels on the relay. */
export interface RelayFeedOptions {
  relay: RelaySettings;
  channels: readonly ChannelRef[];
  listener: FeedListener;
  /** The fetch of the `fetch` transport. @default globalThis.fetch */
  fetch?: typeof fetch;
}

/**
 * One watch's stream from the proxy's webhook relay (`GET {basePath}/events?channel=...`,
 * server-sent events named after the channel's event, data the JSON record). Live while
 * the stream is open; reopened after the server's `retry:` delay when it ends.
 */
export function openRelayFeed({ relay, channels, listener, fetch: fetchImpl }: RelayFeedOptions): Feed {
  const url = relayUrl(relay.url, channels);
  const events = new Set(["message", ...channels.map((c) => c.event)]);
  const transport = relay.transport ?? "auto";
  const useEventSource = transport === "eventsource" || (transport === "auto" && typeof globalThis.EventSource === "function");
  let live = false;
  const state = {
    get live() {
      return live;
    },
    setLive(up: boolean) {
      if (up === live) return;
      live = up;
      listener.live(up);
    },
    onMessage(event: string, data: string) {
      if (events.has(event)) listener.record(data);
    },
  };
  const stream: RelayStream = { url, settings: relay, state };
  const stop = useEventSource ? runEventSource(stream) : runFetchStream(stream, fetchImpl ?? globalThis.fetch);
  return {
    get live() {
      return live;
    },
    close() {
      live = false;
      stop();
    },
  };
}

interface StreamState {
  setLive(up: boolean): void;
  onMessage(event: string, data: string): void;
}

/** One stream to keep open: where, with which settings, and what to tell of it. */
interface RelayStream {
  url: string;
  settings: RelaySettings;
  state: StreamState;
}

/** The browser's EventSource; it reconnects by itself after network errors, we reopen after HTTP ones. */
function runEventSource({ url, settings, state }: RelayStream): () => void {
  let source: EventSource | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const open = () => {
    source = new EventSource(url, { withCredentials: settings.withCredentials ?? false });
    source.onopen = () => state.setLive(true);
    source.onmessage = (e) => state.onMessage("message", String(e.data));
    source.addEventListener(PUSH_EVENT, (e) => state.onMessage(PUSH_EVENT, String(e.data)));
    source.onerror = () => {
      state.setLive(false);
      if (source?.readyState !== EventSource.CLOSED || closed) return;
      timer = setTimeout(open, settings.reconnectMs ?? DEFAULT_RECONNECT_MS);
    };
  };
  open();
  return () => {
    closed = true;
    clearTimeout(timer);
    source?.close();
  };
}

/**
 * The stream read with fetch (Node has no EventSource), reopened whenever it ends or fails.
 * As EventSource does, it waits the server's last `retry:` before reopening and sends the last
 * `id:` it saw as `Last-Event-ID`, so a server that numbers its events can resume.
 */
function runFetchStream({ url, settings, state }: RelayStream, fetchImpl: typeof fetch): () => void {
  const controller = new AbortController();
  let retryMs: number | null = null;
  let lastEventId = "";
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      controller.signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
    });
  const readOnce = async () => {
    const headers = { accept: "text/event-stream", ...settings.headers, ...(lastEventId ? { "last-event-id": lastEventId } : {}) };
    const response = await fetchImpl(url, { headers, signal: controller.signal });
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      return;
    }
    state.setLive(true);
    // A fresh parser per stream: a half-received event dies with its connection.
    const parser = createParser({
      onEvent: (m) => {
        if (m.id !== undefined) lastEventId = m.id;
        state.onMessage(m.event ?? "message", m.data);
      },
      onRetry: (ms) => (retryMs = ms),
    });
    const reader = response.body.getReader();
    // UTF-8 decoding drops a leading byte order mark, as the event-stream rules ask.
    const decoder = new TextDecoder();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  };
  void (async () => {
    while (!controller.signal.aborted) {
      await readOnce().catch(() => undefined);
      state.setLive(false);
      if (!controller.signal.aborted) await wait(retryMs ?? settings.reconnectMs ?? DEFAULT_RECONNECT_MS);
    }
  })();
  return () => controller.abort();
}
