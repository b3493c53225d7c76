import type { Gap } from '../../geometry/gap.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { VisibleRegion } from '../../geometry/visible-region.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import type { OptionValue, Verdict } from '../engine/verdict.ts';
import type { Measured } from './context.ts';
import type { Weapon } from './tables.ts';

/** Everything decided about one shooter–target pair, before target priority. */
export interface ShotAssessment {
  readonly shooter: TableUnit;
  readonly target: TableUnit;
  readonly weapon?: Weapon;
  /** Where seeing is judged from: the leader, or a gun's barrel tip. */
  readonly eye: Vec2;
  readonly range?: Measured;
  /** The range check (with its borderline band), when the target is seen or out of range whatever is seen. */
  readonly rangeCheck?: Verdict;
  /** Share in the front quarter (or, for guns, in the 45° arc); absent when settled early. */
  readonly frontShare?: number;
  /** The part of the target seen; absent when settled early. */
  readonly visible?: VisibleRegion;
  readonly overhead: boolean;
  readonly gap?: Gap;
  /** Eligible: front quarter, visible, in range, not in combat, not under a minimum range (or too close to call). */
  readonly eligible: boolean;
  /**
   * Nothing seen, but whether any is seen too close to call: the range to the nearest part of the
   * whole target (no part seen is nearer), so target priority weighs it as a closer target that
   * may be eligible.
   */
  readonly rangeIfSeen?: Measured;
  readonly answer: Verdict['answer'];
  readonly clear: boolean;
  /** A clear-target test is too close to call. */
  readonly clearBorderline: boolean;
  readonly notClear: readonly string[];
  readonly band: string;
  readonly checks: readonly Verdict[];
  readonly facts: Readonly<Record<string, OptionValue>>;
  /**
   * Settled before any sight, quarter or cover was judged: the shooter may not shoot, the target
   * may not be shot, or no part of it is within range (`outOfRangeWhateverSeen`). The answer is
   * then no, with the clear-target tests unjudged (clear false, notClear empty).
   */
  readonly settledEarly?: 'notAllowed' | 'outOfRange';
}
