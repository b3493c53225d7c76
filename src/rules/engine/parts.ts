import type { FacedBox } from '../../geometry/faced-box.ts';
import { frameFromFront, toLocal } from '../../geometry/frame.ts';
import { facing, type OrientedRect } from '../../geometry/oriented-rect.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import { possessive } from './words.ts';

/**
 * Measuring points in players' words: where on a unit a measured line starts or ends ("Lee's
 * front-left corner", "Camerons' nearest edge"), read from the unit's faced box.
 */

const TOL_MM = 0.5;

/** The part of a faced box a point lies on: a corner, an edge, or undefined when it is on neither. */
export function boxPart(box: FacedBox, p: Vec2): string | undefined {
  const l = toLocal(box.frame, p);
  const w = box.width / 2;
  const onFront = Math.abs(l.y) <= TOL_MM;
  const onRear = Math.abs(l.y + box.depth) <= TOL_MM;
  const onLeft = Math.abs(l.x + w) <= TOL_MM;
  const onRight = Math.abs(l.x - w) <= TOL_MM;
  if ((onFront || onRear) && (onLeft || onRight))
    return `${onFront ? 'front' : 'rear'}-${onLeft ? 'left' : 'right'} corner`;
  if (onFront) return 'front edge';
  if (onRear) return 'rear edge';
  if (onLeft) return 'left flank';
  if (onRight) return 'right flank';
  return undefined;
}

/**
 * "Lee's front-left corner" for a point on a unit's outline; "Camerons' nearest edge" for a point
 * somewhere else on its bases (an inner base edge, or when the outline is not the box).
 */
export function pointName(unit: { readonly name: string; readonly box: FacedBox }, p: Vec2): string {
  const part = boxPart(unit.box, p);
  return `${possessive(unit.name)} ${part ?? 'nearest edge'}`;
}

/** The faced box of one base (its own front, from its heading). */
export function baseBox(f: OrientedRect): FacedBox {
  const front = facing(f);
  return {
    frame: frameFromFront(
      { x: f.center.x + (front.x * f.depth) / 2, y: f.center.y + (front.y * f.depth) / 2 },
      front,
    ),
    width: f.width,
    depth: f.depth,
  };
}

/**
 * A point on one named base of a unit: "Lee's front-left corner" when it is a corner or edge of the
 * whole unit, else "the front-right corner of Lee's leader base", else "Lee's leader base".
 */
export function basePointName(
  unit: { readonly name: string; readonly box: FacedBox },
  base: OrientedRect,
  baseWords: string,
  p: Vec2,
): string {
  const whole = boxPart(unit.box, p);
  if (whole) return `${possessive(unit.name)} ${whole}`;
  const own = boxPart(baseBox(base), p);
  return own
    ? `the ${own} of ${possessive(unit.name)} ${baseWords}`
    : `${possessive(unit.name)} ${baseWords}`;
}
