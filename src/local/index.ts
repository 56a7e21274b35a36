/** babylon-skybox/local: the offline Skybox service (Node only). */
export { startLocalSkyboxService, type LocalSkyboxService } from "./service.ts";
export type { LocalServiceOptions, LocalServiceInfo } from "./options.ts";
export type { Imagery } from "./imagery/imagery.ts";
