import type { Vec2 } from '../../geometry/vec.ts';
import { enemiesOf } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { nearestEnemy, translatedBases, type Measured, possessive } from '../engine/measure.ts';
import { pick } from '../engine/options.ts';
import { allOf, type Verdict } from '../engine/verdict.ts';
import { inStr, lengthVerdict, movesOf, mmOf, ppVerdict, troopOf, type PpContext } from './context.ts';
import { APPROACH_LIMIT, DEPLOYMENT_GAP, MARCH_CLEAR } from './tables.ts';

export type MoveKind = 'normal' | 'march' | 'charge';

/** Inches a unit may move: normal, march (double, if allowed) or charge, by the table in force. */
export function moveAllowance(ctx: PpContext, unit: Pick<TableUnit, 'type'>, kind: MoveKind): number {
  const m = movesOf(ctx, troopOf(unit));
  return kind === 'charge' ? m.charge : kind === 'march' ? 2 * m.normal : m.normal;
}

/** Deployment: no unit of `side` nearer than 18" to any enemy unit. */
export function deploymentVerdict(ctx: PpContext, side: string): Verdict {
  const ours = ctx.state.units.filter((u) => u.side === side);
  let worst: { unit: TableUnit; near: Measured & { enemy: TableUnit } } | undefined;
  for (const u of ours) {
    const n = nearestEnemy(ctx.state, u);
    if (n && (!worst || n.mm < worst.near.mm)) worst = { unit: u, near: n };
  }
  const asked = `is ${side} deployed at least ${DEPLOYMENT_GAP}" from the enemy?`;
  if (!worst)
    return ppVerdict({ question: 'deployment', asked, answer: 'yes', reasons: ['no enemy on the table'] });
  return lengthVerdict(
    ctx,
    {
      question: 'deployment',
      asked,
      reasons: [
        `the closest pair is ${worst.unit.name} and ${worst.near.enemy.name}, ${inStr(worst.near.mm)} apart; no unit may deploy nearer than ${DEPLOYMENT_GAP}"`,
      ],
      facts: { unit: worst.unit.name, enemy: worst.near.enemy.name },
    },
    worst.near,
    'atLeast',
    DEPLOYMENT_GAP,
  );
}

/** March move: allowed only when no enemy unit is within 8"; then the unit may move double. */
export function marchVerdict(ctx: PpContext, unit: TableUnit): Verdict {
  const n = nearestEnemy(ctx.state, unit);
  const allowance = moveAllowance(ctx, unit, 'march');
  const asked = `may ${unit.name} make a march move?`;
  if (!n)
    return ppVerdict({
      question: 'march',
      asked,
      answer: 'yes',
      reasons: ['no enemy on the table'],
      facts: { allowanceIn: allowance },
    });
  return lengthVerdict(
    ctx,
    {
      question: 'march',
      asked,
      reasons: [
        `the nearest enemy, ${n.enemy.name}, is ${inStr(n.mm)} away; a march move needs none within ${MARCH_CLEAR}"`,
      ],
      facts: { nearest: n.enemy.name, allowanceIn: allowance },
      options: pick(ctx.options, 'movementTable'),
    },
    n,
    'moreThan',
    MARCH_CLEAR,
  );
}

/**
 * The 1" rule: a move that is not a charge may not end (or, by option, pass) nearer than 1" to
 * any enemy. `move` is the straight translation of the whole unit, table mm.
 */
export function approachVerdict(ctx: PpContext, unit: TableUnit, move: Vec2, isCharge = false): Verdict {
  const asked = `may ${unit.name} end this move where it does?`;
  if (isCharge)
    return ppVerdict({
      question: 'approach',
      asked,
      answer: 'yes',
      reasons: ['a charge may close with the enemy'],
    });
  const steps = ctx.options.approachCheck === 'wholePath' ? 16 : 1;
  let worst: (Measured & { enemy: TableUnit }) | undefined;
  for (let s = steps === 1 ? 1 : 0; s <= steps; s++) {
    const t = s / steps;
    const bases = translatedBases(unit, { x: move.x * t, y: move.y * t });
    const n = nearestEnemy(ctx.state, unit, () => true, bases);
    if (n && (!worst || n.mm < worst.mm)) worst = n;
  }
  if (!worst || enemiesOf(ctx.state, unit).length === 0)
    return ppVerdict({ question: 'approach', asked, answer: 'yes', reasons: ['no enemy on the table'] });
  return lengthVerdict(
    ctx,
    {
      question: 'approach',
      asked,
      reasons: [
        `${ctx.options.approachCheck === 'wholePath' ? 'along the move' : 'at the end of the move'} ${unit.name} comes within ${inStr(worst.mm)} of ${worst.enemy.name}; only a charge may close nearer than ${APPROACH_LIMIT}"`,
      ],
      options: pick(ctx.options, 'approachCheck'),
      facts: { enemy: worst.enemy.name },
    },
    worst,
    'atLeast',
    APPROACH_LIMIT,
  );
}

/** A normal or march move of `lengthIn` inches: within the allowance, and respecting the 1" rule. */
export function moveVerdict(
  ctx: PpContext,
  unit: TableUnit,
  move: Vec2,
  kind: Exclude<MoveKind, 'charge'> = 'normal',
): Verdict {
  const allowance = moveAllowance(ctx, unit, kind);
  const len = Math.hypot(move.x, move.y);
  const checks: Verdict[] = [
    lengthVerdict(
      ctx,
      {
        question: 'allowance',
        asked: `is the move within ${possessive(unit.name)} ${allowance}" ${kind} move?`,
        reasons: [`the move is ${inStr(len)}`],
      },
      {
        mm: len,
        sigmaMm: unit.sigmaMm,
        from: unit.leader,
        to: { x: unit.leader.x + move.x, y: unit.leader.y + move.y },
      },
      'atMost',
      allowance,
    ),
    approachVerdict(ctx, unit, move),
  ];
  if (kind === 'march') checks.push(marchVerdict(ctx, unit));
  if (troopOf(unit) === 'cannon')
    checks.push(
      ppVerdict({
        question: 'cannonMoves',
        asked: 'may a cannon move?',
        answer: len > mmOf(0.01) ? 'no' : 'yes',
        reasons: ['cannons cannot move'],
      }),
    );
  const { answer, lean } = allOf(checks);
  return ppVerdict({
    question: 'move',
    asked: `may ${unit.name} make this ${kind} move?`,
    answer,
    lean,
    reasons: checks.filter((c) => c.answer !== 'yes').flatMap((c) => c.reasons),
    checks,
  });
}
