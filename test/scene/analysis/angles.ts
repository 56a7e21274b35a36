/** Angle between two unit vectors, degrees. */
export function degreesBetween(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const cos = a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
  return (Math.acos(Math.min(1, Math.max(-1, cos))) * 180) / Math.PI;
}
