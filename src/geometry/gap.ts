import { polygonSeparation } from './distance.ts';
import { noteSegment } from './look-record.ts';
import { sideOfLine, type Polygon } from './polygon.ts';
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
  const ux = dx / len;
  const uy = dy / len;
  const flanks: Flank[] = [];
  for (const obstacle of obstacles) {
    if (segmentInsidePolygon(a, b, obstacle.polygon).length > 0) continue;
    let side = 0;
    let perp = Infinity;
    let nearest: Vec2 | undefined;
    let alongMin = Infinity;
    let alongMax = -Infinity;
    for (const p of obstacle.polygon) {
      const along = (p.x - a.x) * ux + (p.y - a.y) * uy;
      alongMin = Math.min(alongMin, along);
      alongMax = Math.max(alongMax, along);
      const s = sideOfLine(a, b, p);
      side += Math.sign(s);
      if (along >= 0 && along <= len && Math.abs(s) / len < perp) {
        perp = Math.abs(s) / len;
        nearest = p;
      }
    }
    if (alongMax < 0 || alongMin > len) continue;
    // Edges may come nearer the line than any vertex does (a long wall beside the line).
    const probe = polygonSeparation(obstacle.polygon, [a, b]);
    if (probe.distance < perp) {
      perp = probe.distance;
      nearest = probe.onA;
    }
    if (perp > searchWidth || !nearest || side === 0) continue;
    flanks.push({ obstacle, side: side > 0 ? 1 : -1, perp, nearest });
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
            }
          : (() => {
              const s = polygonSeparation(l.obstacle.polygon, r.obstacle.polygon);
              return {
                width: s.distance,
                left: l.obstacle,
                right: r.obstacle,
                onLeft: s.onA,
                onRight: s.onB,
              };
            })();
      if (gap.width <= searchWidth && (!best || gap.width < best.width)) best = gap;
    }
  }
  return best;
}
