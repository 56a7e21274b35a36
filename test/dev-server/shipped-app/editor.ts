/**
 * The editor half of the shipping test's app (dev server only): the pane's state generates
 * and applies a skybox with a backdrop built at a chosen depth scale and mesh quality, and
 * the Inspector then shows the pane on that state, as a user has it after applying.
 */
import type { Scene } from "@babylonjs/core/scene.js";
import { showSkyboxInspector } from "../../../src/inspector/index.ts";
import { SkyboxPaneState } from "../../../src/inspector/state/skybox-pane-state.ts";

/** The backdrop the editor applies with (not the defaults, so the test sees them saved). */
const BACKDROP = { depthScale: 5, meshQuality: "high" } as const;

export async function openEditor(scene: Scene, prompt: string) {
  const state = new SkyboxPaneState({
    baseUrl: "/skybox",
    apply: { backdrop: true, sun: true, intensity: 1.2, rotationDeg: 30, ...BACKDROP },
  });
  state.setScene(scene);
  await state.connection.tracker();
  const styles = await state.connection.client.styles();
  const record = await state.connection.client.generate({ prompt, skybox_style_id: styles.find((s) => s.model_version !== "4")!.id });
  const applied = await state.apply.apply(record);
  if (!applied) throw new Error(JSON.stringify(state.apply.value.error));
  return {
    applied,
    backdrop: BACKDROP,
    saveToProject: state.connection.value.saveToProject,
    /** Opens the Inspector on the pane's state (after the pixels are read: the Inspector's layout resizes the canvas). */
    showInspector: async () => {
      await showSkyboxInspector(scene, { state, inspector: { disableTeachingMoments: true } });
    },
  };
}
