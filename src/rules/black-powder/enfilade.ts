import { inCorridor, type Corridor } from '../../geometry/corridor.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import type { Verdict } from '../engine/verdict.ts';
import { degToRad } from '../../geometry/angle.ts';
import {
  BP,
  bpVerdict,
  inches,
  isSkirmish,
  mmOf,
  thresholdVerdict,
  type BpContext,
  poss,
} from './context.ts';
import { quarterBox } from './quarters.ts';
import type { Weapon } from './tables.ts';
import { hypot } from '../../geometry/hypot.ts';

/**
 * The corridors from which a target is enfiladed, in its own frame: for a line, attack column or
 * warband the strips beyond each flank between its front and rear edges extended; for a march
 * column the strips beyond its front and rear between its side edges extended. Mixed order
 * counts as its formed body.
 */
export function enfiladeCorridors(
  ctx: BpContext,
  target: TableUnit,
): Array<{ side: string; corridor: Corridor }> {
  const box = quarterBox(ctx, target);
  const w = box.width / 2;
  let d0 = -box.depth;
  let d1 = 0;
  if (ctx.options.enfiladeCorridor === 'minimumDepth') {
    const min = mmOf(ctx.options.enfiladeMinDepthIn);
    if (box.depth < min) {
      const grow = (min - box.depth) / 2;
      d0 -= grow;
      d1 += grow;
    }
  }
  const f = target.formationInUse;
  if (f === 'marchColumn')
    return [
      { side: 'front', corridor: { frame: box.frame, xMin: -w, xMax: w, yMin: 0, yMax: Infinity } },
      { side: 'rear', corridor: { frame: box.frame, xMin: -w, xMax: w, yMin: -Infinity, yMax: -box.depth } },
    ];
  if (f === 'line' || f === 'attackColumn' || f === 'warband' || f === 'mixed')
    return [
      { side: 'left', corridor: { frame: box.frame, xMin: -Infinity, xMax: -w, yMin: d0, yMax: d1 } },
      { side: 'right', corridor: { frame: box.frame, xMin: w, xMax: Infinity, yMin: d0, yMax: d1 } },
    ];
  return [];
}

/**
 * Is the target enfiladed by this shooter? Only direct fire from formed troops counts (not
 * skirmishers, bows, thrown weapons, howitzers, mortars, rockets or overhead fire); the
 * shooter's leader (barrel tip for guns) must be inside one of the target's enfilade corridors.
 */
export function enfiladeVerdict(
  ctx: BpContext,
  shooter: TableUnit,
  target: TableUnit,
  weapon: Weapon | undefined,
  overhead = false,
): Verdict {
  const eye: Vec2 = shooter.barrel?.tip ?? shooter.leader;
  const asked = `is ${target.name} enfiladed by ${shooter.name}?`;
  const not = (why: string) =>
    bpVerdict({
      question: 'enfilade',
      asked,
      answer: 'no',
      role: 'modifier',
      reasons: [why],
      facts: { enfiladed: false },
    });
  if (!weapon || !weapon.direct) return not(`${weapon?.name ?? 'no weapon'} does not fire directly`);
  if (isSkirmish(shooter)) return not('skirmishers never enfilade');
  if (overhead) return not('overhead fire never enfilades');
  const corridors = enfiladeCorridors(ctx, target);
  if (corridors.length === 0) return not(`a ${target.formationInUse} cannot be enfiladed`);
  let best: { side: string; inside: boolean; d: number } | undefined;
  for (const { side, corridor } of corridors) {
    const t = inCorridor(corridor, eye);
    if (t.inside && (!best || !best.inside || t.boundaryDistance > best.d))
      best = { side, inside: true, d: t.boundaryDistance };
    else if (!t.inside && (!best || (!best.inside && t.boundaryDistance < best.d)))
      best = { side, inside: false, d: t.boundaryDistance };
  }
  const b = best as { side: string; inside: boolean; d: number };
  // The corridors turn with the target: its heading error swings them by the range as lever.
  const lever = hypot(eye.x - target.leader.x, eye.y - target.leader.y) * degToRad(target.sigmaHeadingDeg);
  const signed = b.inside ? b.d : -b.d;
  return thresholdVerdict(
    ctx,
    {
      question: 'enfilade',
      asked,
      role: 'modifier',
      reasons: [
        b.inside
          ? `${poss(shooter.name)} leader is inside the ${b.side} enfilade corridor of ${target.name}: double dice`
          : `${poss(shooter.name)} leader is outside the nearest (${b.side}) enfilade corridor of ${target.name}`,
      ],
      options: { enfiladeCorridor: ctx.options.enfiladeCorridor },
      facts: { enfiladed: b.inside, side: b.side },
    },
    {
      ...BP.length(inches(signed), 0),
      sigmaMm: Math.hypot(shooter.sigmaMm, target.sigmaMm, lever),
      moveMm: b.d,
    },
    'atLeast',
    0,
  );
}
