import { segmentTouchesBox, type Box } from './box.ts';
import type { Vec2 } from './vec.ts';

/**
 * Where on the table a computation looked for other pieces: the geometry that scans many
 * blockers (sight screens, sight lines, gaps beside a line of fire) notes the shape inside which
 * a blocker can change its answer. A caller that records one question's looks (the all-pairs
 * update) knows that a unit moved outside every shape, before and after, cannot change the answer.
 *
 * Shapes, each tested exactly (with a millimetre of slack) against a moved unit's box:
 * - a box: the unit's box meets it;
 * - a segment grown by a margin: the segment meets the unit's box grown by the margin (a piece
 *   nearer the segment than the margin has its box within the margin of it);
 * - a sight window (eye, near box round the target, window box): what a hider in the unit's box
 *   hides lies in the cone from the eye through that box, cut to the window; the hider counts
 *   only where that, or the hider itself, has its box meet the near box (visible-region.ts keeps
 *   a hider's hidden polygons by their boxes meeting the near box). An eye inside the box: counts.
 *
 * Off unless a record is active (`withLookRecord`): noting costs a comparison.
 */
const BOX = 0;
const SEGMENT = 1;
const SIGHT = 2;
/** A box only a unit of another side than the one noted can change (who is touching an enemy). */
const ENEMY_BOX = 3;

/** Sides as numbers, for the flat shapes (the same number for the same side in every record). */
const sideNumbers = new Map<string, number>();
const sideNumber = (side: string): number => {
  let n = sideNumbers.get(side);
  if (n === undefined) sideNumbers.set(side, (n = sideNumbers.size));
  return n;
};
/** Slack on every test, mm: far above rounding, far below anything that matters on a table. */
const SLACK = 1;

export class LookRecord {
  minX = Infinity;
  minY = Infinity;
  maxX = -Infinity;
  maxY = -Infinity;
  /** Shapes, flat: kind, then its numbers (box 4, enemy box 5, segment 5, sight 10). */
  private readonly shapes: number[] = [];

  private grow(minX: number, minY: number, maxX: number, maxY: number): void {
    if (minX < this.minX) this.minX = minX;
    if (minY < this.minY) this.minY = minY;
    if (maxX > this.maxX) this.maxX = maxX;
    if (maxY > this.maxY) this.maxY = maxY;
  }

  /** A box looked in. */
  note(minX: number, minY: number, maxX: number, maxY: number): void {
    this.grow(minX, minY, maxX, maxY);
    this.shapes.push(BOX, minX, minY, maxX, maxY);
  }

  /** A box looked in for units of any side but `side` (a friend moving there changes nothing). */
  noteEnemiesOf(side: string, minX: number, minY: number, maxX: number, maxY: number): void {
    this.grow(minX, minY, maxX, maxY);
    this.shapes.push(ENEMY_BOX, sideNumber(side), minX, minY, maxX, maxY);
  }

  /** A segment looked along, and everything within `margin` of it. */
  noteSegment(a: Vec2, b: Vec2, margin: number): void {
    this.grow(
      Math.min(a.x, b.x) - margin,
      Math.min(a.y, b.y) - margin,
      Math.max(a.x, b.x) + margin,
      Math.max(a.y, b.y) + margin,
    );
    this.shapes.push(SEGMENT, a.x, a.y, b.x, b.y, margin);
  }

  /** A sight window: hiders seen from `eye` within `window`, kept when they reach `near`. */
  noteSight(eye: Vec2, near: Box, window: Box): void {
    this.grow(window.minX, window.minY, window.maxX, window.maxY);
    this.shapes.push(SIGHT, eye.x, eye.y, near.minX, near.minY, near.maxX, near.maxY);
    this.shapes.push(window.minX, window.minY, window.maxX, window.maxY);
  }

  /** Adds everything another record looked at. */
  add(other: LookRecord): void {
    if (other.shapes.length === 0) return;
    this.grow(other.minX, other.minY, other.maxX, other.maxY);
    for (const v of other.shapes) this.shapes.push(v);
  }

