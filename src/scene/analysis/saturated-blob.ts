/**
 * Where the sun stands in a saturated blob: in an HDRI made from an 8-bit picture the sky
 * around the sun clips too, and no compact disk is left, only a blob of pixels at the
 * image's largest value. Its edge is a line of equal radiance, not a circle round the sun:
 * the sky brightens towards the horizon as well as towards the sun. So the sun is placed
 * from the unclipped sky around the blob, which holds how the radiance falls off:
 * - its azimuth is the median midpoint of the blob's rows: a sky is mirror-symmetric about the vertical
 *   plane through the sun (every clear-sky model depends on the view's elevation and its
 *   angle to the sun only);
 * - its elevation is the one that best explains the sky's radiance around the blob, in red
 *   and in green, as a product of a function of the angle to the sun (the aureole, any
 *   shape: one value per degree) and a smooth function of the view's elevation (the
 *   brightening towards the horizon: one value per degree). Single scattering in a thin
 *   atmosphere has this form. Tried every degree across the blob, then every quarter around
 *   the best;
 * - but where the blob is coloured (its sky clips in two channels) and the disk shows inside
 *   it as a core clipped in all three, the disk places the sun (the sky's fit near the
 *   horizon barely says how high a low sun stands); and where no disk shows near the fitted
 *   sun though one would clip there, the blob is the glow of a hidden sun.
 * A blob whose sky does not fall off away from its sun (snow, a lit cloud bank) is not a
 * sun; one too large to place the sun within a degree or two is left alone.
 */
import { directionOfUv, elevationOfV, uOfDirection } from "../../api/panorama/panorama-directions.ts";
import { clippedDisk } from "./clipped-disk.ts";
import type { HdrPixels } from "./hdr-pixels.ts";
import { perezCircumsolar, perezCoefficients } from "./preetham.ts";
import { fourNeighbours, skyRows } from "./sun-candidates.ts";
import { nthSmallest } from "./nth-smallest.ts";
import { atTop, SATURATED } from "./sun-measure.ts";

const DEG = Math.PI / 180;
/** Angular radius of the sun's disk. */
const SUN_RADIUS = 0.265 * DEG;
/** Least solid angle of a clipped sun: the sun's own disk, half a degree across. */
export const SUN_SOLID_ANGLE = Math.PI * SUN_RADIUS ** 2;
/**
 * Least share of a clear sky's fall-off the sky around a blob must show: Preetham's sky at
 * turbidity 2 to 6 is 1.8 to 2 times brighter 5 degrees from the sun than 30 degrees from
 * it at the same elevation; around snow or a lit cloud the sky does not brighten.
 */
const FALL_OFF_SHARE = 0.5;
const FALL_OFF_TURBIDITY = 2;
/** Reach of the fitted sky beyond the blob. */
const WINDOW = 30 * DEG;
/** Spacing of the fitted samples, and the width of a bin of the aureole and of the elevation term (90 bins each). */
const SPACING = 1 * DEG;
const BANDS = 90;
/**
 * The channels fitted (red, green), each with its own aureole and elevation term. In a blue
 * sky red clips last, nearest the sun, and shows the aureole most: Mie scattering is grey
 * and Rayleigh's, which has no forward peak, is weakest in red. In a sunset's red sky green
 * is left. Blue is not fitted: Rayleigh scattering rules it, so its aureole is the weakest,
 * and at sunset the sky's blue brightens away from the sun.
 */
const CHANNELS = [0, 1];
/** Bins of one channel's terms: its aureole's and its elevation term's are offset by channel * BANDS. */
const CHANNEL_BINS = 3 * BANDS;
/** Lattice points across the panorama on which the blob's rim is read (a 1K panorama's pixels). */
const RIM_LATTICE = 1024;
/** Rounds of the alternating fit (it converges in a few). */
const ITERATIONS = 8;
/**
 * Largest saturated blob placed: the cap of the fitted window. A larger one leaves too
 * little unclipped sky around the sun to show its fall-off (the sky itself clips).
 */
