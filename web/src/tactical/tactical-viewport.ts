import type { Vec2 } from '../../../src/geometry/vec.ts';
import type { StateMessage } from '../../../src/server/protocol.ts';
import { distanceToPolygon, pointInPolygon } from '../core/overlay-model.ts';
import { unitPolygons } from '../core/shape-geometry.ts';
import type { CssPoint } from '../core/viewport.ts';

/**
 * The tactical view's geometry: the table straight from above (rectified), table x to the right
 * and y up (the near edge, y = 0, at the bottom, as the camera looks across it), fitted into the
 * canvas; and which unit a point on it falls on.
 */

export interface TacticalViewport {
  readonly cssWidth: number;
  readonly cssHeight: number;
  /** CSS pixels per table mm. */
  readonly scale: number;
  /** CSS position of table (0, 0) (bottom-left corner). */
  readonly originX: number;
  readonly originY: number;
  readonly table: { readonly widthMm: number; readonly depthMm: number };
}

export function fitTable(
  cssWidth: number,
  cssHeight: number,
  table: TacticalViewport['table'],
  marginCss = 16,
): TacticalViewport {
  const scale = Math.max(
    1e-6,
    Math.min((cssWidth - 2 * marginCss) / table.widthMm, (cssHeight - 2 * marginCss) / table.depthMm),
  );
  const originX = (cssWidth - table.widthMm * scale) / 2;
  const originY = (cssHeight + table.depthMm * scale) / 2;
  return { cssWidth, cssHeight, scale, originX, originY, table };
}

export const tableToCss = (vp: TacticalViewport, p: Vec2): CssPoint => ({
  x: vp.originX + p.x * vp.scale,
  y: vp.originY - p.y * vp.scale,
});
export const cssToTable = (vp: TacticalViewport, c: CssPoint): Vec2 => ({
  x: (c.x - vp.originX) / vp.scale,
  y: (vp.originY - c.y) / vp.scale,
});

/** The unit under a table point (inside a base, else the nearest within `toleranceMm`). */
export function hitTestTable(state: StateMessage, p: Vec2, toleranceMm: number): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  for (const unit of state.units) {
    for (const poly of unitPolygons(unit)) {
      const px = poly.map((q) => ({ u: q.x, v: q.y }));
      const d = pointInPolygon({ u: p.x, v: p.y }, px) ? 0 : distanceToPolygon({ u: p.x, v: p.y }, px);
      if (d <= toleranceMm && d < bestD) [best, bestD] = [unit.id, d];
    }
  }
  return best;
}
