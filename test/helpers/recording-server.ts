import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request as the server saw it. */
export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body parsed as JSON, or as multipart form data (fields and files). */
  json(): unknown;
  form(): Promise<FormData>;
}

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Drop the connection without answering (network error). */
  destroy?: boolean;
  /** Wait before answering (ms). */
  delay?: number;
}

export type Responder = (req: Recorded) => Reply | Promise<Reply>;

/**
 * A real HTTP server on 127.0.0.1 that records every request and answers with what the
 * test says, for checking what a client really sends.
 */
export async function startRecordingServer(respond: Responder) {
  const requests: Recorded[] = [];
  let current = respond;
  const server: Server = createServer((req, res) => void answer(req, res));
  async function answer(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const rec: Recorded = {
      method: req.method ?? "GET",
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
      json: () => JSON.parse(body.toString("utf8")),
      form: () =>
        new Request("http://x/", { method: "POST", headers: { "content-type": String(req.headers["content-type"]) }, body }).formData(),
    };
    requests.push(rec);
    const reply = await current(rec);
    if (reply.delay) await new Promise((r) => setTimeout(r, reply.delay));
    if (reply.destroy) return void req.socket.destroy();
    const text = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body ?? {});
    res.writeHead(reply.status ?? 200, {
      "content-type": typeof reply.body === "string" ? "text/plain" : "application/json",
      ...reply.headers,
    });
    res.end(text);
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    last: () => requests[requests.length - 1]!,
    respondWith(next: Responder) {
      current = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
