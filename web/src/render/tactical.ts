import type { Vec2 } from '../../../src/geometry/vec.ts';
import type { StateMessage } from '../../../src/server/protocol.ts';
import { placeLabel, type LabelRect } from '../core/label-layout.ts';
import { unitPolygons } from '../core/shape-geometry.ts';
import type { TableShape } from '../core/table-overlays.ts';
import { tableToCss, type TacticalViewport } from '../tactical/tactical-viewport.ts';
import { TACTICAL_CLOTH } from './palette.ts';
import type { UnitLabel } from './picture.ts';
import { drawShapeLabels, drawShapes } from './shapes.ts';

/**
 * Draws the tactical view: cloth with a 6 in grid, terrain, every unit's footprint with its front
 * edge bright, the same overlay shapes as the live view, and a terrain outline being drawn.
 * Looks only; positions come from the state and the shapes.
 */

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

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

export function renderTactical(ctx: CanvasRenderingContext2D, input: TacticalInput): UnitLabel[] {
  const { vp, dpr, state } = input;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, vp.cssWidth, vp.cssHeight);
  ctx.fillStyle = '#101316';
  ctx.fillRect(0, 0, vp.cssWidth, vp.cssHeight);
  const o = tableToCss(vp, { x: 0, y: vp.table.depthMm });
  const w = vp.table.widthMm * vp.scale;
  const h = vp.table.depthMm * vp.scale;
  ctx.fillStyle = TACTICAL_CLOTH;
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
  // Terrain and zones under the units, the measurement above; labels last, out of each other's way.
  drawShapes(
    ctx,
    placed.filter((p) => p.shape.kind !== 'measure'),
    { terrainFill: true, labels: false },
  );
  const boxes: Array<{ id: string; name: string; around: LabelRect; selected: boolean }> = [];
  for (const unit of state?.units ?? []) {
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
    const css = polys.flat().map((p) => tableToCss(vp, p));
    if (css.length === 0) continue;
    const xs = css.map((c) => c.x);
    const ys = css.map((c) => c.y);
    const x0 = Math.min(...xs);
    const y0 = Math.min(...ys);
    boxes.push({
      id: unit.id,
      name: unit.name,
      selected,
      around: { x: x0, y: y0, w: Math.max(...xs) - x0, h: Math.max(...ys) - y0 },
    });
  }
  drawShapes(
    ctx,
    placed.filter((p) => p.shape.kind === 'measure'),
    { terrainFill: true, labels: false },
  );

  const taken: LabelRect[] = [];
  const area = { width: vp.cssWidth, height: vp.cssHeight };
  drawShapeLabels(
    ctx,
    placed.filter((p) => p.shape.kind === 'measure'),
    taken,
    area,
  );
  // Selected units' names first: they matter most.
  const ordered = [...boxes].sort((a, b) => Number(b.selected) - Number(a.selected));
  const labels = ordered.map((b) => unitLabel(ctx, b, taken, area));
  drawShapeLabels(
    ctx,
    placed.filter((p) => p.shape.kind !== 'measure'),
    taken,
    area,
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
  return labels;
}

function unitLabel(
  ctx: CanvasRenderingContext2D,
  b: { id: string; name: string; around: LabelRect; selected: boolean },
  taken: LabelRect[],
  area: { width: number; height: number },
): UnitLabel {
  ctx.font = `${b.selected ? 700 : 500} 12px ${FONT}`;
  const short = b.name.split(/\s+/).find((w) => !/^(the|a)$/i.test(w)) ?? b.name;
  for (const text of [...new Set([b.name, short])]) {
    const w = ctx.measureText(text).width + 8;
    const anchor = { x: b.around.x + b.around.w / 2, y: b.around.y };
    const rect = placeLabel(anchor, w, 16, taken, { ...area, around: b.around });
    if (!rect) continue;
    ctx.fillStyle = 'rgba(0,0,0,0.8)';
    ctx.fillRect(rect.x, rect.y, rect.w, rect.h);
    ctx.fillStyle = '#ffffff';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, rect.x + rect.w / 2, rect.y + rect.h / 2 + 0.5);
    return { id: b.id, text, rect, around: b.around };
  }
  return { id: b.id, text: null, rect: null, around: b.around };
}
