import type { Vec2 } from './vec.ts';
import { hypot } from './hypot.ts';

/** An axis-aligned bounding box in table coordinates. Used to skip work, never to decide. */
export interface Box {
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
}

export function boxOf(points: readonly Vec2[]): Box {
  return boxOfAll([points]);
}

/** boxOf of every point of the polygons (no flattened copy: probes ask it of every moved target). */
export function boxOfAll(polys: readonly (readonly Vec2[])[]): Box {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const points of polys)
    for (const p of points) {
      if (p.x < minX) minX = p.x;
      if (p.y < minY) minY = p.y;
      if (p.x > maxX) maxX = p.x;
      if (p.y > maxY) maxY = p.y;
    }
  return { minX, minY, maxX, maxY };
}

/** The box grown by `m` on every side. */
export function growBox(b: Box, m: number): Box {
  return { minX: b.minX - m, minY: b.minY - m, maxX: b.maxX + m, maxY: b.maxY + m };
}

export function unionBox(boxes: readonly Box[]): Box {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const b of boxes) {
    minX = Math.min(minX, b.minX);
    minY = Math.min(minY, b.minY);
    maxX = Math.max(maxX, b.maxX);
    maxY = Math.max(maxY, b.maxY);
  }
  return { minX, minY, maxX, maxY };
}

/** Whether two boxes share any point (touching counts). */
export const boxesMeet = (a: Box, b: Box): boolean =>
  a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY;

/** Lower bound of the distance between anything inside box a and anything inside box b. */
export function boxGap(a: Box, b: Box): number {
  const dx = Math.max(0, a.minX - b.maxX, b.minX - a.maxX);
  const dy = Math.max(0, a.minY - b.maxY, b.minY - a.maxY);
  return hypot(dx, dy);
}

/** Lower bound of the distance from p to anything inside the box. */
export function boxPointGap(b: Box, p: Vec2): number {
  const dx = Math.max(0, b.minX - p.x, p.x - b.maxX);
  const dy = Math.max(0, b.minY - p.y, p.y - b.maxY);
  return hypot(dx, dy);
}

/** Whether the segment [a, b] touches the box (slab test; exact for boxes). */
export function segmentTouchesBox(a: Vec2, b: Vec2, box: Box): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = b.x - a.x;
  if (dx === 0) {
    if (a.x < box.minX || a.x > box.maxX) return false;
  } else {
    let ta = (box.minX - a.x) / dx;
    let tb = (box.maxX - a.x) / dx;
    if (ta > tb) [ta, tb] = [tb, ta];
    if (ta > t0) t0 = ta;
    if (tb < t1) t1 = tb;
    if (t0 > t1) return false;
  }
  const dy = b.y - a.y;
  if (dy === 0) return a.y >= box.minY && a.y <= box.maxY;
  let ta = (box.minY - a.y) / dy;
  let tb = (box.maxY - a.y) / dy;
  if (ta > tb) [ta, tb] = [tb, ta];
  if (ta > t0) t0 = ta;
  if (tb < t1) t1 = tb;
  return t0 <= t1;
}
