import { describe, expect, test } from "vitest";
import { openRelayFeed } from "../../../src/status/feeds/relay-feed.ts";

const encoder = new TextEncoder();
const BOM = new Uint8Array([0xef, 0xbb, 0xbf]);

/** A stream's bytes: a byte order mark, comments, `retry:`, `id:`, CRLF, LF and CR line ends, multi-line data. */
const STREAM = new Uint8Array([
  ...BOM,
  ...encoder.encode(
    ": subscribed status_update_1\r\n" +
      "retry: 10\r\n" +
      'id: 41\r\nevent: status_update\r\ndata: {"a":"é"}\r\n\r\n' +
      "data: one\ndata: two\n\n" +
      ": heartbeat\n\n" +
      "id: 42\revent: status_update\rdata: y\r\r" +
      "event: other_event\ndata: not ours\n\n",
  ),
]);
const EXPECTED = ['{"a":"é"}', "one\ntwo", "y"];

/** A fetch answering each call with `STREAM` cut into `size`-byte chunks, recording each request's headers. */
function streamingFetch(size: number) {
  const calls: Headers[] = [];
  const fetchImpl = ((_url: string, init?: RequestInit) => {
    calls.push(new Headers(init?.headers));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < STREAM.length; i += size) controller.enqueue(STREAM.slice(i, i + size));
        controller.close();
      },
    });
    return Promise.resolve(new Response(body, { headers: { "content-type": "text/event-stream" } }));
  }) as typeof fetch;
  return { fetchImpl, calls };
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe("the relay's event stream read with fetch", () => {
  test.each([1, 2, 3, 5, STREAM.length])(
    "chunks of %i bytes: the channel's events, the server's retry and the last id on reopening",
    async (size) => {
      const { fetchImpl, calls } = streamingFetch(size);
      const records: unknown[] = [];
      // The reconnection default is far off: reopening soon means the server's `retry: 10` was taken.
      const feed = openRelayFeed({
        relay: { url: "http://relay.test/events", transport: "fetch", reconnectMs: 600_000 },
        channels: [{ channel: "status_update_1", event: "status_update" }],
        listener: { record: (raw) => records.push(raw), live: () => undefined },
        fetch: fetchImpl,
      });
      try {
        await until(() => calls.length >= 2 && records.length >= 2 * EXPECTED.length);
      } finally {
        feed.close();
      }
      expect(records.slice(0, 2 * EXPECTED.length)).toEqual([...EXPECTED, ...EXPECTED]);
      expect(calls[0]!.get("accept")).toBe("text/event-stream");
      expect(calls[0]!.has("last-event-id")).toBe(false);
      expect(calls[1]!.get("last-event-id")).toBe("42");
    },
  );
});
