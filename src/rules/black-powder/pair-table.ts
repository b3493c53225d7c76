import { closestPolygonPair } from '../../geometry/distance.ts';
import type { Box } from '../../geometry/box.ts';
import type { Polygon } from '../../geometry/polygon.ts';
import {
  quarterGeometry,
  quarterOfTablePoint,
  type QuarterGeometry,
  type QuarterName,
} from '../../geometry/quarters.ts';
import type { FacedBox } from '../../geometry/faced-box.ts';
import type { Hider } from '../../geometry/visibility.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { TableBase, TableUnit } from '../../table/table-unit.ts';
import { endSigma2, pointToUnit, unitSeparation } from '../unit-distance.ts';
import { isSkirmish, type BpContext, type Measured } from './context.ts';
import { bpQuarterOfPoint, quarterBox, type BpQuarter } from './quarters.ts';
import { sightBlockerExcept, sightBlockerPlain } from './sight.ts';

/**
 * The three positional facts every shooting, charging and command question starts from, for
 * every ordered pair of units on the table:
 * - `range`: from the range origin of `from` (option `rangeFrom`: leader base, leader point or
 *   whole footprint; a gun's barrel tip) to the nearest point of `to`'s body, with uncertainty;
 * - `quarter`: which of `from`'s quarters holds `to`'s leader (skirmishers: all round front);
 * - `sight`: what blocks the line from `from`'s eye (leader, or barrel tip) to that nearest
 *   point, if anything.
 */
export interface PairFacts {
  readonly from: TableUnit;
  readonly to: TableUnit;
  readonly range: Measured;
  readonly quarter: BpQuarter;
  readonly sight: Hider | undefined;
}

/** Where a unit looks from: its leader, or a gun's barrel tip. */
const eyeOf = (u: TableUnit): Vec2 => u.barrel?.tip ?? u.leader;

/** The straightforward reading of one pair: the same calls a single question makes. */
export function pairFactsPlain(ctx: BpContext, from: TableUnit, to: TableUnit): PairFacts {
  let range: Measured;
  if (from.barrel || ctx.options.rangeFrom === 'leaderPoint') {
    const eye = eyeOf(from);
    const s = pointToUnit(eye, from.sigmaMm, to.body);
    range = { mm: s.distance, sigmaMm: s.sigmaMm, from: s.onA, to: s.onB };
  } else {
    const s = unitSeparation(ctx.options.rangeFrom === 'footprint' ? from.body : [from.leaderBase], to.body);
    range = { mm: s.distance, sigmaMm: s.sigmaMm, from: s.onA, to: s.onB };
  }
  const quarter = bpQuarterOfPoint(ctx, from, to.leader);
  const sight = sightBlockerPlain(ctx, eyeOf(from), range.to, { exclude: new Set([from.id, to.id]) });
  return { from, to, range, quarter, sight };
}

/** Every ordered pair, one question at a time (the reference the fast table must equal). */
export function pairTablePlain(ctx: BpContext): PairFacts[] {
  const out: PairFacts[] = [];
  for (const a of ctx.state.units)
    for (const b of ctx.state.units) if (a !== b) out.push(pairFactsPlain(ctx, a, b));
  return out;
}

/** What is worked out once per unit and reused for all its pairs. */
interface UnitPrep {
  readonly unit: TableUnit;
  readonly eye: Vec2;
  readonly originBases: readonly TableBase[];
  readonly origin: readonly Polygon[];
  readonly originBoxes: readonly Box[];
  readonly body: readonly Polygon[];
  readonly bodyBoxes: readonly Box[];
  readonly box: FacedBox;
  /** Undefined for skirmishers (all round front). */
  readonly quarters: QuarterGeometry | undefined;
}

