import { connect, createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A TCP forwarder on loopback in front of a port: the push connection goes through it, so
 * a test can cut every connection (as a network drop does) and refuse or allow new ones.
 */
export interface TcpForwarder {
  port: number;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Destroys every open connection; with `refuse`, new ones are closed at once until `allow()`. */
  cut(options?: { refuse?: boolean }): void;
  allow(): void;
  close(): Promise<void>;
}

export async function startTcpForwarder(targetPort: number, host = "127.0.0.1"): Promise<TcpForwarder> {
  const open = new Set<Socket>();
  let refuse = false;
  let accepted = 0;
  const server: Server = createServer((client) => {
    if (refuse) return client.destroy();
    accepted++;
    const upstream = connect(targetPort, host);
    for (const s of [client, upstream]) {
      open.add(s);
      s.on("close", () => open.delete(s));
      s.on("error", () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get accepted() {
      return accepted;
    },
    cut(options = {}) {
      refuse = options.refuse ?? false;
      for (const s of [...open]) s.destroy();
    },
    allow() {
      refuse = false;
    },
    async close() {
      for (const s of [...open]) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
