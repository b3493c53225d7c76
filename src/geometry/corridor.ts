import { toLocal, toTable, type Frame } from './frame.ts';
import type { Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';
import { hypot } from './hypot.ts';

/**
 * A corridor: a strip in some local frame, x ∈ [xMin, xMax], y ∈ [yMin, yMax] (either end may be
 * infinite). The frontage projected straight ahead, or a target's front and rear edges extended
 * beyond a flank (the enfilade corridor), are both corridors.
 */
export interface Corridor {
  readonly frame: Frame;
  readonly xMin: number;
  readonly xMax: number;
  readonly yMin: number;
  readonly yMax: number;
}

export interface CorridorTest {
  readonly inside: boolean;
  /** Distance from the point to the corridor's boundary (how far from a change of answer). */
  readonly boundaryDistance: number;
}

/** Inside test for a point, with its distance to the nearest (finite) side. */
export function inCorridor(c: Corridor, p: Vec2): CorridorTest {
  const l = toLocal(c.frame, p);
  const inside = l.x >= c.xMin && l.x <= c.xMax && l.y >= c.yMin && l.y <= c.yMax;
  if (inside) {
    const boundaryDistance = Math.min(l.x - c.xMin, c.xMax - l.x, l.y - c.yMin, c.yMax - l.y);
    return { inside, boundaryDistance };
  }
  const dx = Math.max(0, c.xMin - l.x, l.x - c.xMax);
  const dy = Math.max(0, c.yMin - l.y, l.y - c.yMax);
  return { inside, boundaryDistance: hypot(dx, dy) };
}

/** The corridor as a polygon, infinite ends cut at `reach`. */
export function corridorPolygon(c: Corridor, reach = 1e5): Polygon {
  const clamp = (v: number) => Math.max(-reach, Math.min(reach, v));
  const x0 = clamp(c.xMin);
  const x1 = clamp(c.xMax);
  const y0 = clamp(c.yMin);
  const y1 = clamp(c.yMax);
  return [
    { x: x0, y: y0 },
    { x: x1, y: y0 },
    { x: x1, y: y1 },
    { x: x0, y: y1 },
  ].map((p) => toTable(c.frame, p));
}
