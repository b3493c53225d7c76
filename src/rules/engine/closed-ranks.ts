import { polygonSeparation } from '../../geometry/distance.ts';
import { convexHull } from '../../geometry/hull.ts';
import type { Polygon } from '../../geometry/polygon.ts';

/**
 * A unit as it hides what lies behind it: bases that stand in contact (within a seam the camera
 * cannot tell from contact) are one body, not a row of separate blocks with hairline cracks a
 * sight line could slip through. Otherwise a line of touching bases, reported a millimetre
 * apart, would show half a unit behind it through the cracks: an answer no player would give
 * and one that flips with every frame. Each group of touching bases hides as their convex hull
 * (a line, a column, a block); bases standing apart (skirmishers, a gun and its crew at a
 * distance) stay separate.
 */

/** The least seam counted as contact, mm: finer than any player sees between two bases. */
const SEAM_FLOOR_MM = 3;

export interface RankBase {
  readonly polygon: Polygon;
  /** One-sigma pose error of the base, mm. */
  readonly sigmaMm: number;
}

/** Seam under which two bases count as touching: the floor, or what their pose errors could open. */
const seamMm = (a: RankBase, b: RankBase): number => Math.max(SEAM_FLOOR_MM, 3 * (a.sigmaMm + b.sigmaMm));

export function closedRanks(bases: readonly RankBase[]): Polygon[] {
  const n = bases.length;
  if (n < 2) return bases.map((b) => b.polygon);
  const group = bases.map((_, i) => i);
  const find = (i: number): number => {
    while (group[i] !== i) i = group[i] as number;
    return i;
  };
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const a = bases[i] as RankBase;
      const b = bases[j] as RankBase;
      if (polygonSeparation(a.polygon, b.polygon).distance <= seamMm(a, b)) group[find(j)] = find(i);
    }
  const groups = new Map<number, Polygon[]>();
  for (let i = 0; i < n; i++) {
    const g = find(i);
    groups.set(g, [...(groups.get(g) ?? []), (bases[i] as RankBase).polygon]);
  }
  return [...groups.values()].map((ps) => (ps.length === 1 ? (ps[0] as Polygon) : convexHull(ps.flat())));
}
