import { polygonSeparation } from '../../geometry/distance.ts';
import { convexHull } from '../../geometry/hull.ts';
import { centroid, type Polygon } from '../../geometry/polygon.ts';

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
  /** One-sigma heading error, degrees (turns its corners about its centre). */
  readonly sigmaHeadingDeg?: number;
}

/** Seam under which two bases count as touching: the floor, or what their pose errors could open. */
const seamMm = (a: RankBase, b: RankBase): number => Math.max(SEAM_FLOOR_MM, 3 * (a.sigmaMm + b.sigmaMm));

/** How far a base's outline may stand off its reported place: its centre's error and its corners' turn. */
function errorReachMm(b: RankBase): number {
  const c = centroid(b.polygon);
  const lever = Math.max(0, ...b.polygon.map((p) => Math.hypot(p.x - c.x, p.y - c.y)));
  return b.sigmaMm + lever * (((b.sigmaHeadingDeg ?? 0) * Math.PI) / 180);
}

/**
 * A body joined by a link its bases' own errors could open: two bases within the seam by less
 * than they may stand off (O'er the Sea plain 28309: 5.0 mm apart against a seam of 5.46 mm, and
 * a base moved within its sigma opened a crack that showed 29% of the unit behind). The parts it
 * would fall into with every such link open, and how far the nearest is from opening, mm.
 */
export interface Crack {
  readonly parts: readonly Polygon[];
  readonly openMm: number;
}

const cracks = new WeakMap<Polygon, Crack>();

/** The crack of a body `closedRanks` returned, if its joining is in doubt. */
export const crackOf = (body: Polygon): Crack | undefined => cracks.get(body);

/** Groups of `n` items joined by `links` (union-find), each as its members' indices. */
function groupsOf(n: number, links: ReadonlyArray<readonly [number, number]>): number[][] {
  const group = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    while (group[i] !== i) i = group[i] as number;
    return i;
  };
  for (const [i, j] of links) group[find(j)] = find(i);
  const out = new Map<number, number[]>();
  for (let i = 0; i < n; i++) out.set(find(i), [...(out.get(find(i)) ?? []), i]);
  return [...out.values()];
}

const hullOf = (bases: readonly RankBase[], members: readonly number[]): Polygon =>
  members.length === 1
    ? (bases[members[0] as number] as RankBase).polygon
    : convexHull(members.flatMap((i) => (bases[i] as RankBase).polygon));

/** Bodies per list of bases (a table state's lists never change): every sight of a table reads them. */
const bodies = new WeakMap<readonly RankBase[], readonly Polygon[]>();

/**
 * The bodies `bases` hide as, worked out once per list: the same outline objects every time, so
 * the shadows kept per outline and eye (eye-shadow.ts) are found again by the next sight.
 */
export function closedRanks(bases: readonly RankBase[]): readonly Polygon[] {
  let out = bodies.get(bases);
  if (!out) {
    out = Object.freeze(bodiesOf(bases));
    bodies.set(bases, out);
  }
  return out;
}

function bodiesOf(bases: readonly RankBase[]): Polygon[] {
  const n = bases.length;
  if (n < 2) return bases.map((b) => b.polygon);
  const links: Array<[number, number]> = [];
  const firm: Array<[number, number]> = [];
  // Links their bases' errors could open: the first base, and how far the link is from opening.
  const doubt: Array<{ readonly i: number; readonly openMm: number }> = [];
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const a = bases[i] as RankBase;
      const b = bases[j] as RankBase;
      const gap = polygonSeparation(a.polygon, b.polygon).distance;
      const seam = seamMm(a, b);
      if (gap > seam) continue;
      links.push([i, j]);
      if (seam - gap < errorReachMm(a) + errorReachMm(b)) doubt.push({ i, openMm: seam - gap });
      else firm.push([i, j]);
    }
  return groupsOf(n, links).map((members) => {
    const body = hullOf(bases, members);
    if (members.length < 2 || doubt.length === 0) return body;
    // The same bases joined by their firm links only.
    const inGroup = new Set(members);
    const parts = groupsOf(
      n,
      firm.filter(([i]) => inGroup.has(i)),
    ).filter((g) => inGroup.has(g[0] as number));
    if (parts.length < 2) return body;
    const openMm = Math.min(...doubt.filter((d) => inGroup.has(d.i)).map((d) => d.openMm));
    cracks.set(body, { parts: parts.map((g) => hullOf(bases, g)), openMm });
    return body;
  });
}
