import type { FacedBox, CornerName } from './faced-box.ts';
import { localCorners } from './faced-box.ts';
import { dirToTable, toLocal, toTable } from './frame.ts';
import type { Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';

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
export function rayDirections(box: Pick<FacedBox, 'width' | 'depth'>, reading: QuarterReading): Record<CornerName, Vec2> {
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
  const n = Math.hypot(w, d);
  return {
    frontLeft: { x: -w / n, y: d / n },
    frontRight: { x: w / n, y: d / n },
    rearRight: { x: w / n, y: -d / n },
    rearLeft: { x: -w / n, y: -d / n },
  };
}

const crossAt = (origin: Vec2, dir: Vec2, p: Vec2): number => dir.x * (p.y - origin.y) - dir.y * (p.x - origin.x);

function distanceToRay(origin: Vec2, dir: Vec2, p: Vec2): number {
  const t = Math.max(0, (p.x - origin.x) * dir.x + (p.y - origin.y) * dir.y);
  return Math.hypot(origin.x + dir.x * t - p.x, origin.y + dir.y * t - p.y);
}

/** Quarter of a point given in the box's local frame. */
export function quarterOfLocalPoint(
  box: Pick<FacedBox, 'width' | 'depth'>,
  p: Vec2,
  reading: QuarterReading = 'bisector',
  tolerance = 1e-9,
): QuarterResult {
  const c = localCorners(box);
  const u = rayDirections(box, reading);
  const w = box.width / 2;
  const rays: Array<[CornerName, QuarterName, QuarterName]> = [
    ['frontLeft', 'front', 'left'],
    ['frontRight', 'front', 'right'],
    ['rearRight', 'rear', 'right'],
    ['rearLeft', 'rear', 'left'],
  ];
  let nearest = Infinity;
  let nearestPair: [QuarterName, QuarterName] = ['front', 'left'];
  for (const [corner, a, b] of rays) {
    const d = distanceToRay(c[corner], u[corner], p);
    if (d < nearest) {
      nearest = d;
      nearestPair = [a, b];
    }
  }
  let quarter: QuarterName | 'inside';
  const inside = p.x >= -w && p.x <= w && p.y >= -box.depth && p.y <= 0;
  if (inside) quarter = 'inside';
  else if (p.y >= 0 && crossAt(c.frontRight, u.frontRight, p) >= 0 && crossAt(c.frontLeft, u.frontLeft, p) <= 0)
    quarter = 'front';
  else if (p.y <= -box.depth && crossAt(c.rearRight, u.rearRight, p) <= 0 && crossAt(c.rearLeft, u.rearLeft, p) >= 0)
    quarter = 'rear';
  else quarter = p.x < 0 ? 'left' : 'right';
  if (inside) {
    // Inside the box the nearest change of answer is the box edge.
    const edgeDistance = Math.min(w - Math.abs(p.x), -p.y, p.y + box.depth);
    return { quarter, rayDistance: edgeDistance, across: 'inside', onBoundary: edgeDistance <= tolerance };
  }
  const across = quarter === nearestPair[0] ? nearestPair[1] : nearestPair[0];
  // A point on the box outline is also on a boundary (between its quarter and the box).
  const toBox = Math.hypot(Math.max(0, Math.abs(p.x) - w), Math.max(0, p.y, -box.depth - p.y));
  return { quarter, rayDistance: nearest, across, onBoundary: nearest <= tolerance || toBox <= tolerance };
}

export function quarterOfPoint(box: FacedBox, p: Vec2, reading: QuarterReading = 'bisector', tolerance = 1e-9): QuarterResult {
  return quarterOfLocalPoint(box, toLocal(box.frame, p), reading, tolerance);
}

/** How far the zone polygons reach, mm: 100 m, far beyond any table. */
export const ZONE_REACH = 1e5;

/**
 * The zone as a (convex) polygon on the table, truncated ZONE_REACH away. Intersect it with a
 * target's footprint to get the share of the target in that quarter.
 */
export function quarterPolygon(box: FacedBox, quarter: QuarterName, reading: QuarterReading = 'bisector'): Polygon {
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
export function dividingRay(box: FacedBox, corner: CornerName, reading: QuarterReading = 'bisector'): { origin: Vec2; dir: Vec2 } {
  const c = localCorners(box);
  const u = rayDirections(box, reading);
  return { origin: toTable(box.frame, c[corner]), dir: dirToTable(box.frame, u[corner]) };
}
