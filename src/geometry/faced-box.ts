import { frameFromFront, toLocal, toTable, type Frame } from './frame.ts';
import type { Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';

/**
 * A rectangle that has a front: the oriented bounding box of a unit (or of a gun model), in a
 * frame whose origin is the centre of the front edge. In that frame the box occupies
 * x ∈ [−width/2, width/2], y ∈ [−depth, 0]; +y is the way it faces.
 */
export interface FacedBox {
  readonly frame: Frame;
  readonly width: number;
  readonly depth: number;
}

export type CornerName = 'frontLeft' | 'frontRight' | 'rearRight' | 'rearLeft';

/** Corners in local coordinates. */
export function localCorners(box: Pick<FacedBox, 'width' | 'depth'>): Record<CornerName, Vec2> {
  const w = box.width / 2;
  return {
    frontLeft: { x: -w, y: 0 },
    frontRight: { x: w, y: 0 },
    rearRight: { x: w, y: -box.depth },
    rearLeft: { x: -w, y: -box.depth },
  };
}

/** Outline on the table, counter-clockwise seen from above. */
export function facedBoxPolygon(box: FacedBox): Polygon {
  const c = localCorners(box);
  return [c.rearLeft, c.rearRight, c.frontRight, c.frontLeft].map((p) => toTable(box.frame, p));
}

/** Centre of the front edge (the BP leader point). */
export const frontCentre = (box: FacedBox): Vec2 => box.frame.origin;

/** Centre of the box. */
export const boxCentre = (box: FacedBox): Vec2 => toTable(box.frame, { x: 0, y: -box.depth / 2 });

/**
 * The smallest box facing `front` that holds every point: x spans the points across the front,
 * y from the rearmost to the foremost point.
 */
export function facedBoxAround(points: readonly Vec2[], front: Vec2): FacedBox {
  if (points.length === 0) throw new Error('facedBoxAround needs points');
  const probe = frameFromFront({ x: 0, y: 0 }, front);
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (const p of points) {
    const l = toLocal(probe, p);
    minX = Math.min(minX, l.x);
    maxX = Math.max(maxX, l.x);
    minY = Math.min(minY, l.y);
    maxY = Math.max(maxY, l.y);
  }
  const origin = toTable(probe, { x: (minX + maxX) / 2, y: maxY });
  return { frame: frameFromFront(origin, front), width: maxX - minX, depth: maxY - minY };
}
