import { polygonSeparation } from './distance.ts';
import { stripExtent } from './segment-shift.ts';
import { noteSegment } from './look-record.ts';
import type { Polygon } from './polygon.ts';
import { segmentInsidePolygon } from './segment-clip.ts';
import type { Vec2 } from './vec.ts';
import { hypot } from './hypot.ts';

/**
 * How the width of a gap is read:
 * - `closestApproach`: edge to edge between the two flanking obstructions, at their nearest.
 * - `perpendicular`: the clear width of the corridor around the line of fire, measured square
 *   to it (the nearest obstruction on each side, summed).
 */
export type GapReading = 'closestApproach' | 'perpendicular';

/** A corner this near the line of fire (rounding) lies on it. */
const GRAZE_MM = 1e-6;

export interface GapObstacle {
  readonly id: string;
  readonly label: string;
  readonly polygon: Polygon;
}

export interface Gap {
  readonly width: number;
  readonly left: GapObstacle;
  readonly right: GapObstacle;
  /** The two points the width was measured between. */
  readonly onLeft: Vec2;
  readonly onRight: Vec2;
  /** How far each flank stands from the line of fire, square to it, mm. */
  readonly leftPerp: number;
  readonly rightPerp: number;
}

interface Flank {
  readonly obstacle: GapObstacle;
  readonly side: 1 | -1;
  /** Perpendicular distance of its nearest point to the line of fire, and that point. */
  readonly perp: number;
  readonly nearest: Vec2;
}

/**
 * The narrowest gap the line of fire a → b threads between obstructions on its two sides.
 * Only obstructions that lie beside the line (their projection falls between a and b) and within
 * `searchWidth` of it count; anything the line actually passes through is a block, not a gap, and
 * is ignored here. Two pieces with the same id (bases of one unit) never make a gap between
 * themselves. Returns undefined when the line is not flanked on both sides.
 */
export function gapAlongLine(
  a: Vec2,
  b: Vec2,
  obstacles: readonly GapObstacle[],
  searchWidth: number,
  reading: GapReading = 'closestApproach',
): Gap | undefined {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = hypot(dx, dy);
  if (len === 0) return undefined;
  // Only obstacles within searchWidth of the segment (or on it) count.
  noteSegment(a, b, searchWidth);
  const flanks: Flank[] = [];
  for (const obstacle of obstacles) {
    if (segmentInsidePolygon(a, b, obstacle.polygon).length > 0) continue;
    // Its side and distance are those of its part beside the segment: a unit behind the eye that
    // the line's backward extension splits flanks it only by what lies alongside.
    const e = stripExtent(a, b, obstacle.polygon);
    if (!e) continue;
    // (A corner on the line itself, to rounding, grazes it: a flank at no distance.)
    let flank: Flank;
    if (e.lo >= -GRAZE_MM && e.hi > 0)
      flank = { obstacle, side: 1, perp: Math.max(0, e.lo), nearest: e.loAt };
    else if (e.hi <= GRAZE_MM && e.lo < 0)
      flank = { obstacle, side: -1, perp: Math.max(0, -e.hi), nearest: e.hiAt };
    else continue;
    if (flank.perp <= searchWidth) flanks.push(flank);
  }
  let best: Gap | undefined;
  for (const l of flanks.filter((f) => f.side > 0)) {
    for (const r of flanks.filter((f) => f.side < 0)) {
      if (l.obstacle.id === r.obstacle.id) continue;
      const gap: Gap =
        reading === 'perpendicular'
          ? {
              width: l.perp + r.perp,
              left: l.obstacle,
              right: r.obstacle,
              onLeft: l.nearest,
              onRight: r.nearest,
              leftPerp: l.perp,
              rightPerp: r.perp,
            }
          : (() => {
              const s = polygonSeparation(l.obstacle.polygon, r.obstacle.polygon);
              return {
                width: s.distance,
                left: l.obstacle,
                right: r.obstacle,
                onLeft: s.onA,
                onRight: s.onB,
                leftPerp: l.perp,
                rightPerp: r.perp,
              };
            })();
      if (gap.width <= searchWidth && (!best || gap.width < best.width)) best = gap;
    }
  }
  return best;
}
