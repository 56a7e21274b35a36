import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A small HTTP server on loopback standing in for the API and the proxy's relay:
 * `GET /api/v1/imagine/requests/:id` answers the current record (or 429s while a storm
 * lasts), `GET /events` is a server-sent event stream the test feeds, and
 * `POST /webhook` relays what it receives to that stream (as the proxy does), through
 * a hook that may repeat or reorder messages.
 */
export interface FakeUpstream {
  url: string;
  /** What a poll answers. */
  record: unknown;
  /** Called after each successful poll (to move the record on). */
  onPoll: (() => void) | null;
  /** The next `n` polls get 429 with `Retry-After: seconds`. */
  storm(n: number, seconds: number): void;
  /** Polls received, 429s included. */
  readonly polls: number;
  readonly limited: number;
  /** Polls that came before the wait a 429 asked for had passed. */
  readonly early: number;
  /** Event streams opened so far, and the channels each asked for. */
  readonly streams: string[][];
  readonly openStreams: number;
  /** Sends one record as a `status_update` event (text as is, or JSON of an object) in `chunks` writes. */
  send(record: unknown, chunks?: number): void;
  /** Ends every open stream, as a proxy restart does. */
  dropStreams(): void;
  /** What `POST /webhook` does with each message (default: send it). */
  onWebhook: (record: unknown, send: (record: unknown) => void) => void;
  close(): Promise<void>;
}

export async function startFakeUpstream(options: { retryMs?: number } = {}): Promise<FakeUpstream> {
  const open = new Set<ServerResponse>();
  let stormLeft = 0;
  let stormSeconds = 1;
  let notBefore = 0;
  const counts = { polls: 0, limited: 0, early: 0 };
  const streams: string[][] = [];
  const send = (record: unknown, chunks = 1) => {
    const text = `event: status_update\r\ndata: ${typeof record === "string" ? record : JSON.stringify(record)}\r\n\r\n`;
    const size = Math.ceil(text.length / chunks);
    for (const res of open) for (let i = 0; i < text.length; i += size) res.write(text.slice(i, i + size));
  };
  const fake: FakeUpstream = {
    url: "",
    record: null,
    onPoll: null,
    storm(n, seconds) {
      stormLeft = n;
      stormSeconds = seconds;
    },
    get polls() {
      return counts.polls;
    },
    get limited() {
      return counts.limited;
    },
    get early() {
      return counts.early;
    },
    streams,
    get openStreams() {
      return open.size;
    },
    send,
    dropStreams() {
      for (const res of [...open]) res.end();
    },
    onWebhook: (record, relay) => relay(record),
    close: () => new Promise<void>((resolve) => (fake.dropStreams(), server.closeAllConnections(), server.close(() => resolve()))),
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (req.method === "GET" && url.pathname.startsWith("/api/v1/imagine/requests/")) {
      counts.polls++;
      // A little slack: timers may fire a few ms early against Date.now().
      if (Date.now() < notBefore - 50) counts.early++;
      if (stormLeft > 0) {
        stormLeft--;
        counts.limited++;
        notBefore = Date.now() + stormSeconds * 1000;
        res
          .writeHead(429, { "content-type": "application/json", "retry-after": String(stormSeconds) })
          .end(JSON.stringify({ error: "Too many requests" }));
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ request: fake.record }));
      fake.onPoll?.();
      return;
    }
    if (req.method === "GET" && url.pathname === "/events") {
      streams.push(url.searchParams.getAll("channel"));
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write(`retry: ${options.retryMs ?? 100}\n: subscribed\n\n`);
      open.add(res);
      res.on("close", () => open.delete(res));
      return;
    }
    if (req.method === "POST" && url.pathname === "/webhook") {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        fake.onWebhook(JSON.parse(body), (r) => send(r));
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

/** A generation record as the API sends it, at one status. */
export function fakeGeneration(status: string, extra: Record<string, unknown> = {}) {
  return {
    id: 41,
    obfuscated_id: "0123456789abcdef0123456789abcdef",
    status,
    queue_position: 0,
    pusher_channel: "status_update_0123456789abcdef0123456789abcdef",
    pusher_event: "status_update",
    file_url: status === "complete" ? "http://127.0.0.1/file.jpg" : "",
    updated_at: "2030-01-01T00:00:00+00:00",
    ...extra,
  };
}
