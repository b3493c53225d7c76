import type { Commander } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { measuredBy } from '../engine/composite.ts';
import { separation } from '../engine/measure.ts';
import { pick } from '../engine/options.ts';
import { enemiesNearestFirst } from '../engine/targets.ts';
import { allOf, type Verdict } from '../engine/verdict.ts';
import { pointToUnit } from '../unit-distance.ts';
import { visibleFractionBy } from '../../geometry/visibility.ts';
import {
  cmStr,
  lengthVerdict,
  mmOfCm,
  otsVerdict,
  seenShare,
  sightHider,
  type OtsContext,
} from './context.ts';
import { INITIATIVE_RANGE } from './tables.ts';

/** Initiative: not confused, and an enemy unit it can actually see within 30 cm. */
export function initiativeVerdict(ctx: OtsContext, unit: TableUnit): Verdict {
  const seen = enemiesNearestFirst(
    ctx.state,
    unit,
    (e) => ({ e, m: separation(unit.bases, e.bases), share: seenShare(ctx, unit, e) }),
    (s) => s.m.mm,
  );
  const visible = seen.filter((s) => s.share.share > 0);
  const nearestSeenMm = visible[0]?.m.mm ?? Infinity;
  const hidden = seen.filter((s) => s.share.share === 0 && s.m.mm <= nearestSeenMm);
  const n = visible[0];
  const near = n
    ? lengthVerdict(
        ctx,
        {
          question: 'enemyWithin30',
          asked: `can ${unit.name} see an enemy within ${INITIATIVE_RANGE} cm?`,
          reasons: [
            `the nearest enemy ${unit.name} can see is ${n.e.name}, ${cmStr(n.m.mm)} away`,
            ...hidden.map((h) => `${h.e.name} is nearer (${cmStr(h.m.mm)}) but out of sight`),
          ],
          options: pick(ctx.options, 'sightBlockers'),
          facts: { nearest: n.e.name },
        },
        n.m,
        'atMost',
        INITIATIVE_RANGE,
      )
    : otsVerdict({
        question: 'enemyWithin30',
        asked: `can ${unit.name} see an enemy within ${INITIATIVE_RANGE} cm?`,
        answer: 'no',
        reasons: [
          seen.length
            ? `${unit.name} can see no enemy (${seen.map((s) => `${s.e.name} ${cmStr(s.m.mm)}, hidden`).join('; ')})`
            : 'no enemy on the table',
        ],
        options: pick(ctx.options, 'sightBlockers'),
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
  const { answer, lean } = allOf([near, calm]);
  return otsVerdict({
    question: 'initiative',
    asked: `may ${unit.name} act on initiative?`,
    answer,
    lean,
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
      visibleFractionBy(officer.head, u.bodyPolygons, (e, p) => sightHider(ctx, e, p, new Set([u.id])), 3)
        .fraction > 0,
  );
}
