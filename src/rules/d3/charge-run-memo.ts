import type { FacedBox } from '../../geometry/faced-box.ts';
import type { Polygon } from '../../geometry/polygon.ts';
import type { SweepContact } from '../../geometry/sweep.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { RunObstacle } from './charge-run.ts';

/**
 * The clear runs a piece's search met, in the order met: six numbers each (the turn in radians,
 * then the contact's distance, point met and matching point of the front edge). Numbers, not the
 * contacts themselves: kept through a charge's searches, thousands of small objects cost the
 * garbage collector more than the runs they save (an array of numbers alone is one flat block).
 */
export class RunSamples {
  private readonly data: number[] = [];

  add(t: number, c: SweepContact): void {
    this.data.push(t, c.distance, c.at.x, c.at.y, c.from.x, c.from.y);
  }

  get count(): number {
    return this.data.length / 6;
  }

  turn(i: number): number {
    return this.data[i * 6] as number;
  }

  distance(i: number): number {
    return this.data[i * 6 + 1] as number;
  }

  /** The contact of run `i`, as sweepContact gave it (the same numbers, keys in the same order). */
  contact(i: number): SweepContact {
    const d = this.data;
    const o = i * 6;
    return {
      distance: d[o + 1] as number,
      at: { x: d[o + 2] as number, y: d[o + 3] as number },
      from: { x: d[o + 4] as number, y: d[o + 5] as number },
    };
  }
}

/** By piece of the turns searched (its two ends), the clear runs its search met. */
export type KnownPieces = Map<string, RunSamples>;

/**
 * What the best-line search (charge-line.ts) met in each piece of the turns between two cuts,
 * while one charge is judged. Its doubts search the best line again and again with the turn limits
 * moved (a blocker a band nearer or further, then bisected): only the pieces at the limits change,
 * and every piece between is searched past the same obstacles with the same runs, so its runs are
 * kept and taken again in the same order instead of searched again. A piece depends on the obstacles
 * that may stand in a run (one list per judged charge: the memo goes with it), the charger's box,
 * the target's outlines, the pivot and the clearance, and is kept by those objects and numbers.
 * (Which of the obstacles a search tests, obstaclesInReach, does not change a run: it leaves out
 * only what cannot stand in any run of that side's turns.)
 */
const memo = new WeakMap<
  readonly RunObstacle[],
  WeakMap<FacedBox, WeakMap<readonly Polygon[], Map<string, KnownPieces>>>
>();

/** A number's exact text, −0 told from 0 (String(−0) is "0"). */
export const exactText = (v: number): string => (Object.is(v, -0) ? '-0' : String(v));

export function knownPieces(
  inTheWay: readonly RunObstacle[],
  box: FacedBox,
  target: readonly Polygon[],
  pivot: Vec2,
  clearanceMm: number,
): KnownPieces {
  let byBox = memo.get(inTheWay);
  if (!byBox) memo.set(inTheWay, (byBox = new WeakMap()));
  let byTarget = byBox.get(box);
  if (!byTarget) byBox.set(box, (byTarget = new WeakMap()));
  let byPivot = byTarget.get(target);
  if (!byPivot) byTarget.set(target, (byPivot = new Map()));
  const key = `${exactText(pivot.x)} ${exactText(pivot.y)} ${exactText(clearanceMm)}`;
  let pieces = byPivot.get(key);
  if (!pieces) byPivot.set(key, (pieces = new Map()));
  return pieces;
}