function prepare(ctx: BpContext, u: TableUnit): UnitPrep {
  const originBases = ctx.options.rangeFrom === 'footprint' ? u.body : [u.leaderBase];
  const box = quarterBox(ctx, u);
  return {
    unit: u,
    eye: eyeOf(u),
    originBases,
    origin: originBases.map((b) => b.polygon),
    originBoxes: originBases.map((b) => b.box),
    body: u.body.map((b) => b.polygon),
    bodyBoxes: u.body.map((b) => b.box),
    box,
    quarters: isSkirmish(u) ? undefined : quarterGeometry(box, ctx.options.quarterReading),
  };
}

const QUARTER_CODES: ReadonlyArray<QuarterName | 'inside'> = ['inside', 'front', 'right', 'rear', 'left'];
const quarterCode = (q: QuarterName | 'inside'): number => QUARTER_CODES.indexOf(q);

/**
 * Range, quarter and sight for every ordered pair of units, kept in flat arrays (row = the unit
 * asking, column = the unit asked about, both in table order) so 3,540 answers cost no garbage
 * to keep. `facts(i, j)` gives one pair as `PairFacts`, equal to `pairFactsPlain`.
 */
export class PairTable {
  readonly units: readonly TableUnit[];
  readonly n: number;
  readonly rangeMm: Float64Array;
  readonly rangeSigmaMm: Float64Array;
  /** Range end points: on the asking unit (from) and on the other (to), table mm. */
  readonly fromX: Float64Array;
  readonly fromY: Float64Array;
  readonly toX: Float64Array;
  readonly toY: Float64Array;
  /** Index in QUARTER_CODES order: inside, front, right, rear, left. */
  readonly quarter: Uint8Array;
  readonly across: Uint8Array;
  readonly rayDistance: Float64Array;
  readonly onBoundary: Uint8Array;
  readonly allRoundFront: Uint8Array;
  /** −1 when the sight line is clear, else an index into `hiders`. */
  readonly sight: Int32Array;
  readonly sightFromMm: Float64Array;
  readonly sightToMm: Float64Array;
  /** The blockers met (units and terrain pieces), without distances. */
  readonly hiders: Array<{ readonly id: string; readonly label: string }> = [];
  private readonly hiderCodes = new Map<string, number>();

  constructor(units: readonly TableUnit[]) {
    this.units = units;
    this.n = units.length;
    const size = this.n * this.n;
    this.rangeMm = new Float64Array(size);
    this.rangeSigmaMm = new Float64Array(size);
    this.fromX = new Float64Array(size);
    this.fromY = new Float64Array(size);
    this.toX = new Float64Array(size);
    this.toY = new Float64Array(size);
    this.quarter = new Uint8Array(size);
    this.across = new Uint8Array(size);
    this.rayDistance = new Float64Array(size);
    this.onBoundary = new Uint8Array(size);
    this.allRoundFront = new Uint8Array(size);
    this.sight = new Int32Array(size).fill(-1);
    this.sightFromMm = new Float64Array(size);
    this.sightToMm = new Float64Array(size);
  }

  /** Code of a blocker (a unit's or terrain piece's id), interned. */
  hiderCode(h: Hider): number {
    let c = this.hiderCodes.get(h.id);
    if (c === undefined) {
      c = this.hiders.length;
      this.hiders.push({ id: h.id, label: h.label });
      this.hiderCodes.set(h.id, c);
    }
    return c;
  }

  /** One pair, by the units' positions in table order (i asks about j). */
  facts(i: number, j: number): PairFacts {
    const k = i * this.n + j;
    const from = this.units[i] as TableUnit;
    const to = this.units[j] as TableUnit;
    const sight = this.sight[k] as number;
    const hider = sight < 0 ? undefined : (this.hiders[sight] as { id: string; label: string });
    return {
      from,
      to,
      range: {
        mm: this.rangeMm[k] as number,
        sigmaMm: this.rangeSigmaMm[k] as number,
        from: { x: this.fromX[k] as number, y: this.fromY[k] as number },
        to: { x: this.toX[k] as number, y: this.toY[k] as number },
      },
      quarter: {
        quarter: QUARTER_CODES[this.quarter[k] as number] as QuarterName | 'inside',
        rayDistance: this.rayDistance[k] as number,
        across: QUARTER_CODES[this.across[k] as number] as QuarterName | 'inside',
        onBoundary: this.onBoundary[k] === 1,
        allRoundFront: this.allRoundFront[k] === 1,
      },
      sight: hider
        ? {
            id: hider.id,
            label: hider.label,
            fromMm: this.sightFromMm[k] as number,
            toMm: this.sightToMm[k] as number,
          }
        : undefined,
    };
  }

