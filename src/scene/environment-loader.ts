/**
 * Downloaded bytes to an environment cube texture, with the Babylon texture that matches
 * the export: `.hdr` → HDRCubeTexture, `.exr` → EXRCubeTexture, cube-map ZIP → six faces,
 * equirectangular JPG/PNG → RawCubeTexture, baked `.env` → CubeTexture. Only the `.env` is
 * prefiltered already; the others go through `prefilter.ts`.
 *
 * Every texture gets a name unique in the engine: the engine's texture cache is keyed by
 * URL, and a second texture with a used name would get the first one's pixels.
 */
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import { CubeTexture } from "@babylonjs/core/Materials/Textures/cubeTexture.js";
import { EXRCubeTexture } from "@babylonjs/core/Materials/Textures/exrCubeTexture.js";
import { HDRCubeTexture } from "@babylonjs/core/Materials/Textures/hdrCubeTexture.js";
import type { SphericalPolynomial } from "@babylonjs/core/Maths/sphericalPolynomial.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { cubeFromFaces, cubeFromPanorama } from "./raw-cube.ts";

/** A cube texture that turns with `rotationY` (HDR, EXR, Cube, Raw, .env all do). */
export type EnvironmentTexture = BaseTexture & { rotationY: number };

/** The kinds of bytes an environment is made from. */
export type EnvironmentFormat = "hdr" | "exr" | "cube-zip" | "equirect" | "env";

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
 * @param size cube face size (ignored by `.env`, which carries its own)
 * @param name unique texture name
 * @returns the texture, ready, not yet prefiltered unless `.env`
 */
export async function loadEnvironment(scene: Scene, format: EnvironmentFormat, bytes: Uint8Array, size: number, name: string): Promise<LoadedEnvironment> {
  switch (format) {
    case "hdr":
      return { texture: await fromUrl(bytes, name, (url, onLoad, onError) => new HDRCubeTexture(url, scene, size, false, true, false, false, onLoad, onError)), prefiltered: false, polynomial: null };
    case "exr":
      (await import("./zip-formats.ts")).provideFflate();
      return { texture: await fromUrl(bytes, name, (url, onLoad, onError) => new EXRCubeTexture(url, scene, size, false, true, false, false, onLoad, onError)), prefiltered: false, polynomial: null };
    case "cube-zip": {
      const { facesOfZip } = await import("./zip-formats.ts");
      const cube = await cubeFromFaces(scene, facesOfZip(bytes), size, name);
      return { ...cube, prefiltered: false };
    }
    case "equirect": {
      const cube = await cubeFromPanorama(scene, bytes, size, name);
      return { ...cube, prefiltered: false };
    }
    case "env":
      return { texture: await fromEnv(scene, bytes, name), prefiltered: true, polynomial: null };
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
      (message, exception) => queueMicrotask(() => finish(new Error(`Could not decode the environment ${name}: ${message ?? exception ?? "unknown error"}`))),
    );
    texture.name = name;
  });
}

function fromEnv(scene: Scene, bytes: Uint8Array, name: string): Promise<EnvironmentTexture> {
  return new Promise((resolve, reject) => {
    const texture: CubeTexture = new CubeTexture(`${name}.env`, scene, {
      buffer: bytes,
      forcedExtension: ".env",
      onLoad: () => resolve(texture),
      onError: (message, exception) => {
        texture.dispose();
        reject(new Error(`Could not load the cached environment ${name}: ${message ?? exception ?? "unknown error"}`));
      },
    });
  });
}
