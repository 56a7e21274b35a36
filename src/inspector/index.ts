// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the emitted .d.ts must carry these ambient modules into the user's type check; an import would not.
/// <reference path="./shared-ui-components.ts" preserve="true" />
/**
 * `babylon-skybox/inspector`: the Skybox pane for the Babylon Inspector (v2). Never
 * imported by the core entry `babylon-skybox`; the Inspector and the pane's React parts
 * are loaded on demand by `showSkyboxInspector` and `loadSkyboxPaneService`.
 * @module babylon-skybox/inspector
 */
export {
  showSkyboxInspector,
  loadSkyboxPaneService,
  createSkyboxPaneState,
  type SkyboxInspectorOptions,
  type SkyboxInspectorHandle,
} from "./show-skybox-inspector.ts";
export { SkyboxPaneServiceIdentity, SKYBOX_PANE_KEY, type ISkyboxPaneService } from "./skybox-pane-identity.ts";
export type { SkyboxPaneOptions, SkyboxPaneServiceOptions } from "./skybox-pane-options.ts";
export type { SkyboxPaneState } from "./state/skybox-pane-state.ts";
export type { ApplySettings, LightingResolution } from "./state/apply/apply-state.ts";
export type { GenerateFormValue, PaneMode, SkyAngles } from "./state/form/generate-form.ts";
export type { JobView } from "./state/jobs/job-view.ts";
export type { PaneError } from "./error-text.ts";
export { anglesOfDirection, directionOfAngles } from "./state/edit/sky-direction.ts";
