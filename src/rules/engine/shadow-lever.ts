import { pointToPolygon } from '../../geometry/distance.ts';
import type { SightScreen } from '../../geometry/visible-region.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import { hypot } from '../../geometry/hypot.ts';

/**
 * How far from the eye a hider's shadow edges turn (mm): a shadow edge at t mm moves δ·t/b there
 * when the hider moves δ, and δ·(t − b)/b when the eye does. Undefined for cover, which covers
 * its own inside wherever the eye stands (no lever).
 *
 * - An outline (a unit, a building, a hill): its edges run through its corners at the extremes of
 *   its span of bearings, not through its nearest point. An eye a millimetre from a hill's long
 *   side is not a millimetre from where the hill's shadow turns (that had read a band of 27").
 * - A wood: what lies more than its depth inside is hidden, so its edges turn at least the depth
 *   beyond its nearest point (an eye inside the wood is not their pivot either).
 */
export function shadowPivotMm(
  eye: Vec2,
  along: Vec2,
  screen: SightScreen,
  eyeBandMm: number,
): number | undefined {
  if (screen.kind === 'area') return undefined;
  // No nearer than the eye's own band: an eye that may stand either side of a corner is not turning
  // a shadow about it (the sight from a step round it is probed instead: sight-share.ts seamOf),
  // and a lever read off a millimetre claims a band of half the table.
  const least = Math.max(1, eyeBandMm);
  const d = pointToPolygon(eye, screen.polygon).distance;
  if (screen.kind === 'wood') return Math.max(least, d + (screen.depthMm ?? 0));
  if (d === 0) return least;
  let lo = Infinity;
  let hi = -Infinity;
  let loMm = d;
  let hiMm = d;
  for (const p of screen.polygon) {
    const dx = p.x - eye.x;
    const dy = p.y - eye.y;
    const bearing = Math.atan2(along.x * dy - along.y * dx, along.x * dx + along.y * dy);
    if (bearing < lo) [lo, loMm] = [bearing, hypot(dx, dy)];
    if (bearing > hi) [hi, hiMm] = [bearing, hypot(dx, dy)];
  }
  return Math.max(least, Math.min(loMm, hiMm));
}
