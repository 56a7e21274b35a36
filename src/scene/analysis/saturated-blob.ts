/**
 * Where the sun stands in a saturated blob: in an HDRI made from an 8-bit picture the sky
 * around the sun clips too, and no compact disk is left, only a blob of pixels at the
 * image's largest value. The blob's edge is a line of equal radiance, not a circle round
 * the sun: the sky brightens towards the horizon as well as towards the sun. The sun's
 * light outshines the sky's blue only near the sun, so there the sky clips in every channel:
 * the blob's parts clipped white are its highest level, the nearest the picture shows to
 * the sun. The sun is placed at the centre of the white part that the clear sky fits a sun
 * in best (clear-sky-search.ts: below a high sun the horizon's haze may clip white too, and
 * lit cloud beside it); a white part no larger than a clipped disk and enclosed by the blob
 * is the disk itself (`byDisk`). A blob with no white part is placed at its own centre, when
 * that lies inside it. Where no disk shows near the sun placed though one would clip there,
 * the blob is the glow of a hidden sun. A blob larger than MAX_SOLID_ANGLE is left alone.
 */
import { directionOfUv, elevationOfV, uOfDirection } from "../../api/panorama/panorama-directions.ts";
import { clippedDisk } from "./clipped-disk.ts";
import type { HdrPixels } from "./hdr-pixels.ts";
import { fourNeighbours, skyRows } from "./sun-candidates.ts";
import { atTop, SATURATED } from "./sun-measure.ts";

const DEG = Math.PI / 180;
/** Angular radius of the sun's disk. */
const SUN_RADIUS = 0.265 * DEG;
/** Least solid angle of a clipped sun: the sun's own disk, half a degree across. */
export const SUN_SOLID_ANGLE = Math.PI * SUN_RADIUS ** 2;
/**
 * Largest saturated blob flooded: a cap 30 degrees in radius. A larger one is far too wide
 * to place a sun in (detect-sun.ts places none in a blob wider than 3 degrees), and in an 8K
 * panorama it holds millions of pixels.
 */
const MAX_SOLID_ANGLE = 2 * Math.PI * (1 - Math.cos(30 * DEG));
/** Least angle from a blob's sun to its top (`rim`): half a 1K panorama's pixel row. */
const GRID = 0.5 * DEG;
/**
 * White parts of a blob weighed at most, the largest: a glow seen through foliage holds
 * hundreds. Chosen on the local renderer's skies clipped at 1.0: with 64, flecks of lit
 * cloud ranked below the eighth took two suns' place, 9 and 18 degrees off.
 */
const RANKED = 8;
/**
 * Largest radius (degrees) of a clipped disk placed by its own pixels (the sun is half a
 * degree across; at least 2.5 pixels): a larger clipped spot is a saturated blob, whose
 * aureole clips round the disk too.
 */
const CLIPPED_RADIUS_DEG = 1.15;
/**
 * Least ratio of the sun's disk to the sky beside it, in every channel: the local renderer's
 * is 100 or more, a real sun's thousands (the sky near the sun is lit by the same reddened
 * light the disk sends, a few thousandths of it).
 */
const DISK_CONTRAST = 100;
/** How far from a sun placed in a blob its disk may show: the recall's tolerance. */
const DISK_REACH = 2 * DEG;

/** The saturated pixels flooded so far in one panorama (each marked with its blob's number), and how many blobs. */
export interface FloodedBlobs {
  mask: Uint8Array;
  blobs: number;
  /** Whether a blob was larger than MAX_SOLID_ANGLE: clipped too widely to place a sun in. */
  tooLarge: boolean;
}

/** No pixel flooded yet. */
export function floodedBlobs(image: HdrPixels): FloodedBlobs {
  return { mask: new Uint8Array(image.width * skyRows(image.height)), blobs: 0, tooLarge: false };
}

