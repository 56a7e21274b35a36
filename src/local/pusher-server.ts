/**
 * A small Pusher-protocol (v7) server on `ws`: enough for the official `pusher-js` client to
 * subscribe to public channels and for the `pusher` server SDK to publish over HTTP. The local
 * Skybox service uses it for its push channel; private and presence channels are refused,
 * since the Skybox API only uses public ones.
 */
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { randomInt } from "node:crypto";
import { WebSocket, WebSocketServer, type RawData } from "ws";
import * as z from "zod";
import { verifyPusherRequest } from "./pusher-signature.ts";

export interface PusherServerOptions {
  appId: string;
  key: string;
  secret: string;
  /** Seconds a connection may stay silent before we ping it (sent to clients in the handshake). @default 120 */
  activityTimeout?: number;
}

const MAX_CLIENT_MESSAGE_BYTES = 10 * 1024;
const MAX_HTTP_BODY_BYTES = 256 * 1024;
const MAX_CHANNELS_PER_SOCKET = 100;
/** A client that lets this much pile up unread is dropped rather than buffered forever. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
const CLOSE_WAIT_MS = 1000;
const CHANNEL_NAME = /^[A-Za-z0-9_\-=@,.;]{1,164}$/;
const SOCKET_ID = /^\d+\.\d+$/;
const APP_PATH = /^\/app\/([^/]+)$/;
const HTTP_PATH = /^\/apps\/([^/]+)\/(events|batch_events)$/;

const ClientMessage = z.object({ event: z.string(), data: z.unknown().optional() });
const SubscribeData = z.object({ channel: z.string() });
const ChannelName = z.string().regex(CHANNEL_NAME);
const EventFields = { name: z.string().min(1).max(200), data: z.string(), socket_id: z.string().regex(SOCKET_ID).optional() };
const EventsBody = z
  .object({ ...EventFields, channels: z.array(ChannelName).min(1).max(100).optional(), channel: ChannelName.optional() })
  .refine((body) => Boolean(body.channels ?? body.channel), { error: "channels or channel is required" });
const BatchBody = z.object({
  batch: z
    .array(z.object({ ...EventFields, channel: ChannelName }))
    .min(1)
    .max(10),
});

interface Client {
  ws: WebSocket;
  socketId: string;
  channels: Set<string>;
  lastSeenMs: number;
}

export class PusherServer {
  private readonly _options: Required<PusherServerOptions>;
  private readonly _wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE_BYTES });
  private readonly _clients = new Set<Client>();
  private readonly _channels = new Map<string, Set<Client>>();
  private readonly _servers = new Set<Server>();
  private readonly _sweep: NodeJS.Timeout;
  private _closed = false;

  constructor(options: PusherServerOptions) {
    this._options = { activityTimeout: 120, ...options };
    // A silent socket is pinged after activityTimeout and dropped if still silent after the grace.
    const activityMs = this._options.activityTimeout * 1000;
    const graceMs = Math.min(30_000, activityMs / 2);
    this._sweep = setInterval(() => this._sweepIdle(activityMs, graceMs), Math.max(100, graceMs / 2));
    this._sweep.unref();
  }

  get connectionCount(): number {
    return this._clients.size;
  }

  subscriberCount(channel: string): number {
    return this._channels.get(channel)?.size ?? 0;
  }

  /** Handles WebSocket upgrades for `/app/{key}`; any other upgrade path gets a 404 and is destroyed. */
  attach(server: Server): void {
    if (this._closed) throw new Error("PusherServer is closed");
    this._servers.add(server);
    server.on("upgrade", this._onUpgrade);
  }

  /**
   * Sends `{event, channel, data}` to every subscriber of `channel` except `exceptSocketId`.
   * A string `data` is sent as is (it is taken to be JSON already, as the `pusher` SDK does);
   * anything else is JSON-serialised. Returns the number of sockets reached.
   */
  publish(channel: string, event: string, data: unknown, exceptSocketId?: string): number {
    const subscribers = this._channels.get(channel);
    if (!subscribers) return 0;
    const frame = JSON.stringify({ event, channel, data: typeof data === "string" ? data : JSON.stringify(data) });
    let reached = 0;
    for (const client of subscribers) {
      if (client.socketId !== exceptSocketId && this._sendFrame(client, frame)) reached++;
    }
    return reached;
  }

  /** Fetch-API handler for `POST /apps/{appId}/events` and `/batch_events`; undefined for other paths. */
  async handleHttp(request: Request): Promise<Response | undefined> {
    const url = new URL(request.url);
    const match = HTTP_PATH.exec(url.pathname);
    if (!match) return undefined;
    if (match[1] !== this._options.appId) return jsonResponse(404, { error: "Unknown app id" });
    if (request.method !== "POST") return jsonResponse(405, { error: "Use POST" });

    const rawBody = await readLimited(request, MAX_HTTP_BODY_BYTES);
    if (rawBody === undefined) return jsonResponse(413, { error: `Body larger than ${MAX_HTTP_BODY_BYTES} bytes` });
    const verdict = verifyPusherRequest({
      key: this._options.key,
      secret: this._options.secret,
      method: request.method,
      path: url.pathname,
      query: url.searchParams,
      rawBody,
      nowMs: Date.now(),
    });
    if (!verdict.ok) return jsonResponse(401, { error: verdict.reason });

    let body: unknown;
    try {
      body = JSON.parse(rawBody);
    } catch {
      return jsonResponse(400, { error: "Body is not JSON" });
    }
    const parsed = match[2] === "events" ? EventsBody.safeParse(body) : BatchBody.safeParse(body);
    if (!parsed.success) return jsonResponse(400, { error: z.prettifyError(parsed.error) });
    const events = "batch" in parsed.data ? parsed.data.batch : [parsed.data];
    for (const event of events) {
      const channels = "channels" in event && event.channels ? event.channels : [event.channel ?? ""];
      for (const channel of channels) this.publish(channel, event.name, event.data, event.socket_id);
    }
    return jsonResponse(200, {});
  }

  /** Closes every socket with 4200 (clients reconnect at once, e.g. to a restarted service) and stops accepting. */
  async close(): Promise<void> {
    if (this._closed) return;
    this._closed = true;
    clearInterval(this._sweep);
    for (const server of this._servers) server.off("upgrade", this._onUpgrade);
    this._servers.clear();
    const clients = [...this._clients];
    const closed = clients.map(
      (client) =>
        new Promise<void>((resolve) => {
          if (client.ws.readyState === WebSocket.CLOSED) return resolve();
          client.ws.once("close", () => resolve());
          client.ws.close(4200, "Server shutting down");
        }),
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(closed), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
    clearTimeout(timer);
    for (const client of clients) client.ws.terminate();
    await new Promise<void>((resolve) => this._wss.close(() => resolve()));
  }

  private readonly _onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on("error", () => socket.destroy());
    const match = APP_PATH.exec(new URL(request.url ?? "/", "http://localhost").pathname);
    if (this._closed || !match) {
      socket.end(
        `HTTP/1.1 ${this._closed ? "503 Service Unavailable" : "404 Not Found"}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
      );
      socket.destroy();
      return;
    }
    this._wss.handleUpgrade(request, socket, head, (ws) => this._accept(ws, match[1] ?? ""));
  };

  private _accept(ws: WebSocket, key: string): void {
    // ws closes the socket itself on protocol errors (e.g. 1009 for an oversized message);
    // without a listener the 'error' event would be thrown.
    ws.on("error", () => undefined);
    if (key !== this._options.key) {
      ws.send(JSON.stringify({ event: "pusher:error", data: { code: 4001, message: `App key ${key} does not exist` } }));
      ws.close(4001, "Unknown app key");
      return;
    }
    const client: Client = {
      ws,
      socketId: `${randomInt(1, 2 ** 47)}.${randomInt(1, 2 ** 47)}`,
      channels: new Set(),
      lastSeenMs: Date.now(),
    };
    this._clients.add(client);
    ws.on("message", (data, isBinary) => this._onMessage(client, data, isBinary));
    ws.on("pong", () => (client.lastSeenMs = Date.now()));
    ws.on("close", () => this._forget(client));
    const established = { socket_id: client.socketId, activity_timeout: this._options.activityTimeout };
    this._send(client, { event: "pusher:connection_established", data: JSON.stringify(established) });
  }

  private _onMessage(client: Client, raw: RawData, isBinary: boolean): void {
    client.lastSeenMs = Date.now();
    const message = isBinary
      ? undefined
      : parseJson(ClientMessage, (Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw as ArrayBuffer)).toString("utf8"));
    if (!message) return this._sendError(client, null, "Invalid message: expected a JSON object with an event");
    if (message.event === "pusher:ping") return this._send(client, { event: "pusher:pong", data: {} });
    if (message.event === "pusher:subscribe") return this._subscribe(client, message.data);
    if (message.event === "pusher:unsubscribe") return this._unsubscribe(client, message.data);
    // client-* events need a private channel, which we do not offer; other events are ignored.
  }

  private _subscribe(client: Client, data: unknown): void {
    const channel = channelOf(data);
    if (channel === undefined || !CHANNEL_NAME.test(channel)) return this._sendError(client, null, "Invalid channel name");
    if (channel.startsWith("private-") || channel.startsWith("presence-")) {
      return this._sendError(client, 4009, `Private and presence channels are not supported by this server (${channel})`, channel);
    }
    if (!client.channels.has(channel) && client.channels.size >= MAX_CHANNELS_PER_SOCKET) {
      return this._sendError(client, null, `At most ${MAX_CHANNELS_PER_SOCKET} channels per connection`, channel);
    }
    client.channels.add(channel);
    let subscribers = this._channels.get(channel);
    if (!subscribers) this._channels.set(channel, (subscribers = new Set()));
    subscribers.add(client);
    this._send(client, { event: "pusher_internal:subscription_succeeded", channel, data: "{}" });
  }

  private _unsubscribe(client: Client, data: unknown): void {
    const channel = channelOf(data);
    if (channel === undefined || !client.channels.delete(channel)) return;
    const subscribers = this._channels.get(channel);
    subscribers?.delete(client);
    if (subscribers?.size === 0) this._channels.delete(channel);
  }

  private _forget(client: Client): void {
    for (const channel of [...client.channels]) this._unsubscribe(client, { channel });
    this._clients.delete(client);
  }

  private _sweepIdle(activityMs: number, graceMs: number): void {
    const now = Date.now();
    for (const client of this._clients) {
      const idleMs = now - client.lastSeenMs;
      if (idleMs > activityMs + graceMs) client.ws.terminate();
      else if (idleMs > activityMs && client.ws.readyState === WebSocket.OPEN) client.ws.ping();
    }
  }

  private _sendError(client: Client, code: number | null, message: string, channel?: string): void {
    this._send(client, { event: "pusher:error", ...(channel ? { channel } : {}), data: { code, message } });
  }

  private _send(client: Client, message: object): void {
    this._sendFrame(client, JSON.stringify(message));
  }

  private _sendFrame(client: Client, frame: string): boolean {
    if (client.ws.readyState !== WebSocket.OPEN) return false;
    if (client.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      client.ws.terminate();
      return false;
    }
    client.ws.send(frame);
    return true;
  }
}

/** Subscribe data is an object in pusher-js; some clients send it as a JSON string. */
function channelOf(data: unknown): string | undefined {
  const value = typeof data === "string" ? parseJson(z.unknown(), data) : data;
  const parsed = SubscribeData.safeParse(value);
  return parsed.success ? parsed.data.channel : undefined;
}

function parseJson<T>(schema: z.ZodType<T>, text: string): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

async function readLimited(request: Request, limit: number): Promise<string | undefined> {
  if (Number(request.headers.get("content-length") ?? 0) > limit) return undefined;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    size += chunk.value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(chunk.value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}
