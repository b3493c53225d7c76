import { boxOf, segmentTouchesBox, type Box } from './box.ts';
import { noteSegment } from './look-record.ts';
import type { Polygon } from './polygon.ts';
import { segmentInsidePolygon } from './segment-clip.ts';
import type { Vec2 } from './vec.ts';
import { hypot } from './hypot.ts';

/** Something a sight line cannot pass through: a unit's base, a wood, a building. */
export interface Blocker {
  readonly id: string;
  /** Words for a player: "Lee's", "the wood 'Home Copse'". */
  readonly label: string;
  readonly polygon: Polygon;
  readonly box: Box;
}

export const makeBlocker = (id: string, label: string, polygon: Polygon): Blocker => ({
  id,
  label,
  polygon,
  box: boxOf(polygon),
});

/** Where a sight line runs through a blocker: distances from the eye, and the two points. */
export interface Obstruction {
  readonly blocker: Blocker;
  readonly fromMm: number;
  readonly toMm: number;
  readonly enter: Vec2;
  readonly exit: Vec2;
}

/**
 * Every stretch of the segment eye → target that passes through a blocker, nearest first.
 * Grazing an edge or a corner does not obstruct.
 */
export function sightObstructions(
  eye: Vec2,
  target: Vec2,
  blockers: readonly Blocker[],
  firstOnly = false,
): Obstruction[] {
  const len = hypot(target.x - eye.x, target.y - eye.y);
  const out: Obstruction[] = [];
  noteSegment(eye, target);
  for (const blocker of blockers) {
    if (!segmentTouchesBox(eye, target, blocker.box)) continue;
    for (const iv of segmentInsidePolygon(eye, target, blocker.polygon)) {
      out.push({
        blocker,
        fromMm: iv.t0 * len,
        toMm: iv.t1 * len,
        enter: { x: eye.x + (target.x - eye.x) * iv.t0, y: eye.y + (target.y - eye.y) * iv.t0 },
        exit: { x: eye.x + (target.x - eye.x) * iv.t1, y: eye.y + (target.y - eye.y) * iv.t1 },
      });
      if (firstOnly) return out;
    }
  }
  return out.sort((a, b) => a.fromMm - b.fromMm);
}

export const hasLineOfSight = (eye: Vec2, target: Vec2, blockers: readonly Blocker[]): boolean =>
  sightObstructions(eye, target, blockers, true).length === 0;
