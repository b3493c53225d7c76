import type { FacedBox } from './faced-box.ts';
import { toLocal, toTable } from './frame.ts';
import type { Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';

/** How far a faced box must move straight ahead before it touches a target, and where. */
export interface SweepContact {
  /** Distance along the box's front, mm; 0 when it already touches or overlaps. */
  readonly distance: number;
  /** The target point first met (table coordinates). */
  readonly at: Vec2;
  /** The matching point of the box's front edge before the move. */
  readonly from: Vec2;
}

/**
 * The part of `pts` on one side of the line x = edgeX (`keepAbove`: x ≥ edgeX, else x ≤ edgeX),
 * one Sutherland–Hodgman pass. A plain function, not a closure per call: the charge searches
 * call it millions of times, and under tsx every closure created costs a name definition.
 */
function clipAt(pts: readonly Vec2[], edgeX: number, keepAbove: boolean): Vec2[] {
  const out: Vec2[] = [];
  const n = pts.length;
  for (let i = 0; i < n; i++) {
    const a = pts[i] as Vec2;
    const b = pts[(i + 1) % n] as Vec2;
    const ina = keepAbove ? a.x >= edgeX : a.x <= edgeX;
    const inb = keepAbove ? b.x >= edgeX : b.x <= edgeX;
    if (ina) out.push(a);
    if (ina !== inb && b.x !== a.x) {
      const t = (edgeX - a.x) / (b.x - a.x);
      out.push({ x: edgeX, y: a.y + (b.y - a.y) * t });
    }
  }
  return out;
}

/** Clips a polygon (local coordinates) to the slab xMin ≤ x ≤ xMax (Sutherland–Hodgman). */
function clipSlab(poly: readonly Vec2[], xMin: number, xMax: number): Vec2[] {
  return clipAt(clipAt(poly, xMin, true), xMax, false);
}

/**
 * Moving `box` straight ahead (along its front), the distance at which it first touches any of
 * the polygons: the lowest point, in the box's frame, of the targets' parts inside the strip the
 * frontage sweeps. Undefined when nothing lies in the strip ahead of the box's rear edge.
 */
export function sweepContact(box: FacedBox, targets: readonly Polygon[]): SweepContact | undefined {
  const w = box.width / 2;
  let best: { y: number; p: Vec2 } | undefined;
  for (const poly of targets) {
    const local: Vec2[] = [];
    for (const p of poly) local.push(toLocal(box.frame, p));
    const part = clipSlab(local, -w, w);
    if (part.length === 0) continue;
    let lo: Vec2 | undefined;
    let hiY = -Infinity;
    for (const p of part) {
      if (!lo || p.y < lo.y) lo = p;
      hiY = Math.max(hiY, p.y);
    }
    if (!lo || hiY < -box.depth) continue; // wholly behind the box
    const y = Math.max(0, lo.y);
    if (!best || y < best.y) best = { y, p: lo.y >= 0 ? lo : { x: lo.x, y: 0 } };
  }
  if (!best) return undefined;
  return {
    distance: best.y,
    at: toTable(box.frame, best.p),
    from: toTable(box.frame, { x: best.p.x, y: 0 }),
  };
}
