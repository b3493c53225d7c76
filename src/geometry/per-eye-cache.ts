import type { Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';

/** Set while a sight is computed from an eye no other sight will look from (passingEye). */
let passing: Vec2 | undefined;

/**
 * Runs `compute` for an eye that will not be looked from again (a probe moving the eye a fraction
 * of a band, along a direction that depends on the target): what it builds is kept only until
 * another eye asks, not for the table's lifetime. Every such eye kept was memory the young
 * collector copied for nothing. The results are the same; only where they are kept differs.
 */
export function passingEye<T>(eye: Vec2, compute: () => T): T {
  const before = passing;
  passing = eye;
  try {
    return compute();
  } finally {
    passing = before;
  }
}

/**
 * What one outline gives seen from one eye, kept by outline object (a table's outlines live as
 * long as the table) and by the eye's exact coordinates: every target seen from that eye reuses it.
 * A passing eye's (above) is kept in a one-eye slot instead.
 */
export class PerEyeCache<T> {
  private readonly byOutline = new WeakMap<Polygon, Map<number, Map<number, T>>>();
  private slotEye: Vec2 | undefined;
  private slot = new WeakMap<Polygon, T>();

  get(outline: Polygon, eye: Vec2, compute: () => T): T {
    if (passing && eye.x === passing.x && eye.y === passing.y && !this.kept(outline, eye))
      return this.passingGet(outline, eye, compute);
    let xs = this.byOutline.get(outline);
    if (!xs) {
      xs = new Map();
      this.byOutline.set(outline, xs);
    }
    let ys = xs.get(eye.x);
    if (!ys) {
      ys = new Map();
      xs.set(eye.x, ys);
    }
    let value = ys.get(eye.y);
    if (value === undefined) {
      value = compute();
      ys.set(eye.y, value);
    }
    return value;
  }

  private kept(outline: Polygon, eye: Vec2): boolean {
    return this.byOutline.get(outline)?.get(eye.x)?.has(eye.y) ?? false;
  }

  private passingGet(outline: Polygon, eye: Vec2, compute: () => T): T {
    if (!this.slotEye || this.slotEye.x !== eye.x || this.slotEye.y !== eye.y) {
      this.slotEye = { x: eye.x, y: eye.y };
      this.slot = new WeakMap();
    }
    let value = this.slot.get(outline);
    if (value === undefined) {
      value = compute();
      this.slot.set(outline, value);
    }
    return value;
  }
}
