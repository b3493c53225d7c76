import type { FacedBox, CornerName } from './faced-box.ts';
import { localCorners } from './faced-box.ts';
import { dirToTable, toLocal, toTable, type Frame } from './frame.ts';
import type { Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';
import { hypot } from './hypot.ts';

/**
 * Front / flank / rear zones around a faced box. The outside of the box is cut by four rays, one
 * leaving each corner. Two readings of where those rays point are offered:
 * - `bisector`: each ray halves the corner's right angle (45° to both edges). Black Powder's
 *   default; a line's front quarter is then a 90° wedge widened by the frontage.
 * - `diagonal`: each ray continues the box's own diagonal (centre → corner). Same as bisector for
 *   a square box, much wider fronts for long shallow lines.
 */
export type QuarterReading = 'bisector' | 'diagonal';
export type QuarterName = 'front' | 'rear' | 'left' | 'right';
export const QUARTER_NAMES: readonly QuarterName[] = ['front', 'right', 'rear', 'left'];

export interface QuarterResult {
  /** The zone holding the point; `inside` for points within the box itself. */
  readonly quarter: QuarterName | 'inside';
  /** Distance from the point to the nearest dividing ray (how far from a change of answer). */
  readonly rayDistance: number;
  /** The quarter on the other side of the nearest ray. */
  readonly across: QuarterName | 'inside';
  /** True when rayDistance ≤ the tolerance given. */
  readonly onBoundary: boolean;
}

/** Outward unit directions of the four dividing rays, in the box's local frame. */
export function rayDirections(
  box: Pick<FacedBox, 'width' | 'depth'>,
  reading: QuarterReading,
): Record<CornerName, Vec2> {
  const s = Math.SQRT1_2;
  if (reading === 'bisector' || box.depth === 0 || box.width === 0) {
    return {
      frontLeft: { x: -s, y: s },
      frontRight: { x: s, y: s },
      rearRight: { x: s, y: -s },
      rearLeft: { x: -s, y: -s },
    };
  }
  const w = box.width / 2;
  const d = box.depth / 2;
  const n = hypot(w, d);
  return {
    frontLeft: { x: -w / n, y: d / n },
    frontRight: { x: w / n, y: d / n },
    rearRight: { x: w / n, y: -d / n },
    rearLeft: { x: -w / n, y: -d / n },
  };
}

/**
 * A box's quarter geometry, computed once and reused for every point asked about: the half
 * width, the depth, and the four dividing rays (corner and outward direction, local frame) in the
 * order front-left, front-right, rear-right, rear-left, as [ox, oy, dx, dy] × 4.
 */
export interface QuarterGeometry {
  readonly halfWidth: number;
  readonly depth: number;
  readonly rays: Float64Array;
}

const RAY_ORDER: readonly CornerName[] = ['frontLeft', 'frontRight', 'rearRight', 'rearLeft'];
/** For each ray (same order), the two quarters it divides. */
const RAY_QUARTERS: ReadonlyArray<readonly [QuarterName, QuarterName]> = [
  ['front', 'left'],
  ['front', 'right'],
  ['rear', 'right'],
  ['rear', 'left'],
];

export function quarterGeometry(
  box: Pick<FacedBox, 'width' | 'depth'>,
  reading: QuarterReading = 'bisector',
): QuarterGeometry {
  const c = localCorners(box);
  const u = rayDirections(box, reading);
  const rays = new Float64Array(16);
  RAY_ORDER.forEach((name, k) => {
    rays[4 * k] = c[name].x;
    rays[4 * k + 1] = c[name].y;
    rays[4 * k + 2] = u[name].x;
    rays[4 * k + 3] = u[name].y;
  });
  return { halfWidth: box.width / 2, depth: box.depth, rays };
}

/** Squared distance from (px, py) to dividing ray k. */
function rayDistance2(r: Float64Array, k: number, px: number, py: number): number {
  const ox = r[4 * k] as number;
  const oy = r[4 * k + 1] as number;
  const dx = r[4 * k + 2] as number;
  const dy = r[4 * k + 3] as number;
  const dot = (px - ox) * dx + (py - oy) * dy;
  const t = dot > 0 ? dot : 0;
  const ex = ox + dx * t - px;
  const ey = oy + dy * t - py;
  return ex * ex + ey * ey;
}

/** Quarter of a local point (x, y) from precomputed geometry; no allocation but the result. */
export function quarterOfLocalXY(
  g: QuarterGeometry,
  px: number,
  py: number,
  tolerance = 1e-9,
): QuarterResult {
  const r = g.rays;
  const w = g.halfWidth;
  const depth = g.depth;
  // Nearest dividing ray. Squared distances pick the candidates; the exact (hypot) distance
  // decides among those within rounding of the least, first ray first, as a plain scan would.
  let least2 = Infinity;
  for (let k = 0; k < 4; k++) {
    const d2 = rayDistance2(r, k, px, py);
    if (d2 < least2) least2 = d2;
  }
  const cutoff = least2 * (1 + 1e-9) + 1e-300;
  let nearest = Infinity;
  let nearestRay = 0;
  for (let k = 0; k < 4; k++) {
    if (rayDistance2(r, k, px, py) > cutoff) continue;
    const ox = r[4 * k] as number;
    const oy = r[4 * k + 1] as number;
    const dx = r[4 * k + 2] as number;
    const dy = r[4 * k + 3] as number;
    const t = Math.max(0, (px - ox) * dx + (py - oy) * dy);
    const d = hypot(ox + dx * t - px, oy + dy * t - py);
    if (d < nearest) {
      nearest = d;
      nearestRay = k;
    }
  }
  // crossAt(corner k, p) = dir.x·(p.y − o.y) − dir.y·(p.x − o.x), for the four corners.
  const crossFL = (r[2] as number) * (py - (r[1] as number)) - (r[3] as number) * (px - (r[0] as number));
  const crossFR = (r[6] as number) * (py - (r[5] as number)) - (r[7] as number) * (px - (r[4] as number));
  const crossRR = (r[10] as number) * (py - (r[9] as number)) - (r[11] as number) * (px - (r[8] as number));
  const crossRL = (r[14] as number) * (py - (r[13] as number)) - (r[15] as number) * (px - (r[12] as number));
  let quarter: QuarterName | 'inside';
  const inside = px >= -w && px <= w && py >= -depth && py <= 0;
  if (inside) quarter = 'inside';
  else if (py >= 0 && crossFR >= 0 && crossFL <= 0) quarter = 'front';
  else if (py <= -depth && crossRR <= 0 && crossRL >= 0) quarter = 'rear';
  else quarter = px < 0 ? 'left' : 'right';
  if (inside) {
    // Inside the box the nearest change of answer is the box edge.
    const edgeDistance = Math.min(w - Math.abs(px), -py, py + depth);
    return { quarter, rayDistance: edgeDistance, across: 'inside', onBoundary: edgeDistance <= tolerance };
  }
  const pair = RAY_QUARTERS[nearestRay] as readonly [QuarterName, QuarterName];
  const across = quarter === pair[0] ? pair[1] : pair[0];
  // A point on the box outline is also on a boundary (between its quarter and the box).
  const onBoundary =
    nearest <= tolerance || hypot(Math.max(0, Math.abs(px) - w), Math.max(0, py, -depth - py)) <= tolerance;
  return { quarter, rayDistance: nearest, across, onBoundary };
}

/** Quarter of a point given in the box's local frame. */
export function quarterOfLocalPoint(
  box: Pick<FacedBox, 'width' | 'depth'>,
  p: Vec2,
  reading: QuarterReading = 'bisector',
  tolerance = 1e-9,
): QuarterResult {
  return quarterOfLocalXY(quarterGeometry(box, reading), p.x, p.y, tolerance);
}

/** Quarter of a table point, from a box's frame and its precomputed geometry. */
export function quarterOfTablePoint(
  frame: Frame,
  g: QuarterGeometry,
  p: Vec2,
  tolerance = 1e-9,
): QuarterResult {
  const dx = p.x - frame.origin.x;
  const dy = p.y - frame.origin.y;
  return quarterOfLocalXY(
    g,
    dx * frame.right.x + dy * frame.right.y,
    dx * frame.front.x + dy * frame.front.y,
    tolerance,
  );
}

export function quarterOfPoint(
  box: FacedBox,
  p: Vec2,
  reading: QuarterReading = 'bisector',
  tolerance = 1e-9,
): QuarterResult {
  return quarterOfLocalPoint(box, toLocal(box.frame, p), reading, tolerance);
}

/** How far the zone polygons reach, mm: 100 m, far beyond any table. */
export const ZONE_REACH = 1e5;

/**
 * The zone as a (convex) polygon on the table, truncated ZONE_REACH away. Intersect it with a
 * target's footprint to get the share of the target in that quarter.
 */
export function quarterPolygon(
  box: FacedBox,
  quarter: QuarterName,
  reading: QuarterReading = 'bisector',
): Polygon {
  const c = localCorners(box);
  const u = rayDirections(box, reading);
  const far = (corner: CornerName): Vec2 => {
    const o = c[corner];
    const d = u[corner];
    return { x: o.x + d.x * ZONE_REACH, y: o.y + d.y * ZONE_REACH };
  };
  let local: Vec2[];
  switch (quarter) {
    case 'front':
      local = [c.frontLeft, c.frontRight, far('frontRight'), far('frontLeft')];
      break;
    case 'rear':
      local = [c.rearRight, c.rearLeft, far('rearLeft'), far('rearRight')];
      break;
    case 'left':
      local = [c.rearLeft, c.frontLeft, far('frontLeft'), far('rearLeft')];
      break;
    case 'right':
      local = [c.frontRight, c.rearRight, far('rearRight'), far('frontRight')];
      break;
  }
  return local.map((p) => toTable(box.frame, p));
}

/** The dividing ray of a corner, on the table: its start and outward direction. */
export function dividingRay(
  box: FacedBox,
  corner: CornerName,
  reading: QuarterReading = 'bisector',
): { origin: Vec2; dir: Vec2 } {
  const c = localCorners(box);
  const u = rayDirections(box, reading);
  return { origin: toTable(box.frame, c[corner]), dir: dirToTable(box.frame, u[corner]) };
}
