import { localCorners, type FacedBox } from './faced-box.ts';
import { toLocal, toTable } from './frame.ts';
import type { Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';

/**
 * Contact along the faces of a faced box: which stretch of a face another footprint touches.
 * A face is one edge of the box; a footprint touches it along the stretch of the face where the
 * footprint comes within `tolerance` of the face's line, from outside or overlapping it by no
 * more than `tolerance` (bases pushed together never meet exactly on a real table).
 */
export type FaceName = 'front' | 'rear' | 'left' | 'right';
export const FACE_NAMES: readonly FaceName[] = ['front', 'right', 'rear', 'left'];

/** A face in the box's local frame: start point, unit direction along it, outward normal, length. */
interface LocalFace {
  readonly start: Vec2;
  readonly along: Vec2;
  readonly out: Vec2;
  readonly length: number;
}

function localFace(box: Pick<FacedBox, 'width' | 'depth'>, face: FaceName): LocalFace {
  const c = localCorners(box);
  // Each face runs left to right as seen by someone standing outside it, facing the box.
  switch (face) {
    case 'front':
      return { start: c.frontRight, along: { x: -1, y: 0 }, out: { x: 0, y: 1 }, length: box.width };
    case 'rear':
      return { start: c.rearLeft, along: { x: 1, y: 0 }, out: { x: 0, y: -1 }, length: box.width };
    case 'left':
      return { start: c.frontLeft, along: { x: 0, y: -1 }, out: { x: -1, y: 0 }, length: box.depth };
    case 'right':
      return { start: c.rearRight, along: { x: 0, y: 1 }, out: { x: 1, y: 0 }, length: box.depth };
  }
}

export const faceLength = (box: Pick<FacedBox, 'width' | 'depth'>, face: FaceName): number =>
  localFace(box, face).length;

/** The face as a table segment (start → end, left to right seen from outside) and its centre. */
export function faceSegment(
  box: FacedBox,
  face: FaceName,
): { start: Vec2; end: Vec2; centre: Vec2; outward: Vec2 } {
  const f = localFace(box, face);
  const end = { x: f.start.x + f.along.x * f.length, y: f.start.y + f.along.y * f.length };
  const mid = { x: f.start.x + (f.along.x * f.length) / 2, y: f.start.y + (f.along.y * f.length) / 2 };
  return {
    start: toTable(box.frame, f.start),
    end: toTable(box.frame, end),
    centre: toTable(box.frame, mid),
    outward: {
      x: box.frame.right.x * f.out.x + box.frame.front.x * f.out.y,
      y: box.frame.right.y * f.out.x + box.frame.front.y * f.out.y,
    },
  };
}

/** Keeps the part of a convex polygon (local coordinates) where side(p) ≥ 0. */
function clip(poly: Vec2[], side: (p: Vec2) => number): Vec2[] {
  const out: Vec2[] = [];
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i] as Vec2;
    const b = poly[(i + 1) % poly.length] as Vec2;
    const sa = side(a);
    const sb = side(b);
    if (sa >= 0) out.push(a);
    if (sa >= 0 !== sb >= 0) {
      const t = sa / (sa - sb);
      out.push({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });
    }
  }
  return out;
}

/**
 * The stretch [from, to] (mm along the face, 0 at its start) a convex footprint touches, or
 * undefined. Zero-length touches (a corner meeting a corner) do not count; nor do stretches no
 * longer than `minStretch` (mm; negative: a footprint that stops that far short of the face's end
 * along it counts, as an empty stretch at that end).
 */
export function contactInterval(
  box: FacedBox,
  face: FaceName,
  footprint: Polygon,
  tolerance: number,
  minStretch = 1e-6,
): [number, number] | undefined {
  const f = localFace(box, face);
  const local = footprint.map((p) => toLocal(box.frame, p));
  const height = (p: Vec2) => (p.x - f.start.x) * f.out.x + (p.y - f.start.y) * f.out.y;
  let part = clip(local, (p) => height(p) + tolerance);
  part = clip(part, (p) => tolerance - height(p));
  if (part.length === 0) return undefined;
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of part) {
    const s = (p.x - f.start.x) * f.along.x + (p.y - f.start.y) * f.along.y;
    lo = Math.min(lo, s);
    hi = Math.max(hi, s);
  }
  lo = Math.max(0, lo);
  hi = Math.min(f.length, hi);
  if (!(hi - lo > minStretch)) return undefined;
  return hi >= lo ? [lo, hi] : lo === 0 ? [0, 0] : [f.length, f.length];
}