const MAX_SOLID_ANGLE = 2 * Math.PI * (1 - Math.cos(WINDOW));
const GRID = 0.5 * DEG;
/**
 * Largest radius (degrees) of a clipped disk placed by its own pixels (the sun is half a
 * degree across; at least 2.5 pixels): a larger clipped spot is a saturated blob, whose
 * aureole clips round the disk too.
 */
const CLIPPED_RADIUS_DEG = 1.15;
/** Samples below this elevation are left out (the horizon's haze and terrain). */
const MIN_ELEVATION = 1 * DEG;
/**
 * Largest ratio of the fit's cost at a disk core to its least cost: the 99% point of the F
 * distribution for two fits of the fewest samples a fit takes (90 each).
 */
const SAME_FIT = 2;
/**
 * Least ratio of the sun's disk to the sky beside it, in every channel: the local renderer's
 * is 100 or more, a real sun's thousands (the sky near the sun is lit by the same reddened
 * light the disk sends, a few thousandths of it).
 */
const DISK_CONTRAST = 100;
/** How far from a sun placed by the sky's fit its disk may show: the recall's tolerance. */
const DISK_REACH = 2 * DEG;
/** Residuals beyond this many times their median are terrain or cloud, left out of the refit. */
const OUTLIER = 3;
/**
 * Terrain standing above the horizon (hills, canyon walls, ridges) is left out before the
 * fit: a sample darker than 1/TERRAIN_DARKNESS of the TERRAIN_QUANTILE of its channel's
 * samples at its elevation. Within the fitted window a clear sky at one elevation varies
 * with the angle to the sun by 2 to 3.5 times in red and green (single scattering with
 * Mie's g = 0.76, 3 against 30 degrees from the sun); sunlit rock and hills are an order of
 * magnitude darker than the sky behind them. Left in, terrain skews the first fit, from
 * which the outliers are judged, and the sun's elevation with it: a sun over hills or
 * canyons lands degrees off, or is not found.
 */
const TERRAIN_DARKNESS = 8;
const TERRAIN_QUANTILE = 0.9;

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
  /** The blob's pixel indices. */
  pixels: number[];
  /** Solid angle of the blob (steradians). */
  solidAngle: number;
  /** Angle (radians) from the sun up to the blob's top: where the sky above the sun falls to the clip level. */
  rim: number;
  /** Elevations (radians) of the blob's lowest and highest edges. */
  foot: number;
  top: number;
}

/**
 * The saturated blob holding pixel `seed`, and the sun placed in it.
 * @param image the panorama
 * @param seed index of a saturated pixel above the horizon
 * @param clip the image's largest channel value
 * @param seen pixels of blobs flooded before (marked here too): a seed among them is in a blob already tried
 * @returns the blob with the sun's direction, or null when it is too large or its sky does not fall off around it
 */