  /**
   * Whether anything in the box could change what was looked at; `side`: the side of the unit in
   * it, when known (a box noted for another side's units is then passed over by that side's).
   */
  meets(b: Box, side?: string): boolean {
    if (!(b.minX <= this.maxX && this.minX <= b.maxX && b.minY <= this.maxY && this.minY <= b.maxY))
      return false;
    const s = this.shapes;
    for (let i = 0; i < s.length;) {
      const kind = s[i] as number;
      if (kind === BOX) {
        if (
          boxesMeet(b, s[i + 1] as number, s[i + 2] as number, s[i + 3] as number, s[i + 4] as number, SLACK)
        )
          return true;
        i += 5;
      } else if (kind === ENEMY_BOX) {
        const friend = side !== undefined && sideNumbers.get(side) === s[i + 1];
        if (
          !friend &&
          boxesMeet(b, s[i + 2] as number, s[i + 3] as number, s[i + 4] as number, s[i + 5] as number, SLACK)
        )
          return true;
        i += 6;
      } else if (kind === SEGMENT) {
        const m = (s[i + 5] as number) + SLACK;
        const grown = { minX: b.minX - m, minY: b.minY - m, maxX: b.maxX + m, maxY: b.maxY + m };
        const p = { x: s[i + 1] as number, y: s[i + 2] as number };
        const q = { x: s[i + 3] as number, y: s[i + 4] as number };
        if (segmentTouchesBox(p, q, grown)) return true;
        i += 6;
      } else {
        if (sightMeets(s, i + 1, b)) return true;
        i += 11;
      }
    }
    return false;
  }
}

/**
 * The outer bounds of many records, one slot each, in one flat array: an update tests every kept
 * pair's looks against the union of the moved units' boxes first, and most miss it; reading the
 * bounds from here instead of from each record object (scattered in memory) made that test a
 * tenth of an update.
 */
export class LookBounds {
  private readonly bounds: Float64Array;

  constructor(readonly size: number) {
    this.bounds = new Float64Array(4 * size);
  }

  /** Slot k holds this record's bounds (nothing meets an empty slot). */
  set(k: number, look: LookRecord | undefined): void {
    const b = this.bounds;
    b[4 * k] = look ? look.minX : NaN;
    b[4 * k + 1] = look ? look.minY : NaN;
    b[4 * k + 2] = look ? look.maxX : NaN;
    b[4 * k + 3] = look ? look.maxY : NaN;
  }

  /** Slot k takes slot k of `other` (the bounds of the same record, kept from the table before). */
  copy(k: number, other: LookBounds): void {
    const b = this.bounds;
    const o = other.bounds;
    b[4 * k] = o[4 * k] as number;
    b[4 * k + 1] = o[4 * k + 1] as number;
    b[4 * k + 2] = o[4 * k + 2] as number;
    b[4 * k + 3] = o[4 * k + 3] as number;
  }

  /** Whether the record in slot k has its bounds meet `box` (the first test of every look test). */
  meets(k: number, box: Box): boolean {
    const b = this.bounds;
    return (
      box.minX <= (b[4 * k + 2] as number) &&
      (b[4 * k] as number) <= box.maxX &&
      box.minY <= (b[4 * k + 3] as number) &&
      (b[4 * k + 1] as number) <= box.maxY
    );
  }
}

function boxesMeet(b: Box, minX: number, minY: number, maxX: number, maxY: number, slack: number): boolean {
  return b.minX <= maxX + slack && minX - slack <= b.maxX && b.minY <= maxY + slack && minY - slack <= b.maxY;
}

/**
 * Whether a hider inside box `b` could hide anything of the near box seen from the eye within the
 * window (numbers at s[k..]: eye x, y, near box, window box), by the boxes visible-region.ts tests.
 */