/** A blob of saturated pixels and the sun placed in it. */
export interface SaturatedBlob {
  /** Unit vector towards the sun. */
  direction: [number, number, number];
  /** Share of the sun's disk that shows (clipped-disk.ts; 1 where the blob is larger than a disk). */
  visible: number;
  /** Whether the blob is no larger than a clipped disk: the disk itself, not its sky clipped around it. */
  isDisk: boolean;
  /** Whether the disk's own pixels place the sun (the blob is the disk, or holds it as a core clipped in every channel). */
  byDisk: boolean;
  /** Solid angle of the blob (steradians). */
  solidAngle: number;
  /** Angle (radians) from the sun up to the blob's top: where the sky above the sun falls to the clip level. */
  rim: number;
}

/**
 * The saturated blob holding pixel `seed`, and the sun placed in it.
 * @param image the panorama
 * @param seed index of a saturated pixel above the horizon
 * @param clip the image's largest channel value
 * @param cost the clear sky's cost of a sun in a direction (clear-sky-search.ts)
 * @param seen pixels of blobs flooded before (marked here too): a seed among them is in a blob already tried
 * @returns the blob with the sun's direction, or null when it is too large, its centre lies outside it, or it hides its disk
 */
export function placeInBlob(
  image: HdrPixels,
  seed: number,
  clip: number,
  cost: (direction: readonly number[]) => number,
  seen: FloodedBlobs = floodedBlobs(image),
): SaturatedBlob | null {
  const blob = floodBlob(image, seed, clip, seen);
  if (!blob || blob.solidAngle < SUN_SOLID_ANGLE) return null;
  const { width, height } = image;
  let first = height;
  let last = 0;
  for (const i of blob.pixels) {
    const y = Math.floor(i / width);
    first = Math.min(first, y);
    last = Math.max(last, y);
  }
  const top = elevationOfV(first / height);
  const rim = (d: readonly number[]) => Math.max(top - Math.asin(d[1]!), GRID);
  // A blob no larger than a clipped disk is the disk: its outline places it.
  if (blob.solidAngle <= clippedDiskSolidAngle(width)) {
    const disk = clippedDisk(image, blob.pixels);
    if (diskHidden(image, disk.direction, clip)) return null;
    return { ...disk, isDisk: true, byDisk: true, solidAngle: blob.solidAngle, rim: rim(disk.direction) };
  }
  const inBlob = (i: number) => seen.mask[i] === seen.blobs;
  // The sky clips in every channel nearest the sun: of the blob's parts clipped white, the one the clear sky fits a
  // sun in best holds it. A part no larger than a clipped disk, enclosed by the blob, is the disk itself.
  const parts = whiteParts(image, blob.pixels, inBlob, clip, last);
  const costs = parts.map((p) => cost(p.direction));
  const part = parts.length ? parts[costs.indexOf(Math.min(...costs))]! : null;
  const byDisk = part?.isCore ?? false;
  const direction = part?.direction ?? centreOf(blob.pixels, width, height).direction;
  if (!byDisk && (!holdsDisk(seen.mask, seen.blobs, width, height, direction) || diskHidden(image, direction, clip))) return null;
  return {
    direction,
    visible: 1,
    isDisk: false,
    byDisk,
    solidAngle: blob.solidAngle,
    rim: rim(direction),
  };
}

/** The mean direction of `pixels`, each weighted by its solid angle, and their solid angle (steradians). */
function centreOf(pixels: number[], width: number, height: number): { direction: [number, number, number]; solidAngle: number } {
  const cell = ((2 * Math.PI) / width) * (Math.PI / height);
  const d = new Float64Array(3);
  const sum = [0, 0, 0];
  let solidAngle = 0;
  for (const i of pixels) {
    const y = Math.floor(i / width);
    directionOfUv(((i % width) + 0.5) / width, (y + 0.5) / height, d);
    const w = cell * Math.cos(elevationOfV((y + 0.5) / height));
    for (let c = 0; c < 3; c++) sum[c]! += d[c]! * w;
    solidAngle += w;
  }
  const n = Math.hypot(sum[0]!, sum[1]!, sum[2]!);
  return { direction: [sum[0]! / n, sum[1]! / n, sum[2]! / n], solidAngle };
}