  /** Every ordered pair as PairFacts, in the order pairTablePlain lists them. */
  all(): PairFacts[] {
    const out: PairFacts[] = [];
    for (let i = 0; i < this.n; i++) for (let j = 0; j < this.n; j++) if (i !== j) out.push(this.facts(i, j));
    return out;
  }
}

/**
 * Every ordered pair at once, with the same answers as `pairTablePlain` (tested on random
 * tables): unit outlines, boxes and quarter geometry are prepared once; the closest base pair is
 * found by seeding with the nearest boxes; sight lines only look at blockers in the grid cells
 * they cross; answers go into flat arrays.
 */
export function pairTable(ctx: BpContext): PairTable {
  const units = ctx.state.units;
  const n = units.length;
  const prep = units.map((u) => prepare(ctx, u));
  const table = new PairTable(units);
  const pointRange = ctx.options.rangeFrom === 'leaderPoint';
  let skipA = '';
  let skipB = '';
  const excluded = (id: string): boolean => id === skipA || id === skipB;
  for (let i = 0; i < n; i++) {
    const pa = prep[i] as UnitPrep;
    const a = pa.unit;
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const pb = prep[j] as UnitPrep;
      const b = pb.unit;
      const k = i * n + j;
      // Range.
      let to: Vec2;
      if (a.barrel || pointRange) {
        const s = pointToUnit(pa.eye, a.sigmaMm, b.body);
        table.rangeMm[k] = s.distance;
        table.rangeSigmaMm[k] = s.sigmaMm;
        table.fromX[k] = s.onA.x;
        table.fromY[k] = s.onA.y;
        to = s.onB;
      } else {
        const c = closestPolygonPair(pa.origin, pa.originBoxes, pb.body, pb.bodyBoxes);
        table.rangeMm[k] = c.distance;
        table.rangeSigmaMm[k] = Math.sqrt(
          endSigma2(pa.originBases[c.indexA] as TableBase, c.onA) +
            endSigma2(b.body[c.indexB] as TableBase, c.onB),
        );
        table.fromX[k] = c.onA.x;
        table.fromY[k] = c.onA.y;
        to = c.onB;
      }
      table.toX[k] = to.x;
      table.toY[k] = to.y;
      // Quarter of the other unit's leader.
      if (pa.quarters) {
        const q = quarterOfTablePoint(pa.box.frame, pa.quarters, b.leader, 1e-9);
        table.quarter[k] = quarterCode(q.quarter);
        table.across[k] = quarterCode(q.across);
        table.rayDistance[k] = q.rayDistance;
        table.onBoundary[k] = q.onBoundary ? 1 : 0;
        table.allRoundFront[k] = a.formationInUse === 'square' ? 1 : 0;
      } else {
        const q = bpQuarterOfPoint(ctx, a, b.leader);
        table.quarter[k] = quarterCode(q.quarter);
        table.across[k] = quarterCode(q.across);
        table.rayDistance[k] = q.rayDistance;
        table.onBoundary[k] = q.onBoundary ? 1 : 0;
        table.allRoundFront[k] = q.allRoundFront ? 1 : 0;
      }
      // Line of sight from the eye to the range's end on the other unit.
      skipA = a.id;
      skipB = b.id;
      const h = sightBlockerExcept(ctx, pa.eye, to, excluded);
      if (h) {
        table.sight[k] = table.hiderCode(h);
        table.sightFromMm[k] = h.fromMm ?? NaN;
        table.sightToMm[k] = h.toMm ?? NaN;
      }
    }
  }
  return table;
}
