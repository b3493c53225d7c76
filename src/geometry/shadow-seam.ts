import type { Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';

/**
 * Where hiders meet in front of a target: seen from the eye, a target wholly hidden by two or more
 * hiders is hidden because their spans of bearing overlap where one ends and the next begins. If
 * they overlap there by a hair, moving one a hair opens a gap and some of the target is seen,
 * though moving the target alone never shows it (a probe of the target finds nothing).
 *
 * A seam is an end of one hider's span that another hider covers; its overlap δ is how deep that
 * other covers the bearing (its angle to its own nearer end; the deepest such). A seam on a
 * bearing that meets the target (within one of its outlines' spans) opens onto it; one beside the
 * target, α from its span, must also come round to it. A hider's shadow spans the same bearings
 * as its outline.
 */
export interface SeamHider {
  readonly polygon: Polygon;
  /** Whether its place is uncertain (a unit); terrain stays where it is. */
  readonly movable: boolean;
  /**
   * A piece of a wood's depth shadow rather than an outline: its edges turn with the eye otherwise
   * than an outline's, so no seam between it and other terrain is read off the eye here.
   */
  readonly depthShadow?: boolean;
}

/**
 * The least move, as a move of the target (the scale the pose band is on, mm), that opens a gap at
 * a seam: a unit at either side moving δ·r across opens it, as the target would moving δ·t; two
 * pieces of terrain (seams on the target only) open only to the eye moving, which turns their edges against each other by
 * e·(1/r₁ − 1/r₂) for a move e, a move worth e·(t − r₁)/r₁ at the target. `targetMm`: the
 * target's distance from the eye. Infinity when there is no seam.
 */
export function seamMoveMm(
  eye: Vec2,
  along: Vec2,
  target: readonly Polygon[],
  hiders: readonly SeamHider[],
  targetMm: number,
): number {
  const bearing = (p: Vec2): number => {
    const dx = p.x - eye.x;
    const dy = p.y - eye.y;
    return Math.atan2(along.x * dy - along.y * dx, along.x * dx + along.y * dy);
  };
  const spanOf = (poly: Polygon) => {
    let lo = Infinity;
    let hi = -Infinity;
    let loAt = poly[0] as Vec2;
    let hiAt = loAt;
    for (const p of poly) {
      const a = bearing(p);
      if (a < lo) [lo, loAt] = [a, p];
      if (a > hi) [hi, hiAt] = [a, p];
    }
    return { lo, hi, loAt, hiAt };
  };
  // Per outline: bearings between two bases of the target see nothing of it.
  const targetSpans = target.map(spanOf);
  /**
   * Angle from a bearing to the nearest outline's span of the target (0 on it), and whether that
   * span lies to the side of `inward` (+1: higher bearings; −1: lower).
   */
  const offTarget = (a: number, inward: 1 | -1): { angle: number; inside: boolean } => {
    let best = { angle: Infinity, inside: false };
    for (const t of targetSpans) {
      const angle = a <= t.lo ? t.lo - a : a >= t.hi ? a - t.hi : 0;
      if (angle < best.angle) best = { angle, inside: angle === 0 || a <= t.lo === inward > 0 };
    }
    return best;
  };
  const spans = hiders.map((h) => spanOf(h.polygon));
  const cos = Math.cos;
  const sin = Math.sin;
  let least = Infinity;
  spans.forEach((s, i) => {
    for (const [end, at, inward] of [
      [s.lo, s.loAt, 1],
      [s.hi, s.hiAt, -1],
    ] as const) {
      const { angle: off, inside } = offTarget(end, inward);
      // Beside the target on the far side from this hider: the other's own end is the seam.
      if (off > 0 && !inside) continue;
      // The other hider covering this bearing deepest: a gap opens here once it is gone.
      let depth = -1;
      let by = -1;
      spans.forEach((o, j) => {
        if (j === i || o.lo > end || end > o.hi) return;
        const d = Math.min(end - o.lo, o.hi - end);
        if (d > depth) [depth, by] = [d, j];
      });
      if (by < 0) {
        // Nothing else there: on the target it would be seen; off it, the hider's own edge is for
        // the probes that move the target.
        if (off === 0) least = 0;
        continue;
      }
      const other = hiders[by] as SeamHider;
      // Off the target, the gap must also come round to it: the hider whose end this is moving
      // max(δ, α) does both (its edge passes the target's once the overlap is gone); the other
      // alone only opens the gap beside it, and the target must then move α too.
      if ((hiders[i] as SeamHider).movable) least = Math.min(least, Math.max(depth, off) * targetMm);
      else if (other.movable) least = Math.min(least, (depth + off) * targetMm);
      if (off > 0 || hiders[i]?.depthShadow || other.depthShadow) continue;
      // The eye moving opens it too, units or terrain: it turns their edges against each other.
      const rEnd = Math.hypot(at.x - eye.x, at.y - eye.y);
      const dir = {
        x: along.x * cos(end) - along.y * sin(end),
        y: along.x * sin(end) + along.y * cos(end),
      };
      const rOther = rayDistance(eye, dir, other.polygon);
      const r1 = Math.min(rEnd, rOther);
      const r2 = Math.max(rEnd, rOther);
      const turn = 1 / r1 - 1 / r2;
      if (!(turn > 0) || !Number.isFinite(r2)) continue;
      // (A seam beyond the target's centre opens onto its far part at once.)
      least = Math.min(least, Math.max(0, ((depth / turn) * (targetMm - r1)) / r1));
    }
  });
  return least;
}

/** Distance from `eye` along the unit vector `dir` to the nearest crossing of the polygon's edges. */
function rayDistance(eye: Vec2, dir: Vec2, poly: Polygon): number {
  let best = Infinity;
  for (let k = 0; k < poly.length; k++) {
    const a = poly[k] as Vec2;
    const b = poly[(k + 1) % poly.length] as Vec2;
    const ex = b.x - a.x;
    const ey = b.y - a.y;
    const den = dir.x * ey - dir.y * ex;
    if (den === 0) continue;
    const ax = a.x - eye.x;
    const ay = a.y - eye.y;
    const t = (ax * ey - ay * ex) / den;
    const u = (ax * dir.y - ay * dir.x) / den;
    if (t >= 0 && u >= 0 && u <= 1) best = Math.min(best, t);
  }
  return best;
}
