import { polygonSetSeparation } from '../../geometry/distance.ts';
import { toLocal } from '../../geometry/frame.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { allOf, type Verdict } from '../engine/verdict.ts';
import { compare } from '../engine/threshold.ts';
import { bpVerdict, inches, type BpContext } from './context.ts';
import { PROXIMITY } from './tables.ts';

/**
 * Traversing fire: an enemy charging across the unit's front within 12" that crosses at least
 * half its frontage may be shot at. The crossing is the charger's leader track (or its whole
 * frontage swept along it: option traverseTrack) projected onto the shooter's front edge, counted
 * only in front of it.
 */
export function traverseVerdict(
  ctx: BpContext,
  shooter: TableUnit,
  track: readonly [Vec2, Vec2],
  moverFrontageMm = 0,
): Verdict {
  const box = shooter.box;
  const a = toLocal(box.frame, track[0]);
  const b = toLocal(box.frame, track[1]);
  const w = box.width / 2;
  const grow = ctx.options.traverseTrack === 'footprint' ? moverFrontageMm / 2 : 0;
  // Part of the track in front of the shooter (y > 0).
  const lo = Math.min(a.x, b.x) - grow;
  let hi = Math.max(a.x, b.x) + grow;
  if (a.y <= 0 && b.y <= 0) hi = lo;
  const covered = Math.max(0, Math.min(hi, w) - Math.max(lo, -w));
  const sep = polygonSetSeparation(shooter.bodyPolygons, [[track[0], track[1]]]);
  const near = compare(inches(sep.distance), 'atMost', PROXIMITY, inches(shooter.sigmaMm), ctx.policy);
  const cross = compare(
    inches(covered),
    'atLeast',
    inches(box.width / 2),
    inches(shooter.sigmaMm),
    ctx.policy,
  );
  const checks = [
    bpVerdict({
      question: 'traverseDistance',
      asked: 'does the charge pass within 12"?',
      answer: near.answer,
      lean: near.lean,
      value: inches(sep.distance),
      limit: PROXIMITY,
      margin: near.margin,
      epsilon: near.epsilon,
      unit: 'in',
      between: [sep.onA, sep.onB],
      reasons: [`the track passes ${inches(sep.distance).toFixed(2)} in from ${shooter.name}`],
    }),
    bpVerdict({
      question: 'traverseCover',
      asked: 'does it cross half the frontage?',
      answer: cross.answer,
      lean: cross.lean,
      value: inches(covered),
      limit: inches(box.width / 2),
      margin: cross.margin,
      epsilon: cross.epsilon,
      unit: 'in',
      reasons: [
        `it crosses ${inches(covered).toFixed(2)} in of the ${inches(box.width).toFixed(2)} in frontage`,
      ],
    }),
  ];
  const { answer, lean } = allOf(checks);
  return bpVerdict({
    question: 'traverse',
    asked: `may ${shooter.name} fire at the enemy crossing its front?`,
    answer,
    lean,
    value: inches(covered),
    limit: inches(box.width / 2),
    unit: 'in',
    reasons: checks.flatMap((c) => c.reasons),
    options: { traverseTrack: ctx.options.traverseTrack },
    checks,
  });
}
