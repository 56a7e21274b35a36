/**
 * `loadSkybox`: a skybox saved into the app (skybox.json and its files, see the README's
 * "Shipping a skybox") applied from any static host: no client, proxy, key or API. It
 * returns the same handle as `applySkybox`. Its code loads when it is first called: an app
 * that never loads a saved skybox does not bundle it on import.
 */
import type { Scene } from "@babylonjs/core/scene.js";
import type { AppliedSkybox } from "../applied-skybox.ts";
import type { LoadSkyboxOptions } from "./load-options.ts";

/**
 * Applies a saved skybox: its environment (a `.env` as baked, or a `.hdr` prefiltered once
 * and then cached), background, backdrop and sun, with the Apply settings it was saved
 * with unless `options` say otherwise. The manifest is validated and every file checked
 * against its size and SHA-256 first: a missing, wrong or tampered file rejects naming it,
 * and nothing stays in the scene.
 *
 * @param scene the scene (its active camera places the backdrop)
 * @param url the URL of the folder's skybox.json, e.g. "/skyboxes/sunset/skybox.json"
 * @param options parts, rotation, cache, replace, progress (see `LoadSkyboxOptions`)
 * @returns the handle of the applied skybox
 * @example
 * const sky = await loadSkybox(scene, "/skyboxes/sunset/skybox.json");
 */
export async function loadSkybox(scene: Scene, url: string, options: LoadSkyboxOptions = {}): Promise<AppliedSkybox> {
  return (await import("./saved-build.ts")).loadSaved(scene, url, options);
}
