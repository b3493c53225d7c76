import { difference, intersection, setPrecision, union, type Geom } from 'polyclip-ts';
import { signedArea, type Polygon } from './polygon.ts';
import { booleanArea } from './region-area.ts';
import type { Vec2 } from './vec.ts';

/** A ring of [x, y] points, as polyclip-ts takes and gives them. */
type Ring = [number, number][];

/**
 * Polygon boolean work. Outlines are delegated to polyclip-ts (a maintained Martinez-style sweep
 * line); areas alone (what sight shares and their probes need, many times a pair) are summed
 * over vertical slabs (region-area.ts), ~20× faster and unable to fail. Shapes here are lists of
 * simple polygons; their union is meant (a unit is a set of bases).
 *
 * Robust input: a sweep line fails ("Unable to complete output ring") when two vertices or a
 * vertex and an edge differ only by float noise — a base corner computed to lie exactly on a
 * quarter's 45° ray comes out 2.794000000000004 on one side and 2.793999999999997 on the other.
 * So every coordinate is snapped to a grid of SNAP_MM (a nanometre: far below anything a camera
 * measures) and duplicate or collinear-degenerate vertices are dropped before the library sees
 * them; should it still refuse, the operation is retried with the library's own epsilon
 * snapping on (slower), and only then does the error propagate.
 */
export type Region = readonly Polygon[];

/** Snapping grid, mm. */
export const SNAP_MM = 1e-6;
/** Epsilon for the library's own snapping on the retry, mm. */
const RETRY_EPSILON = 1e-7;

const snap = (v: number): number => Math.round(v / SNAP_MM) * SNAP_MM;

/** A closed ring on the snapping grid, with repeated vertices and zero-area spikes removed. */
function toRing(poly: Polygon): Ring | undefined {
  const pts: [number, number][] = [];
  for (const p of poly) {
    const q: [number, number] = [snap(p.x), snap(p.y)];
    const last = pts[pts.length - 1];
    if (!last || last[0] !== q[0] || last[1] !== q[1]) pts.push(q);
  }
  while (pts.length > 1) {
    const a = pts[0] as [number, number];
    const b = pts[pts.length - 1] as [number, number];
    if (a[0] === b[0] && a[1] === b[1]) pts.pop();
    else break;
  }
  if (pts.length < 3) return undefined;
  const area = signedArea(pts.map(([x, y]) => ({ x, y })));
  if (Math.abs(area) < SNAP_MM * SNAP_MM) return undefined;
  const first = pts[0] as [number, number];
  pts.push([first[0], first[1]]);
  return pts;
}

function toGeom(region: Region): Ring[][] {
  const out: Ring[][] = [];
  for (const p of region) {
    const r = toRing(p);
    if (r) out.push([r]);
  }
  return out;
}

/** Runs a polyclip operation, retrying once with the library's epsilon snapping on. */
function robust<T>(op: () => T): T {
  try {
    return op();
  } catch (first) {
    setPrecision(RETRY_EPSILON);
    try {
      return op();
    } catch {
      throw first;
    } finally {
      setPrecision();
    }
  }
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
  return booleanArea(region, [], 'union');
}

/** Area of (union of a) ∩ (union of b). */
export function intersectionArea(a: Region, b: Region): number {
  return booleanArea(a, b, 'intersection');
}

/** The union of a region's polygons as outer outlines. */
export function regionUnion(region: Region): Polygon[] {
  const geoms = toGeom(region);
  const [first, ...rest] = geoms;
  if (!first) return [];
  return fromMultiPoly(robust(() => union(first as Geom, ...(rest as Geom[]))) as Ring[][]);
}

/** Outlines of (union of a) ∩ (union of b). */
export function regionIntersection(a: Region, b: Region): Polygon[] {
  const ga = toGeom(a);
  const gb = toGeom(b);
  if (ga.length === 0 || gb.length === 0) return [];
  return fromMultiPoly(intersectionGeom(ga, gb));
}

/** (union of a) minus (union of b), as polyclip gives it: outer rings with their holes. */
function differenceGeom(a: Region, b: Region): Ring[][] {
  const ga = toGeom(a);
  if (ga.length === 0) return [];
  const gb = toGeom(b);
  if (gb.length === 0) {
    const [first, ...rest] = ga as [Ring[], ...Ring[][]];
    return robust(() => union(first as Geom, ...(rest as Geom[]))) as Ring[][];
  }
  return robust(() => difference(ga as Geom, ...(gb as Geom[]))) as Ring[][];
}

/** (union of a) ∩ (union of b), as polyclip gives it. */
function intersectionGeom(ga: Ring[][], gb: Ring[][]): Ring[][] {
  return robust(() => intersection(ga as Geom, gb as Geom)) as Ring[][];
}

/**
 * Outer outlines of (union of a) minus (union of b). Holes are dropped: callers measure distances
 * from outside the result, where holes never hold the nearest point.
 */
export function regionDifference(a: Region, b: Region): Polygon[] {
  return fromMultiPoly(differenceGeom(a, b));
}

/** Area of (union of a) minus (union of b), holes counted. */
export function regionDifferenceArea(a: Region, b: Region): number {
  return booleanArea(a, b, 'difference');
}

/** (union of a) minus (union of b): its outlines (holes dropped) and its exact area (holes counted). */
export function regionDifferenceWithArea(a: Region, b: Region): { polygons: Polygon[]; area: number } {
  const g = differenceGeom(a, b);
  return { polygons: fromMultiPoly(g), area: multiPolyArea(g) };
}
