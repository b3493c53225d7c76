import type { Polygon } from '../../geometry/polygon.ts';
import { add, type Vec2 } from '../../geometry/vec.ts';
import { fromMm, type LengthUnit } from '../../table/length-unit.ts';
import type { TableState } from '../../table/table-state.ts';
import { enemiesOf } from '../../table/table-state.ts';
import type { TableBase, TableUnit } from '../../table/table-unit.ts';
import { pointToUnit, unitSeparation, type MeasuredBase } from '../unit-distance.ts';
import { compare, type Comparison, type ThresholdPolicy } from './threshold.ts';
import { verdict, type Verdict, type VerdictInit } from './verdict.ts';

/**
 * Helpers every tabletop ruleset shares: a measured length (mm, with its one-sigma error and the
 * two points it runs between), its verdict against a limit in the ruleset's own unit, moved
 * copies of bases, and the nearest enemy. Rulesets keep their numbers; this keeps the plumbing.
 */
export interface Measured {
  readonly mm: number;
  readonly sigmaMm: number;
  readonly from: Vec2;
  readonly to: Vec2;
}

export interface LengthJudge {
  readonly ruleset: string;
  readonly unit: LengthUnit;
  readonly policy: ThresholdPolicy;
}

/** A verdict for one measured length against a limit stated in the ruleset's unit. */
export function lengthVerdict(
  judge: LengthJudge,
  init: Omit<
    VerdictInit,
    'ruleset' | 'answer' | 'value' | 'limit' | 'margin' | 'epsilon' | 'unit' | 'between'
  >,
  m: Measured,
  comparison: Comparison,
  limit: number,
): Verdict {
  const value = fromMm(m.mm, judge.unit);
  const r = compare(value, comparison, limit, fromMm(m.sigmaMm, judge.unit), judge.policy);
  return verdict({
    ...init,
    ruleset: judge.ruleset,
    answer: r.answer,
    lean: r.lean,
    value,
    limit,
    margin: r.margin,
    epsilon: r.epsilon,
    unit: judge.unit,
    between: [m.from, m.to],
  });
}

/** A plain yes/no check with one reason. */
export function checkVerdict(
  ruleset: string,
  question: string,
  asked: string,
  ok: boolean,
  reasons: readonly string[],
  facts: VerdictInit['facts'] = {},
): Verdict {
  return verdict({ ruleset, question, asked, answer: ok ? 'yes' : 'no', reasons, facts });
}

/** A base moved rigidly by vector v (a flee, a drive-back, a trial position). */
export function translatedBase(b: MeasuredBase, v: Vec2): MeasuredBase & { readonly polygon: Polygon } {
  const f = b.footprint;
  const polygon = (b.polygon ?? []).map((p) => add(p, v));
  return {
    footprint: { ...f, center: add(f.center, v) },
    sigmaMm: b.sigmaMm,
    sigmaHeadingDeg: b.sigmaHeadingDeg,
    polygon,
  };
}

/** The unit's bases moved by v. */
export const translatedBases = (
  u: Pick<TableUnit, 'bases'>,
  v: Vec2,
): Array<MeasuredBase & { readonly polygon: Polygon }> => u.bases.map((b: TableBase) => translatedBase(b, v));

/** Centroid of a unit's footprint (mean of its base centres, weighted by base area). */
export function unitCentroid(u: Pick<TableUnit, 'bases'>): Vec2 {
  let x = 0;
  let y = 0;
  let w = 0;
  for (const b of u.bases) {
    const a = b.footprint.width * b.footprint.depth;
    x += b.footprint.center.x * a;
    y += b.footprint.center.y * a;
    w += a;
  }
  return w === 0 ? { x: 0, y: 0 } : { x: x / w, y: y / w };
}

export interface NearestEnemy extends Measured {
  readonly enemy: TableUnit;
}

/** The nearest enemy unit (edge to edge) of `unit`, optionally from other bases (a trial position). */
export function nearestEnemy(
  state: TableState,
  unit: TableUnit,
  filter: (u: TableUnit) => boolean = () => true,
  bases: readonly MeasuredBase[] = unit.bases,
): NearestEnemy | undefined {
  let best: NearestEnemy | undefined;
  for (const e of enemiesOf(state, unit).filter(filter)) {
    const s = unitSeparation(bases, e.bases);
    if (!best || s.distance < best.mm)
      best = { enemy: e, mm: s.distance, sigmaMm: s.sigmaMm, from: s.onA, to: s.onB };
  }
  return best;
}

/** Separation between two base sets as a Measured. */
export function separation(a: readonly MeasuredBase[], b: readonly MeasuredBase[]): Measured {
  const s = unitSeparation(a, b);
  return { mm: s.distance, sigmaMm: s.sigmaMm, from: s.onA, to: s.onB };
}

/** From a point with its own error (a front centre, a barrel tip) to a unit's nearest base, as a Measured. */
export function fromPoint(p: Vec2, sigmaPointMm: number, bases: readonly MeasuredBase[]): Measured {
  const s = pointToUnit(p, sigmaPointMm, bases);
  return { mm: s.distance, sigmaMm: s.sigmaMm, from: s.onA, to: s.onB };
}

/** Possessive of a name: "Gardiner's", "Camerons'", and "Lee's" stays "Lee's". */
export const possessive = (name: string): string =>
  /['’]s$/.test(name) ? name : /s$/.test(name) ? `${name}'` : `${name}'s`;