export function placeInBlob(image: HdrPixels, seed: number, clip: number, seen: FloodedBlobs = floodedBlobs(image)): SaturatedBlob | null {
  const blob = floodBlob(image, seed, clip, seen);
  if (!blob || blob.solidAngle < SUN_SOLID_ANGLE) return null;
  const { width, height } = image;
  const u = symmetryU(image, blob.pixels, clip);
  let first = height;
  let last = 0;
  for (const i of blob.pixels) {
    const y = Math.floor(i / width);
    first = Math.min(first, y);
    last = Math.max(last, y);
  }
  const top = elevationOfV(first / height);
  const bottom = Math.max(MIN_ELEVATION / 2, elevationOfV((last + 1) / height));
  const samples = skyAround(image, blob.pixels, (i) => seen.mask[i] === seen.blobs, u, (top + bottom) / 2, (top - bottom) / 2, clip);
  const rim = (d: readonly number[]) => Math.max(top - Math.asin(d[1]!), GRID);
  // A blob no larger than a clipped disk is the disk: its outline places it more closely than the sky's fit, when
  // the sky falls off around it there.
  if (blob.solidAngle <= clippedDiskSolidAngle(width)) {
    const disk = clippedDisk(image, blob.pixels);
    if (
      !profileFit(samples, uOfDirection(disk.direction[0], disk.direction[2]), Math.asin(disk.direction[1])).fallsOff ||
      diskHidden(image, disk.direction, clip)
    )
      return null;
    return {
      ...disk,
      isDisk: true,
      byDisk: true,
      pixels: blob.pixels,
      solidAngle: blob.solidAngle,
      rim: rim(disk.direction),
      foot: bottom,
      top,
    };
  }
  // Only a sun whose sky falls off around it is a candidate: lower down, a clipped horizon band explains the sky as well.
  // And only one whose disk the blob holds (a sun clips before its aureole), with the pixels around it when the
  // aureole clips too: a glow clipped above a ridge has its sun below it, behind the ridge.
  const inside = (e: number) => holdsDisk(seen.mask, seen.blobs, width, height, u, e, blob.solidAngle > clippedDiskSolidAngle(width));
  let best = { elevation: bottom, cost: Infinity };
  const tryAt = (e: number) => {
    if (!inside(e)) return;
    const fit = profileFit(samples, u, e);
    if (fit.fallsOff && fit.cost < best.cost) best = { elevation: e, cost: fit.cost };
  };
  // Every degree, at least four times across the blob's rows, then every quarter degree around the best.
  const step = Math.min(2 * GRID, (top - bottom) / 4);
  for (let e = bottom; e <= top; e += step) tryAt(e);
  if (best.cost === Infinity) return null;
  const coarse = best.elevation;
  for (let e = coarse - step; e <= coarse + step; e += Math.min(step, GRID) / 2) if (e >= bottom && e <= top) tryAt(e);
  const direction: [number, number, number] = [0, 0, 0];
  directionOfUv(u, 0.5 - best.elevation / Math.PI, direction);
  // Its disk, where it shows as a core clipped in every channel inside a blob clipped in two, places the sun more
  // closely than the sky's fit, when the sky fits about as well around it (a white fleck of paint in the glow does not).
  const fitAt = (d: readonly number[]) => profileFit(samples, uOfDirection(d[0]!, d[2]!), Math.asin(d[1]!)).cost;
  const core = bestOf(
    diskCores(image, blob.pixels, (i) => seen.mask[i] === seen.blobs, clip, last),
    fitAt,
  );
  const byDisk = core !== null && fitAt(core) <= SAME_FIT * best.cost;
  if (byDisk) direction.splice(0, 3, ...core);
  else if (diskHidden(image, direction, clip)) return null;
  return {
    direction,
    visible: 1,
    isDisk: false,
    byDisk,
    pixels: blob.pixels,
    solidAngle: blob.solidAngle,
    rim: rim(direction),
    foot: bottom,
    top,
  };
}

/** Solid angle of the largest clipped disk (CLIPPED_RADIUS_DEG) in a panorama `width` pixels wide. */
export function clippedDiskSolidAngle(width: number): number {
  const radius = Math.max(CLIPPED_RADIUS_DEG * DEG, (2.5 * 2 * Math.PI) / width);
  return Math.PI * radius * radius;
}

/**
 * The sun's disk inside a coloured blob: the disk outshines the sky around it a hundredfold
 * or more in every channel, so where that sky clips in two channels the disk clips in the
 * third too. Each 4-connected run of pixels clipped in all three, no larger than a clipped
 * disk and enclosed by the blob (a white patch on its rim is sky), gives the direction of
 * its centre (the mean of its pixels' directions, weighted by solid angle). Rows from `foot`
 * (the blob's lowest) down count as enclosing it: there the horizon's haze under a low sun
 * clips in fewer channels than the blob.
 */
