import { shareInsideConvex } from '../../geometry/convex-clip.ts';
import type { Polygon } from '../../geometry/polygon.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import { zoneReading, type ZoneReading } from '../../geometry/zone.ts';
import { probedQuantity } from './probe.ts';
import type { Comparison, Quantity } from './threshold.ts';
import { hypot } from '../../geometry/hypot.ts';

/**
 * A unit's share of a convex zone (a front quarter, a cone of fire, the strip ahead) as threshold
 * quantities, in percent: "some of it is inside" and "all of it is inside" move by the exact
 * distances of `zoneReading`; "at least half" is probed by moving the unit across the zone edge
 * nearest it.
 */

/**
 * "Some part inside": share > 0 %, the move being the gap to the zone or the push out of it.
 * `edgeIsBoundary`: a unit that only touches the zone's edge (no area inside) is too close to
 * call even under exact arithmetic, as the quarters' construction says of points on a ray
 * (spec §5.3); without it, touching is simply not inside (D3's "within 45°", spec D3-E2).
 */
export const anyPartQuantity = (r: ZoneReading, sigmaMm: number, edgeIsBoundary = false): Quantity => ({
  value: r.share * 100,
  unit: '%',
  perMm: r.anyMoveMm > 0 ? Math.max(r.share * 100, 1e-9) / r.anyMoveMm : 0,
  sigmaMm,
  moveMm: r.anyMoveMm,
  ...(edgeIsBoundary && r.share === 0 ? { touching: true } : {}),
});

/** "All of it inside": share ≥ 100 %, the move being the least depth inside or the farthest corner out. */
export const wholeQuantity = (r: ZoneReading, sigmaMm: number): Quantity => ({
  value: r.share * 100,
  unit: '%',
  perMm: r.allMoveMm > 0 ? Math.max(100 - r.share * 100, 1e-9) / r.allMoveMm : 0,
  sigmaMm,
  moveMm: r.allMoveMm,
});

/** Outward normal of the zone edge nearest a point. */
function nearestEdgeNormal(zone: Polygon, p: Vec2): Vec2 {
  let best = { d: Infinity, n: { x: 1, y: 0 } };
  for (let i = 0; i < zone.length; i++) {
    const a = zone[i] as Vec2;
    const b = zone[(i + 1) % zone.length] as Vec2;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const len = hypot(dx, dy);
    if (len === 0) continue;
    const d = Math.abs((p.x - a.x) * dy - (p.y - a.y) * dx) / len;
    if (d < best.d) best = { d, n: { x: dy / len, y: -dx / len } };
  }
  return best.n;
}

/** A share of the zone against a limit between 0 and 100 %, its move found by probing. */
export function shareQuantity(
  pieces: readonly Polygon[],
  zone: Polygon,
  comparison: Comparison,
  limitPercent: number,
  sigmaMm: number,
  bandMm: number,
  measure: (moved: readonly Polygon[]) => number = (moved) => shareInsideConvex(moved, zone) * 100,
): Quantity {
  let cx = 0;
  let cy = 0;
  let n = 0;
  for (const p of pieces)
    for (const q of p) {
      cx += q.x;
      cy += q.y;
      n++;
    }
  const normal = nearestEdgeNormal(zone, { x: cx / Math.max(1, n), y: cy / Math.max(1, n) });
  const shift = (d: Vec2) => (s: number) =>
    measure(pieces.map((p) => p.map((q) => ({ x: q.x + d.x * s, y: q.y + d.y * s }))));
  return probedQuantity(
    measure(pieces),
    '%',
    [shift(normal), shift({ x: -normal.y, y: normal.x })],
    sigmaMm,
    comparison,
    limitPercent,
    bandMm,
  );
}

export { zoneReading };
