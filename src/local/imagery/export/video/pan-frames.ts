/**
 * Perspective frames of a full 360 deg pan around the horizon, rendered from the panorama.
 *
 * Camera: pinhole, level with the horizon, the shorter frame side spanning 65 deg; frame
 * 0 looks at the panorama centre (u = 0.5, -Z) and the camera turns right (towards u =
 * 0.75) by 360 / frameCount deg per frame, so the clip loops seamlessly.
 *
 * A yaw turn is a horizontal shift of the panorama. With a panorama width of
 * frameCount * k pixels the shift is exactly k pixels per frame, so each output pixel's
 * bilinear taps and weights are computed once and reused for every frame.
 */
import { uOfDirection, vOfDirection } from "../../../../api/panorama/panorama-directions.ts";
import { type WrappedTaps, wrappedTaps } from "../../../../api/panorama/panorama-sampling.ts";
import type { PanoramaRgb8 } from "../panorama-sampler.ts";

export const SHORT_SIDE_FOV_DEG = 65;

/** Focal length in pixels of a frame. */
export function focalPixels(width: number, height: number): number {
  return Math.min(width, height) / 2 / Math.tan((SHORT_SIDE_FOV_DEG / 2) * (Math.PI / 180));
}

/** Panorama width that gives the frame's angular resolution and an integer shift per frame. */
export function panWidth(width: number, height: number, frameCount: number): number {
  const wanted = 2 * Math.PI * focalPixels(width, height);
  return frameCount * Math.max(1, Math.round(wanted / frameCount));
}

export class PanFrames {
  /** The panorama twice side by side plus a repeated bottom row: no wrap or clamp per pixel. */
  private readonly _strip: Uint8Array;
  private readonly _stride: number;
  /** Byte offset in the strip of each output pixel's top-left tap, at frame 0. */
  private readonly _base: Int32Array;
  /** Bilinear weights of the right and lower taps, 0..256. */
  private readonly _wx: Uint16Array;
  private readonly _wy: Uint16Array;
  private readonly _shiftBytes: number;

  readonly width: number;
  readonly height: number;
  readonly frameCount: number;

  /**
   * @param pano the panorama the frames pan across
   * @param clip each frame's size, and how many frames make one turn
   */
  constructor(pano: PanoramaRgb8, clip: { width: number; height: number; frameCount: number }) {
    const { width, height, frameCount } = clip;
    this.width = width;
    this.height = height;
    this.frameCount = frameCount;
    if (pano.width % frameCount !== 0) throw new Error("PanFrames: panorama width must be a multiple of the frame count");
    const { width: pw, height: ph } = pano;
    this._shiftBytes = (pw / frameCount) * 3;
    this._stride = pw * 2 * 3;
    this._strip = new Uint8Array(this._stride * (ph + 1));
    for (let y = 0; y <= ph; y++) {
      const row = pano.data.subarray(Math.min(y, ph - 1) * pw * 3, (Math.min(y, ph - 1) + 1) * pw * 3);
      this._strip.set(row, y * this._stride);
      this._strip.set(row, y * this._stride + pw * 3);
    }
    const n = width * height;
    this._base = new Int32Array(n);
    this._wx = new Uint16Array(n);
    this._wy = new Uint16Array(n);
    const f = focalPixels(width, height);
    const taps: WrappedTaps = { x0: 0, x1: 0, y0: 0, y1: 0, tx: 0, ty: 0 };
    for (let py = 0, i = 0; py < height; py++) {
      const y = (height / 2 - (py + 0.5)) / f;
      for (let px = 0; px < width; px++, i++) {
        const x = (px + 0.5 - width / 2) / f;
        const { x0, y0, tx, ty } = wrappedTaps(pw, ph, uOfDirection(x, -1), vOfDirection(y / Math.sqrt(x * x + y * y + 1)), taps);
        this._base[i] = y0 * this._stride + x0 * 3;
        this._wx[i] = Math.round(tx * 256);
        this._wy[i] = Math.round(ty * 256);
      }
    }
  }

  /** Renders frame `index` as width * height * 3 RGB bytes into `out`. */
  render(index: number, out: Uint8Array): void {
    const strip = this._strip;
    const stride = this._stride;
    const shift = (index % this.frameCount) * this._shiftBytes;
    const base = this._base;
    const wxs = this._wx;
    const wys = this._wy;
    for (let i = 0, o = 0; i < base.length; i++, o += 3) {
      const a = base[i]! + shift;
      const c = a + stride;
      const wx = wxs[i]!;
      const wy = wys[i]!;
      const ax = 256 - wx;
      const ay = 256 - wy;
      // Channels unrolled: this loop runs 2 million times per 1080p frame.
      out[o] = ((strip[a]! * ax + strip[a + 3]! * wx) * ay + (strip[c]! * ax + strip[c + 3]! * wx) * wy + 32768) >> 16;
      out[o + 1] = ((strip[a + 1]! * ax + strip[a + 4]! * wx) * ay + (strip[c + 1]! * ax + strip[c + 4]! * wx) * wy + 32768) >> 16;
      out[o + 2] = ((strip[a + 2]! * ax + strip[a + 5]! * wx) * ay + (strip[c + 2]! * ax + strip[c + 5]! * wx) * wy + 32768) >> 16;
    }
  }
}
