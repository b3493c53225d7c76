import type { Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';

/**
 * What one outline gives seen from one eye, kept by outline object (a table's outlines live as
 * long as the table) and by the eye's exact coordinates: every target seen from that eye reuses it.
 */
export class PerEyeCache<T> {
  private readonly byOutline = new WeakMap<Polygon, Map<number, Map<number, T>>>();

  get(outline: Polygon, eye: Vec2, compute: () => T): T {
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
}
