import type { IService } from "@babylonjs/inspector";
import type { SkyboxPaneState } from "./state/skybox-pane-state.ts";

/** Identity of the Skybox pane service, for services that consume it. */
export const SkyboxPaneServiceIdentity = Symbol("SkyboxPaneService");

/** What the Skybox pane service offers other Inspector services. */
export interface ISkyboxPaneService extends IService<typeof SkyboxPaneServiceIdentity> {
  /** The pane's state: form, jobs, history, applied skybox, exports. */
  readonly state: SkyboxPaneState;
  /** Shows the Skybox pane (expands its side if collapsed). */
  select(): void;
}

/** Key of the side pane. */
export const SKYBOX_PANE_KEY = "Skybox";
