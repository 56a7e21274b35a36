// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the emitted .d.ts must carry these ambient modules into the user's type check; an import would not.
/// <reference path="./shared-ui-components.ts" preserve="true" />
import {
  SceneContextIdentity,
  ShellServiceIdentity,
  type ISceneContext,
  type IShellService,
  type ServiceDefinition,
} from "@babylonjs/inspector";
import { Spinner } from "@fluentui/react-components";
import { WeatherPartlyCloudyDayRegular } from "@fluentui/react-icons";
import { lazy, Suspense, type FunctionComponent } from "react";
import type { SkyboxPaneServiceOptions } from "./skybox-pane-options.ts";
import { SKYBOX_PANE_KEY, SkyboxPaneServiceIdentity, type ISkyboxPaneService } from "./skybox-pane-identity.ts";
import { SkyboxPaneState } from "./state/skybox-pane-state.ts";

export { SkyboxPaneServiceIdentity, type ISkyboxPaneService } from "./skybox-pane-identity.ts";

// The pane's sections (Fluent forms, pickers, history) load when the pane first shows.
const SkyboxPane = lazy(() => import("./components/skybox-pane.tsx").then((m) => ({ default: m.SkyboxPane })));

/**
 * Makes the Skybox pane's service definition: a right-hand side pane (generate, batch,
 * progress, history, apply, export) on a state kept outside React.
 * @param options where the proxy is, the plan, first apply settings, an existing state
 * @returns a definition for `ShowInspector(scene, { serviceDefinitions: [...] })`
 */
export function makeSkyboxPaneService(
  options: SkyboxPaneServiceOptions = {},
): ServiceDefinition<[ISkyboxPaneService], [IShellService, ISceneContext]> {
  return {
    friendlyName: "Skybox (babylon-skybox)",
    produces: [SkyboxPaneServiceIdentity],
    consumes: [ShellServiceIdentity, SceneContextIdentity],
    factory: (shellService, sceneContext) => {
      const state = options.state ?? new SkyboxPaneState(options);
      state.setScene(sceneContext.currentScene);
      const sceneObserver = sceneContext.currentSceneObservable.add((scene) => state.setScene(scene));
      const Content: FunctionComponent = () => (
        <Suspense fallback={<Spinner size="tiny" label="Loading the Skybox pane…" />}>
          <SkyboxPane state={state} />
        </Suspense>
      );
      const registration = shellService.addSidePane({
        key: SKYBOX_PANE_KEY,
        title: "Skybox",
        icon: WeatherPartlyCloudyDayRegular,
        content: Content,
        horizontalLocation: "right",
        verticalLocation: "top",
        order: options.order ?? 50,
        // Jobs and forms live in `state`; keeping the DOM avoids re-reading the history on every tab switch.
        keepMounted: true,
        teachingMoment: false,
      });
      const select = () => shellService.sidePanes.find((p) => p.key === SKYBOX_PANE_KEY)?.select();
      if (options.select !== false) select();
      return {
        state,
        select,
        dispose: () => {
          sceneObserver.remove();
          registration.dispose();
          state.setScene(null);
          if (!options.state) state.dispose();
        },
      };
    },
  };
}

/** The Skybox pane with default options (proxy at `/skybox`). */
export const SkyboxPaneServiceDefinition = makeSkyboxPaneService();