function sightMeets(s: readonly number[], k: number, b: Box): boolean {
  const ex = s[k] as number;
  const ey = s[k + 1] as number;
  const nMinX = s[k + 2] as number;
  const nMinY = s[k + 3] as number;
  const nMaxX = s[k + 4] as number;
  const nMaxY = s[k + 5] as number;
  const wMinX = s[k + 6] as number;
  const wMinY = s[k + 7] as number;
  const wMaxX = s[k + 8] as number;
  const wMaxY = s[k + 9] as number;
  // The hider outside the window is never looked at.
  if (!boxesMeet(b, wMinX, wMinY, wMaxX, wMaxY, SLACK)) return false;
  // The hider itself reaching the near box, or holding the eye.
  if (boxesMeet(b, nMinX, nMinY, nMaxX, nMaxY, SLACK)) return true;
  const g = { minX: b.minX - SLACK, minY: b.minY - SLACK, maxX: b.maxX + SLACK, maxY: b.maxY + SLACK };
  if (ex >= g.minX && ex <= g.maxX && ey >= g.minY && ey <= g.maxY) return true;
  // The cone from the eye through the (grown) box: its two extreme corner rays.
  const corners: Array<[number, number]> = [
    [g.minX - ex, g.minY - ey],
    [g.maxX - ex, g.minY - ey],
    [g.maxX - ex, g.maxY - ey],
    [g.minX - ex, g.maxY - ey],
  ];
  const cx = (g.minX + g.maxX) / 2 - ex;
  const cy = (g.minY + g.maxY) / 2 - ey;
  let lo = Infinity;
  let hi = -Infinity;
  let r1: [number, number] = corners[0] as [number, number];
  let r2 = r1;
  for (const c of corners) {
    const angle = Math.atan2(cx * c[1] - cy * c[0], cx * c[0] + cy * c[1]);
    if (angle < lo) {
      lo = angle;
      r1 = c;
    }
    if (angle > hi) {
      hi = angle;
      r2 = c;
    }
  }
  // The window cut to the cone: counter-clockwise of r1, clockwise of r2 (eye at the origin).
  let poly: Array<[number, number]> = [
    [wMinX - ex, wMinY - ey],
    [wMaxX - ex, wMinY - ey],
    [wMaxX - ex, wMaxY - ey],
    [wMinX - ex, wMaxY - ey],
  ];
  poly = clipHalf(poly, (p) => r1[0] * p[1] - r1[1] * p[0]);
  poly = clipHalf(poly, (p) => -(r2[0] * p[1] - r2[1] * p[0]));
  if (poly.length === 0) return false;
  // The box of the cut window and the hider together meets the near box?
  let minX = g.minX - ex;
  let minY = g.minY - ey;
  let maxX = g.maxX - ex;
  let maxY = g.maxY - ey;
  for (const [x, y] of poly) {
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  return boxesMeet(
    { minX: minX + ex, minY: minY + ey, maxX: maxX + ex, maxY: maxY + ey },
    nMinX,
    nMinY,
    nMaxX,
    nMaxY,
    SLACK,
  );
}

/** The part of a convex polygon where f ≥ 0 (Sutherland–Hodgman, one plane). */
function clipHalf(
  poly: Array<[number, number]>,
  f: (p: [number, number]) => number,
): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i] as [number, number];
    const b = poly[(i + 1) % poly.length] as [number, number];
    const fa = f(a);
    const fb = f(b);
    if (fa >= 0) out.push(a);
    if (fa >= 0 !== fb >= 0) {
      const t = fa / (fa - fb);
      out.push([a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]);
    }
  }
  return out;
}

let active: LookRecord | undefined;

/** Runs `fn` noting into `record` every shape the geometry looks in (nesting restores the outer one). */
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

/** Notes a box looked in for units not of `side` (see LookRecord.noteEnemiesOf). */
export function noteEnemiesLooked(side: string, b: Box): void {
  active?.noteEnemiesOf(side, b.minX, b.minY, b.maxX, b.maxY);
}

/** Notes the segment a → b and everything within `margin` of it. */
export function noteSegment(a: Vec2, b: Vec2, margin = 0): void {
  active?.noteSegment(a, b, margin);
}

/** Notes a sight window (see LookRecord.noteSight). */
export function noteSight(eye: Vec2, near: Box, window: Box): void {
  active?.noteSight(eye, near, window);
}
