import { segmentInsidePolygon } from '../../geometry/segment-clip.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { TerrainPiece } from '../../table/terrain.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { bpVerdict, inches, mmOf, moveOf, type BpContext } from './context.ts';
import { BUILDING_ENTRY_COST, OBSTACLE_COST } from './tables.ts';
import type { Verdict } from '../engine/verdict.ts';
import { hypot } from '../../geometry/hypot.ts';

export type Mover = Pick<TableUnit, 'type' | 'formationInUse' | 'size' | 'name'>;

/** Inches of allowance one inch of this ground costs the mover; Infinity when it may not enter. */
export function groundRate(piece: TerrainPiece | undefined, mover: Mover): { rate: number; why: string } {
  if (!piece) return { rate: 1, why: 'open ground' };
  const skirmish = mover.formationInUse === 'skirmish' || mover.size === 'tiny';
  const wheeled = mover.type === 'artillery';
  if (piece.impassable) return { rate: Infinity, why: `${piece.label} is impassable` };
  if (piece.cavalryProof && mover.type === 'cavalry' && piece.kind !== 'wood' && piece.kind !== 'building')
    return { rate: Infinity, why: `${piece.label} is closed to cavalry` };
  if (piece.skirmishOnly && !skirmish && piece.kind !== 'wood')
    return { rate: Infinity, why: `only skirmishers may enter ${piece.label}` };
  switch (piece.kind) {
    case 'wood':
      if (skirmish && mover.type === 'infantry') return { rate: 2, why: `${piece.label} (woods, half pace)` };
      return { rate: Infinity, why: `only skirmishing infantry may enter ${piece.label} off the roads` };
    case 'rough':
    case 'veryRough':
    case 'extremelyRough': {
      if (wheeled) return { rate: Infinity, why: `artillery may not enter ${piece.label} off the roads` };
      if (skirmish && piece.kind === 'rough')
        return { rate: 1, why: `${piece.label} (no penalty to skirmishers)` };
      const rate = piece.kind === 'rough' ? 2 : piece.kind === 'veryRough' ? 3 : 4;
      return { rate, why: `${piece.label} (1" costs ${rate}")` };
    }
    default:
      return { rate: 1, why: 'open ground' };
  }
}

export interface PathCost {
  /** Allowance spent, inches (Infinity when the path is closed). */
  readonly costIn: number;
  readonly lengthIn: number;
  readonly blocked?: string;
  readonly legs: ReadonlyArray<{ readonly lengthIn: number; readonly rate: number; readonly why: string }>;
  readonly obstacles: readonly string[];
}

interface Leg {
  a: number;
  b: number;
  rate: number;
  why: string;
}

/** Splits a segment into stretches by the costliest ground under each (roads override). */
function legsOf(ctx: BpContext, p: Vec2, q: Vec2, mover: Mover): Leg[] {
  const cuts = new Set<number>([0, 1]);
  const areas = ctx.state.terrain.filter((t) => t.polygon && t.kind !== 'obstacle');
  for (const t of areas) {
    for (const iv of segmentInsidePolygon(p, q, t.polygon ?? [])) {
      cuts.add(iv.t0);
      cuts.add(iv.t1);
    }
  }
  const ts = [...cuts].sort((x, y) => x - y);
  const len = hypot(q.x - p.x, q.y - p.y);
  const legs: Leg[] = [];
  for (let i = 0; i + 1 < ts.length; i++) {
    const a = ts[i] as number;
    const b = ts[i + 1] as number;
    if (b - a < 1e-12) continue;
    const mid = { x: p.x + (q.x - p.x) * ((a + b) / 2), y: p.y + (q.y - p.y) * ((a + b) / 2) };
    const under = areas.filter((t) => containsMid(t, mid));
    const onRoad = under.some((t) => t.kind === 'road');
    let worst = { rate: 1, why: onRoad ? 'road' : 'open ground' };
    if (!onRoad)
      for (const t of under) {
        if (t.kind === 'building') continue;
        const r = groundRate(t, mover);
        if (r.rate > worst.rate) worst = r;
      }
    legs.push({ a: a * len, b: b * len, rate: worst.rate, why: worst.why });
  }
  return legs;
}

function containsMid(t: TerrainPiece, p: Vec2): boolean {
  const poly = t.polygon ?? [];
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i] as Vec2;
    const b = poly[j] as Vec2;
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

