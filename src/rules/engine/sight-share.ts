import { regionArea } from '../../geometry/boolean.ts';
import { boxOfAll, growBox } from '../../geometry/box.ts';
import { pointToOutline } from '../../geometry/distance.ts';
import type { Polygon } from '../../geometry/polygon.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import {
  hiddenRegions,
  seenShareGiven,
  seenShareGivenMoved,
  sightWindow,
  visibleGiven,
  type Hidden,
  type SightScreen,
  type VisibleRegion,
} from '../../geometry/visible-region.ts';
import { noteLooked, noteSight } from '../../geometry/look-record.ts';
import { piecesApart } from '../../geometry/target-pieces.ts';
import { widestPart } from '../../geometry/piece-width.ts';
import { probedQuantity, probeMove } from './probe.ts';
import { shadowPivotMm } from './shadow-lever.ts';
import { eyeAtWood, nearestSolidMm, screenCrossing, woodEye } from './sight-eye.ts';
import { couldCoverAll, cracksOpened, hidersMoved, moved, shiftedBodies } from './sight-shifts.ts';
import { seamOf } from './sight-seam.ts';
import { holds, type Comparison, type Quantity } from './threshold.ts';
import { hypot } from '../../geometry/hypot.ts';

/**
 * The share of a target seen from an eye, with what the uncertainty model needs: how unsure we are
 * of the target's place relative to the shadows that cut it, and the share recomputed with the
 * target moved across and along the sight line (for how far it must move to change an answer).
 *
 * A shadow edge is cast by a hider's corner b mm from the eye and lies t mm out at the target:
 * the hider moving δ moves the edge δ·t/b there, the eye moving δ moves it δ·(t − b)/b. So the
 * relative uncertainty is the target's sigma, the eye's and each nearby hider's, each times its
 * lever, in quadrature.
 */
export interface SeenShare {
  readonly region: VisibleRegion;
  /** One-sigma uncertainty of the target's position relative to the shadows that could cut it, mm. */
  readonly sigmaMm: number;
  /** The share (%) with the target moved `offsetMm` across (k = 0) or along (k = 1) the sight line. */
  shareAt(k: 0 | 1, offsetMm: number): number;
  /**
   * The seen part of the target moved the same way, and the move itself (table mm), for a share
   * measured otherwise than by area (by frontage, say).
   */
  seenAt(k: 0 | 1, offsetMm: number): { readonly seen: readonly Polygon[]; readonly offset: Vec2 };
  /** Unit vector across the sight line (the direction of probe k = 0). */
  readonly across: Vec2;
  /**
   * Wholly hidden by two or more hiders: how far they would have to move apart for a gap to open
   * where they meet in front of it (shadow-seam.ts), as a move of the target, mm. Infinity
   * otherwise, or when a wood or cover area is among them (no bearing span says what they hide).
   */
  seamMm(): number;
  /**
   * Nothing seen: how far a unit hiding it is from a crack opening between its bases (its body
   * joined by a link its bases' errors could open, `crackOf`), when the target shows through that
   * crack; Infinity when none does.
   */
  crackMm?(bandMm: number): number;
  /**
   * For each unit that hides part of the target (its place uncertain), the share (%) with that
   * unit moved `offsetMm` across the sight line and its shadow cast again, the other hiders left
   * where they are: a gap between two of them widens or closes, and a unit near the eye swings its
   * shadow's edge at the target many times as far; moving the target shows neither.
   */
  hiderShifts?(hideAllWithin?: number): ReadonlyArray<(offsetMm: number) => number>;
  /** The seen part with each such hider moved `offsetMm` across, as hiderShifts (for a range to it). */
  hiderMovedSeen?(): ReadonlyArray<(offsetMm: number) => readonly Polygon[]>;
  /**
   * For a target of several bodies standing apart (bases not in contact), the share (%) with one of
   * them shifted `offsetMm` across the sight line, the others left: each base is placed on its
   * own, and one moving into a shadow while another moves out of one is what moving the target
   * whole never shows (two bases either side of a hider's edge).
   */
  bodyShifts?(): ReadonlyArray<(offsetMm: number) => number>;
  /**
   * When the eye stands inside a solid screen and sees nothing (a leader on a wall it lines): how
   * far inside, mm. Moving the target changes nothing then, but the eye moving that far does.
   */
  readonly blindDepthMm?: number;
  /**
   * When the eye stands outside every solid screen but within reach of one (a leader on the edge of
   * a base it touches, beside a wall): how far it is from standing inside, mm. There it would see
   * nothing.
   */
  readonly nearBlindMm?: number;
  /**
   * When the eye is within reach of a screen's outline (a building, a hill): how far, and the view
   * from just across it (inside, the screen hides nothing; outside, what lies behind it).
   */
  readonly acrossScreen?: {
    readonly mm: number;
    readonly share: number;
    readonly seen: readonly Polygon[];
    /**
     * The whole sight from there, to probe: the target or a hider moving within the band can
     * answer otherwise from across even when the view from there as it stands does not (a half
     * seen from across a hill's edge past a unit's corner).
     */
    readonly view: SeenShare;
  };
  /**
   * When the eye stands in a wood, or within its depth and two bands of its outline: the share (%)
   * seen from the eye moved `offsetMm` across (k = 0) or along (k = 1) the sight line, probed over
   * the eye's own band. How far into the wood sight runs moves with the eye (a gun in a wood that
   * sees out past its edge by a few millimetres of wood), and moving the target hardly finds it.
   */
  readonly eyeAtWood?: { readonly bandMm: number; shareAt(k: 0 | 1, offsetMm: number): number };
}

