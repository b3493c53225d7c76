import type { CameraProfile } from '../camera/profile.ts';
import { projectTablePoint } from '../camera/projection.ts';
import type { TablePose } from '../camera/table-pose.ts';
import { blockMeans, medianOf, type BlockMeans } from './change-map.ts';
import { clampRect, type Rect } from './mosaic.ts';

export interface DimRegionOptions {
  /** Side of the blocks whose brightness is compared, px. */
  readonly blockPx: number;
  /** A block darker than this share of the median block is dim. */
  readonly dimShare: number;
  /** Patches covering more than this share of the frame: the whole frame is one region. */
  readonly wholeFrameShare: number;
}

/**
 * Dim below 0.6 of the median: the dim pass's threshold constant is the whole-frame one times the
 * light (pipeline.ts), so a block at 0.6–0.75 got 4–5 grey levels against 7, and found nothing
 * the whole-frame pass had not (tuning scenes under uneven light and hands, seeds 1760–1773,
 * 720p 15–25 mm and 1080p 12–20 mm, tilt 0–25°: the same bases missed at 0.6 as at 0.75, in all
 * 18 scene sets; at 0.5, 2 → 17 of 188 missed at 720p 20 mm with hands). Hands' and clutter's
 * mild shadows sent most clutter frames through that pass for nothing (tuning clutter seeds
 * 1382–1387: whole-frame search 24.3–25.3 → 21.4–23.8 ms). This is the share once the table is
 * known; before that, the pipeline searches the whole frame at the lowest threshold (pipeline.ts
 * firstLook), which is what finds the smallest tags on a first frame.
 */
export const DEFAULT_DIM_REGIONS: DimRegionOptions = { blockPx: 32, dimShare: 0.6, wholeFrameShare: 0.5 };

/**
 * The parts of a frame lit far less than the rest: a shadow, the dark side of a lamp's spot, a
 * vignetted corner. OpenCV's threshold takes a pixel as dark when it is a fixed number of grey
 * levels below its neighbourhood's mean; where the light is a half of elsewhere, so is a tag's
 * contrast, and a small tag's one-cell border is lost. These regions are searched again with a
 * smaller constant (pipeline.ts), which over the whole frame would break noisy cloth into
 * contours. Dim blocks, widened by `marginPx` so a tag on their edge is whole, are grouped into
 * connected patches, one rectangle each (rectangles never overlap: a 4K frame with a hand's
 * shadow once made a mosaic of overlapping strips too big for OpenCV's heap). When the patches
 * cover more than `wholeFrameShare` of the frame, the frame is one region.
 *
 * A block is judged by its brightest eighth-of-a-block square, not its mean: light that is dim
 * dims the cloth and a tag's white too, while a dark thing on well-lit cloth (a bare base, a die,
 * a sleeve) leaves bright cloth beside it. Judged by their means, the dark clutter of the tuning
 * clutter scenes (seeds 1311–1313, 1080p) put a quarter to two fifths of every frame through the
 * second pass, ~20 ms a frame, and no tag was found there.
 *
 * `onTable`, when the table's outline in the picture is known, keeps the comparison to blocks
 * wholly on the table: the floor round it is dark but holds no base, and the ring of floor (or of
 * blocks straddling the table's edge) round the frame is one connected patch whose box is the
 * whole frame, which made every whole-frame search run the candidate pass twice.
 */
export function dimRegions(
  grey: { data: ArrayLike<number>; width: number; height: number },
  marginPx: number,
  options: DimRegionOptions = DEFAULT_DIM_REGIONS,
  onTable: ((u: number, v: number) => boolean) | null = null,
  /** The frame's 8 px block means when already computed (the change map's): not summed again. */
  parts: BlockMeans | null = null,
): DimRegion[] {
  const b = options.blockPx;
  const cols = Math.floor(grey.width / b);
  const rows = Math.floor(grey.height / b);
  if (cols === 0 || rows === 0) return [];
  const means = brightestParts(grey, b, cols, rows, parts);
  const counted = onTable ? blocksOnTable(onTable, b, cols, rows) : null;
  const countedMeans = counted ? means.filter((_, i) => counted[i]) : means;
  if (countedMeans.length === 0) return [];
  const limit = options.dimShare * medianOf(countedMeans);
  // Dim blocks, widened by the margin (in whole blocks).
  const reach = Math.ceil(marginPx / b);
  const wide = new Uint8Array(cols * rows);
  let any = false;
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      if (means[r * cols + c]! >= limit || (counted && !counted[r * cols + c])) continue;
      any = true;
      for (let rr = Math.max(0, r - reach); rr <= Math.min(rows - 1, r + reach); rr++)
        wide.fill(1, rr * cols + Math.max(0, c - reach), rr * cols + Math.min(cols, c + reach + 1));
    }
  if (!any) return [];
  const median = limit / options.dimShare;
  // The light in a patch: that of its dimmest block, against the median block.
  const lightIn = (p: { c0: number; r0: number; c1: number; r1: number }): number => {
    let least = 1;
    for (let r = p.r0; r <= p.r1; r++)
      for (let c = p.c0; c <= p.c1; c++)
        if (means[r * cols + c]! < limit && (!counted || counted[r * cols + c]))
          least = Math.min(least, means[r * cols + c]! / median);
    return least;
  };
  const regions = patchBounds(wide, cols, rows).flatMap((p): DimRegion[] => {
    // The last partial block row and column belong to the patch touching them.
    const x1 = p.c1 === cols - 1 ? grey.width : (p.c1 + 1) * b;
    const y1 = p.r1 === rows - 1 ? grey.height : (p.r1 + 1) * b;
    const rect = clampRect(
      { x0: p.c0 * b, y0: p.r0 * b, w: x1 - p.c0 * b, h: y1 - p.r0 * b },
      grey.width,
      grey.height,
    );
    return rect ? [{ ...rect, light: lightIn(p) }] : [];
  });
  const area = regions.reduce((sum, r) => sum + r.w * r.h, 0);
  return area > options.wholeFrameShare * grey.width * grey.height
    ? [{ x0: 0, y0: 0, w: grey.width, h: grey.height, light: Math.min(...regions.map((r) => r.light)) }]
    : regions;
}

