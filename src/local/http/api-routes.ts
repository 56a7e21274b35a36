/**
 * The local service's API routes, registered from the API's route table: one handler per
 * route name. A route of the table without a handler, or a handler named after no route,
 * does not compile (and is refused at start-up, for callers without types).
 */
import type { Context, MiddlewareHandler } from "hono";
import { API_PREFIX, MATCH_ORDER, ROUTES, templateOf, type RouteName, type RouteParams } from "../../api/protocol/routes.ts";
import type { App, AppEnv } from "./context.ts";

/** Answers one route; `params` are its path parameters as the request gave them. */
export type ApiHandler<N extends RouteName> = (
  c: Context<AppEnv>,
  params: { [P in keyof RouteParams<N>]: string },
) => Response | Promise<Response>;

export type ApiHandlers = { [N in RouteName]: ApiHandler<N> };

type AnyHandler = (c: Context<AppEnv>, params: Record<string, string>) => Response | Promise<Response>;

/** hono's syntax for a parameter with a pattern: `:id{[0-9]{1,18}}`, the same strict class the proxy uses. */
const honoPath = (name: RouteName) => `${API_PREFIX}${templateOf(ROUTES[name], (param, pattern) => `:${param}{${pattern}}`)}`;

/**
 * Registers every route of the table, fixed paths before parameters of the same method;
 * `polling` guards the polling routes (spec "Polling").
 */
export function registerApiRoutes(app: App, handlers: ApiHandlers, polling: MiddlewareHandler<AppEnv>): void {
  const unknown = Object.keys(handlers).filter((name) => !(name in ROUTES));
  if (unknown.length) throw new Error(`Handlers for no route of the API: ${unknown.join(", ")}`);
  for (const name of MATCH_ORDER) {
    const handle = handlers[name] as AnyHandler | undefined;
    if (!handle) throw new Error(`No handler for the API route ${name}`);
    const route: { method: string; polling?: true } = ROUTES[name];
    const answer = (c: Context<AppEnv>) => handle(c, c.req.param());
    if (route.polling) app.on(route.method, honoPath(name), polling, answer);
    else app.on(route.method, honoPath(name), answer);
  }
}
