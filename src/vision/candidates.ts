import type { Pixel } from '../camera/projection.ts';

/** Four image corners; for a marker, OpenCV's order: top-left, top-right, bottom-right, bottom-left of the tag. */
export type Quad = readonly [Pixel, Pixel, Pixel, Pixel];

/**
 * Which stage of the search found a marker (reported with every detection, so a player or a
 * benchmark can see where recall comes from):
 * - `opencv`: OpenCV's detector read it and Vedette's decoder agreed;
 * - `reread`: a quad OpenCV found but could not read (or misread), read by Vedette's decoder;
 * - `surround`: found from the white sticker or base top around the tag;
 * - `tracked`: read where the tracker expected that base's marker;
 * - `roi`: found by searching an upsampled region where a base was expected;
 * - `evidence`: firm only after averaging the same still marker over several frames;
 * - `learned`: read by the learned tag reader.
 */
export const FINDING_STAGES = [
  'opencv',
  'reread',
  'surround',
  'tracked',
  'roi',
  'evidence',
  'learned',
] as const;
export type FindingStage = (typeof FINDING_STAGES)[number];

export function quadCentre(q: Quad): Pixel {
  return { u: (q[0].u + q[1].u + q[2].u + q[3].u) / 4, v: (q[0].v + q[1].v + q[2].v + q[3].v) / 4 };
}

export function quadSide(q: Quad): number {
  let sum = 0;
  for (let i = 0; i < 4; i++) sum += Math.hypot(q[(i + 1) % 4]!.u - q[i]!.u, q[(i + 1) % 4]!.v - q[i]!.v);
  return sum / 4;
}

/** Largest distance between corresponding corners of two quads, in any cyclic correspondence. */
export function quadDistance(a: Quad, b: Quad): number {
  let best = Infinity;
  for (let s = 0; s < 4; s++) {
    let worst = 0;
    for (let k = 0; k < 4; k++)
      worst = Math.max(worst, Math.hypot(a[k]!.u - b[(k + s) % 4]!.u, a[k]!.v - b[(k + s) % 4]!.v));
    best = Math.min(best, worst);
  }
  return best;
}

/**
 * Two quads are one marker seen twice (re-found, or nested: the tag, its sticker, the base) when
 * their centres are closer than 0.6 of the larger side.
 */
export function quadsOverlap(a: Quad, b: Quad): boolean {
  const ca = quadCentre(a);
  const cb = quadCentre(b);
  return Math.hypot(ca.u - cb.u, ca.v - cb.v) < 0.6 * Math.max(quadSide(a), quadSide(b));
}

/**
 * A quad's centre and side, computed once per quad object (the finder asks for every found
 * marker against every candidate quad: thousands of times a whole-frame search). Same values as
 * quadCentre and quadSide.
 */
export function quadShape(q: Quad): { readonly centre: Pixel; readonly side: number } {
  let shape = shapes.get(q);
  if (!shape) {
    shape = { centre: quadCentre(q), side: quadSide(q) };
    shapes.set(q, shape);
  }
  return shape;
}
const shapes = new WeakMap<Quad, { centre: Pixel; side: number }>();
