import type { Light } from "@babylonjs/core/Lights/light.js";
import type { Plan, SkyboxClient } from "../api/index.ts";
import type { StatusTracker } from "../status/index.ts";
import type { ApplySettings } from "./state/apply/apply-state.ts";
import type { SkyboxPaneState } from "./state/skybox-pane-state.ts";

/** Options of the Skybox pane (and of `SkyboxPaneState`). */
export interface SkyboxPaneOptions {
  /**
   * Where the proxy is mounted (`skyboxProxy()` in Vite, `babylon-skybox proxy` or your own
   * `createSkyboxProxy`). The pane reads `{baseUrl}/config` for the push channel.
   * @default "/skybox"
   */
  baseUrl?: string;
  /** A client to use instead of one made from `baseUrl`. */
  client?: SkyboxClient;
  /** A status tracker to use instead of one made from `{baseUrl}/config`. */
  tracker?: StatusTracker;
  /**
   * The account's plan, when the app knows it. The API has no route that tells it, so by
   * default the pane learns limits from the answers it gets (a 403 on a Model 4 style marks
   * Model 4 unavailable, with the server's reason). With a plan, Model 4 and the batch cap
   * are shown correctly before the first request.
   * @default null
   */
  plan?: Plan | null;
  /** First values of the Apply section (lighting, background, backdrop, intensity...). */
  apply?: Partial<ApplySettings>;
  /**
   * The scene's own sun-like lights: an applied skybox's sun light takes their place (they
   * are off, with their shadows, while its Sun light is on; see `SunOptions.replaces`).
   * @default []
   */
  sunReplaces?: readonly Light[];
  /** History items per page. @default 12 */
  pageSize?: number;
  /** fetch used for `{baseUrl}/config`. @default globalThis.fetch */
  fetch?: typeof fetch;
}

/** Options of the pane's Inspector service. */
export interface SkyboxPaneServiceOptions extends SkyboxPaneOptions {
  /**
   * The state to show; give one to keep jobs, history and settings across Inspector
   * sessions. Without it the service makes its own and disposes it with the Inspector.
   */
  state?: SkyboxPaneState;
  /** Selects the Skybox pane when the Inspector opens. @default true */
  select?: boolean;
  /** Sort order among the right pane's tabs (Properties is 100). @default 50 */
  order?: number;
}
