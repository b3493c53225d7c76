import type { Polygon } from './polygon.ts';
import { sweep, type AreaOp } from './slab-sweep.ts';

/**
 * Areas of boolean combinations of two regions (each a union of simple polygons, in any
 * orientation, overlapping or touching), without building the result: the plane is cut into
 * vertical slabs at every vertex and every crossing of two edges, so inside a slab no two edges
 * cross and each edge is a straight piece from the slab's left side to its right. Walking up a
 * slab, each edge steps its polygon's winding count; between two edges the region is in or out,
 * and an "in" stretch is a trapezoid. Exact to rounding, with no failure mode: touching edges,
 * a vertex on an edge and collinear overlaps only make trapezoids of zero height.
 *
 * This is what the sight shares need many times a pair (a target moved by a probe each time):
 * a sweep-line clipper (polyclip-ts, arbitrary precision) costs ~20× more for the same number.
 */
// The sweep itself is slab-sweep.ts.

export type { AreaOp } from './slab-sweep.ts';

/** The area of A ∖ B, A ∩ B, or A (as a union of its polygons). */
export function booleanArea(a: readonly Polygon[], b: readonly Polygon[], op: AreaOp): number {
  return sweep(a, b, op, undefined);
}

/**
 * A ∖ B, A ∩ B or A as pieces (trapezoids, one per slab and run, none of zero area) whose union
 * is the result, with its area: what a nearest point or a distance needs, without merging the
 * pieces into outlines.
 */
export function booleanPieces(
  a: readonly Polygon[],
  b: readonly Polygon[],
  op: AreaOp,
): { pieces: Polygon[]; area: number } {
  const pieces: Polygon[] = [];
  const area = sweep(a, b, op, pieces);
  return { pieces, area };
}