/** A dimly lit region, and the light there: its dimmest block's brightness over the median block's. */
export interface DimRegion extends Rect {
  readonly light: number;
}

/** Side of the squares a block's brightest part is taken from, px. */
const PART_PX = 8;

/**
 * Per block of `b` px, the mean of its brightest PART_PX square (blocks whose side is not a
 * multiple of it: the block's mean).
 */
function brightestParts(
  grey: { data: ArrayLike<number>; width: number; height: number },
  b: number,
  cols: number,
  rows: number,
  given: BlockMeans | null,
): Float32Array {
  if (b % PART_PX !== 0) return blockMeans(grey, b, cols, rows);
  const k = b / PART_PX;
  const partCols = Math.floor(grey.width / PART_PX);
  const reusable =
    given?.blockPx === PART_PX && given.cols === partCols && given.rows >= rows * k ? given : null;
  const parts = reusable?.means ?? blockMeans(grey, PART_PX, partCols, rows * k);
  const out = new Float32Array(cols * rows);
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      let best = 0;
      for (let pr = r * k; pr < (r + 1) * k; pr++)
        for (let pc = c * k; pc < (c + 1) * k; pc++) best = Math.max(best, parts[pr * partCols + pc]!);
      out[r * cols + c] = best;
    }
  return out;
}

/** Blocks whose four corners are all on the table. */
function blocksOnTable(
  onTable: (u: number, v: number) => boolean,
  b: number,
  cols: number,
  rows: number,
): Uint8Array {
  const corner = new Uint8Array((cols + 1) * (rows + 1));
  for (let r = 0; r <= rows; r++)
    for (let c = 0; c <= cols; c++) corner[r * (cols + 1) + c] = onTable(c * b, r * b) ? 1 : 0;
  const out = new Uint8Array(cols * rows);
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const k = r * (cols + 1) + c;
      out[r * cols + c] = corner[k]! & corner[k + 1]! & corner[k + cols + 1]! & corner[k + cols + 2]!;
    }
  return out;
}

/** Bounding boxes (in blocks) of the 4-connected patches of set cells, merged until none overlap. */
function patchBounds(
  set: Uint8Array,
  cols: number,
  rows: number,
): Array<{ c0: number; r0: number; c1: number; r1: number }> {
  const seen = new Uint8Array(set.length);
  let boxes: Array<{ c0: number; r0: number; c1: number; r1: number }> = [];
  const stack: number[] = [];
  for (let start = 0; start < set.length; start++) {
    if (!set[start] || seen[start]) continue;
    const box = { c0: cols, r0: rows, c1: -1, r1: -1 };
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const i = stack.pop()!;
      const r = Math.floor(i / cols);
      const c = i - r * cols;
      box.c0 = Math.min(box.c0, c);
      box.c1 = Math.max(box.c1, c);
      box.r0 = Math.min(box.r0, r);
      box.r1 = Math.max(box.r1, r);
      for (const j of [
        c > 0 ? i - 1 : -1,
        c < cols - 1 ? i + 1 : -1,
        r > 0 ? i - cols : -1,
        r < rows - 1 ? i + cols : -1,
      ])
        if (j >= 0 && set[j] && !seen[j]) {
          seen[j] = 1;
          stack.push(j);
        }
    }
    boxes.push(box);
  }
  // Two patches' boxes may overlap (an L beside a dot): merge until no two do.
  for (let merged = true; merged;) {
    merged = false;
    outer: for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!;
        const o = boxes[j]!;
        if (a.c0 > o.c1 || o.c0 > a.c1 || a.r0 > o.r1 || o.r0 > a.r1) continue;
        boxes[i] = {
          c0: Math.min(a.c0, o.c0),
          r0: Math.min(a.r0, o.r0),
          c1: Math.max(a.c1, o.c1),
          r1: Math.max(a.r1, o.r1),
        };
        boxes = boxes.filter((_, k) => k !== j);
        merged = true;
        break outer;
      }
  }
  return boxes;
}

/**
 * Whether a pixel is on the table's top, from a table pose (the outline of its four corners; a
 * convex quadrilateral in a pinhole picture). Null when a corner does not project.
 */
export function onTableTest(
  camera: CameraProfile,
  pose: TablePose,
  table: { readonly widthMm: number; readonly depthMm: number },
): ((u: number, v: number) => boolean) | null {
  const corners = [
    { x: 0, y: 0 },
    { x: table.widthMm, y: 0 },
    { x: table.widthMm, y: table.depthMm },
    { x: 0, y: table.depthMm },
  ].map((p) => projectTablePoint(camera, pose, { ...p, z: 0 }));
  if (corners.some((c) => c === null)) return null;
  const q = corners as Array<{ u: number; v: number }>;
  return (u, v) => {
    let sign = 0;
    for (let i = 0; i < 4; i++) {
      const a = q[i]!;
      const b = q[(i + 1) % 4]!;
      const cross = (b.u - a.u) * (v - a.v) - (b.v - a.v) * (u - a.u);
      if (cross === 0) continue;
      if (sign === 0) sign = Math.sign(cross);
      else if (Math.sign(cross) !== sign) return false;
    }
    return true;
  };
}
