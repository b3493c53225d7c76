import type { Polygon } from './polygon.ts';
import { containsPoint } from './polygon.ts';
import type { Vec2 } from './vec.ts';

/** A stretch of a segment, as parameters 0 ≤ t0 < t1 ≤ 1 along it. */
export interface SegmentInterval {
  readonly t0: number;
  readonly t1: number;
}

/**
 * The stretches of segment [a, b] that lie inside a simple polygon (convex or not). A segment
 * that only grazes a corner or runs along an edge yields nothing: touching is not crossing.
 */
export function segmentInsidePolygon(a: Vec2, b: Vec2, poly: Polygon): SegmentInterval[] {
  const d = { x: b.x - a.x, y: b.y - a.y };
  const ts: number[] = [0, 1];
  const n = poly.length;
  for (let i = 0; i < n; i++) {
    const p = poly[i] as Vec2;
    const q = poly[(i + 1) % n] as Vec2;
    const e = { x: q.x - p.x, y: q.y - p.y };
    const denom = d.x * e.y - d.y * e.x;
    if (denom === 0) continue;
    const w = { x: p.x - a.x, y: p.y - a.y };
    const t = (w.x * e.y - w.y * e.x) / denom;
    const u = (w.x * d.y - w.y * d.x) / denom;
    if (t > 0 && t < 1 && u >= 0 && u <= 1) ts.push(t);
  }
  ts.sort((x, y) => x - y);
  const out: SegmentInterval[] = [];
  for (let i = 0; i + 1 < ts.length; i++) {
    const t0 = ts[i] as number;
    const t1 = ts[i + 1] as number;
    if (t1 - t0 < 1e-12) continue;
    const tm = (t0 + t1) / 2;
    if (containsPoint(poly, { x: a.x + d.x * tm, y: a.y + d.y * tm })) {
      const last = out[out.length - 1];
      if (last && Math.abs(last.t1 - t0) < 1e-12) out[out.length - 1] = { t0: last.t0, t1 };
      else out.push({ t0, t1 });
    }
  }
  return out;
}
