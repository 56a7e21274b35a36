/**
 * Where a clipped disk's centre is, and how much of it shows, from the shape of its clipped
 * pixels: every pixel the disk reaches is flat at the clip level, so only the outline is
 * left. A whole disk is placed at the mean of its pixels. A disk cut by something dark in
 * front of it (a ridge, trees, a dark cloud: pixels far darker than the sky around the disk)
 * is placed by the circle its uncut rows outline, and the share of its light that shows is
 * the share of that circle's pixels not dark (the disk is about evenly bright): a low sun half
 * behind a forest shows the top of its disk only, whose mean lies well above its centre and
 * which carries a part of the sun the sky's fit (sky-fit.ts) predicts whole.
 */
import { directionOfUv } from "../../api/panorama/panorama-directions.ts";
import type { HdrPixels } from "./hdr-pixels.ts";
import { fourNeighbours, luminanceAt } from "./sun-candidates.ts";

/** A pixel beside the disk this much darker than the sky around it is in front of the disk. */
const DARK = 0.2;

/** A clipped disk: the direction of its centre and the share of it that shows. */
export interface ClippedDisk {
  direction: [number, number, number];
  /** Share of the disk's light not hidden (1: a whole disk). */
  visible: number;
}

/** A row of the disk: its pixel row, and its first and last column as offsets from the disk's first pixel. */
interface DiskRow {
  y: number;
  first: number;
  last: number;
  count: number;
  /** Whether something dark stands at either end of it. */
  cut: boolean;
}

/**
 * The clipped disk made of `pixels` (indices of one compact group of clipped pixels).
 * @param image the panorama
 * @param pixels the disk's clipped pixels
 */
export function clippedDisk(image: HdrPixels, pixels: readonly number[]): ClippedDisk {
  const { width, height } = image;
  const x0 = pixels[0]! % width;
  const offset = (x: number) => ((x - x0 + width + width / 2) % width) - width / 2;
  const at: PixelAt = (y, x) => y * width + ((((x0 + x) % width) + width) % width);
  const rows = diskRows(pixels, width, offset);
  const dark = darkTest(image, rows, at);
  for (const row of rows) row.cut = dark(at(row.y, row.first - 1)) || dark(at(row.y, row.last + 1));
  const inDisk = new Set(pixels);
  const cut = pixels.some((i) => fourNeighbours(i, width, height).some((j) => j >= 0 && !inDisk.has(j) && dark(j)));
  // Columns are narrower than rows by the cosine of the elevation (an equirectangular pixel).
  const squeeze = ((2 * height) / width) * Math.cos(Math.PI * (0.5 - mean(rows.map((r) => r.y + 0.5)) / height));
  const whole = rows.filter((r) => !r.cut && r.count === r.last - r.first + 1);
  const circle = cut ? outline(whole, squeeze) : null;
  const direction: [number, number, number] = [0, 0, 0];
  if (!circle) {
    // Whole (or too cut to outline): the mean of its pixels.
    const cx = mean(pixels.map((i) => offset(i % width) + 0.5));
    directionOfUv(uOf(x0 + cx, width), mean(pixels.map((i) => Math.floor(i / width) + 0.5)) / height, direction);
    return { direction, visible: 1 };
  }
  const cx = mean(whole.map((r) => (r.first + r.last) / 2 + 0.5));
  directionOfUv(uOf(x0 + cx, width), circle.y / height, direction);
  return { direction, visible: shownShare(cx, circle, squeeze, height, at, (i) => !inDisk.has(i) && dark(i)) };
}

/** The index of the pixel on row y, x columns from the disk's first pixel (columns wrap). */
type PixelAt = (y: number, x: number) => number;

/** The u of a column position (pixel edges at whole numbers), wrapped into [0, 1). */
const uOf = (x: number, width: number) => (((x / width) % 1) + 1) % 1;

/**
 * Whether a pixel is far darker than the sky around the disk: the median of two rows above
 * it (clear of its soft edge), over its columns and as many again on each side. Above a sun
 * there is sky; beside and below it there may be terrain, and its own soft edge.
 */
function darkTest(image: HdrPixels, rows: DiskRow[], at: PixelAt): (i: number) => boolean {
  const top = Math.min(...rows.map((r) => r.y));
  const first = Math.min(...rows.map((r) => r.first));
  const last = Math.max(...rows.map((r) => r.last));
  const span = last - first + 1;
  const above: number[] = [];
  for (let y = Math.max(0, top - 3); y < top - 1; y++)
    for (let x = first - span; x <= last + span; x++) above.push(luminanceAt(image.rgb, at(y, x)));
  above.sort((a, b) => a - b);
  const sky = above.length ? above[above.length >> 1]! : 0;
  return (i) => luminanceAt(image.rgb, i) < DARK * sky;
}

/** The disk's rows: where each starts and ends, as column offsets from its first pixel. */
function diskRows(pixels: readonly number[], width: number, offset: (x: number) => number): DiskRow[] {
  const rows = new Map<number, DiskRow>();
  for (const i of pixels) {
    const y = Math.floor(i / width);
    const x = offset(i % width);
    const row = rows.get(y);
    if (!row) rows.set(y, { y, first: x, last: x, count: 1, cut: false });
    else {
      row.first = Math.min(row.first, x);
      row.last = Math.max(row.last, x);
      row.count++;
    }
  }
  return [...rows.values()];
}

/**
 * The circle through the uncut rows (least squares: a row's half width h at height y
 * satisfies h^2 + (y - c)^2 = r^2), in pixel rows; null with fewer than two rows to fit.
 */
function outline(rows: DiskRow[], squeeze: number): { y: number; radius: number } | null {
  if (rows.length < 2) return null;
  // h^2 + y^2 = 2c y + (r^2 - c^2): a line in y.
  const ys = rows.map((r) => r.y + 0.5);
  const zs = rows.map((r, k) => ((r.count / 2) * squeeze) ** 2 + ys[k]! ** 2);
  const my = mean(ys);
  const mz = mean(zs);
  let sxy = 0;
  let sxx = 0;
  ys.forEach((y, k) => {
    sxy += (y - my) * (zs[k]! - mz);
    sxx += (y - my) ** 2;
  });
  if (!(sxx > 0)) return null;
  const slope = sxy / sxx;
  const c = slope / 2;
  const r2 = mz - slope * my + c * c;
  if (!(r2 > 0)) return null;
  const radius = Math.sqrt(r2);
  // The circle must hold the rows it was fitted to.
  if (ys.some((y) => Math.abs(y - c) > radius + 0.5)) return null;
  return { y: c, radius };
}

/**
 * Share of a disk at (cx, circle.y) that shows: of the pixels within its radius (a sun's
 * disk is about evenly bright), those `hidden` are not.
 */
function shownShare(
  cx: number,
  circle: { y: number; radius: number },
  squeeze: number,
  height: number,
  at: PixelAt,
  hidden: (i: number) => boolean,
): number {
  const r = circle.radius;
  let total = 0;
  let covered = 0;
  const across = Math.ceil(r / squeeze) + 1;
  for (let y = Math.max(0, Math.floor(circle.y - r)); y <= Math.min(height - 1, Math.ceil(circle.y + r)); y++) {
    for (let x = Math.floor(cx) - across; x <= Math.floor(cx) + across; x++) {
      if (Math.hypot(y + 0.5 - circle.y, (x + 0.5 - cx) * squeeze) >= r) continue;
      total++;
      if (hidden(at(y, x))) covered++;
    }
  }
  return total > 0 ? 1 - covered / total : 1;
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
