/**
 * The client `applySkybox` calls: it follows records and requests exports, nothing else.
 * When an app gives none, it makes one of only these routes, so an app that only applies
 * skyboxes does not bundle the generation, batch, style and history routes and their rules.
 */
import type { SkyboxClient } from "../api/client/create-client.ts";
import { exportOptionRoutes, requestExportRoute } from "../api/client/export-routes.ts";
import type { SkyboxClientOptions } from "../api/client/client-options.ts";
import { recordRoutes } from "../api/client/record-routes.ts";
import { createTransport } from "../api/client/transport.ts";
import type { StatusClient } from "../status/status-options.ts";

/** The routes applySkybox uses (a full `SkyboxClient` fits). */
export type SceneClient = StatusClient &
  Pick<SkyboxClient, "requestExport" | "exportTypes" | "exportResolutions" | "hdriModes" | "meshQualities">;

/** A client of only the routes applySkybox uses. */
export function createSceneClient(options: SkyboxClientOptions): SceneClient {
  const send = createTransport(options);
  return { ...recordRoutes(send), ...exportOptionRoutes(send), requestExport: requestExportRoute(send) };
}