export interface SightInputs {
  readonly eye: Vec2;
  /** One-sigma error of the eye's position, mm. */
  readonly eyeSigmaMm: number;
  readonly target: readonly Polygon[];
  readonly targetSigmaMm: number;
  readonly screens: readonly SightScreen[];
  /** One-sigma error of a hider's position (units move; terrain does not), mm. */
  readonly screenSigmaMm: (s: SightScreen) => number;
  /**
   * Whether a hider is placed by the camera (a unit), so that it may stand off by the band however
   * small its sigma (the policy's floor); terrain is drawn once and stays. By default, a hider
   * with a sigma.
   */
  readonly screenMoves?: (s: SightScreen) => boolean;
}

/**
 * The seen share of `target`, exact. `reachMm` is how far probes may move the target (the hidden
 * regions are built that far round it); `bandFor` turns the relative sigma into the pose band.
 */
export function seenShare(
  inputs: SightInputs,
  bandFor: (sigmaMm: number) => number,
  /** False for the view from across a screen itself (it would only step back). */
  lookAcross = true,
): SeenShare {
  const { eye, target } = inputs;
  const tb = boxOfAll(target);
  const targetArea = areaOf(target);
  const cx = (tb.minX + tb.maxX) / 2;
  const cy = (tb.minY + tb.maxY) / 2;
  const len = hypot(cx - eye.x, cy - eye.y) || 1;
  const along = { x: (cx - eye.x) / len, y: (cy - eye.y) / len };
  const across = { x: -along.y, y: along.x };
  // The farthest corner of the target's box (the same hypots and max as over a list of corners).
  const tFar = Math.max(
    hypot(tb.minX - eye.x, tb.minY - eye.y),
    hypot(tb.maxX - eye.x, tb.minY - eye.y),
    hypot(tb.maxX - eye.x, tb.maxY - eye.y),
    hypot(tb.minX - eye.x, tb.maxY - eye.y),
  );
  const build = (reach: number) => {
    const near = growBox(tb, reach);
    const window = sightWindow(eye, near, 1);
    return hiddenRegions(eye, inputs.screens, window, near);
  };
  const eyeBandMm = bandFor(inputs.eyeSigmaMm);
  const sigmaOf = (hidden: readonly Hidden[]): number => {
    let s2 = inputs.targetSigmaMm ** 2;
    let eyeLever = 1;
    for (const h of hidden) {
      const b = shadowPivotMm(eye, along, h.screen, eyeBandMm);
      // Cover moves what it covers one for one, and the eye has no lever on it.
      if (b === undefined) {
        s2 += inputs.screenSigmaMm(h.screen) ** 2;
        continue;
      }
      const lever = Math.max(1, tFar / b);
      s2 += (inputs.screenSigmaMm(h.screen) * lever) ** 2;
      eyeLever = Math.max(eyeLever, (tFar - b) / b);
    }
    return Math.sqrt(s2 + (inputs.eyeSigmaMm * eyeLever) ** 2);
  };
  // Hidden regions wide enough for probes of up to four bands (grown once if the first guess is short).
  let reach = 50;
  const first = (): { hidden: Hidden[]; blind?: SightScreen; sigmaMm: number } => {
    const h = build(reach);
    return h.blind
      ? { hidden: h.hidden, blind: h.blind, sigmaMm: sigmaOf(h.hidden) }
      : { hidden: h.hidden, sigmaMm: sigmaOf(h.hidden) };
  };
  let { hidden, blind, sigmaMm } = first();
  const need = 4 * bandFor(sigmaMm) + 1;
  if (need > reach) reach = need;
  // Screens outside this window cannot change anything below.
  const nearFinal = growBox(tb, reach);
  noteSight(eye, nearFinal, sightWindow(eye, nearFinal, 1));
  if (reach !== 50) {
    ({ hidden, blind } = build(reach));
    sigmaMm = sigmaOf(hidden);
  }
  // One hider's shadow from the eye, cut as the sight's own (for a unit moved on its own).
  const shadowOf = (screen: SightScreen): Hidden | 'blind' => {
    const h = hiddenRegions(eye, [screen], sightWindow(eye, nearFinal, 1), nearFinal);
    return h.blind ? 'blind' : (h.hidden[0] ?? { screen, polygons: [] });
  };
  const seen = seenFrom(
    inputs,
    hidden,
    blind,
    sigmaMm,
    targetArea,
    along,
    across,
    bandFor(inputs.eyeSigmaMm),
    shadowOf,
  );
  if (blind) return seen;
  // A solid screen the eye could step into within four bands, as far as probes move the target
  // (noted: a unit moving there changes the answer).
  const eyeReach = 4 * bandFor(sigmaMm);
  noteLooked({
    minX: eye.x - eyeReach,
    minY: eye.y - eyeReach,
    maxX: eye.x + eyeReach,
    maxY: eye.y + eyeReach,
  });
  const near = nearestSolidMm(eye, inputs.screens, eyeReach);
  const atWood = inputs.screens.some((s) => eyeAtWood(eye, s, eyeBandMm))
    ? { ...seen, eyeAtWood: woodEye(inputs, along, eyeBandMm) }
    : seen;
  const withNear = near === undefined ? atWood : { ...atWood, nearBlindMm: near };
  const cross = lookAcross ? screenCrossing(eye, inputs.screens, eyeReach) : undefined;
  if (!cross) return withNear;
  // Seen from just across that screen's outline (noted: the units there change it).
  noteSight(cross.at, tb, sightWindow(cross.at, tb, 1));
  const view = seenShare({ ...inputs, eye: cross.at }, bandFor, false);
  return {
    ...withNear,
    acrossScreen: { mm: cross.mm, share: view.region.share, seen: view.region.polygons, view },
  };
}

