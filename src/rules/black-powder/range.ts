import { nearCandidates, pointToPolygonSet, polygonSetSeparation } from '../../geometry/distance.ts';
import { containsPointOrNear, type Polygon } from '../../geometry/polygon.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { TableBase, TableUnit } from '../../table/table-unit.ts';
import type { Alternative } from '../engine/alternatives.ts';
import { basePointName, pointName } from '../engine/parts.ts';
import { unitSeparation } from '../unit-distance.ts';
import { poss, type BpContext, type Measured } from './context.ts';
import { hypot } from '../../geometry/hypot.ts';
import { boxGap } from '../../geometry/box.ts';

/**
 * Where Black Powder measures from (shooting, charging): a gun's barrel tip; else by the option
 * rangeFrom: the leader's base edge, the leader himself (centre of the front edge), or the nearest
 * part of the whole formed body. Measured to the nearest point of the target polygons given (its
 * body, or the part of it that can be seen), with both ends named in words.
 */
export function measureFrom(
  ctx: BpContext,
  unit: TableUnit,
  gun: boolean,
  target: TableUnit,
  polys: readonly Polygon[] = target.bodyPolygons,
  toWords?: string,
  fromBase: TableBase = unit.leaderBase,
): Measured {
  if (
    polys !== target.bodyPolygons ||
    toWords !== undefined ||
    fromBase !== unit.leaderBase ||
    (gun && unit.barrel)
  )
    return measureAfresh(ctx, unit, gun, target, polys, toWords, fromBase);
  // To the whole body from the usual origin: what a shot's range to the whole target and a
  // charge's reach both ask of every enemy pair. Kept per context (one table, one set of
  // options) and unit objects, which are all it depends on.
  let byUnit = wholeBody.get(ctx);
  if (!byUnit) {
    byUnit = new Map();
    wholeBody.set(ctx, byUnit);
  }
  let byTarget = byUnit.get(unit);
  if (!byTarget) {
    byTarget = new Map();
    byUnit.set(unit, byTarget);
  }
  let m = byTarget.get(target);
  if (!m) {
    m = measureAfresh(ctx, unit, false, target, polys, undefined, fromBase);
    byTarget.set(target, m);
  }
  return m;
}

/** measureFrom to the whole body from the usual origin, per context, unit and target. */
const wholeBody = new WeakMap<BpContext, Map<TableUnit, Map<TableUnit, Measured>>>();

/** measureFrom, computed. */
export function measureAfresh(
  ctx: BpContext,
  unit: TableUnit,
  gun: boolean,
  target: TableUnit,
  polys: readonly Polygon[],
  toWords: string | undefined,
  fromBase: TableBase,
): Measured {
  const named = (from: Vec2, to: Vec2, fromName: string, mm: number, sigmaMm: number): Measured => ({
    mm,
    sigmaMm,
    from,
    to,
    fromName,
    toName: toWords ?? pointName(target, to),
  });
  if (gun && unit.barrel) {
    const tip = unit.barrel.tip;
    const s = pointToPolygonSet(tip, polys);
    return named(tip, s.onB, `${poss(unit.name)} barrel`, s.distance, hypot(unit.sigmaMm, target.sigmaMm));
  }
  const mode = ctx.options.rangeFrom;
  if (mode === 'leaderPoint') {
    const s = pointToPolygonSet(unit.leader, polys);
    return named(
      unit.leader,
      s.onB,
      `${poss(unit.name)} leader`,
      s.distance,
      hypot(unit.sigmaMm, target.sigmaMm),
    );
  }
  const origin = mode === 'leaderBase' ? [fromBase] : unit.body;
  if (polys === target.bodyPolygons) {
    const s = unitSeparation(origin, target.body);
    const fromName =
      mode === 'leaderBase'
        ? basePointName(unit, fromBase.footprint, 'leader base', s.onA)
        : pointName(unit, s.onA);
    return named(s.onA, s.onB, fromName, s.distance, s.sigmaMm);
  }
  const s = polygonSetSeparation(
    origin.map((b) => b.polygon),
    polys,
  );
  const fromName =
    mode === 'leaderBase'
      ? basePointName(unit, fromBase.footprint, 'leader base', s.onA)
      : pointName(unit, s.onA);
  return named(s.onA, s.onB, fromName, s.distance, hypot(unit.sigmaMm, target.sigmaMm));
}

/**
 * Other bases the leader may as well be standing on: with an even number of bases across the
 * front the leader stands where two meet, and a hair's movement hands him to either. Each with
 * how far the leader is from it (0 when he stands on its edge), and why, in words. A leader
 * standing on no base (skirmishers spread out, the front's centre in a gap) goes with the base
 * whose centre is nearest (table-unit.ts): another whose centre is within two bands as near may
 * take over, the leader moving half the difference toward it.
 */
