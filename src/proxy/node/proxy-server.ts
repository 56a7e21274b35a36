/** A standalone HTTP server running the proxy (the CLI, tests, a production process). */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { errorEnvelope } from "../../api/protocol/error-envelope.ts";
import { createSkyboxProxy, type SkyboxProxy } from "../create-proxy.ts";
import { toNodeHandler } from "./node-adapter.ts";
import type { SkyboxProxyOptions } from "../proxy-options.ts";

/** The proxy's options, and where its own server listens. */
export interface SkyboxProxyServerOptions extends SkyboxProxyOptions {
  /** @default 8787; 0 picks a free port */
  port?: number;
  /** Loopback unless told otherwise: the proxy spends the account's credits for whoever reaches it. @default "127.0.0.1" */
  host?: string;
}

/** A running proxy server: its URL, its handler, and `close`. */
export interface SkyboxProxyServer {
  /** e.g. "http://127.0.0.1:8787" */
  url: string;
  proxy: SkyboxProxy;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

/** Starts the proxy on its own Node HTTP server (loopback unless `host` says otherwise), as `babylon-skybox proxy` does. */
export async function startSkyboxProxyServer(options: SkyboxProxyServerOptions): Promise<SkyboxProxyServer> {
  const proxy = createSkyboxProxy(options);
  const host = options.host ?? "127.0.0.1";
  const handler = toNodeHandler(proxy);
  const server = createServer(isLoopback(host) ? loopbackHostsOnly(handler, options.publicUrl) : handler);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8787, host, () => resolve());
  });
  const { address, port, family } = server.address() as AddressInfo;
  const shown = family === "IPv6" ? `[${address}]` : address;
  return {
    url: `http://${shown}:${port}`,
    proxy,
    close: async () => {
      proxy.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

const LOOPBACK_NAMES = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/i;

function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.test(host) || host === "::1";
}

/**
 * On loopback, a request naming another host is a web page whose name was rebound to
 * 127.0.0.1 (DNS rebinding): it would pass as same-origin, so it is refused, as Vite does.
 */
function loopbackHostsOnly(handler: (req: IncomingMessage, res: ServerResponse) => void, publicUrl: string | undefined) {
  const publicHost = publicUrl ? new URL(publicUrl).host : null;
  return (req: IncomingMessage, res: ServerResponse) => {
    const host = req.headers.host ?? "";
    if (LOOPBACK_NAMES.test(host) || host === publicHost) return handler(req, res);
    res.writeHead(403, { "content-type": "application/json" });
    res.end(JSON.stringify(errorEnvelope("This host name may not reach the Skybox proxy")));
  };
}
