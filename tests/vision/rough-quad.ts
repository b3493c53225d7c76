import type { Quad } from '../../src/vision/candidates.ts';

/**
 * A tag's quad as one inferred from the sticker round it gives it: 1.4 px off (1.2 across, 0.8 up)
 * and turned 4° about its centre.
 */
export function roughQuad(q: Quad): Quad {
  const turn = (4 * Math.PI) / 180;
  const cu = q.reduce((a, c) => a + c.u, 0) / 4;
  const cv = q.reduce((a, c) => a + c.v, 0) / 4;
  return q.map((c) => ({
    u: cu + 1.2 + (c.u - cu) * Math.cos(turn) - (c.v - cv) * Math.sin(turn),
    v: cv - 0.8 + (c.u - cu) * Math.sin(turn) + (c.v - cv) * Math.cos(turn),
  })) as unknown as Quad;
}
