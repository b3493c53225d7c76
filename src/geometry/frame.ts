import { degToRad, radToDeg } from './angle.ts';
import { add, scale, type Vec2 } from './vec.ts';
import { hypot } from './hypot.ts';

/**
 * A local right-handed frame on the table: an origin, the direction called "front" (+y) and
 * the direction called "right" (+x, the front turned 90° clockwise seen from above).
 * Units, guns and base footprints all measure in a frame like this.
 */
export interface Frame {
  readonly origin: Vec2;
  /** Unit vector of local +y. */
  readonly front: Vec2;
  /** Unit vector of local +x (front rotated −90°). */
  readonly right: Vec2;
}

export function frameFromHeading(origin: Vec2, headingDeg: number): Frame {
  const a = degToRad(headingDeg);
  const front = { x: -Math.sin(a), y: Math.cos(a) };
  return { origin, front, right: { x: front.y, y: -front.x } };
}

export function frameFromFront(origin: Vec2, front: Vec2): Frame {
  const len = hypot(front.x, front.y);
  if (len === 0) throw new Error('frame needs a non-zero front direction');
  const f = { x: front.x / len, y: front.y / len };
  return { origin, front: f, right: { x: f.y, y: -f.x } };
}

/** Heading (CCW degrees from table +y) of a frame's front. */
export const frameHeadingDeg = (frame: Frame): number => radToDeg(Math.atan2(-frame.front.x, frame.front.y));

export function toLocal(frame: Frame, p: Vec2): Vec2 {
  const dx = p.x - frame.origin.x;
  const dy = p.y - frame.origin.y;
  return { x: dx * frame.right.x + dy * frame.right.y, y: dx * frame.front.x + dy * frame.front.y };
}

export function toTable(frame: Frame, local: Vec2): Vec2 {
  return add(frame.origin, add(scale(frame.right, local.x), scale(frame.front, local.y)));
}

/** Local direction vector to table direction (no translation). */
export function dirToTable(frame: Frame, local: Vec2): Vec2 {
  return add(scale(frame.right, local.x), scale(frame.front, local.y));
}
