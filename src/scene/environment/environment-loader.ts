/**
 * Downloaded bytes to an environment cube texture, with the Babylon texture that matches
 * the export: `.hdr` → HDRCubeTexture, `.exr` → EXRCubeTexture, cube-map ZIP → six faces,
 * equirectangular JPG/PNG → RawCubeTexture, baked texels from the cache → RawCubeTexture.
 * Only the baked texels are prefiltered already; the others go through `prefilter.ts`.
 *
 * Every texture gets a name unique in the engine: the engine's texture cache is keyed by
 * URL, and a second texture with a used name would get the first one's pixels.
 */
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import { EXRCubeTexture } from "@babylonjs/core/Materials/Textures/exrCubeTexture.js";
import type { SphericalPolynomial } from "@babylonjs/core/Maths/sphericalPolynomial.js";
// BaseTexture.sphericalPolynomial as an accessor of the GPU texture's harmonics (unregistered,
// setting it only shadows the property on one texture object, and views sharing it see none).
import "@babylonjs/core/Materials/Textures/baseTexture.polynomial.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { HdrPixels } from "../analysis/hdr-pixels.ts";

/** A cube texture that turns with `rotationY` (HDR, EXR, Cube, Raw all do). */
export type EnvironmentTexture = BaseTexture & { rotationY: number };

/** The kinds of bytes an environment is made from. */
export type EnvironmentFormat = "hdr" | "exr" | "cube-zip" | "equirect" | "texels";

/** A loaded environment; `polynomial` is set again after prefiltering when given. */
export interface LoadedEnvironment {
  texture: EnvironmentTexture;
  prefiltered: boolean;
  polynomial: SphericalPolynomial | null;
}

/**
 * Builds the environment texture of `bytes`, resolving once it is ready.
 * @param scene the scene
 * @param format what the bytes are
 * @param bytes file contents
 * @param size cube face size (ignored by baked texels, which carry their own)
 * @param name unique texture name
 * @param decoded an `.hdr` file's pixels decoded elsewhere (null when none come: it is decoded here)
 * @returns the texture, ready, not yet prefiltered unless baked texels
 */
export async function loadEnvironment(
  scene: Scene,
  format: EnvironmentFormat,
  bytes: Uint8Array,
  size: number,
  name: string,
  decoded?: Promise<HdrPixels | null>,
): Promise<LoadedEnvironment> {
  switch (format) {
    case "hdr": {
      // Decoded, converted and projected in slices (hdr-cube.ts), its code loaded on first use.
      const { SlicedHdrCubeTexture } = await import("./hdr-cube.ts");
      const texture = (await fromUrl(
        bytes,
        name,
        (url, onLoad, onError) => new SlicedHdrCubeTexture(url, scene, { size, onLoad, onError, ...(decoded ? { decoded } : {}) }),
      )) as InstanceType<typeof SlicedHdrCubeTexture>;
      return { texture, prefiltered: false, polynomial: texture.polynomial };
    }
    case "exr":
      (await import("./zip-formats.ts")).provideFflate();
      return {
        texture: await fromUrl(
          bytes,
          name,
          (url, onLoad, onError) => new EXRCubeTexture(url, scene, size, false, true, false, false, onLoad, onError),
        ),
        prefiltered: false,
        polynomial: null,
      };
    case "cube-zip": {
      const [{ facesOfZip }, { cubeFromFaces }] = await Promise.all([import("./zip-formats.ts"), import("./raw-cube.ts")]);
      const cube = await cubeFromFaces(scene, facesOfZip(bytes), size, name);
      return { ...cube, prefiltered: false };
    }
    case "equirect": {
      // 8-bit sources are rare (the default is the HDR export): their code loads when used.
      const { cubeFromPanorama } = await import("./raw-cube.ts");
      const cube = await cubeFromPanorama(scene, bytes, size, name);
      return { ...cube, prefiltered: false };
    }
    case "texels": {
      // Only a re-apply from the cache database reads baked texels: its code loads then.
      const { cubeFromTexels } = await import("./baked-cube.ts");
      return { texture: cubeFromTexels(scene, bytes, name), prefiltered: true, polynomial: null };
    }
  }
}

type Build = (url: string, onLoad: () => void, onError: (message?: string, exception?: unknown) => void) => EnvironmentTexture;

/** Textures that only load from a URL get a blob URL, revoked once loaded. */
function fromUrl(bytes: Uint8Array, name: string, build: Build): Promise<EnvironmentTexture> {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart]));
  return new Promise<EnvironmentTexture>((resolve, reject) => {
    let texture: EnvironmentTexture | null = null;
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      URL.revokeObjectURL(url);
      if (error) {
        texture?.dispose();
        reject(error);
      } else resolve(texture!);
    };
    texture = build(
      url,
      () => queueMicrotask(() => finish()),
      (message, exception) =>
        queueMicrotask(() =>
          finish(
            new Error(
              `Could not decode the environment ${name}: ${message ?? (exception instanceof Error ? exception.message : "unknown error")}`,
            ),
          ),
        ),
    );
    texture.name = name;
  });
}
