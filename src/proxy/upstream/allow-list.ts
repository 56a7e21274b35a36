/**
 * The routes of the Skybox API the proxy forwards, and nothing else: the API's route table
 * (src/api/protocol/routes.ts), every route the client calls plus the spec's deprecated
 * ones. Path parameters match a strict character class (no `.`, `%` or `/`), so an encoded
 * or dotted segment cannot step outside the route it matched.
 */
import { MATCH_ORDER, ROUTES, templateOf, type ApiMethod, type ApiRoute } from "../../api/protocol/routes.ts";

export type { ApiMethod, ApiRoute };

/** Every route the proxy forwards: the API's route table, nothing else. */
export const API_ROUTES: readonly ApiRoute[] = Object.values(ROUTES);

const compiled = MATCH_ORDER.map((name) => ({
  route: ROUTES[name],
  pattern: new RegExp(`^${templateOf(ROUTES[name], (_, pattern) => pattern)}$`),
}));

export type RouteMatch = { route: ApiRoute } | { allowedMethods: ApiMethod[] } | null;

/**
 * The route a request under /api/v1 matches: the route itself, the methods that path allows
 * (a 405), or null (a 404). Fixed paths win over parameters (`/imagine/requests/pending`).
 */
export function matchApiRoute(method: string, apiPath: string): RouteMatch {
  const hits = compiled.filter((c) => c.pattern.test(apiPath)).map((c) => c.route);
  const route = hits.find((r) => r.method === method);
  if (route) return { route };
  return hits.length ? { allowedMethods: [...new Set(hits.map((r) => r.method))] } : null;
}
