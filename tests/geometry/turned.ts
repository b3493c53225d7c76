import type { Polygon } from '../../src/geometry/polygon.ts';

/** Points given round (0, 0) as [x, y], turned by `a` radians and moved to (cx, cy). */
export function turned(
  points: ReadonlyArray<readonly [number, number]>,
  cx: number,
  cy: number,
  a: number,
): Polygon {
  const c = Math.cos(a);
  const s = Math.sin(a);
  return points.map(([x, y]) => ({ x: cx + x * c - y * s, y: cy + x * s + y * c }));
}

/** A w × h rectangle centred on (cx, cy), turned by `a` radians. */
export const turnedRect = (cx: number, cy: number, w: number, h: number, a: number): Polygon =>
  turned(
    [
      [-w / 2, -h / 2],
      [w / 2, -h / 2],
      [w / 2, h / 2],
      [-w / 2, h / 2],
    ],
    cx,
    cy,
    a,
  );
