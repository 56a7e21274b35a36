/**
 * Runs a Fetch-API handler in Node's `http` server or as connect-style middleware (Vite,
 * Express). A SkyboxProxy reads Node's request through a light view (node-request.ts) and
 * its responses are written as they are (node-response.ts): its JSON in one call, assets
 * piped, event streams with backpressure. Any other handler gets a Fetch-API Request and
 * its Response is written the same way.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createSkyboxProxy, nodeFastPathOf, type ClientInfo, type SkyboxProxy } from "../create-proxy.ts";
import { NodeProxyRequest } from "./node-request.ts";
import { writeNodeResponse } from "./node-response.ts";
import type { SkyboxProxyOptions } from "../proxy-options.ts";
import { ProxyError } from "../proxy-error.ts";
import type { RouteResponse } from "../text-response.ts";

/** A Fetch-API handler: a `Request` (and the client's address) in, a `Response` out. */
export type FetchHandler = (request: Request, info?: ClientInfo) => Promise<Response>;
/** A Node `http` handler, also usable as Express or connect middleware (`next` gets what it does not serve). */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

/**
 * A Node handler for `http.createServer(handler)` or `app.use(handler)`. With a
 * `basePath` (a SkyboxProxy has one) and a `next`, requests outside it go to `next`, and
 * so does a handler's error.
 */
export function toNodeHandler(handler: FetchHandler & { basePath?: string }): NodeHandler {
  const fast = nodeFastPathOf(handler);
  return (req, res, next) => {
    if (next && handler.basePath && !(req.url ?? "/").startsWith(`${handler.basePath}/`)) return next();
    const request = new NodeProxyRequest(req, res);
    const info: ClientInfo = { clientAddress: req.socket.remoteAddress };
    const responded: Promise<RouteResponse> = fast ? fast.respond(request, info) : fetchHandlerResponse(handler, request, info);
    responded
      .then(
        (response) => writeNodeResponse(response, req, res),
        (error: unknown) =>
          next ? next(error) : writeNodeResponse(new ProxyError(500, "The Skybox proxy failed").toTextResponse(), req, res),
      )
      // Writing failed (a header Node refuses): nothing more can be sent, and the process must not fall over.
      .catch(() => res.destroy());
  };
}

async function fetchHandlerResponse(handler: FetchHandler, request: NodeProxyRequest, info: ClientInfo): Promise<RouteResponse> {
  let fetchRequest: Request;
  try {
    fetchRequest = request.toFetchRequest();
  } catch {
    // A request that is none as a URL (a Host header that names no host).
    return new ProxyError(400, "Bad request").toTextResponse();
  }
  return handler(fetchRequest, info);
}

/** `createSkyboxProxy` as connect-style middleware; `close` ends its event streams. */
export function createSkyboxProxyMiddleware(options: SkyboxProxyOptions): NodeHandler & { proxy: SkyboxProxy } {
  const proxy = createSkyboxProxy(options);
  return Object.assign(toNodeHandler(proxy), { proxy });
}
