import { angleDiffDegrees } from '../../geometry/angle.ts';
import { radToDeg } from '../../geometry/angle.ts';
import { normalize, sub, type Vec2 } from '../../geometry/vec.ts';
import { enemiesOf } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { nearestEnemy, separation, translatedBases, unitCentroid, possessive } from '../engine/measure.ts';
import { pick } from '../engine/options.ts';
import { allOf, type Verdict } from '../engine/verdict.ts';
import { unitSeparation } from '../unit-distance.ts';
import {
  cm,
  cmStr,
  fullMoveOf,
  isLightHorse,
  isMounted,
  lengthVerdict,
  OTS,
  otsVerdict,
  thresholdVerdict,
  type OtsContext,
} from './context.ts';
import { CONTACT_MM, INDEPENDENT_SPACING } from './tables.ts';

export interface MoveConditions {
  /** Column on a road: full plus half. */
  readonly road?: boolean;
  /** Irregular formation or in fortifications: half. */
  readonly irregular?: boolean;
  /** Difficult terrain: half, closed to artillery and non-light cavalry. */
  readonly difficult?: boolean;
  /** Crossing a wall, stream or other linear obstacle: half. */
  readonly obstacle?: boolean;
}

/** Movement allowance per order, cm (undefined when the ground is closed to the unit). */
export function moveAllowance(
  unit: TableUnit,
  c: MoveConditions = {},
): { cm: number; why: string } | undefined {
  const full = fullMoveOf(unit);
  const half = full / 2;
  if (c.difficult && (unit.type === 'artillery' || (unit.type === 'cavalry' && !isLightHorse(unit))))
    return undefined;
  if (c.difficult) return { cm: half, why: 'difficult terrain: half rate' };
  if (c.irregular) return { cm: half, why: 'irregular formation or fortifications: half rate' };
  if (c.obstacle) return { cm: half, why: 'crossing a linear obstacle: half rate' };
  const column = unit.formationInUse === 'attackColumn' || unit.formationInUse === 'marchColumn';
  if (c.road && column) return { cm: full + half, why: 'column on a road: full plus half' };
  return { cm: full, why: 'full rate' };
}

/** Groups move at the rate of their slowest member. */
export const groupAllowance = (units: readonly TableUnit[], c: MoveConditions = {}): number | undefined => {
  const rates = units.map((u) => moveAllowance(u, c)?.cm);
  return rates.some((r) => r === undefined) ? undefined : Math.min(...(rates as number[]));
};

/**
 * Evade: mounted units and artillery only; a full move directly away from the nearest enemy (or
 * the attacker, option evadeFrom); it may not end nearer any other enemy than the one evaded.
 */
export function evadeVerdict(ctx: OtsContext, unit: TableUnit, move: Vec2, evaded?: TableUnit): Verdict {
  const problems: string[] = [];
  if (!isMounted(unit) && unit.type !== 'artillery')
    problems.push('only mounted units and artillery crews evade');
  const from = ctx.options.evadeFrom === 'attacker' && evaded ? evaded : nearestEnemy(ctx.state, unit)?.enemy;
  const checks: Verdict[] = [
    otsVerdict({
      question: 'mayEvade',
      asked: `may ${unit.name} evade?`,
      answer: problems.length ? 'no' : 'yes',
      reasons: problems.length ? problems : [`${unit.name} may evade`],
    }),
  ];
  const len = Math.hypot(move.x, move.y);
  checks.push(
    lengthVerdict(
      ctx,
      {
        question: 'evadeLength',
        asked: 'is the evade a full move?',
        reasons: [`the evade is ${cmStr(len)}; a full move is ${fullMoveOf(unit)} cm`],
      },
      {
        mm: len,
        sigmaMm: unit.sigmaMm,
        from: unitCentroid(unit),
        to: { x: unitCentroid(unit).x + move.x, y: unitCentroid(unit).y + move.y },
      },
      'atMost',
      fullMoveOf(unit),
    ),
  );
  if (from && len > 0) {
    const centre = unitCentroid(unit);
    const fromCentre = unitCentroid(from);
    const away = normalize(sub(centre, fromCentre));
    const off = Math.abs(
      angleDiffDegrees(radToDeg(Math.atan2(move.y, move.x)), radToDeg(Math.atan2(away.y, away.x))),
    );
    // "Directly away" turns by 1/d radians per mm either centre moves across the line joining them.
    const apart = Math.max(1, Math.hypot(centre.x - fromCentre.x, centre.y - fromCentre.y));
    checks.push(
      thresholdVerdict(
        ctx,
        {
          question: 'evadeDirection',
          asked: `is the evade directly away from ${from.name}?`,
          reasons: [`the evade runs ${off.toFixed(0)}° off directly away from ${from.name}`],
          options: pick(ctx.options, 'evadeFrom', 'evadeAngleToleranceDeg'),
        },
        {
          value: off,
          unit: 'deg',
          perMm: radToDeg(1) / apart,
          sigmaMm: Math.hypot(unit.sigmaMm, from.sigmaMm),
        },
        'atMost',
        ctx.options.evadeAngleToleranceDeg,
      ),
    );
  }
  const ref = evaded ?? from;
  if (ref) {
    const end = translatedBases(unit, move);
    const toRef = separation(end, ref.bases);
    // The other enemy whose distance at the end comes nearest to (or under) the evaded one's.
    const n = enemiesOf(ctx.state, unit)
      .filter((e) => e.id !== ref.id)
      .map((e) => ({ e, m: separation(end, e.bases) }))
      .sort((a, b) => a.m.mm - b.m.mm)[0];
    checks.push(
      n
        ? thresholdVerdict(
            ctx,
            {
              question: 'evadeEnd',
              asked: `does ${unit.name} end no nearer another enemy than ${ref.name}?`,
              reasons: [
                n.m.mm < toRef.mm
                  ? `it ends ${cmStr(n.m.mm)} from ${n.e.name} but ${cmStr(toRef.mm)} from ${ref.name}: an evade may not end nearer another enemy`
                  : `it ends ${cmStr(toRef.mm)} from ${ref.name}, ${cmStr(n.m.mm)} from the next enemy, ${n.e.name}`,
              ],
              between: [n.m.from, n.m.to],
            },
            OTS.length(cm(n.m.mm - toRef.mm), cm(Math.hypot(n.m.sigmaMm, toRef.sigmaMm))),
            'atLeast',
            0,
          )
        : otsVerdict({
            question: 'evadeEnd',
            asked: `does ${unit.name} end no nearer another enemy than ${ref.name}?`,
            answer: 'yes',
            reasons: [`it ends ${cmStr(toRef.mm)} from ${ref.name}; no other enemy is on the table`],
          }),
    );
  }
  const { answer, lean } = allOf(checks);
  return otsVerdict({
    question: 'evade',
    asked: `is ${possessive(unit.name)} evade legal?`,
    answer,
    lean,
    reasons:
      answer === 'yes'
        ? ['a legal evade']
        : checks.filter((c) => c.answer !== 'yes').flatMap((c) => c.reasons),
    checks,
  });
}