/** Solid angle of the largest clipped disk (CLIPPED_RADIUS_DEG) in a panorama `width` pixels wide. */
export function clippedDiskSolidAngle(width: number): number {
  const radius = Math.max(CLIPPED_RADIUS_DEG * DEG, (2.5 * 2 * Math.PI) / width);
  return Math.PI * radius * radius;
}

/** A 4-connected part of a blob clipped in every channel. */
interface WhitePart {
  /** Its centre: the mean of its pixels' directions, weighted by solid angle. */
  direction: [number, number, number];
  /**
   * Whether it is the sun's disk inside a coloured blob: no larger than a clipped disk and
   * enclosed by the blob (a white patch on its rim is sky). The disk outshines the sky around
   * it a hundredfold or more in every channel, so where that sky clips in two channels the
   * disk clips in the third too. Rows from the blob's lowest down count as enclosing it:
   * there the horizon's haze under a low sun clips in fewer channels than the blob.
   */
  isCore: boolean;
}

/** The parts of a blob clipped in every channel (`foot` its lowest row), the RANKED largest. */
function whiteParts(image: HdrPixels, blob: number[], inBlob: (i: number) => boolean, clip: number, foot: number): WhitePart[] {
  const { width, height, rgb } = image;
  const level = SATURATED * clip;
  const white = (i: number) => clipsWhite(rgb, i, level);
  const dark = (i: number) => isTerrain(rgb, i, clip);
  const largest = clippedDiskSolidAngle(width);
  // The least a clipped disk covers: the pixels its diameter spans at the least, squared (2 x 2 in a 1K panorama).
  const pixel = (2 * Math.PI) / width;
  const least = (Math.ceil((2 * SUN_RADIUS) / pixel) * pixel) ** 2;
  // A byte per pixel, not a set: a blob in an 8K panorama holds millions of pixels.
  const done = new Uint8Array(width * height);
  const out: (WhitePart & { solidAngle: number })[] = [];
  for (const seed of blob) {
    if (done[seed] || !white(seed)) continue;
    done[seed] = 1;
    const stack = [seed];
    const pixels: number[] = [];
    let enclosed = true;
    while (stack.length) {
      const i = stack.pop()!;
      pixels.push(i);
      for (const j of fourNeighbours(i, width, height)) {
        // Right below it, or beside it at the blob's foot, the horizon's haze may clip in fewer channels than the
        // blob: a low sun's core may touch it.
        if (j < 0 || (!inBlob(j) && !dark(j) && j !== i + width && j < foot * width)) enclosed = false;
        else if (!done[j] && white(j)) {
          done[j] = 1;
          stack.push(j);
        }
      }
    }
    const { direction, solidAngle } = centreOf(pixels, width, height);
    if (solidAngle >= least) out.push({ direction, isCore: enclosed && solidAngle <= largest, solidAngle });
  }
  return out.sort((a, b) => b.solidAngle - a.solidAngle).slice(0, RANKED);
}

/**
 * Whether no disk shows near a sun placed without it: no pixel within DISK_REACH of it
 * clips in every channel, though the weakest channel of the sky there is above clip /
 * DISK_CONTRAST (a disk that much brighter than its sky would clip in it). A glow clipped
 * above a ridge or a cloud that hides the sun.
 */
