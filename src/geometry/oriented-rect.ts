import { degToRad } from './angle.ts';
import { add, rotate, type Vec2 } from './vec.ts';

/**
 * A base footprint: a rectangle with its centre, size and heading.
 * Heading is in degrees, counter-clockwise seen from above; 0 means the front (+y of the base)
 * faces the table's +y. Width runs along the base's x (frontage), depth along its y.
 */
export interface OrientedRect {
  readonly center: Vec2;
  readonly width: number;
  readonly depth: number;
  readonly headingDeg: number;
}

/** Unit vector the base faces (its +y). */
export function facing(rect: Pick<OrientedRect, 'headingDeg'>): Vec2 {
  return rotate({ x: 0, y: 1 }, degToRad(rect.headingDeg));
}

/** Maps a point from the base's own frame (+y front, +x right) to the table. */
export function baseToTable(rect: Pick<OrientedRect, 'center' | 'headingDeg'>, local: Vec2): Vec2 {
  return add(rect.center, rotate(local, degToRad(rect.headingDeg)));
}

/** Corners counter-clockwise: rear-left, rear-right, front-right, front-left. */
export function corners(rect: OrientedRect): [Vec2, Vec2, Vec2, Vec2] {
  const w = rect.width / 2;
  const d = rect.depth / 2;
  return [
    baseToTable(rect, { x: -w, y: -d }),
    baseToTable(rect, { x: w, y: -d }),
    baseToTable(rect, { x: w, y: d }),
    baseToTable(rect, { x: -w, y: d }),
  ];
}
