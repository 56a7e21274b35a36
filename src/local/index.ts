/**
 * babylon-skybox/local: the offline Skybox service (Node only).
 * @module babylon-skybox/local
 */
import { assertInstalled } from "./optional-packages.ts";
import type { Imagery } from "./imagery/imagery.ts";
import type { LocalServiceOptions } from "./service-options.ts";
import type { LocalSkyboxService } from "./service.ts";

export type { LocalSkyboxService } from "./service.ts";
export type { LocalServiceOptions, LocalServiceInfo } from "./service-options.ts";
export type { Imagery } from "./imagery/imagery.ts";
export { missingPackageMessage } from "./optional-packages.ts";

/**
 * Starts the local Skybox service. It needs the optional peer `sharp`; without it this
 * rejects with a sentence naming the install command. The service's modules load only
 * here, so importing this entry costs nothing until a service starts.
 * @param options where it listens, its data directory, speed, image scale and account
 * @param imagery the renderer (tests pass a fast fake); the procedural one by default
 * @returns the running service: its URL, key, secret, push settings and `close()`
 */
export async function startLocalSkyboxService(options: LocalServiceOptions = {}, imagery?: Imagery): Promise<LocalSkyboxService> {
  assertInstalled("sharp");
  const service = await import("./service.ts");
  return service.startLocalSkyboxService(options, imagery);
}