/** Events along a path: ground stretches and obstacle crossings (+6"), with their distance from the start. */
function pathEvents(ctx: BpContext, path: readonly Vec2[], mover: Mover) {
  const events: Array<{ at: number; len: number; rate: number; why: string; fixed: number }> = [];
  let base = 0;
  for (let i = 0; i + 1 < path.length; i++) {
    const p = path[i] as Vec2;
    const q = path[i + 1] as Vec2;
    const len = hypot(q.x - p.x, q.y - p.y);
    const fixed: Array<{ at: number; cost: number; why: string }> = [];
    for (const t of ctx.state.terrain) {
      if (t.kind === 'obstacle' && t.polygon) {
        const ivs = segmentInsidePolygon(p, q, t.polygon);
        if (ivs.length > 0) {
          const at = (ivs[0]?.t0 ?? 0) * len;
          fixed.push({
            at,
            cost: mover.type === 'artillery' ? Infinity : mmOf(OBSTACLE_COST),
            why: `crossing ${t.label}`,
          });
        }
      }
      if (t.kind === 'building' && t.polygon) {
        const ivs = segmentInsidePolygon(p, q, t.polygon);
        if (ivs.length > 0)
          fixed.push({
            at: (ivs[0]?.t0 ?? 0) * len,
            cost: mmOf(BUILDING_ENTRY_COST),
            why: `entering ${t.label}`,
          });
      }
    }
    for (const leg of legsOf(ctx, p, q, mover)) {
      for (const f of fixed.filter((x) => x.at >= leg.a - 1e-9 && x.at < leg.b - 1e-9)) {
        if (f.at > leg.a)
          events.push({ at: base + leg.a, len: f.at - leg.a, rate: leg.rate, why: leg.why, fixed: 0 });
        events.push({ at: base + f.at, len: 0, rate: 1, why: f.why, fixed: f.cost });
        leg.a = f.at;
      }
      events.push({ at: base + leg.a, len: leg.b - leg.a, rate: leg.rate, why: leg.why, fixed: 0 });
    }
    base += len;
  }
  return { events, length: base };
}

/** Cost of moving along a path (table mm points), prorated per inch by the ground under it. */
export function pathCost(ctx: BpContext, path: readonly Vec2[], mover: Mover): PathCost {
  const { events, length } = pathEvents(ctx, path, mover);
  let cost = 0;
  let blocked: string | undefined;
  const obstacles: string[] = [];
  for (const e of events) {
    if (e.fixed > 0) obstacles.push(e.why);
    if (!Number.isFinite(e.rate) || !Number.isFinite(e.fixed)) blocked ??= e.why;
    cost += e.len * e.rate + e.fixed;
  }
  return {
    costIn: blocked ? Infinity : inches(cost),
    lengthIn: inches(length),
    ...(blocked ? { blocked } : {}),
    legs: events.filter((e) => e.len > 0).map((e) => ({ lengthIn: inches(e.len), rate: e.rate, why: e.why })),
    obstacles,
  };
}

/**
 * How far along the path a mover gets with `allowanceIn` inches: each inch costs its ground's
 * rate, an obstacle costs 6" to cross (with less than 6" left, the unit halts in front of it).
 */
export function reachAlongPath(
  ctx: BpContext,
  path: readonly Vec2[],
  mover: Mover,
  allowanceIn: number,
): { reachIn: number; stoppedBy?: string } {
  const { events } = pathEvents(ctx, path, mover);
  let left = mmOf(allowanceIn);
  let reach = 0;
  for (const e of events) {
    if (e.fixed > 0 || !Number.isFinite(e.fixed)) {
      if (!(e.fixed <= left + 1e-9)) return { reachIn: inches(reach), stoppedBy: e.why };
      left -= e.fixed;
      continue;
    }
    if (!Number.isFinite(e.rate)) return { reachIn: inches(reach), stoppedBy: e.why };
    const cost = e.len * e.rate;
    if (cost <= left + 1e-9) {
      left -= cost;
      reach += e.len;
    } else {
      reach += left / e.rate;
      return { reachIn: inches(reach), stoppedBy: 'allowance spent' };
    }
  }
  return { reachIn: inches(reach) };
}

/** "Can the unit's leader follow this path in N moves?" */
export function moveVerdict(ctx: BpContext, unit: TableUnit, path: readonly Vec2[], moves = 1): Verdict {
  const c = pathCost(ctx, path, unit);
  const allowance = moveOf(unit) * moves;
  const ok = c.costIn <= allowance + 1e-9;
  return bpVerdict({
    question: 'move',
    asked: `can ${unit.name} make this move in ${moves} move${moves === 1 ? '' : 's'}?`,
    answer: ok ? 'yes' : 'no',
    value: c.costIn,
    limit: allowance,
    margin: c.costIn - allowance,
    unit: 'in',
    reasons: [
      c.blocked
        ? c.blocked
        : `the path is ${c.lengthIn.toFixed(2)} in long and costs ${c.costIn.toFixed(2)} in of a ${allowance}" allowance`,
      ...c.legs.filter((l) => l.rate !== 1).map((l) => `${l.lengthIn.toFixed(2)} in through ${l.why}`),
      ...c.obstacles.map((o) => `${o}: 6"`),
    ],
    options: { moveProration: ctx.options.moveProration },
  });
}
