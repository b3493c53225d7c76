import { pointToPolygon } from '../../geometry/distance.ts';
import type { Polygon } from '../../geometry/polygon.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import {
  seenShareGiven,
  sightScreen,
  type Hidden,
  type SightScreen,
  type VisibleRegion,
} from '../../geometry/visible-region.ts';
import type { SightInputs } from './sight-share.ts';
import { crackOf } from './closed-ranks.ts';

/**
 * What moving a piece other than the whole target shows of it (sight-share.ts): a hider against
 * the others, one body of the target on its own, or a unit's body fallen into its parts at a crack
 * its bases could open. Each base is placed on its own, so a gap between two of them is as unsure
 * as its ends; moving the target whole never opens or closes it.
 */

/** SightInputs.screenMoves, or its default (a hider with a sigma). */
export const screenMoves = (inputs: SightInputs, s: SightScreen): boolean =>
  inputs.screenMoves ? inputs.screenMoves(s) : inputs.screenSigmaMm(s) > 0;

/** A polygon moved by `d`. */
export const moved = (p: Polygon, d: Vec2): Polygon => p.map((q) => ({ x: q.x + d.x, y: q.y + d.y }));

/** SeenShare.bodyShifts: one share function per body of a target of several, when something hides part of it. */
export function shiftedBodies(
  target: readonly Polygon[],
  hidden: readonly Hidden[],
  region: VisibleRegion,
  across: Vec2,
  targetArea: number,
): Array<(offsetMm: number) => number> {
  if (target.length < 2 || region.hiddenBy.length === 0) return [];
  return target.map((_, i) => (offsetMm: number) => {
    const d = { x: across.x * offsetMm, y: across.y * offsetMm };
    const shifted = target.map((p, j) => (j === i ? moved(p, d) : p));
    // A body shifted may meet the next: the sweep, which counts an overlap once.
    return seenShareGiven(shifted, hidden, targetArea, false) * 100;
  });
}

/**
 * For each movable hider that cuts the target: the hidden set with that hider itself moved
 * `offsetMm` across the sight line and its shadow cast again (`shadowOf`), or undefined when it
 * then stands on the eye (which sees nothing). A unit a lever from the target swings its shadow's
 * edge there many times as far as it moves. (SeenShare.hiderShifts and hiderMovedSeen.)
 */
export function hidersMoved(
  inputs: SightInputs,
  hidden: readonly Hidden[],
  region: VisibleRegion,
  across: Vec2,
  shadowOf: (screen: SightScreen) => Hidden | 'blind',
): Array<{ readonly screen: SightScreen; at(offsetMm: number): readonly Hidden[] | undefined }> {
  // Every unit (and every body of one: each base is placed on its own) that hides some of it.
  if (region.hiddenBy.length === 0) return [];
  let cutting = new Set(region.hiddenBy.map((h) => h.id));
  // Nothing seen, and another hider covers all of it: moving one alone shows nothing. Two that each
  // cover it whole leave nothing to move; one leaves only itself.
  if (region.share === 0) {
    const whole = region.hiddenBy.filter((h) => h.share >= 1);
    if (whole.length >= 2) return [];
    if (whole.length === 1) cutting = new Set([(whole[0] as { id: string }).id]);
  }
  const out: Array<{ readonly screen: SightScreen; at(offsetMm: number): readonly Hidden[] | undefined }> =
    [];
  hidden.forEach((h, i) => {
    const s = h.screen;
    if (!cutting.has(s.id) || !screenMoves(inputs, s)) return;
    out.push({
      screen: s,
      at: (offsetMm) => {
        const d = { x: across.x * offsetMm, y: across.y * offsetMm };
        const cast = shadowOf(sightScreen(s.id, s.label, moved(s.polygon, d), s.kind, s.depthMm));
        return cast === 'blind' ? undefined : hidden.map((o, j) => (j === i ? cast : o));
      },
    });
  });
  return out;
}

/**
 * Whether `screen` moved up to `moveMm` could still stand across every bearing of `seen` from the
 * eye (`along`: the sight line), so that its shadow might hide all of it. A point r from the eye
 * turns at most asin(move / r) as it moves; a bearing of the seen part outside the screen's span
 * grown by that much is one it can never cover.
 */
export function couldCoverAll(
  eye: Vec2,
  along: Vec2,
  screen: SightScreen,
  seen: readonly Polygon[],
  moveMm: number,
): boolean {
  const bearing = (p: Vec2) => {
    const dx = p.x - eye.x;
    const dy = p.y - eye.y;
    return Math.atan2(along.x * dy - along.y * dx, along.x * dx + along.y * dy);
  };
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of screen.polygon) {
    const a = bearing(p);
    lo = Math.min(lo, a);
    hi = Math.max(hi, a);
  }
  // The eye near it, or bearings round the back: no bound worth the risk.
  const reach = pointToPolygon(eye, screen.polygon).distance;
  if (!(reach > moveMm) || hi - lo > Math.PI / 2 || Math.abs(lo) > Math.PI / 2 || Math.abs(hi) > Math.PI / 2)
    return true;
  const turn = Math.asin(moveMm / reach);
  for (const poly of seen)
    for (const p of poly) {
      const a = bearing(p);
      if (a < lo - turn || a > hi + turn) return false;
    }
  return true;
}

/**
 * SeenShare.crackMm: for each hider whose body is joined by a link in doubt, the target with that
 * body fallen into its parts (each casting its own shadow), the parts also shifted together across
 * the sight line a quarter band at a time out to the band (a crack that misses the target as
 * reported can sweep onto it: O'er the Sea plain 7159). The least `openMm` plus shift through
 * which some of it is then seen; Infinity when none is within the band.
 */
export function cracksOpened(
  target: readonly Polygon[],
  hidden: readonly Hidden[],
  targetArea: number,
  apart: boolean,
  shadowOf: (screen: SightScreen) => Hidden | 'blind',
  across: Vec2,
  bandMm: number,
): number {
  let best = Infinity;
  const shifts = [0, 1, -1, 2, -2, 3, -3, 4, -4].map((k) => (k * bandMm) / 4);
  hidden.forEach((h, i) => {
    const c = crackOf(h.screen.polygon);
    if (!c || !(c.openMm < best)) return;
    for (const shift of shifts) {
      const mm = c.openMm + Math.abs(shift);
      if (!(mm < best) || !(mm < bandMm || shift === 0)) continue;
      const d = { x: across.x * shift, y: across.y * shift };
      const parts: Hidden[] = [];
      for (const p of c.parts) {
        const cast = shadowOf(
          sightScreen(h.screen.id, h.screen.label, moved(p, d), h.screen.kind, h.screen.depthMm),
        );
        if (cast === 'blind') break;
        parts.push(cast);
      }
      if (parts.length < c.parts.length) continue;
      const split = [...hidden.slice(0, i), ...parts, ...hidden.slice(i + 1)];
      if (seenShareGiven(target, split, targetArea, apart) > 0) best = mm;
    }
  });
  return best;
}