function diskCores(
  image: HdrPixels,
  blob: number[],
  inBlob: (i: number) => boolean,
  clip: number,
  foot: number,
): [number, number, number][] {
  const { width, height, rgb } = image;
  const level = SATURATED * clip;
  const white = (i: number) => clipsWhite(rgb, i, level);
  const dark = (i: number) => isTerrain(rgb, i, clip);
  const largest = clippedDiskSolidAngle(width);
  // The least a clipped disk covers: the pixels its diameter spans at the least, squared (2 x 2 in a 1K panorama).
  const pixel = (2 * Math.PI) / width;
  const least = (Math.ceil((2 * SUN_RADIUS) / pixel) * pixel) ** 2;
  const cell = ((2 * Math.PI) / width) * (Math.PI / height);
  // A byte per pixel, not a set: a blob in an 8K panorama holds millions of pixels.
  const done = new Uint8Array(width * height);
  const d = new Float64Array(3);
  const out: [number, number, number][] = [];
  for (const seed of blob) {
    if (done[seed] || !white(seed)) continue;
    done[seed] = 1;
    const stack = [seed];
    const sum = [0, 0, 0];
    let solidAngle = 0;
    let enclosed = true;
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % width;
      const y = Math.floor(i / width);
      directionOfUv((x + 0.5) / width, (y + 0.5) / height, d);
      const w = cell * Math.cos(elevationOfV((y + 0.5) / height));
      solidAngle += w;
      for (let c = 0; c < 3; c++) sum[c]! += d[c]! * w;
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
    if (!enclosed || solidAngle > largest || solidAngle < least) continue;
    const norm = Math.hypot(sum[0]!, sum[1]!, sum[2]!);
    out.push([sum[0]! / norm, sum[1]! / norm, sum[2]! / norm]);
  }
  return out;
}

/**
 * Whether no disk shows near a sun placed by the sky's fit: no pixel within DISK_REACH of it
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

/** The item of least cost, or null when there is none. */
function bestOf<T>(items: T[], cost: (item: T) => number): T | null {
  const costs = items.map(cost);
  return items.length ? items[costs.indexOf(Math.min(...costs))]! : null;
}

