import type { Answer, Verdict } from '../engine/verdict.ts';
import { BP, bpVerdict, inches, inStr, mmOf, type BpContext } from './context.ts';
import type { ShotAssessment } from './shot-assessment.ts';
import { measureFrom, otherLeaderBases } from './range.ts';
import { hypot } from '../../geometry/hypot.ts';

/**
 * Target priority, with every comparison in it under the uncertainty model. Small arms: the
 * closest eligible target, though a target that is not clear may be passed over for a clear one
 * beyond it. Guns, howitzers and rockets: the same when any visible target is within half range;
 * otherwise free choice. "Closer", "eligible", "clear" and "within half range" may each be too
 * close to call; they combine in three-valued logic (yes, no, maybe), so priority is too close to
 * call exactly when some undecided comparison could change it.
 */

type Tri = 'yes' | 'no' | 'maybe';
const tri = (a: Answer): Tri => (a === 'borderline' ? 'maybe' : a);
const and = (...xs: Tri[]): Tri => (xs.includes('no') ? 'no' : xs.includes('maybe') ? 'maybe' : 'yes');
const or = (...xs: Tri[]): Tri => (xs.includes('yes') ? 'yes' : xs.includes('maybe') ? 'maybe' : 'no');
const not = (x: Tri): Tri => (x === 'yes' ? 'no' : x === 'no' ? 'yes' : 'maybe');
const clearTri = (s: ShotAssessment): Tri => (s.clearBorderline ? 'maybe' : s.clear ? 'yes' : 'no');

/**
 * Is `c` closer than `shot`'s target (ranges compared with both their uncertainties)? Both ranges
 * run from the base the leader stands on; when he may as well stand on another (otherLeaderBases),
 * both are measured again from it, and a comparison that leans the other way from there, or is
 * within the band there, is too close to call.
 */
function closer(ctx: BpContext, shot: ShotAssessment, c: ShotAssessment): { tri: Tri; lean: boolean } {
  const r = shot.range;
  const rc = c.range;
  if (!r || !rc) return { tri: 'no', lean: false };
  const sigma = hypot(r.sigmaMm, rc.sigmaMm);
  const j = BP.judge(ctx, BP.length(inches(r.mm - rc.mm), inches(sigma)), 'moreThan', 0);
  const lean = j.lean === 'yes';
  if (j.answer === 'borderline' || shot.shooter.barrel) return { tri: tri(j.answer), lean };
  const partOf = (a: ShotAssessment) =>
    a.visible && a.visible.share > 0 && a.visible.share < 1 ? a.visible.polygons : a.target.bodyPolygons;
  const band = BP.bandMm(ctx, sigma);
  for (const o of otherLeaderBases(ctx, shot.shooter, band)) {
    const from = (a: ShotAssessment) =>
      measureFrom(ctx, a.shooter, false, a.target, partOf(a), undefined, o.base).mm;
    // From there the comparison leans the other way, or is itself within the band.
    const d = from(shot) - from(c);
    if (d > 0 !== lean || Math.abs(d) < band) return { tri: 'maybe', lean };
  }
  return { tri: tri(j.answer), lean };
}

export function priorityVerdict(
  ctx: BpContext,
  shot: ShotAssessment,
  candidates: readonly ShotAssessment[],
): Verdict {
  const S = shot.shooter.name;
  const T = shot.target.name;
  const asked = `is ${T} the target ${S} must choose?`;
  const others = candidates.filter((c) => c.target.id !== shot.target.id);
  const weapon = shot.weapon;
  let free: Tri = 'no';
  if (weapon && weapon.kind !== 'smallArms') {
    const half = weapon.max / 2;
    const within = (c: ShotAssessment): Tri => {
      if (!c.range) return 'no';
      const j = BP.judge(ctx, BP.length(inches(c.range.mm), inches(c.range.sigmaMm)), 'atMost', half);
      return and(tri(j.answer), tri(c.answer));
    };
    free = not(or(...[...others, shot].map(within)));
    if (free === 'yes')
      return bpVerdict({
        question: 'priority',
        asked,
        answer: 'yes',
        reasons: [`no visible target within half range (${half}"): free choice`],
      });
  }
  // A closer candidate forces the choice when it is eligible and clear, or when T is not clear.
  const tClear = clearTri(shot);
  let blocking: { c: ShotAssessment; t: Tri } | undefined;
  let any: Tri = 'no';
  let anyLean = false;
  for (const c of others) {
    const cl = closer(ctx, shot, c);
    const t = and(cl.tri, tri(c.answer), or(clearTri(c), not(tClear)));
    const lean = cl.lean && c.answer !== 'no' && (c.clear || !shot.clear);
    any = or(any, t);
    anyLean = anyLean || lean;
    if (t !== 'no' && (!blocking || (blocking.t === 'maybe' && t === 'yes'))) blocking = { c, t };
  }
  let result = not(any);
  if (free === 'maybe') result = or(result, 'maybe');
  const lean = anyLean ? 'no' : 'yes';
  const answer: Answer = result === 'maybe' ? 'borderline' : result;
  const reasons: string[] = [];
  if (blocking) {
    const c = blocking.c;
    const at = `${inStr(c.range?.mm ?? 0)} against ${inStr(shot.range?.mm ?? 0)}`;
    const needs = c.clear ? 'must be shot first' : `is not clear either, so ${T} may not be preferred to it`;
    reasons.push(
      blocking.t === 'yes'
        ? `${c.target.name} is a closer target (${at}) and ${needs}`
        : `${c.target.name} may be the closer eligible target (${at}): too close to call which must be shot`,
    );
  } else {
    const passed = others.filter((c) => closer(ctx, shot, c).lean);
    reasons.push(
      passed.length
        ? `closer targets that are not clear (${passed.map((c) => c.target.name).join(', ')}) may be passed over for the clear ${T}`
        : `no eligible target is closer than ${T}`,
    );
  }
  if (free === 'maybe')
    reasons.push(`whether any target is within half range (${(weapon?.max ?? 0) / 2}") is too close to call`);
  return bpVerdict({
    question: 'priority',
    asked,
    answer,
    lean,
    reasons,
    ...(blocking ? { facts: { mustTarget: blocking.c.target.name } } : {}),
  });
}

/** Artillery must shoot the closest target if any visible target is within half its range. */
export const halfRangeMm = (max: number): number => mmOf(max / 2);
