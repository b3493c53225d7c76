import type { Polygon } from '../../geometry/polygon.ts';
import { add, type Vec2 } from '../../geometry/vec.ts';
import { fromMm, toMm, type LengthUnit } from '../../table/length-unit.ts';
import type { TableState } from '../../table/table-state.ts';
import { enemiesOf } from '../../table/table-state.ts';
import type { TableBase, TableUnit } from '../../table/table-unit.ts';
import { pointToUnit, unitSeparation, type MeasuredBase } from '../unit-distance.ts';
import { flatString, flatStrings } from './flat-string.ts';
import { judge, type Comparison, type Quantity, type ThresholdPolicy } from './threshold.ts';
import {
  copyOf,
  NO_CHECKS,
  NO_FACTS,
  NO_OPTIONS,
  verdict,
  type Verdict,
  type VerdictInit,
} from './verdict.ts';
import { lengthWords, marginWords } from './words.ts';

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
  /** The measuring points in words, when named ("Lee's front-left corner", "Camerons' nearest edge"). */
  readonly fromName?: string;
  readonly toName?: string;
}

export interface LengthJudge {
  readonly ruleset: string;
  readonly unit: LengthUnit;
  readonly policy: ThresholdPolicy;
}

/** Fields a threshold verdict fills in itself. */
export type Measurement =
  'ruleset' | 'answer' | 'value' | 'limit' | 'margin' | 'epsilon' | 'unit' | 'moveMm' | 'bandMm';

/** A measured length in a unit of length, as a threshold quantity (it moves one for one with the table). */
export const lengthQuantity = (m: Pick<Measured, 'mm' | 'sigmaMm'>, unit: LengthUnit): Quantity => ({
  value: fromMm(m.mm, unit),
  unit,
  perMm: fromMm(1, unit),
  sigmaMm: m.sigmaMm,
});

/**
 * Any measured quantity (a length, a bearing, a share) against a limit in its own unit, judged by
 * the one uncertainty model (`judge`): value, limit, margin, the move that would change the answer
 * and the pose band, in the verdict; the margin in players' words after the first reason, and a
 * reason more when it is too close to call.
 */
export function thresholdVerdict(
  judgeOf: LengthJudge,
  init: Omit<VerdictInit, Measurement>,
  q: Quantity,
  comparison: Comparison,
  limit: number,
): Verdict {
  const j = judge(q, comparison, limit, judgeOf.policy, toMm(judgeOf.policy.floor, judgeOf.unit));
  const shown = { margin: j.margin, lean: j.lean, unit: q.unit, moveMm: j.moveMm };
  const words = marginWords(shown, judgeOf.unit);
  const [first, ...rest] = init.reasons ?? [];
  const reasons = [
    ...(first !== undefined ? [words ? `${first}: ${words}` : first] : words ? [words] : []),
    ...(j.answer === 'borderline'
      ? [
          `too close to call: a base would only have to move ${lengthWords(j.moveMm, judgeOf.unit)} to change the answer, inside the ± ${lengthWords(j.bandMm, judgeOf.unit)} the camera can vouch for`,
        ]
      : []),
    ...rest,
  ];
  // verdict({ ...init, ruleset, answer, … }): the same keys in the same order and the same
  // values, one copy of `init` (copyOf: every check is built here).
  const v = copyOf(init);
  v.ruleset = judgeOf.ruleset;
  v.answer = j.answer;
  v.lean = j.lean ?? (j.answer === 'no' ? 'no' : 'yes');
  v.value = q.value;
  v.limit = limit;
  v.margin = j.margin;
  v.epsilon = j.epsilon;
  v.unit = q.unit;
  v.moveMm = j.moveMm;
  v.bandMm = j.bandMm;
  flatString(init.asked);
  v.reasons = flatStrings(reasons);
  v.options = init.options ?? NO_OPTIONS;
  v.facts = init.facts ?? NO_FACTS;
  v.checks = init.checks ?? NO_CHECKS;
  return v as unknown as Verdict;
}

/** A verdict for one measured length against a limit stated in the ruleset's unit. */
export function lengthVerdict(
  judgeOf: LengthJudge,
  init: Omit<VerdictInit, Measurement | 'between' | 'measured'>,
  m: Measured,
  comparison: Comparison,
  limit: number,
): Verdict {
  // { ...init, between, measured? } (copyOf: the same keys in the same order).
  const withLine = copyOf(init);
  withLine.between = [m.from, m.to];
  if (m.fromName && m.toName) withLine.measured = { from: flatString(m.fromName), to: flatString(m.toName) };
  return thresholdVerdict(
    judgeOf,
    withLine as unknown as Omit<VerdictInit, Measurement>,
    lengthQuantity(m, judgeOf.unit),
    comparison,
    limit,
  );
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

export { possessive } from './words.ts';