/** Areas of target outlines (lists of polygons are never changed once built). */
const areas = new WeakMap<readonly Polygon[], number>();

/** regionArea of a target's outlines, worked out once per list: every eye asks it of the same target. */
function areaOf(target: readonly Polygon[]): number {
  let a = areas.get(target);
  if (a === undefined) {
    a = regionArea(target);
    areas.set(target, a);
  }
  return a;
}

/** The seen share, once the hidden regions are built. */
function seenFrom(
  inputs: SightInputs,
  hidden: Hidden[],
  blind: SightScreen | undefined,
  sigmaMm: number,
  targetArea: number,
  along: Vec2,
  across: Vec2,
  eyeBandMm: number,
  shadowOf: (screen: SightScreen) => Hidden | 'blind',
): SeenShare {
  const { eye, target } = inputs;
  if (blind) {
    const none: VisibleRegion = {
      polygons: [],
      share: 0,
      targetArea,
      hiddenBy: [{ id: blind.id, label: blind.label, share: 1 }],
      blind: blind.label,
    };
    return {
      region: none,
      sigmaMm,
      shareAt: () => 0,
      seenAt: () => ({ seen: [], offset: { x: 0, y: 0 } }),
      across,
      seamMm: () => Infinity,
      blindDepthMm: pointToOutline(eye, blind.polygon),
    };
  }
  const region = visibleGiven(eye, target, hidden, targetArea);
  // Moved copies of the target keep its outlines' overlaps: decided once, on the target itself.
  const apart = piecesApart(target);
  const dirs = [across, along] as const;
  // Several thresholds of one share (some seen, half seen, half hidden) probe the same offsets:
  // remembered per direction by the offset itself (a number key, as −0 and 0 alike; writing the
  // offset out as text cost more than some probes).
  const memo = [new Map<number, number>(), new Map<number, number>()] as const;
  const shareAt = (k: 0 | 1, offsetMm: number): number => {
    if (offsetMm === 0) return region.share * 100;
    let v = memo[k].get(offsetMm);
    if (v === undefined) {
      const d = dirs[k];
      v = seenShareGivenMoved(target, d.x * offsetMm, d.y * offsetMm, hidden, targetArea, apart) * 100;
      memo[k].set(offsetMm, v);
    }
    return v;
  };
  const seenAt = (k: 0 | 1, offsetMm: number) => {
    const d = dirs[k];
    const offset = { x: d.x * offsetMm, y: d.y * offsetMm };
    if (offsetMm === 0) return { seen: region.polygons, offset };
    return {
      seen: visibleGiven(
        eye,
        target.map((p) => moved(p, offset)),
        hidden,
        targetArea,
        apart,
      ).polygons,
      offset,
    };
  };
  let seam: number | undefined;
  const seamMm = (): number => (seam ??= seamOf(inputs, hidden, region, along, eyeBandMm));
  let hm: ReturnType<typeof hidersMoved> | undefined;
  const movedHiders = () => (hm ??= hidersMoved(inputs, hidden, region, across, shadowOf));
  const hiderShifts = (hideAllWithin?: number) =>
    movedHiders()
      // Asked only whether any is seen: a hider that can never stand across all of it is no use.
      .filter(
        (m) =>
          hideAllWithin === undefined ||
          region.share === 0 ||
          couldCoverAll(eye, along, m.screen, region.polygons, hideAllWithin),
      )
      .map(({ at }) => (offsetMm: number) => {
        const h = at(offsetMm);
        return h ? seenShareGiven(target, h, targetArea, apart) * 100 : 0;
      });
  const hiderMovedSeen = () =>
    movedHiders().map(({ at }) => (offsetMm: number) => {
      const h = at(offsetMm);
      return h ? visibleGiven(eye, target, h, targetArea, apart).polygons : [];
    });
  const bodyShifts = () => shiftedBodies(target, hidden, region, across, targetArea);
  const crack = new Map<number, number>();
  const crackMm = (bandMm: number): number => {
    let mm = crack.get(bandMm);
    if (mm === undefined) {
      mm = cracksOpened(target, hidden, targetArea, apart, shadowOf, across, bandMm);
      crack.set(bandMm, mm);
    }
    return mm;
  };
  return {
    region,
    sigmaMm,
    shareAt,
    seenAt,
    across,
    seamMm,
    crackMm,
    hiderShifts,
    hiderMovedSeen,
    bodyShifts,
  };
}