/** Whether the pixel at (u, elevation) is in blob `id` of `mask`, and with `aureole` its four neighbours too. */
function holdsDisk(mask: Uint8Array, id: number, width: number, height: number, u: number, elevation: number, aureole: boolean): boolean {
  const x = Math.floor(u * width) % width;
  const y = Math.floor((0.5 - elevation / Math.PI) * height);
  if (y < 0 || y * width >= mask.length) return false;
  const at = y * width + x;
  return mask[at] === id && (!aureole || fourNeighbours(at, width, height).every((i) => i >= 0 && mask[i] === id));
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

/**
 * The u of the vertical the blob is mirror-symmetric about: the median midpoint of its
 * rows' runs, from its top row down, each row's run the one under the last midpoint. A
 * clipped horizon band merged with the sun's blob is symmetric about the sun's vertical too
 * (its forward scattering peaks there); a row the band fills all round says nothing. Only
 * rows whose run ends in sky at both ends count, when there are any: a ridge or a peak in
 * front of the glow cuts its rows on one side, and the midpoints of cut rows move away from
 * the sun's vertical by degrees.
 */
function symmetryU(image: HdrPixels, pixels: number[], clip: number): number {
  const { width, rgb } = image;
  const sky = (y: number, x: number) => !isTerrain(rgb, y * width + ((x + width) % width), clip);
  const all: number[] = [];
  const byRow = new Map<number, number[]>();
  for (const i of pixels) {
    const y = Math.floor(i / width);
    let row = byRow.get(y);
    if (!row) byRow.set(y, (row = []));
    row.push(i % width);
  }
  const midpoints: number[] = [];
  let at: number | null = null;
  for (const y of [...byRow.keys()].sort((a, b) => a - b)) {
    const runs = rowRuns(byRow.get(y)!, width);
    if (!runs.length) break;
    const run: Run =
      at === null
        ? runs.reduce((a, b) => (b.length > a.length ? b : a))
        : (runs.find((r) => covers(r, at!, width)) ?? nearestRun(runs, at, width));
    at = (run.start + (run.length - 1) / 2) % width;
    all.push(at);
    if (sky(y, run.start - 1) && sky(y, (run.start + run.length) % width)) midpoints.push(at);
  }
  if (!midpoints.length) midpoints.push(...all);
  // Midpoints as offsets from the first (seamless across u = 0), their median.
  const first = midpoints[0]!;
  const offsets = midpoints.map((m) => ((m - first + 1.5 * width) % width) - width / 2).sort((a, b) => a - b);
  const x = first + offsets[offsets.length >> 1]!;
  return ((((x + 0.5) / width) % 1) + 1) % 1;
}

/** A run of saturated pixels along a row: its first column and length (it may wrap past the last column). */
interface Run {
  start: number;
  length: number;
}

/** The runs of a row's saturated columns; none when they fill the row. */
function rowRuns(columns: number[], width: number): Run[] {
  if (columns.length >= width) return [];
  const on = new Uint8Array(width);
  for (const x of columns) on[x] = 1;
  // Start after an unsaturated column, so a run across the seam is one run.
  const gap = on.indexOf(0);
  const runs: Run[] = [];
  for (let k = 1; k <= width; k++) {
    const x = (gap + k) % width;
    if (!on[x]) continue;
    const last = runs[runs.length - 1];
    if (last && (last.start + last.length) % width === x) last.length++;
    else runs.push({ start: x, length: 1 });
  }
  return runs;
}

function covers(run: Run, x: number, width: number): boolean {
  return (x - run.start + width) % width < run.length;
}

function nearestRun(runs: Run[], x: number, width: number): Run {
  const distance = (r: Run) => {
    const d = Math.abs(r.start + (r.length - 1) / 2 - x) % width;
    return Math.min(d, width - d);
  };
  return runs.reduce((a, b) => (distance(b) < distance(a) ? b : a));
}

/** Sky samples, one per unclipped channel of CHANNELS: direction, elevation bin (offset by channel * BANDS: it holds the channel), log value. */
interface Samples {
  direction: Float64Array;
  band: Int32Array;
  logValue: Float64Array;
}

/** Samples as they are gathered, before the terrain is left out. */
interface Gathered {
  direction: number[];
  band: number[];
  logValue: number[];
}

/**
 * The sky around the blob: a sample every SPACING within WINDOW of its reach, and every
 * pixel on its rim (where the sky falls to the clip level: the contour that holds the sun's
 * place), in each channel of CHANNELS where it is not clipped (luminance would be clipped
 * wherever one channel is).
 */
function skyAround(
  image: HdrPixels,
  blob: number[],
  inBlob: (i: number) => boolean,
  u: number,
  elevation: number,
  halfSpan: number,
  clip: number,
): Samples {
  const { width, height, rgb } = image;
  const out: Gathered = { direction: [], band: [], logValue: [] };
  const level = SATURATED * clip;
  const d = new Float64Array(3);
  const add = (x: number, y: number) => {
    const e = elevationOfV((y + 0.5) / height);
    if (e < MIN_ELEVATION) return;
    directionOfUv((x + 0.5) / width, (y + 0.5) / height, d);
    for (const c of CHANNELS) {
      const value = rgb[(y * width + x) * 3 + c]!;
      if (!(value > 0) || value >= level) continue;
      out.direction.push(d[0]!, d[1]!, d[2]!);
      out.band.push(c * BANDS + Math.min(BANDS - 1, Math.floor(e / SPACING)));
      out.logValue.push(Math.log(value));
    }
  };
  const centre = new Float64Array(3);
  directionOfUv(u, 0.5 - elevation / Math.PI, centre);
  const cosWindow = Math.cos(WINDOW + halfSpan);
  const rowStep = Math.max(1, Math.round((SPACING / Math.PI) * height));
  for (let y = Math.floor(rowStep / 2); y < skyRows(height); y += rowStep) {
    const e = elevationOfV((y + 0.5) / height);
    if (Math.abs(e - elevation) > WINDOW + halfSpan) continue;
    const colStep = Math.max(1, Math.round(((SPACING / (2 * Math.PI)) * width) / Math.max(Math.cos(e), 0.05)));
    for (let x = 0; x < width; x += colStep) {
      directionOfUv((x + 0.5) / width, (y + 0.5) / height, d);
      if (d[0]! * centre[0]! + d[1]! * centre[1]! + d[2]! * centre[2]! >= cosWindow) add(x, y);
    }
  }
  // The rim on a lattice as fine as a 1K panorama's pixels, so that it weighs as much against the grid at every size.
  const k = Math.max(1, Math.round(width / RIM_LATTICE));
  const rows = skyRows(height);
  const rim = new Set<number>();
  for (const i of blob) {
    const x = i % width;
    const y = Math.floor(i / width);
    if (x % k || y % k) continue;
    const next = [
      y * width + ((x + k) % width),
      y * width + ((x + width - k) % width),
      y >= k ? i - k * width : -1,
      y + k < rows ? i + k * width : -1,
    ];
    for (const j of next) if (j >= 0 && !inBlob(j)) rim.add(j);
  }
  for (const j of rim) add(j % width, Math.floor(j / width));
  return withoutTerrain(out);
}

/**
 * The samples without those far darker than the sky at their elevation in their channel
 * (TERRAIN_DARKNESS), in typed arrays: the search reads them some thirty times.
 */
function withoutTerrain(s: Gathered): Samples {
  const byBand = new Map<number, number[]>();
  s.band.forEach((b, k) => {
    let values = byBand.get(b);
    if (!values) byBand.set(b, (values = []));
    values.push(s.logValue[k]!);
  });
  const floor = new Map<number, number>();
  for (const [b, values] of byBand) {
    const sorted = Float64Array.from(values).sort();
    floor.set(b, sorted[Math.min(sorted.length - 1, Math.floor(TERRAIN_QUANTILE * sorted.length))]! - Math.log(TERRAIN_DARKNESS));
  }
  const out: Gathered = { direction: [], band: [], logValue: [] };
  s.band.forEach((b, k) => {
    if (s.logValue[k]! < floor.get(b)!) return;
    out.direction.push(s.direction[k * 3]!, s.direction[k * 3 + 1]!, s.direction[k * 3 + 2]!);
    out.band.push(b);
    out.logValue.push(s.logValue[k]!);
  });
  return { direction: Float64Array.from(out.direction), band: Int32Array.from(out.band), logValue: Float64Array.from(out.logValue) };
}

/**
 * Least squares of each channel's log value = aureole[bin of the angle to the sun] +
 * horizon[bin of the view's elevation] (both one value per SPACING and channel, any shape:
 * the two factors of single scattering) for a sun at (u, elevation), by alternating means,
 * refitted once without the outliers (terrain, clouds). Returns the mean squared residual of
 * the kept samples, and whether a channel's fitted aureole falls off: its nearest bin
 * brighter than its farthest.
 */
function profileFit(s: Samples, u: number, elevation: number): { cost: number; fallsOff: boolean } {
  const sun = new Float64Array(3);
  directionOfUv(u, 0.5 - elevation / Math.PI, sun);
  const n = s.logValue.length;
  if (n < 3 * (WINDOW / SPACING)) return { cost: Infinity, fallsOff: false };
  const bins = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const cos = s.direction[k * 3]! * sun[0]! + s.direction[k * 3 + 1]! * sun[1]! + s.direction[k * 3 + 2]! * sun[2]!;
    // The sample's band starts at its channel's offset: its aureole bin starts there too.
    bins[k] = s.band[k]! - (s.band[k]! % BANDS) + Math.min(BANDS - 1, Math.floor(Math.acos(Math.min(1, cos)) / SPACING));
  }
  const keep = new Uint8Array(n).fill(1);
  let fit = solveProfile(bins, s.band, s.logValue, keep);
  const size = new Float64Array(n);
  for (let k = 0; k < n; k++) size[k] = Math.abs(fit.residuals[k]!);
  const spread = nthSmallest(size, n >> 1);
  for (let k = 0; k < n; k++) keep[k] = Math.abs(fit.residuals[k]!) <= OUTLIER * spread + 1e-6 ? 1 : 0;
  fit = solveProfile(bins, s.band, s.logValue, keep);
  let sum = 0;
  let kept = 0;
  for (let k = 0; k < n; k++) {
    if (!keep[k]) continue;
    sum += fit.residuals[k]! ** 2;
    kept++;
  }
  return { cost: kept ? sum / kept : Infinity, fallsOff: CHANNELS.some((c) => fallsOff(fit.aureole, fit.counts, c)) };
}

