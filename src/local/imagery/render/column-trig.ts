/**
 * The sine and cosine of every pixel column's azimuth (src/api/panorama/panorama-directions.ts),
 * which every row of a render reuses.
 */
import { azimuthOfU } from "../../../api/panorama/panorama-directions.ts";

// Per worker thread, for the width it last rendered at (module state: see row-state.ts).
let trigWidth = 0;
let trig = { sin: new Float64Array(0), cos: new Float64Array(0) };

/** sin and cos of every column's azimuth for a width (cached for the last width asked). */
export function columnTrig(width: number): { sin: Float64Array; cos: Float64Array } {
  if (width !== trigWidth) {
    const sin = new Float64Array(width);
    const cos = new Float64Array(width);
    for (let x = 0; x < width; x++) {
      const t = azimuthOfU((x + 0.5) / width);
      sin[x] = Math.sin(t);
      cos[x] = Math.cos(t);
    }
    trig = { sin, cos };
    trigWidth = width;
  }
  return trig;
}
