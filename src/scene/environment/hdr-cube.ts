/**
 * An `.hdr` environment loaded without holding the page: HDRCubeTexture decodes the file,
 * converts the panorama to a cube and projects the harmonics in one task (a second and more
 * for a 4K panorama on a slow core). This one does the same steps in slices between which
 * the page draws (hdr-pixels.ts, sliced-cube.ts), with Babylon's results; Babylon then
 * uploads the faces as it does for its own.
 */
import type { Nullable } from "@babylonjs/core/types.js";
import { HDRCubeTexture } from "@babylonjs/core/Materials/Textures/hdrCubeTexture.js";
import type { SphericalPolynomial } from "@babylonjs/core/Maths/sphericalPolynomial.js";
import type { CubeMapInfo } from "@babylonjs/core/Misc/HighDynamicRange/panoramaToCubemap.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { decodeHdrInSlices, type HdrPixels } from "../analysis/hdr-pixels.ts";
import { cubeHarmonics, panoramaToCube } from "./sliced-cube.ts";
import { nextTaskSlice, WorkSlices } from "../scheduling/work-slices.ts";

export interface SlicedHdrCubeOptions {
  /** Face size. */
  size: number;
  /** Called once uploaded. */
  onLoad: () => void;
  /** Called when the file cannot be read. */
  onError: (message?: string, exception?: unknown) => void;
  /** The file's pixels decoded elsewhere (decoded-hdr.ts), or null: it is decoded here. */
  decoded?: Promise<HdrPixels | null>;
}

/** An HDRCubeTexture whose CPU steps run in slices; its harmonics are set before it reports loaded. */
export class SlicedHdrCubeTexture extends HDRCubeTexture {
  /** The irradiance harmonics, once computed (put them back after prefiltering: it swaps the GPU texture). */
  polynomial: Nullable<SphericalPolynomial> = null;

  /**
   * @param url the file (a blob URL)
   * @param scene the scene
   * @param options the face size and the load callbacks
   */
  constructor(url: string, scene: Scene, options: SlicedHdrCubeOptions) {
    // Mips, harmonics computed here (not by Babylon, in one task), linear, not prefiltered on load.
    super(url, scene, options.size, false, false, false, false, options.onLoad, options.onError);
    this._decoded = options.decoded ?? null;
  }

  /** The pixels decoded elsewhere; set after the file starts loading, read once it has loaded. */
  private _decoded: Promise<HdrPixels | null> | null;

  protected override async _getCubeMapTextureDataAsync(buffer: ArrayBuffer, size: number): Promise<CubeMapInfo> {
    const signal = new AbortController().signal;
    const slices = new WorkSlices(nextTaskSlice, signal);
    const panorama = (await this._decoded) ?? (await decodeHdrInSlices(new Uint8Array(buffer), slices));
    const cube = await panoramaToCube(panorama.rgb, panorama.width, panorama.height, size, slices);
    this.polynomial = await cubeHarmonics(cube, slices);
    this.sphericalPolynomial = this.polynomial;
    // Babylon converts and uploads the faces in the task that follows: a fresh one.
    await nextTaskSlice(signal);
    return cube;
  }
}