/** Whether channel c's fitted aureole falls off: its nearest filled bin brighter than its farthest by FALL_OFF_SHARE of a clear sky's fall-off. */
function fallsOff(aureole: Float64Array, counts: Int32Array, c: number): boolean {
  let near = -1;
  let far = -1;
  for (let b = 0; b < BANDS; b++) {
    if (!counts[c * BANDS + b]) continue;
    if (near < 0) near = b;
    far = b;
  }
  if (far <= near) return false;
  const angle = (b: number) => (b + 0.5) * SPACING;
  const clear = Math.log(circumsolar(angle(near)) / circumsolar(angle(far)));
  return aureole[c * BANDS + near]! - aureole[c * BANDS + far]! >= FALL_OFF_SHARE * clear;
}

/** The part of Preetham's sky (Perez) that depends on the angle to the sun, at FALL_OFF_TURBIDITY. */
function circumsolar(gamma: number): number {
  return perezCircumsolar(perezCoefficients(FALL_OFF_TURBIDITY), gamma, Math.cos(gamma));
}

/**
 * The two-way fit by alternating means (backfitting): each factor the mean of what the other
 * leaves. Each mean only needs the kept samples' count and sum of log values in each cell of
 * the (aureole bin, elevation band) table, so the passes run over its filled cells: a third
 * as many as the samples, or fewer.
 */
