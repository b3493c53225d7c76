import { boxOfAll, boxPointGap } from '../../geometry/box.ts';
import { closestPointOnSegment, pointToOutline } from '../../geometry/distance.ts';
import { hypot } from '../../geometry/hypot.ts';
import { noteSight } from '../../geometry/look-record.ts';
import { containsPoint } from '../../geometry/polygon.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import { sightWindow, type Hidden, type SightScreen } from '../../geometry/visible-region.ts';
import { visibleShare } from '../../geometry/visible-share.ts';
import { passingEye } from '../../geometry/per-eye-cache.ts';
import { probeMove } from './probe.ts';
import type { SeenShare, SightInputs } from './sight-share.ts';

/**
 * What the eye's own place decides about a sight (sight-share.ts): a screen's outline or a solid's
 * within a step of it, a wood it stands in. Moving the target never finds these; the eye moving
 * does.
 */

/**
 * The nearest outline of a screen (a building, a hill, an O'er the Sea wood) within `reachMm` of
 * the eye, and a point just across it. A screen hides nothing from an eye inside it and what lies
 * behind it from one outside: crossing its outline changes the view at once.
 */
export function screenCrossing(
  eye: Vec2,
  screens: readonly SightScreen[],
  reachMm: number,
): { mm: number; at: Vec2 } | undefined {
  let best: { mm: number; at: Vec2 } | undefined;
  for (const s of screens) {
    if (s.kind !== 'screen') continue;
    if (boxPointGap(s.box, eye) > (best?.mm ?? reachMm)) continue;
    const n = s.polygon.length;
    for (let i = 0; i < n; i++) {
      const a = s.polygon[i] as Vec2;
      const c = s.polygon[(i + 1) % n] as Vec2;
      const q = closestPointOnSegment(eye, a, c);
      const mm = hypot(q.x - eye.x, q.y - eye.y);
      if (mm >= (best?.mm ?? reachMm)) continue;
      // A hundredth of a millimetre across the outline, away from the eye (or off the edge's
      // normal when the eye is on it).
      const away =
        mm > 1e-9 ? { x: (q.x - eye.x) / mm, y: (q.y - eye.y) / mm } : edgeNormalAcross(s, a, c, eye);
      best = { mm, at: { x: q.x + away.x * 0.01, y: q.y + away.y * 0.01 } };
    }
  }
  return best;
}

/** The unit normal of edge a→c pointing to the other side of the outline from `eye`. */
function edgeNormalAcross(s: SightScreen, a: Vec2, c: Vec2, eye: Vec2): Vec2 {
  const len = hypot(c.x - a.x, c.y - a.y) || 1;
  const n = { x: -(c.y - a.y) / len, y: (c.x - a.x) / len };
  const probe = { x: eye.x + n.x * 0.01, y: eye.y + n.y * 0.01 };
  return containsPoint(s.polygon, probe) === containsPoint(s.polygon, eye) ? { x: -n.x, y: -n.y } : n;
}

/** How far the eye (outside every solid screen) is from the nearest solid screen's outline, when within `reachMm`. */
export function nearestSolidMm(
  eye: Vec2,
  screens: readonly SightScreen[],
  reachMm: number,
): number | undefined {
  let best = reachMm;
  for (const s of screens) {
    if (s.kind !== 'solid') continue;
    if (boxPointGap(s.box, eye) > best) continue;
    best = Math.min(best, pointToOutline(eye, s.polygon));
  }
  return best < reachMm ? best : undefined;
}

/** Whether the eye stands in a wood, or within its depth and two bands of its outline. */
export function eyeAtWood(eye: Vec2, s: SightScreen, eyeBandMm: number): boolean {
  if (s.kind !== 'wood') return false;
  const reach = (s.depthMm ?? 0) + 2 * eyeBandMm;
  if (boxPointGap(s.box, eye) > reach) return false;
  return pointToOutline(eye, s.polygon) <= reach || containsPoint(s.polygon, eye);
}

/**
 * Seen from an eye moved one band either way across and along the sight line (the sight again
 * from there, past the screens whose shadows reach near the target: one left out only shows
 * more): the least move that shows some of the target, narrowed down by bisection (probe.ts).
 */
export function eyeMovedMm(
  inputs: SightInputs,
  hidden: readonly Hidden[],
  along: Vec2,
  eyeBandMm: number,
): number {
  const shares = sharesFromMovedEye(
    inputs,
    hidden.map((h) => h.screen),
    along,
  );
  let best = Infinity;
  for (const shareAt of shares) best = Math.min(best, probeMove(shareAt, 0, 'moreThan', 0, eyeBandMm).moveMm);
  return best;
}

/**
 * The share (%) of the target seen past `screens` from the eye moved `offsetMm` across and (the
 * second) along the sight line `along` (noted: the units there change it).
 */
export function sharesFromMovedEye(
  inputs: SightInputs,
  screens: readonly SightScreen[],
  along: Vec2,
): [(offsetMm: number) => number, (offsetMm: number) => number] {
  const { eye, target } = inputs;
  const tb = boxOfAll(target);
  const shareFrom = (d: Vec2) => (offsetMm: number) => {
    const at = { x: eye.x + d.x * offsetMm, y: eye.y + d.y * offsetMm };
    noteSight(at, tb, sightWindow(at, tb, 1));
    return passingEye(at, () => visibleShare(at, target, screens)) * 100;
  };
  return [shareFrom({ x: -along.y, y: along.x }), shareFrom(along)];
}

/** SeenShare.eyeAtWood: the sight from the moved eye past every screen (a seen target has no hiders to go by), remembered per offset. */
export function woodEye(
  inputs: SightInputs,
  along: Vec2,
  bandMm: number,
): NonNullable<SeenShare['eyeAtWood']> {
  const shares = sharesFromMovedEye(inputs, inputs.screens, along);
  const memo = [new Map<number, number>(), new Map<number, number>()] as const;
  return {
    bandMm,
    shareAt: (k, offsetMm) => {
      let v = memo[k].get(offsetMm);
      if (v === undefined) {
        v = shares[k](offsetMm);
        memo[k].set(offsetMm, v);
      }
      return v;
    },
  };
}
