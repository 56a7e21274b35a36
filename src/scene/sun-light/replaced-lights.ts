/**
 * The scene's lights a skybox's sun takes the place of (`sun.replaces`): off, with their
 * shadows, while the sun is shown. Several skyboxes may hold the same light (a replacing
 * skybox shows its sun before the replaced one goes): the first takes the light's own state,
 * the last to let go gives it back, so no frame has two suns, nor none.
 */
import type { Light } from "@babylonjs/core/Lights/light.js";
import type { SkyboxPart } from "../skybox-part.ts";

/** A held light's own state, and how many skyboxes hold it. */
interface Held {
  enabled: boolean;
  shadows: boolean;
  holders: number;
}

// Per light, not per skybox: two skyboxes (the shown one and the one replacing it) may hold
// the same light, and only the first may record its own state. Weak: a disposed light goes with its entry.
const held = new WeakMap<Light, Held>();

function take(light: Light): void {
  const h = held.get(light);
  if (h) {
    h.holders++;
    return;
  }
  held.set(light, { enabled: light.isEnabled(false), shadows: light.shadowEnabled, holders: 1 });
  light.setEnabled(false);
  // A disabled light renders no shadow map; shadowEnabled off too, for code that checks only that.
  light.shadowEnabled = false;
}

function give(light: Light): void {
  const h = held.get(light);
  if (!h) return;
  if (--h.holders > 0) return;
  held.delete(light);
  if (light.isDisposed()) return;
  light.shadowEnabled = h.shadows;
  light.setEnabled(h.enabled);
}

/** The lights one skybox's sun replaces. */
export class ReplacedLights implements SkyboxPart {
  readonly textures = [];
  readonly meshes = [];
  readonly materials = [];
  private _holding = false;

  /** @param lights the lights to switch off while the sun is shown */
  constructor(readonly lights: readonly Light[]) {}

  setRotation(): void {}

  /** @param enabled true while the skybox's sun is shown: the lights are off */
  setEnabled(enabled: boolean): void {
    if (enabled === this._holding) return;
    this._holding = enabled;
    for (const light of this.lights) (enabled ? take : give)(light);
  }

  /** Gives the lights back. */
  dispose(): void {
    this.setEnabled(false);
  }
}

/**
 * The part of an apply whose sun replaces lights, or null when it replaces none.
 * @param lights the lights of `sun.replaces` (empty or absent: none, or the sun not asked for)
 */
export function replacedLights(lights: readonly Light[] | undefined): ReplacedLights | null {
  return lights?.length ? new ReplacedLights(lights) : null;
}
