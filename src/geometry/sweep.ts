import type { FacedBox } from './faced-box.ts';
import { toTable } from './frame.ts';
import type { Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';

/** How far a faced box must move straight ahead before it touches a target, and where. */
export interface SweepContact {
  /** Distance along the box's front, mm; 0 when it already touches or overlaps. */
  readonly distance: number;
  /** The target point first met (table coordinates). */
  readonly at: Vec2;
  /** The matching point of the box's front edge before the move. */
  readonly from: Vec2;
}

/**
 * Scratch coordinates for sweepContact, reused from call to call: the charge searches sweep
 * millions of times, and building point objects for every clip was a fifth of their time.
 */
let cap = 0;
let x0 = new Float64Array(0);
let y0 = new Float64Array(0);
let x1 = new Float64Array(0);
let y1 = new Float64Array(0);
let x2 = new Float64Array(0);
let y2 = new Float64Array(0);

function ensureCapacity(n: number): void {
  // Each clip pass adds at most one point per edge: 2n after the first, 4n after the second.
  const need = 4 * n + 4;
  if (need <= cap) return;
  cap = need;
  x0 = new Float64Array(cap);
  y0 = new Float64Array(cap);
  x1 = new Float64Array(cap);
  y1 = new Float64Array(cap);
  x2 = new Float64Array(cap);
  y2 = new Float64Array(cap);
}

/**
 * One Sutherland–Hodgman pass against the line x = edgeX, keeping x ≥ edgeX (`keepAbove`) or
 * x ≤ edgeX: `n` points in (xs, ys) to (ox, oy); returns how many were written.
 */
function clipAt(
  xs: Float64Array,
  ys: Float64Array,
  n: number,
  edgeX: number,
  keepAbove: boolean,
  ox: Float64Array,
  oy: Float64Array,
): number {
  let m = 0;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const ax = xs[i] as number;
    const ay = ys[i] as number;
    const bx = xs[j] as number;
    const by = ys[j] as number;
    const ina = keepAbove ? ax >= edgeX : ax <= edgeX;
    const inb = keepAbove ? bx >= edgeX : bx <= edgeX;
    if (ina) {
      ox[m] = ax;
      oy[m++] = ay;
    }
    if (ina !== inb && bx !== ax) {
      const t = (edgeX - ax) / (bx - ax);
      ox[m] = edgeX;
      oy[m++] = ay + (by - ay) * t;
    }
  }
  return m;
}

/** Where lowestInStrip found the lowest point: its y (0 when behind the front edge), x, and y as met but never below 0. */
let foundY = 0;
let foundX = 0;
let foundPy = 0;

/**
 * Whether any of the polygons lies in the strip the box's frontage sweeps ahead of its rear edge;
 * the lowest such point, in the box's frame, is left in foundY / foundX / foundPy.
 */
function lowestInStrip(box: FacedBox, targets: readonly Polygon[]): boolean {
  const w = box.width / 2;
  const { origin, right, front } = box.frame;
  let found = false;
  for (const poly of targets) {
    const n = poly.length;
    ensureCapacity(n);
    let minX = Infinity;
    let maxX = -Infinity;
    for (let i = 0; i < n; i++) {
      const p = poly[i] as Vec2;
      const dx = p.x - origin.x;
      const dy = p.y - origin.y;
      const x = dx * right.x + dy * right.y;
      x0[i] = x;
      y0[i] = dx * front.x + dy * front.y;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
    }
    // Wholly to one side of the strip, the clips keep nothing; wholly within it, they keep every
    // corner as it is (the very numbers): both are told from the corners alone.
    if (maxX < -w || minX > w) continue;
    let xs = x0;
    let ys = y0;
    let m = n;
    if (minX < -w || maxX > w) {
      const m1 = clipAt(x0, y0, n, -w, true, x1, y1);
      m = clipAt(x1, y1, m1, w, false, x2, y2);
      if (m === 0) continue;
      xs = x2;
      ys = y2;
    }
    let lo = 0;
    let hiY = -Infinity;
    for (let k = 0; k < m; k++) {
      if ((ys[k] as number) < (ys[lo] as number)) lo = k;
      hiY = Math.max(hiY, ys[k] as number);
    }
    if (hiY < -box.depth) continue; // wholly behind the box
    const loY = ys[lo] as number;
    const y = Math.max(0, loY);
    if (!found || y < foundY) {
      found = true;
      foundY = y;
      foundX = xs[lo] as number;
      foundPy = loY >= 0 ? loY : 0;
    }
  }
  return found;
}

/**
 * Moving `box` straight ahead (along its front), the distance at which it first touches any of
 * the polygons: the lowest point, in the box's frame, of the targets' parts inside the strip the
 * frontage sweeps (each clipped to the slab |x| ≤ half the frontage). Undefined when nothing lies
 * in the strip ahead of the box's rear edge.
 */
export function sweepContact(box: FacedBox, targets: readonly Polygon[]): SweepContact | undefined {
  if (!lowestInStrip(box, targets)) return undefined;
  return {
    distance: foundY,
    at: toTable(box.frame, { x: foundX, y: foundPy }),
    from: toTable(box.frame, { x: foundX, y: 0 }),
  };
}

/**
 * sweepContact's distance alone (Infinity when nothing is met), without building the points: the
 * charge searches ask it of every obstacle beside millions of runs.
 */
export function sweepDistance(box: FacedBox, targets: readonly Polygon[]): number {
  return lowestInStrip(box, targets) ? foundY : Infinity;
}
