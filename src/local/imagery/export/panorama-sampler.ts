/**
 * An 8-bit RGB equirectangular panorama, read bilinearly with the shared wrap-around
 * sampler (src/api/panorama/panorama-sampling.ts) and rounded back to bytes.
 */
import { sampleWrappedInto } from "../../../api/panorama/panorama-sampling.ts";

const rgb = new Float64Array(3);

export class PanoramaRgb8 {
  constructor(
    readonly width: number,
    readonly height: number,
    /** width * height * 3 bytes, top row first. */
    readonly data: Uint8Array,
  ) {}

  /** Writes the colour at (u, v) as 3 bytes into `out` at `o`. */
  sample(u: number, v: number, out: Uint8Array, o: number): void {
    sampleWrappedInto(this.data, this.width, this.height, 3, u, v, rgb);
    for (let k = 0; k < 3; k++) out[o + k] = Math.round(rgb[k]!);
  }
}
