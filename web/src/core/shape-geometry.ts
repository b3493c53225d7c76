import { clipToConvex } from '../../../src/geometry/convex-clip.ts';
import { facedBoxAround } from '../../../src/geometry/faced-box.ts';
import type { Polygon } from '../../../src/geometry/polygon.ts';
import { quarterPolygon } from '../../../src/geometry/quarters.ts';
import type { Vec2 } from '../../../src/geometry/vec.ts';
import type { StateMessage, UnitView } from '../../../src/server/protocol.ts';
import { footprintCorners } from './overlay-model.ts';

/**
 * Small table-millimetre geometry for drawing overlays (hulls, swept zones, a unit's front
 * quarter). Rules math is not redone here: the rules' own geometry comes from src/geometry.
 */

/** Convex hull (counter-clockwise), monotone chain. */
export function convexHull(points: readonly Vec2[]): Vec2[] {
  const pts = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (pts.length < 3) return pts;
  const cross = (o: Vec2, a: Vec2, b: Vec2) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const lower: Vec2[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0)
      lower.pop();
    lower.push(p);
  }
  const upper: Vec2[] = [];
  for (const p of pts.reverse()) {
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0)
      upper.pop();
    upper.push(p);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

/**
 * Everything within `r` of a convex polygon: its edges pushed out by r, joined by arcs at the
 * corners (the shape a tape measure sweeps around a base). `stepDeg` sets the arc sampling.
 */
export function roundedOffset(poly: readonly Vec2[], r: number, stepDeg = 6): Vec2[] {
  const hull = convexHull(poly);
  const n = hull.length;
  if (n === 0) return [];
  if (n === 1) {
    const c = hull[0]!;
    const out: Vec2[] = [];
    for (let a = 0; a < 360; a += stepDeg)
      out.push({ x: c.x + r * Math.cos((a * Math.PI) / 180), y: c.y + r * Math.sin((a * Math.PI) / 180) });
    return out;
  }
  const out: Vec2[] = [];
  for (let i = 0; i < n; i++) {
    const prev = hull[(i + n - 1) % n]!;
    const p = hull[i]!;
    const next = hull[(i + 1) % n]!;
    // Outward normals of the edges into and out of p (hull is counter-clockwise: outward is right-hand).
    const a0 = Math.atan2(-(p.x - prev.x), p.y - prev.y);
    let a1 = Math.atan2(-(next.x - p.x), next.y - p.y);
    while (a1 < a0) a1 += 2 * Math.PI;
    const steps = Math.max(1, Math.ceil(((a1 - a0) * 180) / Math.PI / stepDeg));
    for (let k = 0; k <= steps; k++) {
      const a = a0 + ((a1 - a0) * k) / steps;
      out.push({ x: p.x + r * Math.cos(a), y: p.y + r * Math.sin(a) });
    }
  }
  return out;
}

export function tableRect(state: Pick<StateMessage, 'table'>): Polygon {
  const { widthMm: w, depthMm: d } = state.table;
  return [
    { x: 0, y: 0 },
    { x: w, y: 0 },
    { x: w, y: d },
    { x: 0, y: d },
  ];
}

export function unitPolygons(unit: UnitView): Polygon[] {
  return unit.bases.map((b) => footprintCorners(b));
}

/** The unit's front quarter from its bases (mean heading), clipped to the table. */
export function frontQuarterOf(unit: UnitView, state: Pick<StateMessage, 'table'>): Polygon | null {
  if (unit.bases.length === 0) return null;
  let sx = 0;
  let sy = 0;
  for (const b of unit.bases) {
    const h = (b.headingDeg * Math.PI) / 180;
    sx += -Math.sin(h);
    sy += Math.cos(h);
  }
  const len = Math.hypot(sx, sy);
  if (len < 1e-9) return null;
  const box = facedBoxAround(unitPolygons(unit).flat(), { x: sx / len, y: sy / len });
  const q = clipToConvex(quarterPolygon(box, 'front'), tableRect(state));
  return q.length >= 3 ? q : null;
}

export function centroidOf(pts: readonly Vec2[]): Vec2 {
  const n = Math.max(1, pts.length);
  return { x: pts.reduce((s, p) => s + p.x, 0) / n, y: pts.reduce((s, p) => s + p.y, 0) / n };
}

export function topMost(pts: readonly Vec2[]): Vec2 {
  return pts.reduce((best, p) => (p.y > best.y ? p : best), pts[0] ?? { x: 0, y: 0 });
}
