/**
 * Every route of the Skybox API, once: the client's methods take their paths from here, the
 * proxy's allow-list is this table, and the local service registers one handler per name.
 * Paths are under {@link API_PREFIX}, written as the spec writes them: `{id}` a numeric id,
 * `{key}` a hash id or an export id.
 */

/** Every path of the API starts with the version prefix (spec "Versioning"). */
export const API_PREFIX = "/api/v1";

/** The HTTP methods the Skybox API uses. */
export type ApiMethod = "GET" | "POST" | "DELETE";

/** One route of the API: its method and path template under `API_PREFIX`. */
export interface ApiRoute {
  method: ApiMethod;
  path: string;
  /** A request that starts work: it may name a `webhook_url`. */
  startsWork?: true;
  /** A polling route (spec "Polling"): the rate limiter watches it. */
  polling?: true;
}

/** Every route of the Skybox API by name: the client sends by name, the proxy allows exactly these, the local service serves each. */
export const ROUTES = {
  styles: { method: "GET", path: "/skybox/styles" },
  families: { method: "GET", path: "/skybox/families" },
  /** The styles menu the Unity SDKs read: families, as `/skybox/families` answers them. */
  menu: { method: "GET", path: "/skybox/menu" },
  generate: { method: "POST", path: "/skybox", startsWork: true },
  getGeneration: { method: "GET", path: "/imagine/requests/{id}", polling: true },
  getGenerationByObfuscatedId: { method: "GET", path: "/imagine/requests/obfuscated-id/{key}", polling: true },
  history: { method: "GET", path: "/imagine/myRequests" },
  cancelGeneration: { method: "DELETE", path: "/imagine/requests/{id}" },
  cancelAllPending: { method: "DELETE", path: "/imagine/requests/pending" },
  deleteGeneration: { method: "DELETE", path: "/imagine/deleteImagine/{id}" },
  /** Marks or unmarks a generation as a favourite (the official Unity SDK); answers `{ request }`. */
  toggleFavorite: { method: "POST", path: "/imagine/favorite/{id}" },
  exportTypes: { method: "GET", path: "/skybox/export" },
  exportResolutions: { method: "GET", path: "/skybox/export/resolutions" },
  meshQualities: { method: "GET", path: "/skybox/export/mesh-qualities" },
  hdriModes: { method: "GET", path: "/skybox/export/hdri-modes" },
  exportHistory: { method: "GET", path: "/skybox/export/history" },
  requestExport: { method: "POST", path: "/skybox/export", startsWork: true },
  getExport: { method: "GET", path: "/skybox/export/{key}", polling: true },
  cancelExport: { method: "DELETE", path: "/skybox/export/{key}" },
  generateBatch: { method: "POST", path: "/skybox/batch", startsWork: true },
  batches: { method: "GET", path: "/skybox/batch" },
  getBatch: { method: "GET", path: "/skybox/batch/{id}", polling: true },
  // Deprecated by the spec, still served by the real service; the client does not call them.
  legacyStyles: { method: "GET", path: "/skybox" },
  legacyGenerate: { method: "POST", path: "/skybox/{id}", startsWork: true },
} as const satisfies Record<string, ApiRoute>;

/** The name of a route of `ROUTES` (`getGeneration`, `requestExport`, ...). */
export type RouteName = keyof typeof ROUTES;

/** What a path parameter may hold: no `.`, `%` or `/`, so a value cannot step outside its route. */
export const PARAM_PATTERNS = { id: "[0-9]{1,18}", key: "[A-Za-z0-9_-]{1,128}" } as const;
/** A kind of path parameter: `id` (numeric) or `key` (a hash id or export id). */
export type ParamName = keyof typeof PARAM_PATTERNS;

type ParamsIn<P extends string> = P extends `${string}{${infer N}}${infer Rest}` ? N | ParamsIn<Rest> : never;

/** The path parameters of a route, by name: `{ id: 46 }`. */
export type RouteParams<N extends RouteName> = Record<ParamsIn<(typeof ROUTES)[N]["path"]>, string | number>;

/** Routes whose path has no parameter. */
export type FixedRoute = { [N in RouteName]: keyof RouteParams<N> extends never ? N : never }[RouteName];

const PARAM = /\{(\w+)\}/g;

/** The route's path with its parameters filled in, each encoded. */
export function pathOf<N extends RouteName>(name: N, params: RouteParams<N>): string {
  const values = params as Record<string, string | number>;
  return ROUTES[name].path.replace(PARAM, (_, p: string) => encodeURIComponent(String(values[p])));
}

/** A request to the route: its method and full path (with {@link API_PREFIX}), as a request line and errors name them. */
export function endpointOf<N extends RouteName>(name: N, params: RouteParams<N>): { method: ApiMethod; path: string } {
  return { method: ROUTES[name].method, path: `${API_PREFIX}${pathOf(name, params)}` };
}

/** The route's path with each parameter written by `write` (a regular expression, a router's syntax). */
export function templateOf(route: ApiRoute, write: (name: ParamName, pattern: string) => string): string {
  return route.path.replace(PARAM, (_, p: ParamName) => write(p, PARAM_PATTERNS[p]));
}

/**
 * Route names in the order a router tries them: fixed paths before parameters of the same
 * method (`/imagine/requests/pending` before `/imagine/requests/{id}`), else table order.
 */
export const MATCH_ORDER: readonly RouteName[] = /* @__PURE__ */ (Object.keys(ROUTES) as RouteName[]).sort(
  (a, b) => Number(ROUTES[a].path.includes("{")) - Number(ROUTES[b].path.includes("{")),
);
