import { boxOf } from './box.ts';
import { areaInsideConvex } from './convex-clip.ts';
import { isConvex } from './hull.ts';
import { polygonArea, type Polygon } from './polygon.ts';

/**
 * Whether a target's outlines (a unit's bases) are convex and do not overlap: then the area of
 * the target inside one convex polygon is the sum of each outline's part inside it, clipped
 * (Sutherland–Hodgman), with no slab sweep. Bases side by side touch along an edge, which adds
 * no area; the overlaps allowed are rounding (1e-12 of the target's area). Translation does not
 * change the answer, so a target moved for a probe may use its unmoved outlines' answer.
 */
export function piecesApart(target: readonly Polygon[]): boolean {
  let known = apart.get(target);
  if (known === undefined) {
    known = decideApart(target);
    apart.set(target, known);
  }
  return known;
}

const apart = new WeakMap<readonly Polygon[], boolean>();

function decideApart(target: readonly Polygon[]): boolean {
  if (!target.every((p) => p.length >= 3 && isConvex(p))) return false;
  const total = target.reduce((s, p) => s + polygonArea(p), 0);
  const boxes = target.map((p) => boxOf(p));
  let overlap = 0;
  for (let i = 0; i < target.length; i++)
    for (let j = i + 1; j < target.length; j++) {
      const a = boxes[i] as ReturnType<typeof boxOf>;
      const b = boxes[j] as ReturnType<typeof boxOf>;
      if (a.minX > b.maxX || b.minX > a.maxX || a.minY > b.maxY || b.minY > a.maxY) continue;
      overlap += areaInsideConvex([target[i] as Polygon], target[j] as Polygon);
    }
  return overlap <= 1e-12 * total;
}
