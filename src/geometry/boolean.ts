import { difference, intersection, union, type Geom } from 'polyclip-ts';
import { signedArea, type Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';

/**
 * Polygon boolean work, delegated to polyclip-ts (a maintained Martinez-style sweep line).
 * Shapes here are lists of simple polygons; their union is meant (a unit is a set of bases).
 */
export type Region = readonly Polygon[];

type Ring = [number, number][];

function toRing(poly: Polygon): Ring {
  const ring: Ring = poly.map((p) => [p.x, p.y]);
  const first = ring[0];
  if (first) ring.push([first[0], first[1]]);
  return ring;
}

function toGeom(region: Region): Geom {
  return region.filter((p) => p.length >= 3).map((p) => [toRing(p)]);
}

/** Area of a multipolygon as polyclip returns it (outer ring minus holes). */
function multiPolyArea(mp: Ring[][]): number {
  let total = 0;
  for (const poly of mp) {
    poly.forEach((ring, i) => {
      const pts: Vec2[] = ring.map(([x, y]) => ({ x, y }));
      const a = Math.abs(signedArea(pts));
      total += i === 0 ? a : -a;
    });
  }
  return total;
}

function fromMultiPoly(mp: Ring[][]): Polygon[] {
  // Outer rings only (holes are reported through area functions, not here).
  return mp.map((poly) => (poly[0] ?? []).slice(0, -1).map(([x, y]) => ({ x, y })));
}

/** Area of the union of the region's polygons (overlaps counted once). */
export function regionArea(region: Region): number {
  const valid = region.filter((p) => p.length >= 3);
  if (valid.length === 0) return 0;
  if (valid.length === 1) return Math.abs(signedArea(valid[0] as Polygon));
  const [first, ...rest] = toGeom(valid) as Ring[][];
  return multiPolyArea(union(first as Ring[], ...rest));
}

/** Area of (union of a) ∩ (union of b). */
export function intersectionArea(a: Region, b: Region): number {
  const ga = toGeom(a);
  const gb = toGeom(b);
  if ((ga as unknown[]).length === 0 || (gb as unknown[]).length === 0) return 0;
  return multiPolyArea(intersection(ga, gb));
}

/** The union of a region's polygons as outer outlines. */
export function regionUnion(region: Region): Polygon[] {
  const geoms = toGeom(region) as Ring[][];
  const [first, ...rest] = geoms;
  if (!first) return [];
  return fromMultiPoly(union(first, ...rest));
}

/** Outlines of (union of a) ∩ (union of b). */
export function regionIntersection(a: Region, b: Region): Polygon[] {
  const ga = toGeom(a);
  const gb = toGeom(b);
  if ((ga as unknown[]).length === 0 || (gb as unknown[]).length === 0) return [];
  return fromMultiPoly(intersection(ga, gb));
}

/**
 * Outer outlines of (union of a) minus (union of b). Holes are dropped: callers measure distances
 * from outside the result, where holes never hold the nearest point.
 */
export function regionDifference(a: Region, b: Region): Polygon[] {
  const ga = toGeom(a);
  if ((ga as unknown[]).length === 0) return [];
  const gb = toGeom(b);
  if ((gb as unknown[]).length === 0) return fromMultiPoly(union(...(ga as [Ring[], ...Ring[][]])));
  return fromMultiPoly(difference(ga, ...(gb as Ring[][])));
}