/**
 * A seen share (as a percentage) against a limit, as a threshold quantity: the move that would
 * change the answer is searched across and along the sight line. `hiddenShare` turns it round
 * (the share that is hidden, for cover).
 */
export function seenShareQuantity(
  s: SeenShare,
  comparison: Comparison,
  limitPercent: number,
  bandMm: number,
  hiddenShare = false,
): Quantity {
  const f = (v: number) => (hiddenShare ? 100 - v : v);
  const q = probedQuantity(
    f(s.region.share * 100),
    '%',
    [(o) => f(s.shareAt(0, o)), (o) => f(s.shareAt(1, o))],
    s.sigmaMm,
    comparison,
    limitPercent,
    bandMm,
    // A share against a half is probed a quarter band at a time: seen through a gap, it can rise
    // past the limit and fall back within the band. ("Some seen" has seams and gap widths.)
    limitPercent > 0 ? 4 : 1,
  );
  const across = s.acrossScreen ? f(s.acrossScreen.share * 100) : undefined;
  const capped = eyeInWoodCapped(
    s,
    blindCapped(s, q, comparison, limitPercent, f(0), across),
    f,
    comparison,
    limitPercent,
    hiddenShare,
  );
  let move = capped.moveMm;
  // Just across a screen's outline the answer is the same as here, but the view from there is
  // judged as any view is: a step across and a move within the band there can answer otherwise.
  const acrossScreen = s.acrossScreen;
  if (
    acrossScreen &&
    across !== undefined &&
    holds(across - limitPercent, comparison, limitPercent) ===
      holds(q.value - limitPercent, comparison, limitPercent)
  ) {
    const there = seenShareQuantity(acrossScreen.view, comparison, limitPercent, bandMm, hiddenShare).moveMm;
    if (there !== undefined && there < bandMm) move = Math.min(move, acrossScreen.mm + there);
  }
  // Hidden behind hiders that meet by a hair: moving one opens a gap the target probes never find.
  if (!hiddenShare && limitPercent === 0 && s.region.share === 0)
    move = Math.min(move, s.seamMm(), s.crackMm?.(bandMm) ?? Infinity);
  // A hider moving against the others widens or closes the part seen between them (a half seen
  // through a gap), and one a lever from the target swings its shadow's edge across it many times
  // as far as it moves: moving the target never shows either. One body of the target moving on its
  // own can change a share (not whether any is seen: moving the target whole moves it as far).
  const someSeen = !hiddenShare && limitPercent === 0;
  const shifts = [
    ...(s.hiderShifts?.(someSeen ? bandMm : undefined) ?? []),
    ...(limitPercent > 0 ? (s.bodyShifts?.() ?? []) : []),
  ];
  for (const shift of shifts) {
    const p = probeMove((o) => f(shift(o)), q.value, comparison, limitPercent, bandMm);
    if (p.moveMm < bandMm) move = Math.min(move, p.moveMm);
  }
  // Seen only through gaps between hiders: moving the target alone may find another gap, but the
  // hiders (or the eye) moving by a gap's width across the sight line close it. So "some is seen"
  // is never surer than the widest connected seen part is wide (joined across the sweep's slabs:
  // its trapezoids' own widths depend on where the sweep cut).
  if (!hiddenShare && limitPercent === 0 && s.region.share > 0 && s.region.hiddenBy.length > 0)
    move = Math.min(move, widestPart(s.region.polygons, s.across));
  return move < capped.moveMm ? { ...capped, moveMm: move } : capped;
}

