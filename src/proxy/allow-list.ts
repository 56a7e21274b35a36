/**
 * The routes of the Skybox API the proxy forwards, and nothing else: every route the client
 * in src/api/client calls plus the spec's deprecated ones. Path parameters match a strict
 * character class (no `.`, `%` or `/`), so an encoded or dotted segment cannot step outside
 * the route it matched.
 */

export type ApiMethod = "GET" | "POST" | "DELETE";

export interface ApiRoute {
  method: ApiMethod;
  /** Path under /api/v1, `{id}` a numeric id, `{key}` a hash or export id. */
  path: string;
  /** A request that starts work: gets the proxy's webhook URL when it has none. */
  startsWork?: boolean;
}

export const API_PREFIX = "/api/v1";

export const API_ROUTES: readonly ApiRoute[] = [
  { method: "GET", path: "/skybox/styles" },
  { method: "GET", path: "/skybox/families" },
  { method: "POST", path: "/skybox", startsWork: true },
  { method: "GET", path: "/imagine/requests/{id}" },
  { method: "GET", path: "/imagine/requests/obfuscated-id/{key}" },
  { method: "GET", path: "/imagine/myRequests" },
  { method: "DELETE", path: "/imagine/requests/{id}" },
  { method: "DELETE", path: "/imagine/requests/pending" },
  { method: "DELETE", path: "/imagine/deleteImagine/{id}" },
  { method: "GET", path: "/skybox/export" },
  { method: "GET", path: "/skybox/export/resolutions" },
  { method: "GET", path: "/skybox/export/mesh-qualities" },
  { method: "GET", path: "/skybox/export/hdri-modes" },
  { method: "GET", path: "/skybox/export/history" },
  { method: "POST", path: "/skybox/export", startsWork: true },
  { method: "GET", path: "/skybox/export/{key}" },
  { method: "DELETE", path: "/skybox/export/{key}" },
  { method: "POST", path: "/skybox/batch", startsWork: true },
  { method: "GET", path: "/skybox/batch" },
  { method: "GET", path: "/skybox/batch/{id}" },
  // Deprecated by the spec, still served by the real service.
  { method: "GET", path: "/skybox" },
  { method: "POST", path: "/skybox/{id}", startsWork: true },
];

const PARAM: Record<string, string> = { "{id}": "[0-9]{1,18}", "{key}": "[A-Za-z0-9_-]{1,128}" };

const compiled = API_ROUTES.map((route) => ({
  route,
  pattern: new RegExp(`^${route.path.replace(/\{id\}|\{key\}/g, (p) => PARAM[p]!)}$`),
}));

export type RouteMatch = { route: ApiRoute } | { allowedMethods: ApiMethod[] } | null;

/**
 * The route a request under /api/v1 matches: the route itself, the methods that path allows
 * (a 405), or null (a 404). Fixed paths win over parameters (`/imagine/requests/pending`).
 */
export function matchApiRoute(method: string, apiPath: string): RouteMatch {
  const hits = compiled.filter((c) => c.pattern.test(apiPath)).map((c) => c.route);
  const forMethod = hits.filter((r) => r.method === method);
  const route = forMethod.find((r) => !r.path.includes("{")) ?? forMethod[0];
  if (route) return { route };
  return hits.length ? { allowedMethods: [...new Set(hits.map((r) => r.method))] } : null;
}
