/**
 * What the pane says about the background's pixels. In development the local service
 * renders images smaller than the size their model names (half by default), and a scene's
 * camera magnifies the background by the ratio of its own pixels per radian to the
 * panorama's: a half-size Model 3 image seen through a field of view of 0.8 in a window
 * 1000 pixels high is shown about twice magnified, soft and blocky. The pane says so, and
 * how to get full size, rather than leave a newcomer to judge the renderer by it.
 */
import { IMAGE_SIZES } from "../../../api/index.ts";

/** What the note is made from. */
export interface BackgroundView {
  /** Width of the panorama the background shows, in pixels. */
  width: number;
  /** The skybox's model. */
  model: 3 | 4;
  /** The camera's vertical field of view, in radians. */
  fov: number;
  /** Height of the scene's render, in pixels. */
  renderHeight: number;
}

/**
 * Screen pixels per panorama pixel at the centre of the view: the render's pixels per
 * radian (height over twice the tangent of half the field of view) over the panorama's
 * (its width over a turn).
 */
export function backgroundMagnification(view: BackgroundView): number {
  const screen = view.renderHeight / (2 * Math.tan(view.fov / 2));
  return screen / (view.width / (2 * Math.PI));
}

const share = (ratio: number) => (ratio === 0.5 ? "half" : ratio === 0.25 ? "a quarter of its" : `${Math.round(ratio * 100)}% of its`);

/**
 * The note for a background the local service rendered below its model's size, or null
 * when it has its full size.
 * @param view the panorama's width, the model and the camera that shows it
 */
export function backgroundSizeNote(view: BackgroundView): string | null {
  const full = view.model === 3 ? IMAGE_SIZES.model3 : IMAGE_SIZES.model4;
  if (view.width >= full.width) return null;
  const ratio = view.width / full.width;
  const magnified = backgroundMagnification(view);
  const shown = magnified > 1.2 ? `, which this camera magnifies about ${magnified.toFixed(1)}×` : "";
  return (
    `Background at ${share(ratio)} size (${view.width}×${view.width / 2} of Model ${view.model}'s ${full.width}×${full.height})${shown}: ` +
    `the local service renders smaller images in development. SKYBOX_LOCAL_IMAGE_SCALE=1 npm run dev renders them at full size.`
  );
}