/**
 * The move capped by the eye stepping within its band in or by a wood (SeenShare.eyeAtWood). A
 * target seen of none is left to the seams (sight-seam.ts), which step the eye there already.
 */
function eyeInWoodCapped<Q extends { readonly value: number; readonly moveMm: number }>(
  s: SeenShare,
  q: Q,
  f: (v: number) => number,
  comparison: Comparison,
  limit: number,
  hiddenShare: boolean,
): Q {
  const wood = s.eyeAtWood;
  if (!wood || (!hiddenShare && limit === 0 && s.region.share === 0)) return q;
  let move = q.moveMm;
  for (const k of [0, 1] as const) {
    const p = probeMove((o) => f(wood.shareAt(k, o)), q.value, comparison, limit, wood.bandMm);
    if (p.moveMm < wood.bandMm) move = Math.min(move, p.moveMm);
  }
  return move < q.moveMm ? { ...q, moveMm: move } : q;
}

/**
 * A share judged from an eye at a solid screen's edge is no surer than the eye is from crossing it.
 * Inside one (a leader on the wall its unit lines) it sees nothing, and moving the target changes
 * nothing; a step out and the screen hides only what lies behind it (every target had been 100 %
 * in cover, and 46 % a step back). Outside but near one (a leader on the edge of an enemy base it
 * touches), a step in and it would see nothing: `valueIfBlind` is the quantity then, and the move
 * is capped when that answers otherwise.
 */
export function blindCapped<Q extends { readonly value: number; readonly moveMm: number }>(
  s: SeenShare,
  q: Q,
  comparison: Comparison,
  limit: number,
  valueIfBlind: number,
  valueAcrossScreen?: number,
): Q {
  let move = q.moveMm;
  if (
    s.acrossScreen !== undefined &&
    valueAcrossScreen !== undefined &&
    holds(valueAcrossScreen - limit, comparison, limit) !== holds(q.value - limit, comparison, limit)
  )
    move = Math.min(move, s.acrossScreen.mm);
  if (s.blindDepthMm !== undefined) move = Math.min(move, s.blindDepthMm);
  if (
    s.nearBlindMm !== undefined &&
    holds(valueIfBlind - limit, comparison, limit) !== holds(q.value - limit, comparison, limit)
  )
    move = Math.min(move, s.nearBlindMm);
  return move === q.moveMm ? q : { ...q, moveMm: move };
}
