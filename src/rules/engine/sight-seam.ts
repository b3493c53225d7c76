import { intersectionArea } from '../../geometry/boolean.ts';
import { boxGap, boxOfAll, type Box } from '../../geometry/box.ts';
import { pointToOutline } from '../../geometry/distance.ts';
import { hypot } from '../../geometry/hypot.ts';
import type { Polygon } from '../../geometry/polygon.ts';
import { seamMoveMm, type SeamHider } from '../../geometry/shadow-seam.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import {
  seenShareGiven,
  type Hidden,
  type SightScreen,
  type VisibleRegion,
} from '../../geometry/visible-region.ts';
import { eyeAtWood, eyeMovedMm } from './sight-eye.ts';
import type { SightInputs } from './sight-share.ts';
import { screenMoves } from './sight-shifts.ts';

/**
 * A target wholly hidden by two or more hiders (sight-share.ts): where they meet in front of it, a
 * hair's move of one opens a gap; and an eye at the edge of a wood or a unit that hides it sees
 * round it a step away. Moving the target finds neither.
 */

/**
 * SeenShare.seamMm: the least move that opens a gap where the hiders meet (shadow-seam.ts), or
 * that takes the eye round what hides the target where it stands at its edge: within a wood's
 * depth, where sight runs out moves with the eye; at a unit's corner, a step swings its shadow
 * across the target (a leader at a neighbour's corner). Moving the target finds neither.
 */
export function seamOf(
  inputs: SightInputs,
  hidden: readonly Hidden[],
  region: VisibleRegion,
  along: Vec2,
  eyeBandMm: number,
): number {
  if (region.share > 0 || region.hiddenBy.length === 0) return Infinity;
  const cutting = new Set(region.hiddenBy.map((h) => h.id));
  const eyeStep = () => eyeMovedMm(inputs, hidden, along, eyeBandMm);
  const cuts = hidden.filter((h) => cutting.has(h.screen.id));
  if (cuts.some((h) => eyeAtWood(inputs.eye, h.screen, eyeBandMm))) return eyeStep();
  const seam = seamsWhereHidersMeet(inputs, hidden, cutting, along);
  const atUnit = cuts.some(
    (h) => h.screen.kind === 'solid' && pointToOutline(inputs.eye, h.screen.polygon) <= 2 * eyeBandMm,
  );
  // A wood hides by its depth, and how deep the sight line runs in it turns with the eye at any
  // distance: where its depth shadow meets another hider's, a step of the eye can open a gap that
  // moving the target never finds (a gun 14" from a wood, hidden by the wood and a building). Not
  // when the other hiders hide the whole target without the wood: it then decides nothing (their
  // seams are read above). Most bench pairs behind a wood are so (a third of a fresh run, else).
  const isWood = (h: Hidden) => h.screen.kind === 'wood';
  const withWood =
    cuts.length > 1 &&
    cuts.some(isWood) &&
    seenShareGiven(
      inputs.target,
      hidden.filter((h) => !isWood(h)),
    ) > 0;
  return atUnit || withWood ? Math.min(seam, eyeStep()) : seam;
}

/** The seams where the hiders meet in front of the target (`cutting`: ids of those that hide some), for seamOf. */
function seamsWhereHidersMeet(
  inputs: SightInputs,
  hidden: readonly Hidden[],
  cutting: ReadonlySet<string>,
  along: Vec2,
): number {
  const spans = (h: Hidden) => h.screen.kind === 'solid' || h.screen.kind === 'screen';
  const isWood = (h: Hidden) => h.screen.kind === 'wood';
  if (hidden.some((h) => cutting.has(h.screen.id) && !spans(h) && !isWood(h))) return Infinity;
  const { eye, target } = inputs;
  const tb = boxOfAll(target);
  // Every hider whose shadow reaches near the target: one that hides none of it may still meet
  // the one that hides it all just beside it. A screen the target stands in hides only what lies
  // beyond it (it shows what stands in it), not its whole span of bearings as the seams assume:
  // the seams are found with it (it hides the part beyond) and without it (the part in it), and
  // the nearer to opening taken. (A solid hides its own inside: kept.) A wood takes part by its
  // depth shadow's pieces near the target: beyond the wood they hide whole bearings, as an
  // outline does, and a unit moving off them opens a gap (their own edges turn with the eye
  // otherwise: eyeMovedMm).
  const all = hidden.filter((h) => spans(h) || isWood(h));
  const seamHiders = (h: Hidden): SeamHider[] =>
    isWood(h)
      ? h.polygons.map((polygon) => ({ polygon, movable: false, depthShadow: true }))
      : [{ polygon: h.screen.polygon, movable: screenMoves(inputs, h.screen) }];
  const seamsOf = (hs: readonly Hidden[]): number =>
    hs.length < 2 && hs.length === all.length && !hs.some(isWood)
      ? Infinity
      : seamMoveMm(
          eye,
          along,
          target,
          hs.flatMap(seamHiders),
          hypot((tb.minX + tb.maxX) / 2 - eye.x, (tb.minY + tb.maxY) / 2 - eye.y),
        );
  const outside = all.filter((h) => h.screen.kind !== 'screen' || !standsIn(target, tb, h.screen));
  const withAll = seamsOf(all);
  if (outside.length === all.length || outside.length === 0) return withAll;
  // Without the screen, an end left open on the target (0) lies where the screen hides the part
  // beyond it (the target is wholly hidden): not a seam.
  const without = seamsOf(outside);
  return without > 0 ? Math.min(withAll, without) : withAll;
}

/** Whether some of the target lies inside the screen's outline. */
function standsIn(target: readonly Polygon[], tb: Box, screen: SightScreen): boolean {
  if (boxGap(screen.box, tb) > 0) return false;
  return target.some((p) => intersectionArea([p], [screen.polygon]) > 0);
}
