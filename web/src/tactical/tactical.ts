import type { Vec2 } from '../../../src/geometry/vec.ts';
import type { StateMessage } from '../../../src/server/protocol.ts';
import { pointInPolygon, distanceToPolygon } from '../core/overlay-model.ts';
import { drawShapes } from '../render/shapes.ts';
import { unitPolygons, type TableShape } from '../core/table-overlays.ts';
import type { CssPoint } from '../core/viewport.ts';

/**
 * The tactical view: the table straight from above (rectified), table x to the right and y up
 * (the near edge, y = 0, at the bottom, as the camera looks across it), with a 6 in grid, the
 * terrain, every unit's footprint and facing, and the same overlay shapes as the live view.
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

export interface TacticalInput {
  readonly vp: TacticalViewport;
  readonly dpr: number;
  readonly state: StateMessage | null;
  readonly shapes: readonly TableShape[];
  readonly selection: readonly string[];
  readonly hover: string | null;
  /** A terrain outline being drawn (table mm), shown with its vertices. */
  readonly draft: readonly Vec2[] | null;
  readonly draftClosed: boolean;
}

export function renderTactical(ctx: CanvasRenderingContext2D, input: TacticalInput): void {
  const { vp, dpr, state } = input;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, vp.cssWidth, vp.cssHeight);
  ctx.fillStyle = '#101316';
  ctx.fillRect(0, 0, vp.cssWidth, vp.cssHeight);
  const o = tableToCss(vp, { x: 0, y: vp.table.depthMm });
  const w = vp.table.widthMm * vp.scale;
  const h = vp.table.depthMm * vp.scale;
  ctx.fillStyle = '#3d5a3a';
  ctx.fillRect(o.x, o.y, w, h);
  // 6 in grid.
  ctx.strokeStyle = 'rgba(255,255,255,0.08)';
  ctx.lineWidth = 1;
  const step = 152.4;
  for (let x = step; x < vp.table.widthMm; x += step) {
    const c = tableToCss(vp, { x, y: 0 });
    ctx.beginPath();
    ctx.moveTo(c.x, o.y);
    ctx.lineTo(c.x, o.y + h);
    ctx.stroke();
  }
  for (let y = step; y < vp.table.depthMm; y += step) {
    const c = tableToCss(vp, { x: 0, y });
    ctx.beginPath();
    ctx.moveTo(o.x, c.y);
    ctx.lineTo(o.x + w, c.y);
    ctx.stroke();
  }
  ctx.strokeStyle = 'rgba(255,255,255,0.5)';
  ctx.strokeRect(o.x, o.y, w, h);

  const placed = input.shapes.map((shape) => ({
    shape,
    css: shape.points.map((p) => tableToCss(vp, p)),
    labelCss: shape.labelAt ? tableToCss(vp, shape.labelAt) : null,
  }));
  // Terrain and zones under the units, measurement and labels above.
  drawShapes(
    ctx,
    placed.filter((p) => p.shape.kind !== 'measure'),
    { terrainFill: true },
  );

  if (state) {
    for (const unit of state.units) {
      const selected = input.selection.includes(unit.id);
      const polys = unitPolygons(unit);
      polys.forEach((poly, i) => {
        const base = unit.bases[i]!;
        ctx.beginPath();
        poly.forEach((p, k) => {
          const c = tableToCss(vp, p);
          if (k === 0) ctx.moveTo(c.x, c.y);
          else ctx.lineTo(c.x, c.y);
        });
        ctx.closePath();
        ctx.fillStyle = unit.colour;
        ctx.globalAlpha = selected ? 0.95 : unit.id === input.hover ? 0.8 : 0.65;
        ctx.fill();
        ctx.globalAlpha = 1;
        ctx.setLineDash(base.seen ? [] : [4, 3]);
        ctx.lineWidth = selected ? 2.5 : 1;
        ctx.strokeStyle = selected ? '#ffffff' : 'rgba(0,0,0,0.7)';
        ctx.stroke();
        ctx.setLineDash([]);
        // Facing: the front edge (corners 2 → 3) drawn bright.
        const f1 = tableToCss(vp, poly[2]!);
        const f2 = tableToCss(vp, poly[3]!);
        ctx.beginPath();
        ctx.moveTo(f1.x, f1.y);
        ctx.lineTo(f2.x, f2.y);
        ctx.lineWidth = 2.5;
        ctx.strokeStyle = '#fff3bf';
        ctx.stroke();
      });
      const all = polys.flat();
      if (all.length === 0) continue;
      const top = all.reduce((a, b) => (b.y > a.y ? b : a));
      const cx = all.reduce((s, p) => s + p.x, 0) / all.length;
      const c = tableToCss(vp, { x: cx, y: top.y });
      ctx.font = `${selected ? 700 : 500} 12px system-ui, sans-serif`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'bottom';
      ctx.fillStyle = 'rgba(0,0,0,0.75)';
      const tw = ctx.measureText(unit.name).width + 8;
      ctx.fillRect(c.x - tw / 2, c.y - 19, tw, 16);
      ctx.fillStyle = '#ffffff';
      ctx.fillText(unit.name, c.x, c.y - 4);
    }
  }
  drawShapes(
    ctx,
    placed.filter((p) => p.shape.kind === 'measure'),
    { terrainFill: true },
  );

  if (input.draft && input.draft.length > 0) {
    ctx.beginPath();
    input.draft.forEach((p, i) => {
      const c = tableToCss(vp, p);
      if (i === 0) ctx.moveTo(c.x, c.y);
      else ctx.lineTo(c.x, c.y);
    });
    if (input.draftClosed) ctx.closePath();
    ctx.lineWidth = 2;
    ctx.strokeStyle = '#ffd43b';
    ctx.setLineDash([6, 4]);
    ctx.stroke();
    ctx.setLineDash([]);
    for (const p of input.draft) {
      const c = tableToCss(vp, p);
      ctx.beginPath();
      ctx.arc(c.x, c.y, 5, 0, Math.PI * 2);
      ctx.fillStyle = '#ffd43b';
      ctx.fill();
    }
  }
}