function diskHidden(image: HdrPixels, direction: readonly number[], clip: number): boolean {
  const { width, height, rgb } = image;
  const level = SATURATED * clip;
  const x0 = Math.floor(uOfDirection(direction[0]!, direction[2]!) * width);
  const y0 = Math.floor((0.5 - Math.asin(direction[1]!) / Math.PI) * height);
  const at = (y0 * width + x0) * 3;
  if (Math.min(rgb[at]!, rgb[at + 1]!, rgb[at + 2]!) * DISK_CONTRAST < clip) return false;
  const reach = Math.ceil((DISK_REACH / Math.PI) * height);
  const cosReach = Math.cos(DISK_REACH);
  const d = new Float64Array(3);
  for (let y = Math.max(0, y0 - reach); y <= Math.min(skyRows(height) - 1, y0 + reach); y++) {
    const across = Math.ceil(reach / Math.max(Math.cos(elevationOfV((y + 0.5) / height)), 0.05));
    for (let k = -across; k <= across; k++) {
      const x = (((x0 + k) % width) + width) % width;
      directionOfUv((x + 0.5) / width, (y + 0.5) / height, d);
      if (d[0]! * direction[0]! + d[1]! * direction[1]! + d[2]! * direction[2]! >= cosReach && clipsWhite(rgb, y * width + x, level))
        return false;
    }
  }
  return true;
}

/** Whether pixel i reaches `level` in every channel. */
function clipsWhite(rgb: Float32Array, i: number, level: number): boolean {
  return rgb[i * 3]! >= level && rgb[i * 3 + 1]! >= level && rgb[i * 3 + 2]! >= level;
}

/** Whether the pixel towards `direction`, and its four neighbours, are in blob `id` of `mask`. */
function holdsDisk(mask: Uint8Array, id: number, width: number, height: number, direction: readonly number[]): boolean {
  const x = Math.floor(uOfDirection(direction[0]!, direction[2]!) * width) % width;
  const y = Math.floor((0.5 - Math.asin(direction[1]!) / Math.PI) * height);
  if (y < 0 || y * width >= mask.length) return false;
  const at = y * width + x;
  return mask[at] === id && fourNeighbours(at, width, height).every((i) => i >= 0 && mask[i] === id);
}

/** The 4-connected saturated pixels above the horizon holding `seed` (columns wrap), or null past MAX_SOLID_ANGLE. */
function floodBlob(image: HdrPixels, seed: number, clip: number, seen: FloodedBlobs): { pixels: number[]; solidAngle: number } | null {
  const { width, height, rgb } = image;
  const rows = skyRows(height);
  const level = SATURATED * clip;
  const mask = seen.mask;
  if (mask[seed] || !atTop(rgb, seed, level)) return null;
  const cell = ((2 * Math.PI) / width) * (Math.PI / height);
  const id = ++seen.blobs;
  mask[seed] = id;
  const stack = [seed];
  const pixels: number[] = [];
  let solidAngle = 0;
  while (stack.length) {
    const i = stack.pop()!;
    pixels.push(i);
    const y = Math.floor(i / width);
    solidAngle += cell * Math.cos(elevationOfV((y + 0.5) / height));
    if (solidAngle > MAX_SOLID_ANGLE) return tooLarge(seen);
    for (const j of fourNeighbours(i, width, rows)) {
      if (j < 0 || mask[j] === id || !atTop(rgb, j, level)) continue;
      // Saturated pixels flooded before belong to a blob refused as too large: this is the rest of it.
      if (mask[j]) return tooLarge(seen);
      mask[j] = id;
      stack.push(j);
    }
  }
  return { pixels, solidAngle };
}

/** Marks that a blob was refused as larger than MAX_SOLID_ANGLE. */
function tooLarge(seen: FloodedBlobs): null {
  seen.tooLarge = true;
  return null;
}

/**
 * Whether pixel i of a sky clipped at `clip`, just outside a saturated blob, is terrain in
 * front of the blob's sky: the sky there still clips in one channel or nearly, terrain is far
 * below that in every channel (under half the clip level).
 */
function isTerrain(rgb: Float32Array, i: number, clip: number): boolean {
  return Math.max(rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!) < clip / 2;
}
