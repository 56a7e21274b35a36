/**
 * What each route of the API's route table does to owned records, when users are
 * configured: reads (or cancels, or deletes) one record named in its path, lists the
 * caller's records, creates records (naming other records in its body), or cancels the
 * caller's pending generations; or is a reference list anyone may read (styles, export
 * types). Every route of the table is named, so a route added to it must be classified here
 * before it type-checks: none is forwarded unchecked by oversight.
 */
import { MESSAGES } from "../../api/rules/messages.ts";
import { ROUTES, templateOf, type ApiRoute, type RouteName } from "../../api/protocol/routes.ts";
import type { RecordKind, RefKind } from "./record-refs.ts";

/** A request field naming another record, which must be the caller's own. */
export interface Reference {
  field: string;
  /** What it names; a generation given by hash id may also come as its numeric id. */
  names: RefKind;
}

export type RouteRule =
  | { does: "read"; names: RefKind; record: RecordKind; deletes?: true; cancels?: true; notFound: (id: string) => string }
  | { does: "list"; record: RecordKind; idFilter: string }
  | { does: "create"; record: RecordKind; references: readonly Reference[] }
  | { does: "cancel-pending" }
  | { does: "reference" };

const skyboxNotFound = (id: string) => `Skybox ${id} not found`;
const generation = { does: "read", names: "generation", record: "generation", notFound: skyboxNotFound } as const;
const exportRead = { does: "read", names: "export", record: "export", notFound: (id: string) => `Export ${id} not found` } as const;

/** Sources of edit and remix, and the collection a remix draws on (a batch). */
const SOURCES: readonly Reference[] = [
  { field: "edit_skybox_id", names: "generation" },
  { field: "remix_imagine_id", names: "generation" },
  { field: "remix_obfuscated_id", names: "generation-hash" },
  { field: "remix_collection_id", names: "batch" },
];

const reference = { does: "reference" } as const;

export const ROUTE_RULES: Record<RouteName, RouteRule> = {
  styles: reference,
  families: reference,
  legacyStyles: reference,
  exportTypes: reference,
  exportResolutions: reference,
  meshQualities: reference,
  hdriModes: reference,
  menu: reference,
  generate: { does: "create", record: "generation", references: SOURCES },
  legacyGenerate: { does: "create", record: "generation", references: SOURCES },
  generateBatch: { does: "create", record: "batch", references: SOURCES },
  requestExport: { does: "create", record: "export", references: [{ field: "skybox_id", names: "generation-hash" }] },
  getGeneration: generation,
  getGenerationByObfuscatedId: { ...generation, names: "generation-hash" },
  cancelGeneration: { ...generation, cancels: true },
  deleteGeneration: { ...generation, deletes: true },
  toggleFavorite: generation,
  getExport: exportRead,
  cancelExport: exportRead,
  getBatch: { does: "read", names: "batch", record: "batch", notFound: () => MESSAGES.batchNotFound },
  history: { does: "list", record: "generation", idFilter: "imagine_id" },
  exportHistory: { does: "list", record: "export", idFilter: "export_id" },
  batches: { does: "list", record: "batch", idFilter: "batch_id" },
  cancelAllPending: { does: "cancel-pending" },
};

const names = new Map<ApiRoute, RouteName>((Object.keys(ROUTES) as RouteName[]).map((n) => [ROUTES[n], n]));
const captures = new Map<ApiRoute, RegExp>(
  (Object.values(ROUTES) as ApiRoute[]).map((r) => [r, new RegExp(`^${templateOf(r, (_, pattern) => `(${pattern})`)}$`)]),
);

/** The name of a route of the table. */
export const routeNameOf = (route: ApiRoute): RouteName | undefined => names.get(route);

/** The path parameter of a route with one (`46` of `/imagine/requests/46`), else null. */
export function paramOf(route: ApiRoute, path: string): string | null {
  return captures.get(route)?.exec(path)?.[1] ?? null;
}