function solveProfile(
  bins: Int32Array,
  bands: Int32Array,
  logValue: Float64Array,
  keep: Uint8Array,
): { aureole: Float64Array; counts: Int32Array; residuals: Float64Array } {
  const table = profileTable(bins, bands, logValue, keep);
  const aureole = new Float64Array(CHANNEL_BINS);
  const horizon = new Float64Array(CHANNEL_BINS);
  // Samples per aureole bin and per elevation band: the same in every pass.
  const counts = new Int32Array(CHANNEL_BINS);
  const bandCounts = new Int32Array(CHANNEL_BINS);
  for (let c = 0; c < table.cells; c++) {
    counts[table.bin[c]!]! += table.count[c]!;
    bandCounts[table.band[c]!]! += table.count[c]!;
  }
  const sum = new Float64Array(CHANNEL_BINS);
  const pass = (into: Float64Array, by: Int32Array, count: Int32Array, other: Float64Array, otherBy: Int32Array) => {
    sum.fill(0);
    for (let c = 0; c < table.cells; c++) sum[by[c]!]! += table.sum[c]! - table.count[c]! * other[otherBy[c]!]!;
    for (let b = 0; b < CHANNEL_BINS; b++) into[b] = count[b]! ? sum[b]! / count[b]! : 0;
  };
  // The elevation term first: the aureole explains only what a sky brightening towards the horizon leaves.
  for (let i = 0; i < ITERATIONS; i++) {
    pass(horizon, table.band, bandCounts, aureole, table.bin);
    pass(aureole, table.bin, counts, horizon, table.band);
  }
  const residuals = new Float64Array(logValue.length);
  for (let k = 0; k < logValue.length; k++) residuals[k] = logValue[k]! - aureole[bins[k]!]! - horizon[bands[k]!]!;
  return { aureole, counts, residuals };
}

/** The kept samples gathered by (aureole bin, elevation band): each filled cell's bin, band, count and sum of log values. */
function profileTable(bins: Int32Array, bands: Int32Array, logValue: Float64Array, keep: Uint8Array) {
  // A bin and a band of one sample hold the same channel: the band within its channel completes the key.
  const slot = new Int32Array(CHANNEL_BINS * BANDS).fill(-1);
  const bin = new Int32Array(logValue.length);
  const band = new Int32Array(logValue.length);
  const count = new Int32Array(logValue.length);
  const sum = new Float64Array(logValue.length);
  let cells = 0;
  for (let k = 0; k < logValue.length; k++) {
    if (!keep[k]) continue;
    const key = bins[k]! * BANDS + (bands[k]! % BANDS);
    let c = slot[key]!;
    if (c < 0) {
      c = slot[key] = cells++;
      bin[c] = bins[k]!;
      band[c] = bands[k]!;
    }
    count[c]!++;
    sum[c]! += logValue[k]!;
  }
  return { cells, bin, band, count, sum };
}