export function otherLeaderBases(
  ctx: BpContext,
  unit: TableUnit,
  bandMm: number,
): Array<{ base: TableBase; mm: number; why: string }> {
  if (ctx.options.rangeFrom !== 'leaderBase') return [];
  const out: Array<{ base: TableBase; mm: number; why: string }> = [];
  const { leader } = unit;
  const onNoBase = !containsPointOrNear(unit.leaderBase.polygon, leader, 1e-6);
  const centreGap = (b: TableBase): number =>
    hypot(b.footprint.center.x - leader.x, b.footprint.center.y - leader.y);
  const chosen = centreGap(unit.leaderBase);
  for (const b of unit.body) {
    if (b === unit.leaderBase) continue;
    const mm = pointToPolygonSet(leader, [b.polygon]).distance;
    const handOver = onNoBase ? Math.max(0, (centreGap(b) - chosen) / 2) : Infinity;
    if (mm < bandMm)
      out.push({
        base: b,
        mm: Math.min(mm, handOver),
        why: `${poss(unit.name)} leader stands where two bases meet`,
      });
    else if (handOver < bandMm)
      out.push({
        base: b,
        mm: handOver,
        why: `${poss(unit.name)} leader stands on no base, about as near one base's centre as another's`,
      });
  }
  return out;
}

/**
 * A measurement taken from another base the leader may as well stand on (otherLeaderBases), with
 * its line's ends: a charge judges the obstacles it crosses on that line.
 */
export interface OtherReading extends Pick<Measured, 'mm' | 'from' | 'to'> {
  /** How far the leader is from handing over to that base, mm. */
  readonly switchMm: number;
  readonly why: string;
}

/** measureFrom taken from each other base the leader may as well stand on, within the band. */
export function otherReadings(
  ctx: BpContext,
  unit: TableUnit,
  gun: boolean,
  target: TableUnit,
  polys: readonly Polygon[],
  toWords: string | undefined,
  bandMm: number,
): OtherReading[] {
  return otherLeaderBases(ctx, unit, bandMm).map((o) => {
    return asReading(measureFrom(ctx, unit, gun, target, polys, toWords, o.base), o.mm, o.why);
  });
}

/**
 * Other lines the same length may as well be measured along. Where a face stands square to the
 * line, its nearest point slides along it with a hair's turn, and another corner (or another
 * base's own nearest point) within the band of the nearest is as good an end, at either end.
 * Each is a reading `extra` longer, `extra` from taking over; a charge judges the obstacles each
 * line crosses. Only from a base (or the whole body): a leader point or a barrel is one point.
 */
export function otherNearestLines(
  ctx: BpContext,
  unit: TableUnit,
  target: TableUnit,
  m: Pick<Measured, 'mm' | 'from' | 'to'>,
  bandMm: number,
  fromBase: TableBase = unit.leaderBase,
): OtherReading[] {
  const mode = ctx.options.rangeFrom;
  if (mode === 'leaderPoint') return [];
  const origin = (mode === 'leaderBase' ? [fromBase] : unit.body).map((b) => b.polygon);
  const ends = target.bodyPolygons;
  const near = (polys: readonly Polygon[], to: Vec2): Vec2[] => nearCandidates(to, polys).map((c) => c.point);
  const moved = (a: Vec2, b: Vec2) => hypot(a.x - b.x, a.y - b.y) > 1e-6;
  const out: OtherReading[] = [];
  for (const from of [m.from, ...near(origin, m.to)]) {
    for (const to of from === m.from ? near(ends, from) : [m.to]) {
      if (!moved(from, m.from) && !moved(to, m.to)) continue;
      const extra = hypot(to.x - from.x, to.y - from.y) - m.mm;
      if (extra >= bandMm) continue;
      const which = moved(to, m.to)
        ? `another point of ${target.name}`
        : `another point of ${poss(unit.name)} base`;
      out.push({
        mm: m.mm + Math.max(0, extra),
        from,
        to,
        switchMm: Math.max(0, extra),
        why: `${which} is as near`,
      });
    }
  }
  return out;
}

/** A measured length as another reading of the same range, `switchMm` away, for `why`. */
export const asReading = (m: Measured, switchMm: number, why: string): OtherReading => ({
  mm: m.mm,
  from: m.from,
  to: m.to,
  switchMm,
  why,
});

/**
 * Other readings as a verdict's alternatives (alternatives.ts): each answers by its own length
 * against its own limit (a charge line that crosses an obstacle needs 6" to spare), and is itself
 * too close to call within the band of that limit.
 */
export const readingsAgainst = (
  others: readonly OtherReading[],
  comparison: 'atMost' | 'moreThan',
  limitMm: (reading: OtherReading) => number,
  bandMm: number,
): Alternative[] =>
  others.map((o) => ({
    lean: readingLean(o.mm, limitMm(o), comparison, bandMm),
    switchMm: o.switchMm,
    why: o.why,
  }));

/** A length's answer against a limit, itself too close to call within the band of it. */
export function readingLean(
  mm: number,
  limitMm: number,
  comparison: 'atMost' | 'moreThan',
  bandMm: number,
): Alternative['lean'] {
  if (Math.abs(mm - limitMm) < bandMm) return 'borderline';
  return mm <= limitMm === (comparison === 'atMost') ? 'yes' : 'no';
}

/**
 * Whether every base of `unit` is farther from the target's body than `limitMm` by at least
 * `bandMm`: then every reading of a length from the unit (its leader base or another, the leader,
 * the whole body) is beyond the limit beyond doubt. The boxes round the bases first (most pairs
 * of a table are far apart on some axis), then the bases themselves.
 */
export function everyBaseBeyond(
  unit: TableUnit,
  target: TableUnit,
  limitMm: number,
  bandMm: number,
): boolean {
  const clear = (mm: number) => mm - limitMm >= bandMm;
  return (
    clear(boxGap(unit.bounds, target.bounds)) ||
    clear(polygonSetSeparation(unit.allPolygons, target.bodyPolygons).distance)
  );
}
