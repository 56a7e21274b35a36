import type { Scene } from "@babylonjs/core/scene.js";
import type { InspectorOptions, InspectorToken, ISceneContext, IShellService, ServiceDefinition } from "@babylonjs/inspector";
import type { SkyboxPaneOptions, SkyboxPaneServiceOptions } from "./skybox-pane-options.ts";
import type { ISkyboxPaneService } from "./skybox-pane-identity.ts";
import type { SkyboxPaneState } from "./state/skybox-pane-state.ts";

/** Options of `showSkyboxInspector`. */
export interface SkyboxInspectorOptions extends SkyboxPaneServiceOptions {
  /**
   * Options of `ShowInspector` (theme, layout, `disableTeachingMoments`...). Service
   * definitions given here are shown too; the Skybox pane is added to them. The Inspector's
   * teaching popovers take the keyboard focus on a first visit (what is typed into the
   * prompt then is lost); `disableTeachingMoments: true` opens without them.
   */
  inspector?: Partial<InspectorOptions>;
}

/** What `showSkyboxInspector` returns. */
export interface SkyboxInspectorHandle {
  /** The Inspector's own token (`token.dispose()` closes it). */
  readonly token: InspectorToken;
  /** The pane's state; it outlives the Inspector, so reopening shows the same jobs and history. */
  readonly state: SkyboxPaneState;
  /** Closes the Inspector; the applied skybox stays in the scene. */
  dispose(): Promise<void>;
}

/**
 * One pane state per scene, kept until the scene is disposed, so closing and reopening the
 * Inspector loses nothing. Module state on purpose: `showSkyboxInspector(scene)` is called again
 * with only the scene, and a Scene keeps no place for an extension's data (its `metadata` is
 * the app's); keyed weakly by the scene and emptied when it is disposed, it keeps no scene alive.
 */
const states = new WeakMap<Scene, SkyboxPaneState>();

async function stateOf(scene: Scene, options: SkyboxInspectorOptions): Promise<SkyboxPaneState> {
  const known = states.get(scene);
  if (known) return known;
  const { SkyboxPaneState } = await import("./state/skybox-pane-state.ts");
  const state = states.get(scene) ?? new SkyboxPaneState(options);
  if (!states.has(scene)) {
    states.set(scene, state);
    scene.onDisposeObservable.addOnce(() => {
      states.delete(scene);
      state.dispose();
    });
  }
  return state;
}

/**
 * Makes a pane state ahead of the Inspector (to drive the pane from code, or to share one
 * state between several `ShowInspector` calls of your own).
 * @param options where the proxy is, the plan, first apply settings
 * @returns the state; dispose it when done
 */
export async function createSkyboxPaneState(options: SkyboxPaneOptions = {}): Promise<SkyboxPaneState> {
  const { SkyboxPaneState } = await import("./state/skybox-pane-state.ts");
  return new SkyboxPaneState(options);
}

/**
 * Loads the Skybox pane's service definition, to pass to your own `ShowInspector` call.
 * Its React sections load when the pane first shows.
 * @param options where the proxy is, the plan, first apply settings, an existing state
 * @returns the service definition
 */
export async function loadSkyboxPaneService(
  options: SkyboxPaneServiceOptions = {},
): Promise<ServiceDefinition<[ISkyboxPaneService], [IShellService, ISceneContext]>> {
  const { makeSkyboxPaneService } = await import("./skybox-pane-service.tsx");
  return makeSkyboxPaneService(options);
}

/**
 * Shows the Babylon Inspector (v2) with the Skybox pane (selected unless `select: false`). The Inspector and the
 * pane are loaded on demand, so importing `babylon-skybox/inspector` costs almost nothing
 * until this is called.
 * @param scene the scene to inspect and to apply skyboxes to
 * @param options pane options, plus `inspector` for `ShowInspector`'s own options
 * @returns the Inspector token and the pane's state
 * @example
 * const { state } = await showSkyboxInspector(scene, { plan: "business", inspector: { themeMode: "dark" } });
 */
export async function showSkyboxInspector(scene: Scene, options: SkyboxInspectorOptions = {}): Promise<SkyboxInspectorHandle> {
  const { inspector, ...paneOptions } = options;
  const [{ ShowInspector }, { makeSkyboxPaneService }, state] = await Promise.all([
    import("@babylonjs/inspector"),
    import("./skybox-pane-service.tsx"),
    paneOptions.state ?? stateOf(scene, paneOptions),
  ]);
  const service = makeSkyboxPaneService({ ...paneOptions, state });
  const token = ShowInspector(scene, { ...inspector, serviceDefinitions: [...(inspector?.serviceDefinitions ?? []), service] });
  return { token, state, dispose: () => token.dispose() };
}
