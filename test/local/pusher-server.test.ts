import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import Pusher from "pusher-js";
import PusherSdk from "pusher";
import { WebSocket } from "ws";
import { afterEach, describe, expect, it } from "vitest";
import { PusherServer, type PusherServerOptions } from "../../src/local/pusher-server.ts";
import { md5Hex, signPusherRequest } from "../../src/local/pusher-signature.ts";

const APP = { appId: "4242", key: "local-key", secret: "local-secret" };
const CHANNEL = "status_update_abc123";

interface Running {
  pusher: PusherServer;
  server: Server;
  port: number;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(options: Partial<PusherServerOptions> = {}): Promise<Running> {
  const pusher = new PusherServer({ ...APP, ...options });
  const listener = getRequestListener(async (request) => (await pusher.handleHttp(request)) ?? new Response("no route", { status: 404 }));
  const server = createServer((req, res) => void listener(req, res));
  pusher.attach(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(async () => {
    await pusher.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { pusher, server, port: (server.address() as AddressInfo).port };
}

function client(port: number, key = APP.key): Pusher {
  const pusher = new Pusher(key, { cluster: "mt1", wsHost: "127.0.0.1", wsPort: port, forceTLS: false, enabledTransports: ["ws"] });
  cleanups.push(() => pusher.disconnect());
  return pusher;
}

function sdk(port: number, secret = APP.secret): PusherSdk {
  return new PusherSdk({ appId: APP.appId, key: APP.key, secret, host: "127.0.0.1", port: String(port), useTLS: false });
}

/** Resolves with the first value passed to `resolve`, or rejects after `ms`. */
function waitFor<T>(what: string, register: (resolve: (value: T) => void) => void, ms = 5000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
    register((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

/** Polls a server-side condition that settles a moment after the client-side event. */
function eventually(what: string, predicate: () => boolean): Promise<void> {
  return waitFor(what, (resolve) => {
    const check = () => (predicate() ? resolve(undefined) : setTimeout(check, 10));
    check();
  });
}

async function subscribed(pusher: Pusher, channelName: string) {
  const channel = pusher.subscribe(channelName);
  await waitFor("subscription", (resolve) => channel.bind("pusher:subscription_succeeded", () => resolve(undefined)));
  return channel;
}

/** A raw protocol client, collecting every frame it receives. */
async function rawClient(port: number, path = `/app/${APP.key}?protocol=7`, options: { autoPong?: boolean } = {}) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, options);
  cleanups.push(() => ws.terminate());
  const frames: Array<{ event: string; channel?: string; data?: unknown }> = [];
  const waiters: Array<() => void> = [];
  ws.on("message", (data) => {
    frames.push(JSON.parse((data as Buffer).toString()));
    for (const wake of waiters.splice(0)) wake();
  });
  const next = async (event: string) => {
    for (;;) {
      const index = frames.findIndex((frame) => frame.event === event);
      if (index >= 0) return frames.splice(index, 1)[0]!;
      await waitFor(event, (resolve) => waiters.push(() => resolve(undefined)));
    }
  };
  const until = async (what: string, predicate: () => boolean) => {
    while (!predicate()) await waitFor(what, (resolve) => waiters.push(() => resolve(undefined)));
  };
  const closed = new Promise<number>((resolve) => ws.on("close", (code) => resolve(code)));
  ws.on("error", () => undefined);
  return { ws, frames, next, until, closed };
}

describe("PusherServer with pusher-js", () => {
  it("connects, subscribes and receives published events in order with parsed data", async () => {
    const { pusher, port } = await start();
    const socket = client(port);
    await waitFor("connected", (resolve) => socket.connection.bind("connected", () => resolve(undefined)));
    expect(socket.connection.socket_id).toMatch(/^\d+\.\d+$/);
    const channel = await subscribed(socket, CHANNEL);
    expect(pusher.subscriberCount(CHANNEL)).toBe(1);
    expect(pusher.connectionCount).toBe(1);

    const received: unknown[] = [];
    const all = waitFor("five events", (resolve) =>
      channel.bind("status_update", (data: unknown) => received.push(data) === 5 && resolve(undefined)),
    );
    const statuses = ["pending", "dispatched", "processing", "processing", "complete"];
    statuses.forEach((status, i) => pusher.publish(CHANNEL, "status_update", { id: i, status }));
    pusher.publish("another_channel", "status_update", { id: 99 });
    await all;
    expect(received).toEqual(statuses.map((status, i) => ({ id: i, status })));
  });

  it("accepts events from the pusher SDK and answers a wrong secret with 401", async () => {
    const { port } = await start();
    const socket = client(port);
    const channel = await subscribed(socket, CHANNEL);
    const event = waitFor<unknown>("sdk event", (resolve) => channel.bind("status_update", resolve));

    const response = await sdk(port).trigger(CHANNEL, "status_update", { status: "complete", file_url: "http://x/y.jpg" });
    expect(response.status).toBe(200);
    expect(await event).toEqual({ status: "complete", file_url: "http://x/y.jpg" });

    const batch = await sdk(port).triggerBatch([{ channel: CHANNEL, name: "status_update", data: { n: 1 } }]);
    expect(batch.status).toBe(200);

    const rejected = await sdk(port, "wrong-secret")
      .trigger(CHANNEL, "status_update", {})
      .catch((error: unknown) => error);
    expect(rejected).toMatchObject({ status: 401 });
  });

  it("rejects tampered, stale and malformed HTTP publishes", async () => {
    const { pusher } = await start();
    const path = `/apps/${APP.appId}/events`;
    const post = (query: string, body: string) =>
      pusher.handleHttp(new Request(`http://127.0.0.1${path}?${query}`, { method: "POST", body }));
    const signedQuery = (body: string, timestamp = Math.floor(Date.now() / 1000)) => {
      const params = { auth_key: APP.key, auth_timestamp: String(timestamp), auth_version: "1.0", body_md5: md5Hex(body) };
      const query = new URLSearchParams(params);
      query.set("auth_signature", signPusherRequest(APP.secret, "POST", path, params));
      return query.toString();
    };
    const good = JSON.stringify({ name: "status_update", data: "{}", channel: CHANNEL });
    expect((await post(signedQuery(good), good))?.status).toBe(200);
    expect((await post(signedQuery(good), good.replace("{}", "[]")))?.status).toBe(401);
    expect((await post(signedQuery(good, Math.floor(Date.now() / 1000) - 700), good))?.status).toBe(401);
    expect((await post(signedQuery("not json"), "not json"))?.status).toBe(400);
    const noChannel = JSON.stringify({ name: "status_update", data: "{}" });
    expect((await post(signedQuery(noChannel), noChannel))?.status).toBe(400);
    const unsigned = await post("auth_key=local-key&auth_timestamp=1&auth_version=1.0", "{}");
    expect(unsigned?.status).toBe(401);
    expect(await unsigned?.json()).toHaveProperty("error");
    expect(await pusher.handleHttp(new Request("http://127.0.0.1/api/v1/skybox"))).toBeUndefined();
    expect((await pusher.handleHttp(new Request("http://127.0.0.1/apps/other/events", { method: "POST" })))?.status).toBe(404);
  });

  it("reports an unknown app key as error 4001 and does not reconnect", async () => {
    const { pusher, port } = await start();
    const socket = client(port, "not-the-key");
    const disconnected = waitFor("disconnected", (resolve) => socket.connection.bind("disconnected", () => resolve(undefined)));
    const error = await waitFor<{ error?: { data?: { code?: number } } }>("error", (resolve) => socket.connection.bind("error", resolve));
    expect(error.error?.data?.code).toBe(4001);
    await disconnected; // "refused": pusher-js gives up instead of retrying
    expect(socket.connection.state).toBe("disconnected");
    expect(pusher.connectionCount).toBe(0);
  });

  it("stops delivery after unsubscribe", async () => {
    const { pusher, port } = await start();
    const socket = client(port);
    const channel = await subscribed(socket, CHANNEL);
    const other = await subscribed(socket, "status_update_other");
    const seen: string[] = [];
    channel.bind("status_update", () => seen.push("unsubscribed channel"));
    const marker = waitFor("marker", (resolve) => other.bind("status_update", () => resolve(undefined)));

    socket.unsubscribe(CHANNEL);
    // The unsubscribe frame precedes this ping on the same socket, so the server has applied it.
    const raw = socket.connection;
    await eventually("unsubscribed", () => pusher.subscriberCount(CHANNEL) === 0);
    expect(raw.state).toBe("connected");
    pusher.publish(CHANNEL, "status_update", { late: true });
    pusher.publish("status_update_other", "status_update", { marker: true });
    await marker;
    expect(seen).toEqual([]);
  });

  it("disconnects clients on close()", async () => {
    const { pusher, port } = await start();
    const socket = client(port);
    await subscribed(socket, CHANNEL);
    const left = waitFor("left connected", (resolve) =>
      socket.connection.bind("state_change", (states: { current: string }) => states.current !== "connected" && resolve(undefined)),
    );
    await pusher.close();
    await left;
    expect(pusher.connectionCount).toBe(0);
  });
});

describe("PusherServer protocol edges (raw WebSocket)", () => {
  it("sends a handshake with socket_id and activity_timeout, answers ping, survives bad frames", async () => {
    const { pusher, port } = await start({ activityTimeout: 30 });
    const raw = await rawClient(port);
    const established = await raw.next("pusher:connection_established");
    const data = JSON.parse(established.data as string) as { socket_id: string; activity_timeout: number };
    expect(data.socket_id).toMatch(/^\d+\.\d+$/);
    expect(data.activity_timeout).toBe(30);

    for (const bad of ["not json", "[]", "null", '{"data":1}', '{"event":"pusher:subscribe","data":"{broken"}']) raw.ws.send(bad);
    raw.ws.send(JSON.stringify({ event: "client-typing", channel: CHANNEL, data: {} }));
    raw.ws.send(JSON.stringify({ event: "pusher:subscribe", data: { channel: "private-secret" } }));
    const errors = () => raw.frames.filter((frame) => frame.event === "pusher:error");
    await raw.until("six errors", () => errors().length === 6);
    // Five unusable frames get a code-less error each, the private channel gets 4009; the client event nothing.
    expect(errors().map((frame) => (frame.data as { code: number | null }).code)).toEqual([null, null, null, null, null, 4009]);
    raw.frames.length = 0;

    raw.ws.send(JSON.stringify({ event: "pusher:ping", data: {} }));
    expect(await raw.next("pusher:pong")).toEqual({ event: "pusher:pong", data: {} });
    raw.ws.send(JSON.stringify({ event: "pusher:subscribe", data: JSON.stringify({ channel: CHANNEL }) }));
    expect(await raw.next("pusher_internal:subscription_succeeded")).toEqual({
      event: "pusher_internal:subscription_succeeded",
      channel: CHANNEL,
      data: "{}",
    });
    expect(pusher.subscriberCount("private-secret")).toBe(0);
    expect(pusher.connectionCount).toBe(1);
  });

  it("refuses private channels with 4009", async () => {
    const { port } = await start();
    const raw = await rawClient(port);
    await raw.next("pusher:connection_established");
    raw.ws.send(JSON.stringify({ event: "pusher:subscribe", data: { channel: "presence-room" } }));
    expect(await raw.next("pusher:error")).toMatchObject({ channel: "presence-room", data: { code: 4009 } });
  });

  it("closes oversized messages with 1009 and keeps serving others", async () => {
    const { pusher, port } = await start();
    const big = await rawClient(port);
    const small = await rawClient(port);
    await big.next("pusher:connection_established");
    await small.next("pusher:connection_established");
    big.ws.send(JSON.stringify({ event: "pusher:ping", data: "x".repeat(20_000) }));
    expect(await big.closed).toBe(1009);
    small.ws.send(JSON.stringify({ event: "pusher:ping" }));
    await small.next("pusher:pong");
    await eventually("forgotten", () => pusher.connectionCount === 1);
  });

  it("destroys upgrades on other paths and terminates sockets that stop answering pings", async () => {
    const { pusher, port } = await start({ activityTimeout: 1 });
    const stray = await rawClient(port, "/socket");
    const strayError = await waitFor<Error>("stray rejected", (resolve) => stray.ws.once("error", resolve));
    expect(strayError.message).toMatch(/404/);

    const alive = await rawClient(port);
    const silent = await rawClient(port, `/app/${APP.key}`, { autoPong: false });
    await alive.next("pusher:connection_established");
    await silent.next("pusher:connection_established");
    // 1 s of silence, then the 0.5 s grace after the ping
    await waitFor("silent socket terminated", (resolve) => void silent.closed.then(resolve), 5000);
    await eventually("silent socket forgotten", () => pusher.connectionCount === 1);
    expect(alive.ws.readyState).toBe(WebSocket.OPEN);
  });
});
