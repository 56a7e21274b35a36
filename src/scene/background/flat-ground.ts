/**
 * How far a grounded background's flat ground reaches (grounded-geometry.ts lays it out): by
 * default out to where the panorama's pixels are stretched `MAX_FLAT_STRETCH` times along
 * its radius, and never so far that the far ground has no room left out to the sphere. Apart
 * from the geometry so that checking the `flatRadius` option at the call costs the core entry
 * a few lines, not the mesh builder.
 */

/** The stretch of the panorama's pixels along the radius at the flat ground's edge, by default. */
const MAX_FLAT_STRETCH = 3;
/** The longest ray to the flat ground's edge, as a share of the radius: the far ground needs room out to the sphere. */
const FAR_ROOM = 2 / 3;
/** A grounded background's shape, in scene units. */
export interface GroundShape {
  /** Height of the projection centre above the ground. */
  height: number;
  /** Radius of the sky sphere around the centre. */
  radius: number;
  /** Radius of the flat ground around the foot of the centre (at most maxFlatRadius). */
  flatRadius: number;
}

/**
 * The flat ground's radius unless one is asked for: out to where the panorama's pixels are
 * stretched `MAX_FLAT_STRETCH` times along the radius (2.83 × height), or less on a small
 * sphere, whose far ground needs room (maxFlatRadius).
 */
export function defaultFlatRadius(height: number, radius: number): number {
  return Math.min(height * Math.sqrt(MAX_FLAT_STRETCH ** 2 - 1), maxFlatRadius(height, radius));
}

/** The widest flat ground a sphere leaves room for: the ray to its edge at most `FAR_ROOM` of the radius. */
export function maxFlatRadius(height: number, radius: number): number {
  return Math.sqrt(Math.max(0, (FAR_ROOM * radius) ** 2 - height ** 2));
}
