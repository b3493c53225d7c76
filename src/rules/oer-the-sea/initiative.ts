import type { Commander } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { measuredBy } from '../engine/composite.ts';
import { separation } from '../engine/measure.ts';
import { pick } from '../engine/options.ts';
import { enemiesNearestFirst } from '../engine/targets.ts';
import { allOf, type Verdict } from '../engine/verdict.ts';
import { pointToUnit } from '../unit-distance.ts';
import { pointName } from '../engine/parts.ts';
import { visibleRegion } from '../../geometry/visible-region.ts';
import { sightScreensFor } from '../engine/sight-verdict.ts';
import { cmStr, lengthVerdict, mmOfCm, otsVerdict, sightRule, type OtsContext } from './context.ts';
import { seeCheck } from './fire.ts';
import { INITIATIVE_RANGE } from './tables.ts';

/**
 * Initiative: not confused, and an enemy unit it can actually see within 30 cm. Each enemy is
 * two thresholds (seen at all; within 30 cm); the answer is yes if some enemy passes both, in
 * three-valued logic, so it is too close to call when only an undecided enemy could give it.
 */
export function initiativeVerdict(ctx: OtsContext, unit: TableUnit): Verdict {
  const seen = enemiesNearestFirst(
    ctx.state,
    unit,
    (e) => {
      const s = separation(unit.bases, e.bases);
      const m = { ...s, fromName: pointName(unit, s.from), toName: pointName(e, s.to) };
      return { e, m, view: seeCheck(ctx, unit, e) };
    },
    (s) => s.m.mm,
  );
  const rows = seen.map((s) => ({
    ...s,
    within: lengthVerdict(
      ctx,
      {
        question: 'enemyWithin30',
        asked: `is ${s.e.name} within ${INITIATIVE_RANGE} cm of ${unit.name}?`,
        reasons: [`${cmStr(s.m.mm)} from ${s.m.fromName} to ${s.m.toName}`],
      },
      s.m,
      'atMost',
      INITIATIVE_RANGE,
    ),
  }));
  const tri = (a: Verdict['answer']) => (a === 'borderline' ? 'maybe' : a);
  let any: 'yes' | 'no' | 'maybe' = 'no';
  let lean = false;
  for (const r of rows) {
    const both = [tri(r.within.answer), tri(r.view.answer)];
    const t = both.includes('no') ? 'no' : both.includes('maybe') ? 'maybe' : 'yes';
    if (t === 'yes') any = 'yes';
    else if (t === 'maybe' && any === 'no') any = 'maybe';
    if (r.within.lean === 'yes' && r.view.lean === 'yes') lean = true;
  }
  const best = rows.find((r) => r.view.lean === 'yes');
  const hiddenNearer = rows.filter((r) => r.view.lean === 'no' && (!best || r.m.mm <= best.m.mm));
  const near = otsVerdict({
    question: 'enemyWithin30',
    asked: `can ${unit.name} see an enemy within ${INITIATIVE_RANGE} cm?`,
    answer: any === 'maybe' ? 'borderline' : any,
    lean: lean ? 'yes' : 'no',
    ...(best ? measuredBy(best.within) : {}),
    reasons: [
      best
        ? `the nearest enemy ${unit.name} can see is ${best.e.name}, ${cmStr(best.m.mm)} away (${best.within.reasons[0] ?? ''})`
        : rows.length
          ? `${unit.name} can see no enemy (${rows.map((r) => `${r.e.name} ${cmStr(r.m.mm)}, hidden`).join('; ')})`
          : 'no enemy on the table',
      ...hiddenNearer.map((h) => `${h.e.name} is nearer (${cmStr(h.m.mm)}) but out of sight`),
      ...(any === 'maybe' ? ['whether an enemy in sight is within 30 cm is too close to call'] : []),
    ],
    options: pick(ctx.options, 'sightBlockers'),
    ...(best ? { facts: { nearest: best.e.name } } : {}),
    checks: rows.flatMap((r) => [r.within, r.view]),
  });
  const calm = otsVerdict({
    question: 'notConfused',
    asked: `is ${unit.name} free of confusion?`,
    answer: unit.disordered ? 'no' : 'yes',
    reasons: [
      unit.disordered
        ? `${unit.name} is confused and cannot act on initiative`
        : `${unit.name} is not confused`,
    ],
  });
  const { answer, lean: l } = allOf([near, calm]);
  return otsVerdict({
    question: 'initiative',
    asked: `may ${unit.name} act on initiative?`,
    answer,
    lean: l,
    ...measuredBy(near),
    reasons: [
      ...near.reasons,
      ...(unit.disordered ? calm.reasons : []),
      ...(answer === 'yes' ? ['it may fire, evade or charge once without an order'] : []),
    ],
    checks: [near, calm],
  });
}

/** An unattached officer may evade on initiative when he sees an enemy within 30 cm (from his base centre). */
export function officerMayEvade(ctx: OtsContext, officer: Commander): boolean {
  return ctx.state.units.some(
    (u) =>
      u.side !== officer.side &&
      pointToUnit(officer.head, 0, u.bases).distance <= mmOfCm(INITIATIVE_RANGE) &&
      visibleRegion(officer.head, u.bodyPolygons, sightScreensFor(ctx.state, sightRule(ctx), new Set([u.id])))
        .share > 0,
  );
}
