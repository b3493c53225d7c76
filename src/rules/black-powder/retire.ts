import type { QuarterName } from '../../geometry/quarters.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import type { Verdict } from '../engine/verdict.ts';
import { bpVerdict, mmOf, moveOf, type BpContext } from './context.ts';
import { enemyWithin12Verdict } from './proximity.ts';
import { inBuilding } from './shooting.ts';

const OPPOSITE: Record<QuarterName, QuarterName> = {
  front: 'rear',
  rear: 'front',
  left: 'right',
  right: 'left',
};

/** Unit direction (table) of one of the unit's quarters. */
export function quarterDirection(unit: TableUnit, q: QuarterName): Vec2 {
  const f = unit.box.frame.front;
  const r = unit.box.frame.right;
  switch (q) {
    case 'front':
      return f;
    case 'rear':
      return { x: -f.x, y: -f.y };
    case 'right':
      return r;
    case 'left':
      return { x: -r.x, y: -r.y };
  }
}

/**
 * Evading: one full move away on the side opposite the face charged (front → rear, a flank →
 * the other flank; rear → front by symmetry, or not at all: option evadeFromRear).
 */
export function evadeMove(
  ctx: BpContext,
  unit: TableUnit,
  chargedFace: QuarterName,
): { quarter: QuarterName; distanceIn: number; vector: Vec2 } | undefined {
  if (chargedFace === 'rear' && ctx.options.evadeFromRear === 'forbidden') return undefined;
  const quarter = OPPOSITE[chargedFace];
  const d = quarterDirection(unit, quarter);
  const distanceIn = moveOf(unit);
  return { quarter, distanceIn, vector: { x: d.x * mmOf(distanceIn), y: d.y * mmOf(distanceIn) } };
}

/** Where a unit retires: its rear quarter, or the quarter opposite when engaged only on one flank or only at the rear. */
export function retireQuarter(engagedFaces: readonly QuarterName[]): QuarterName {
  const faces = [...new Set(engagedFaces)];
  if (faces.length === 1 && faces[0] !== 'front') return OPPOSITE[faces[0] as QuarterName];
  return 'rear';
}

/** Broken brigade: units within 12" of the enemy, not engaged, must retire unless in a building or square. */
export function brokenMustRetireVerdict(ctx: BpContext, unit: TableUnit): Verdict {
  const near = enemyWithin12Verdict(ctx, unit);
  const building = inBuilding(ctx, unit);
  const holds = building
    ? `${unit.name} holds ${building}`
    : unit.formationInUse === 'square'
      ? `${unit.name} is in square`
      : unit.engaged
        ? `${unit.name} is engaged`
        : '';
  const answer = holds ? 'no' : near.answer;
  return bpVerdict({
    question: 'brokenMustRetire',
    asked: `must ${unit.name} retire (brigade broken)?`,
    answer,
    lean: holds ? 'no' : near.lean,
    reasons: [
      ...near.reasons,
      holds
        ? `${holds}: it may hold`
        : near.lean === 'yes'
          ? 'it must retire one move'
          : 'it may retire but need not',
    ],
    checks: [near],
  });
}

/** Brave: a shaken unit more than 12" from every enemy may try to rally itself. */
export function braveVerdict(ctx: BpContext, unit: TableUnit): Verdict {
  const near = enemyWithin12Verdict(ctx, unit);
  const answer = !unit.shaken
    ? 'no'
    : near.answer === 'yes'
      ? 'no'
      : near.answer === 'no'
        ? 'yes'
        : 'borderline';
  return bpVerdict({
    question: 'brave',
    asked: `may ${unit.name} rally itself (Brave)?`,
    answer,
    reasons: [unit.shaken ? (near.reasons[0] ?? '') : `${unit.name} is not shaken`],
    checks: [near],
  });
}

export interface BrigadeUnitStatus {
  readonly type: 'infantry' | 'cavalry' | 'artillery';
  readonly lost: boolean;
  /** Tiny units, battalion guns and detached light cavalry never count. */
  readonly ignored?: boolean;
}

/**
 * Brigade broken: at least half its infantry and cavalry units lost (destroyed, off table or
 * shaken). Artillery counts only when it makes up the majority of the brigade.
 */
export function brigadeBroken(units: readonly BrigadeUnitStatus[]): {
  broken: boolean;
  lost: number;
  counted: number;
  needed: number;
} {
  const counting = units.filter((u) => !u.ignored);
  const guns = counting.filter((u) => u.type === 'artillery').length;
  const pool = guns > counting.length / 2 ? counting : counting.filter((u) => u.type !== 'artillery');
  const lost = pool.filter((u) => u.lost).length;
  const needed = Math.ceil(pool.length / 2);
  return { broken: pool.length > 0 && lost >= needed, lost, counted: pool.length, needed };
}
