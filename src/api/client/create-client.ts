import type { Style } from "../schemas/style.ts";
import { styleInfo, type StyleInfo } from "../rules/style-info.ts";
import { batchRoutes } from "./batch-routes.ts";
import { exportOptionRoutes, exportRoutes } from "./export-routes.ts";
import { generationRoutes } from "./generation-routes.ts";
import type { SkyboxClientOptions } from "./client-options.ts";
import { recordRoutes } from "./record-routes.ts";
import { styleRoutes } from "./style-routes.ts";
import { createTransport } from "./transport.ts";

/**
 * A typed client for every route of the Skybox API. Each method validates its parameters
 * and the spec's rules before sending, and validates the response.
 *
 * @example
 * const client = createSkyboxClient({ baseUrl: "/skybox" }); // behind the proxy: no key
 * const styles = await client.styles({ model_version: 3 });
 * const skybox = await client.generate({ prompt: "alpine lake at dawn", skybox_style_id: styles[0].id });
 */
export function createSkyboxClient(options: SkyboxClientOptions) {
  const send = createTransport(options);
  // Styles seen in styles()/families() answers, so generate() can check model and limits.
  const known = new Map<number, StyleInfo>();
  const remember = (styles: Style[]) => styles.forEach((s) => known.set(s.id, styleInfo(s)));
  const styleById = (id: number) => known.get(id);
  return {
    ...styleRoutes(send, remember),
    ...generationRoutes(send, styleById),
    ...recordRoutes(send),
    ...exportOptionRoutes(send),
    ...exportRoutes(send),
    ...batchRoutes(send, styleById),
  };
}

/** The typed client `createSkyboxClient` returns: one method per route of the Skybox API. */
export type SkyboxClient = ReturnType<typeof createSkyboxClient>;
