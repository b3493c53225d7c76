import type { Vec2 } from '../../geometry/vec.ts';
import type { TableBase } from '../../table/table-unit.ts';
import type { FacedBox } from '../../geometry/faced-box.ts';
import { pointName } from './parts.ts';
import { hypot } from '../../geometry/hypot.ts';

/** How far bases reach past the table edge. */
export interface Overhang {
  /** mm past the nearest edge (negative: how far inside the farthest point stays). */
  readonly mm: number;
  /** The point that reaches farthest, and the edge point it is measured to. */
  readonly at: Vec2;
  readonly edge: Vec2;
  /** One sigma of that point: its base's centre error and heading error times its lever. */
  readonly sigmaMm: number;
}

/**
 * The farthest any of the bases reaches past the edge of a table [0, width] × [0, depth]: by any
 * corner (a base overhanging at all), or by base centres only. Undefined without bases.
 */
export function tableOverhang(
  table: { readonly widthMm: number; readonly depthMm: number },
  bases: readonly TableBase[],
  by: 'corners' | 'centres',
): Overhang | undefined {
  const { widthMm, depthMm } = table;
  // Signed distance of a point outside the table rectangle (negative inside: distance to the nearest edge).
  const out = (p: Vec2): { d: number; edge: Vec2 } => {
    const dx = Math.max(-p.x, p.x - widthMm);
    const dy = Math.max(-p.y, p.y - depthMm);
    const onEdge = {
      x: Math.min(widthMm, Math.max(0, p.x)),
      y: Math.min(depthMm, Math.max(0, p.y)),
    };
    if (dx > 0 || dy > 0) return { d: hypot(Math.max(0, dx), Math.max(0, dy)), edge: onEdge };
    const toEdge = [
      { d: p.x, edge: { x: 0, y: p.y } },
      { d: widthMm - p.x, edge: { x: widthMm, y: p.y } },
      { d: p.y, edge: { x: p.x, y: 0 } },
      { d: depthMm - p.y, edge: { x: p.x, y: depthMm } },
    ].reduce((a, b) => (b.d < a.d ? b : a));
    return { d: -toEdge.d, edge: toEdge.edge };
  };
  let best: Overhang | undefined;
  for (const b of bases) {
    const points = by === 'corners' ? b.polygon : [b.footprint.center];
    for (const p of points) {
      const o = out(p);
      const lever = hypot(p.x - b.footprint.center.x, p.y - b.footprint.center.y);
      if (!best || o.d > best.mm)
        best = {
          mm: o.d,
          at: p,
          edge: o.edge,
          sigmaMm: hypot(b.sigmaMm, lever * ((b.sigmaHeadingDeg * Math.PI) / 180)),
        };
    }
  }
  return best;
}

/** The measured length of an overhang for a length verdict: from the farthest point to the edge. */
export function overhangMeasure(unit: { readonly name: string; readonly box: FacedBox }, o: Overhang) {
  return {
    mm: o.mm,
    sigmaMm: o.sigmaMm,
    from: o.at,
    to: o.edge,
    fromName: pointName(unit, o.at),
    toName: 'the table edge',
  };
}
