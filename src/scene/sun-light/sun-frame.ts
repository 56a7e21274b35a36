/**
 * Where a direction of the panorama's frame (right-handed, ahead -Z: see
 * src/api/panorama/panorama-directions.ts) lies in a Babylon scene, and in the environment
 * cube texture the scene lights with.
 */
import { Matrix, Vector3 } from "@babylonjs/core/Maths/math.vector.js";

/**
 * The world direction a panorama direction is seen at, the skybox turned by `rotation`.
 * A left-handed scene sees the panorama with z flipped (its centre at +Z), a right-handed
 * one as it is (its centre at -Z); turning the skybox by `rotation` turns its content as a
 * mesh turned by -rotation (backdrop.ts, background.ts).
 * @param d unit direction in the panorama's frame
 * @param rightHanded `scene.useRightHandedSystem`
 * @param rotation the skybox's rotation around Y (radians)
 * @param out where to write
 * @returns `out`
 */
export function worldDirection(d: readonly number[], rightHanded: boolean, rotation: number, out = new Vector3()): Vector3 {
  const local = new Vector3(d[0], d[1], rightHanded ? d[2]! : -d[2]!);
  return Vector3.TransformNormalToRef(local, Matrix.RotationY(-rotation), out);
}

/**
 * The direction in the environment cube's own frame (before its `rotationY`): Babylon's
 * left-handed cube convention, whatever the scene's handedness (a right-handed scene flips
 * its lookups instead). Harmonics computed from the cube are in this frame.
 * @param d unit direction in the panorama's frame
 */
export function cubeDirection(d: readonly number[]): Vector3 {
  return new Vector3(d[0], d[1], -d[2]!);
}
