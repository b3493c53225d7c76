/**
 * Independent reference for the distance between two convex footprints, used only by tests:
 * brute force over every vertex against every edge of the other footprint. Deliberately not
 * src/geometry, which is what the tests are checking.
 */
export interface P {
  readonly x: number;
  readonly y: number;
}

function pointSegment(p: P, a: P, b: P): number {
  const abx = b.x - a.x;
  const aby = b.y - a.y;
  const t = Math.max(0, Math.min(1, ((p.x - a.x) * abx + (p.y - a.y) * aby) / (abx * abx + aby * aby)));
  return Math.hypot(a.x + t * abx - p.x, a.y + t * aby - p.y);
}

/** Separation of two non-overlapping convex polygons (vertex lists). */
export function convexGap(a: readonly P[], b: readonly P[]): number {
  let best = Infinity;
  for (const [from, to] of [
    [a, b],
    [b, a],
  ] as const) {
    for (const p of from) {
      for (let i = 0; i < to.length; i++)
        best = Math.min(best, pointSegment(p, to[i]!, to[(i + 1) % to.length]!));
    }
  }
  return best;
}

/** Gap between two units, each a list of base footprints. */
export function unitGap(a: ReadonlyArray<readonly P[]>, b: ReadonlyArray<readonly P[]>): number {
  let best = Infinity;
  for (const fa of a) for (const fb of b) best = Math.min(best, convexGap(fa, fb));
  return best;
}
