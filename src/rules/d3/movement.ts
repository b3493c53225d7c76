import { containsPoint } from '../../geometry/polygon.ts';
import { segmentInsidePolygon } from '../../geometry/segment-clip.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { TerrainPiece } from '../../table/terrain.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { pick } from '../engine/options.ts';
import type { Verdict } from '../engine/verdict.ts';
import { d3Verdict, inches, moveOf, troopOf, type D3Context } from './context.ts';

export type D3Ground = 'open' | 'difficult' | 'woods' | 'river' | 'ford';

/** What a terrain piece is in D3 terms: rough ground of any degree is bog/difficult; water is a river. */
export function groundOf(piece: TerrainPiece | undefined): D3Ground {
  if (!piece) return 'open';
  switch (piece.kind) {
    case 'wood':
      return 'woods';
    case 'rough':
    case 'veryRough':
    case 'extremelyRough':
      return 'difficult';
    case 'water':
      return 'river';
    default:
      return 'open';
  }
}

/** Why a unit may not enter this ground, if it may not. */
export function forbidden(
  unit: Pick<TableUnit, 'type' | 'troop' | 'weapon' | 'formationInUse'>,
  ground: D3Ground,
): string | undefined {
  const t = troopOf(unit);
  if (ground === 'woods' && t !== 'skirmishers') return 'only skirmishers may enter woods';
  if (ground === 'difficult' && (t === 'cavalry' || t === 'artillery' || t === 'mortar'))
    return 'cavalry and artillery may not enter bogs or difficult ground';
  if (ground === 'river') return 'rivers may be crossed only at bridges and fords';
  return undefined;
}

interface Leg {
  readonly lengthMm: number;
  readonly ground: D3Ground;
  readonly label: string;
}

/** Splits a path into stretches by the ground under them (a road over water is a bridge or ford). */
export function legsOf(ctx: D3Context, path: readonly Vec2[]): Leg[] {
  const legs: Leg[] = [];
  const pieces = ctx.state.terrain.filter((t) => t.polygon && t.kind !== 'obstacle');
  for (let i = 0; i + 1 < path.length; i++) {
    const p = path[i] as Vec2;
    const q = path[i + 1] as Vec2;
    const len = Math.hypot(q.x - p.x, q.y - p.y);
    const cuts = new Set([0, 1]);
    for (const t of pieces)
      for (const iv of segmentInsidePolygon(p, q, t.polygon ?? [])) {
        cuts.add(iv.t0);
        cuts.add(iv.t1);
      }
    const ts = [...cuts].sort((a, b) => a - b);
    for (let k = 0; k + 1 < ts.length; k++) {
      const a = ts[k] as number;
      const b = ts[k + 1] as number;
      if (b - a < 1e-12) continue;
      const mid = { x: p.x + (q.x - p.x) * ((a + b) / 2), y: p.y + (q.y - p.y) * ((a + b) / 2) };
      const under = pieces.filter((t) => containsPoint(t.polygon ?? [], mid));
      const road = under.some((t) => t.kind === 'road');
      let ground: D3Ground = 'open';
      let label = 'open ground';
      for (const t of under) {
        const g = groundOf(t);
        if (g === 'river') {
          ground = road ? 'ford' : 'river';
          label = t.label;
        } else if (g !== 'open' && ground === 'open') {
          ground = g;
          label = t.label;
        }
      }
      legs.push({ lengthMm: (b - a) * len, ground, label });
    }
  }
  return legs;
}

export interface D3PathReach {
  /** Inches of the path the unit covers with one move. */
  readonly reachIn: number;
  readonly lengthIn: number;
  readonly stoppedBy?: string;
}

/**
 * How far along a path one move takes the unit: difficult ground halves movement (each inch
 * costs two, or the whole allowance halves, by option); woods are for skirmishers; a river is
 * crossed only at a bridge or ford and the crossing takes a whole move.
 */
export function reachAlongPath(ctx: D3Context, unit: TableUnit, path: readonly Vec2[]): D3PathReach {
  const legs = legsOf(ctx, path);
  const lengthIn = inches(legs.reduce((s, l) => s + l.lengthMm, 0));
  let allowance = moveOf(unit);
  const anyDifficult = legs.some((l) => l.ground === 'difficult');
  const wholeMove = ctx.options.difficultGround === 'wholeMove';
  if (wholeMove && anyDifficult) allowance /= 2;
  let left = allowance;
  let reach = 0;
  for (const l of legs) {
    const why = l.ground === 'ford' ? undefined : forbidden(unit, l.ground);
    if (why) return { reachIn: reach, lengthIn, stoppedBy: `${why} (${l.label})` };
    if (l.ground === 'ford') {
      // Crossing takes the whole move: only a unit that has not yet moved gets over.
      if (reach > 1e-9)
        return { reachIn: reach, lengthIn, stoppedBy: `crossing ${l.label} takes a full move` };
      reach += inches(l.lengthMm);
      return { reachIn: reach, lengthIn, stoppedBy: `crossing ${l.label} takes the whole move` };
    }
    const rate = l.ground === 'difficult' && !wholeMove ? 2 : 1;
    const cost = inches(l.lengthMm) * rate;
    if (cost <= left + 1e-9) {
      left -= cost;
      reach += inches(l.lengthMm);
    } else {
      reach += left / rate;
      return { reachIn: reach, lengthIn, stoppedBy: 'allowance spent' };
    }
  }
  return { reachIn: reach, lengthIn };
}

/** "Can the unit follow this path in one move?" */
export function moveVerdict(ctx: D3Context, unit: TableUnit, path: readonly Vec2[]): Verdict {
  const r = reachAlongPath(ctx, unit, path);
  const ok = r.reachIn >= r.lengthIn - 1e-6 && !(r.stoppedBy && r.reachIn < r.lengthIn - 1e-6);
  return d3Verdict({
    question: 'move',
    asked: `can ${unit.name} make this move?`,
    answer: ok ? 'yes' : 'no',
    value: r.reachIn,
    limit: r.lengthIn,
    margin: r.reachIn - r.lengthIn,
    unit: 'in',
    reasons: [
      `${unit.name} covers ${r.reachIn.toFixed(2)} in of the ${r.lengthIn.toFixed(2)} in path${r.stoppedBy ? `: ${r.stoppedBy}` : ''}`,
    ],
    options: pick(ctx.options, 'difficultGround'),
    facts: { reachIn: r.reachIn, allowanceIn: moveOf(unit) },
  });
}
