/**
 * The sentence the dev server prints about the sizes its local service renders: the
 * background a skybox shows in development has the pixels of the image rendered (at half
 * size by default, twice magnified by a playground camera that a full-size image fills at
 * about 1:1), while exports keep the size their resolution names. A newcomer reads there
 * what they see, and how to get full size.
 */
import { IMAGE_SIZES } from "../api/reference.ts";
import type { LocalServiceOptions } from "../local/index.ts";

const share = (scale: number) => (scale === 0.5 ? "half" : scale === 0.25 ? "quarter" : `${scale}x`);

/** Image and export sizes of a local service started with `options`, as one line. */
export function localSizesLine(options: LocalServiceOptions): string {
  const image = options.imageScale ?? 1;
  const exports = options.exportScale ?? image;
  const size = (s: { width: number; height: number }) => `${Math.round(s.width * image)}×${Math.round(s.height * image)}`;
  const images =
    image === 1
      ? `images at full size (Model 3 ${size(IMAGE_SIZES.model3)}, Model 4 ${size(IMAGE_SIZES.model4)})`
      : `images at ${share(image)} size (Model 3 ${size(IMAGE_SIZES.model3)}, Model 4 ${size(IMAGE_SIZES.model4)}; SKYBOX_LOCAL_IMAGE_SCALE=1 for full size)`;
  const sized = exports === 1 ? "exports at the size they name" : `exports at ${share(exports)} the size they name`;
  return `${images}, ${sized}`;
}
