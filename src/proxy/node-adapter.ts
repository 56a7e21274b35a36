/**
 * Runs a Fetch-API handler in Node's `http` server or as connect-style middleware (Vite,
 * Express). The request side is @hono/node-server's: a Request that reads the
 * IncomingMessage lazily (headers looked up in place, the body streamed only if read, a
 * signal that aborts when the client goes away). The response is written by
 * node-response.ts: the proxy's JSON in one call, assets piped, event streams with
 * backpressure.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { getRequestListener, RequestError, type HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { createSkyboxProxy, nodeFastPathOf, type ClientInfo, type SkyboxProxy } from "./create-proxy.ts";
import { writeNodeAnswer } from "./node-response.ts";
import type { SkyboxProxyOptions } from "./options.ts";
import { ProxyError } from "./ProxyError.ts";
import type { Answer } from "./text-answer.ts";

export type FetchHandler = (request: Request, info?: ClientInfo) => Promise<Response>;
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

type Next = (error?: unknown) => void;

/**
 * A Node handler for `http.createServer(handler)` or `app.use(handler)`. With a
 * `basePath` (a SkyboxProxy has one) and a `next`, requests outside it go to `next`.
 */
export function toNodeHandler(handler: FetchHandler & { basePath?: string }): NodeHandler {
  const fast = nodeFastPathOf(handler);
  // A SkyboxProxy's answers are written as they are, not made Responses first.
  const answer: (request: Request, info: ClientInfo) => Promise<Answer> = fast ? fast.answer : handler;
  const nexts = new WeakMap<IncomingMessage, Next>();
  const listener = getRequestListener(
    async (request, env) => {
      const { incoming, outgoing } = env as HttpBindings;
      let answered: Answer;
      try {
        // Another handler gets a Request of its own: it may hand it to `new Request()`, which a lazy one does not survive.
        answered = await answer(fast?.lightRequests ? request : materialized(request), { clientAddress: incoming.socket.remoteAddress });
      } catch (error) {
        const next = nexts.get(incoming);
        if (next) return (next(error), RESPONSE_ALREADY_SENT);
        answered = new ProxyError(500, "The Skybox proxy failed").toAnswer();
      }
      await writeNodeAnswer(answered, incoming, outgoing);
      return RESPONSE_ALREADY_SENT;
    },
    {
      overrideGlobalObjects: false,
      hostname: "127.0.0.1",
      // Only a request that is not one (a Host that is not a host, a malformed target) gets here.
      errorHandler: (error) => new ProxyError(error instanceof RequestError ? 400 : 500, error instanceof RequestError ? "Bad request" : "The Skybox proxy failed").toResponse(),
    },
  );
  return (req, res, next) => {
    if (next) {
      const path = (req.url ?? "/").split("?")[0]!;
      if (handler.basePath && !path.startsWith(`${handler.basePath}/`)) return next();
      nexts.set(req, next);
    }
    void listener(req, res);
  };
}

/** `createSkyboxProxy` as connect-style middleware; `close` ends its event streams. */
export function createSkyboxProxyMiddleware(options: SkyboxProxyOptions): NodeHandler & { proxy: SkyboxProxy } {
  const proxy = createSkyboxProxy(options);
  return Object.assign(toNodeHandler(proxy), { proxy });
}

function materialized(request: Request): Request {
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    ...(hasBody ? { body: request.body, duplex: "half" } : {}),
  } as RequestInit);
}
