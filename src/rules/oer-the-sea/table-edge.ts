import type { TableUnit } from '../../table/table-unit.ts';
import { possessive } from '../engine/measure.ts';
import { overhangMeasure, tableOverhang } from '../engine/overhang.ts';
import type { Verdict } from '../engine/verdict.ts';
import { cmStr, lengthVerdict, type OtsContext } from './context.ts';

/**
 * "Has A left the table?": a unit fleeing in a failed morale that leaves the table un-rallied is
 * gone. Judged by any part of any stand past the edge (the rules say no more), as a length in
 * centimetres: the overhang, its margin and band.
 */
export function leftTableVerdict(ctx: OtsContext, unit: TableUnit): Verdict {
  const o = tableOverhang(ctx.state.table, unit.bases, 'corners') ?? {
    mm: -Infinity,
    at: unit.leader,
    edge: unit.leader,
    sigmaMm: 0,
  };
  const past = o.mm > 0;
  return lengthVerdict(
    ctx,
    {
      question: 'leftTable',
      asked: `has ${unit.name} left the table?`,
      reasons: [
        `${possessive(unit.name)} farthest stand corner is ${cmStr(Math.abs(o.mm))} ${past ? 'past' : 'inside'} the table edge${past ? ': a unit that leaves the table un-rallied is gone' : ''}`,
      ],
      facts: { overhangCm: o.mm / 10 },
    },
    overhangMeasure(unit, o),
    'moreThan',
    0,
  );
}
