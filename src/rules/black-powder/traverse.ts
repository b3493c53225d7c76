import { degToRad } from '../../geometry/angle.ts';
import { polygonSetSeparation } from '../../geometry/distance.ts';
import { toLocal } from '../../geometry/frame.ts';
import type { Polygon } from '../../geometry/polygon.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { allOf, type Verdict } from '../engine/verdict.ts';
import { shareQuantity } from '../engine/zone-share.ts';
import {
  BP,
  bpVerdict,
  inches,
  inStr,
  lengthVerdict,
  thresholdVerdict,
  type BpContext,
  poss,
} from './context.ts';
import { bpQuarterPolygon } from './quarters.ts';
import { PROXIMITY } from './tables.ts';
import { hypot } from '../../geometry/hypot.ts';

export interface TraverseMove {
  /** The enemy charges (the first clause); otherwise it is any move (the second clause). */
  readonly charging?: boolean;
  /** Where the mover ends: its footprint after the move (for "moves out, or mostly out, of the front quarter"). */
  readonly end?: readonly Polygon[];
}

/**
 * Traversing fire. An enemy that charges across the unit's front within 12" and crosses at least
 * half its frontage may be shot at; so may any enemy that moves within 12", across at least half
 * the frontage, and out (or mostly out) of the unit's front quarter (the second clause: a small
 * fast unit swinging round a flank). The crossing is the mover's leader track (or its whole
 * frontage swept along it: option traverseTrack) projected onto the shooter's front edge, counted
 * only in front of it. Each measure is a threshold under the one uncertainty model.
 */
export function traverseVerdict(
  ctx: BpContext,
  shooter: TableUnit,
  track: readonly [Vec2, Vec2],
  moverFrontageMm = 0,
  move: TraverseMove = { charging: true },
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
  // The shooter's heading error swings its front edge under the track by the track's distance.
  const lever = (sep.distance + w) * degToRad(shooter.sigmaHeadingDeg);
  const sigma = hypot(shooter.sigmaMm, lever);
  const near = lengthVerdict(
    ctx,
    {
      question: 'traverseDistance',
      asked: `does the move pass within 12" of ${shooter.name}?`,
      reasons: [`the track passes ${inStr(sep.distance)} from ${shooter.name}`],
    },
    { mm: sep.distance, sigmaMm: sigma, from: sep.onA, to: sep.onB },
    'atMost',
    PROXIMITY,
  );
  const cross = thresholdVerdict(
    ctx,
    {
      question: 'traverseCover',
      asked: `does it cross half of ${poss(shooter.name)} frontage?`,
      reasons: [`it crosses ${inStr(covered)} of the ${inStr(box.width)} frontage`],
      options: { traverseTrack: ctx.options.traverseTrack },
    },
    BP.length(inches(covered), inches(sigma)),
    'atLeast',
    inches(box.width / 2),
  );
  const checks = [near, cross];
  if (!move.charging) {
    // Second clause: the mover must end out, or mostly out, of the front quarter.
    const end = move.end ?? [];
    const zone = bpQuarterPolygon(ctx, shooter, 'front');
    const sigmaZone = hypot(shooter.sigmaMm, (sep.distance + w) * degToRad(shooter.sigmaHeadingDeg));
    checks.push(
      end.length === 0
        ? bpVerdict({
            question: 'traverseExit',
            asked: `does it end out of ${poss(shooter.name)} front quarter?`,
            answer: 'no',
            reasons: ['where the mover ends was not given'],
          })
        : thresholdVerdict(
            ctx,
            {
              question: 'traverseExit',
              asked: `does it end out, or mostly out, of ${poss(shooter.name)} front quarter?`,
              reasons: ['the share of the mover still in the front quarter at the end of its move'],
            },
            shareQuantity(end, zone, 'lessThan', 50, sigmaZone, BP.bandMm(ctx, sigmaZone)),
            'lessThan',
            50,
          ),
    );
  }
  const { answer, lean } = allOf(checks);
  return bpVerdict({
    question: 'traverse',
    asked: `may ${shooter.name} fire at the enemy crossing its front?`,
    answer,
    lean,
    value: inches(covered),
    limit: inches(box.width / 2),
    unit: 'in',
    reasons: [
      ...checks.flatMap((c) => c.reasons),
      move.charging ? 'a charge across the front' : 'a move across the front and out of the front quarter',
    ],
    options: { traverseTrack: ctx.options.traverseTrack },
    facts: { clause: move.charging ? 'charge' : 'move' },
    checks,
  });
}
