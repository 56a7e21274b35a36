/**
 * The lighting's `.hdr` export decoded once when the sun is found in the same file: the sun's
 * worker decodes it anyway and hands the pixels over (sun-finder.ts), and the lighting takes
 * them instead of decoding the file again on the main thread. Given null when the sun decodes
 * nothing (known from the cache, or its search failed): the lighting then decodes the file.
 */
import type { HdrPixels } from "../analysis/hdr-pixels.ts";

export class DecodedHdr {
  /** The pixels, or null when none will come. */
  readonly pixels: Promise<HdrPixels | null>;
  private _give!: (pixels: HdrPixels | null) => void;

  constructor() {
    this.pixels = new Promise((resolve) => (this._give = resolve));
  }

  /**
   * Hands the pixels over; only the first call counts.
   * @param pixels the decoded file, or null when none will come
   */
  give(pixels: HdrPixels | null): void {
    this._give(pixels);
  }
}
