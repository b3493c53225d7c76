import type { Box } from './box.ts';
import type { Vec2 } from './vec.ts';

/**
 * Where on the table a computation looked for other pieces: the geometry that scans many
 * blockers (sight screens, sight lines, gaps beside a line of fire) notes the box inside which
 * a blocker can change its answer. A caller that records one question's looks (the all-pairs
 * update) knows that a unit moved outside that box, before and after, cannot change the answer.
 *
 * Off unless a record is active (`withLookRecord`): noting costs a comparison.
 */
export class LookRecord {
  minX = Infinity;
  minY = Infinity;
  maxX = -Infinity;
  maxY = -Infinity;

  note(minX: number, minY: number, maxX: number, maxY: number): void {
    if (minX < this.minX) this.minX = minX;
    if (minY < this.minY) this.minY = minY;
    if (maxX > this.maxX) this.maxX = maxX;
    if (maxY > this.maxY) this.maxY = maxY;
  }

  /** Adds everything another record looked at. */
  add(other: LookRecord): void {
    this.note(other.minX, other.minY, other.maxX, other.maxY);
  }

  /** Whether the box meets anything looked at. */
  meets(b: Box): boolean {
    return b.minX <= this.maxX && this.minX <= b.maxX && b.minY <= this.maxY && this.minY <= b.maxY;
  }
}

let active: LookRecord | undefined;

/** Runs `fn` noting into `record` every box the geometry looks in (nesting restores the outer one). */
export function withLookRecord<T>(record: LookRecord, fn: () => T): T {
  const outer = active;
  active = record;
  try {
    return fn();
  } finally {
    active = outer;
  }
}

/** Whether a record is active (callers skip recording work when none is). */
export const lookRecordActive = (): boolean => active !== undefined;

/** Notes everything another record looked at (a remembered result's looks, reused). */
export function noteRecord(record: LookRecord): void {
  active?.add(record);
}

/** Notes a box looked in. */
export function noteLooked(b: Box): void {
  active?.note(b.minX, b.minY, b.maxX, b.maxY);
}

/** Notes the box of the segment a → b, grown by `margin`. */
export function noteSegment(a: Vec2, b: Vec2, margin = 0): void {
  active?.note(
    Math.min(a.x, b.x) - margin,
    Math.min(a.y, b.y) - margin,
    Math.max(a.x, b.x) + margin,
    Math.max(a.y, b.y) + margin,
  );
}
