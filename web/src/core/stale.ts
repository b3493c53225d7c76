import type { UnitView } from '../../../src/server/protocol.ts';

/**
 * Whether an answer still describes the table: the bases of the units it is about are compared
 * with where they stood when it was given. A base that moved more than the camera's own
 * uncertainty (three sigma, at least 3 mm) or turned more than a degree makes the answer stale.
 */

export interface PoseRecord {
  readonly x: number;
  readonly y: number;
  readonly headingDeg: number;
  readonly sigmaMm: number;
}

export type PosesAt = ReadonlyMap<number, PoseRecord>;

export function posesOf(units: readonly UnitView[], ids: readonly string[]): Map<number, PoseRecord> {
  const out = new Map<number, PoseRecord>();
  for (const u of units)
    if (ids.includes(u.id))
      for (const b of u.bases)
        out.set(b.markerId, { x: b.x, y: b.y, headingDeg: b.headingDeg, sigmaMm: b.sigmaMm });
  return out;
}

function turned(a: number, b: number): number {
  const d = Math.abs(((a - b) % 360) + 360) % 360;
  return Math.min(d, 360 - d);
}

/** The bases (of `ids`) that moved since `then`, by marker id; a base gone or new counts as moved. */
export function movedSince(then: PosesAt, units: readonly UnitView[], ids: readonly string[]): number[] {
  const now = posesOf(units, ids);
  const moved: number[] = [];
  for (const [id, p] of then) {
    const q = now.get(id);
    if (!q) {
      moved.push(id);
      continue;
    }
    const tol = Math.max(3, 3 * Math.hypot(p.sigmaMm, q.sigmaMm));
    if (Math.hypot(q.x - p.x, q.y - p.y) > tol || turned(q.headingDeg, p.headingDeg) > 1) moved.push(id);
  }
  for (const id of now.keys()) if (!then.has(id)) moved.push(id);
  return moved;
}