/** A group: units whose bases touch, one contact chain joining them all. */
export function groupVerdict(units: readonly TableUnit[]): Verdict {
  const n = units.length;
  const joined = new Set<number>([0]);
  let grew = true;
  while (grew) {
    grew = false;
    for (let i = 0; i < n; i++) {
      if (joined.has(i)) continue;
      if (
        [...joined].some(
          (j) =>
            unitSeparation((units[i] as TableUnit).bases, (units[j] as TableUnit).bases).distance <=
            CONTACT_MM,
        )
      ) {
        joined.add(i);
        grew = true;
      }
    }
  }
  const apart = units.filter((_, i) => !joined.has(i)).map((u) => u.name);
  return otsVerdict({
    question: 'group',
    asked: `do ${units.map((u) => u.name).join(', ')} form a group?`,
    answer: n > 1 && apart.length === 0 ? 'yes' : 'no',
    reasons: [
      n < 2
        ? 'a group needs two or more units'
        : apart.length
          ? `${apart.join(', ')} ${apart.length > 1 ? 'are' : 'is'} not in base contact with the rest`
          : 'all units touch in one chain',
    ],
  });
}

/** Independent companies: every stand within 5 cm of its nearest other stand in the group. */
export function independentCompanyVerdict(ctx: OtsContext, units: readonly TableUnit[]): Verdict {
  const stands = units.flatMap((u) => u.bases.map((b, i) => ({ b, label: `${u.name} stand ${i + 1}` })));
  let worst: { label: string; mm: number; from: Vec2; to: Vec2; sigma: number } | undefined;
  for (const s of stands) {
    const others = stands.filter((o) => o !== s).map((o) => o.b);
    if (others.length === 0) continue;
    const m = separation([s.b], others);
    if (!worst || m.mm > worst.mm)
      worst = { label: s.label, mm: m.mm, from: m.from, to: m.to, sigma: m.sigmaMm };
  }
  if (!worst)
    return otsVerdict({
      question: 'independentCompany',
      asked: 'is the company together?',
      answer: 'no',
      reasons: ['a group needs two or more stands'],
    });
  return lengthVerdict(
    ctx,
    {
      question: 'independentCompany',
      asked: `is every stand within ${INDEPENDENT_SPACING} cm of its nearest group-mate?`,
      reasons: [
        `the loneliest stand, ${worst.label}, is ${cm(worst.mm).toFixed(1)} cm from its nearest neighbour`,
      ],
      facts: { loneliest: worst.label },
    },
    { mm: worst.mm, sigmaMm: worst.sigma, from: worst.from, to: worst.to },
    'atMost',
    INDEPENDENT_SPACING,
  );
}
