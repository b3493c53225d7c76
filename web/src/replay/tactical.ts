import { footprintCorners } from '../core/overlay-model.ts';
import type { ReplayFrame } from './model.ts';

/**
 * The table from above, drawn from recorded poses: table millimetres scaled to fit the canvas,
 * table +y up the screen. Trails, footprints (front edge bright), names, and the ruling's line.
 */

export interface TableView {
  readonly scale: number;
  readonly ox: number;
  readonly oy: number;
  readonly depthMm: number;
}

export function fitTable(
  cssWidth: number,
  cssHeight: number,
  table: { widthMm: number; depthMm: number },
  margin = 12,
): TableView {
  const scale = Math.max(
    0.01,
    Math.min((cssWidth - 2 * margin) / table.widthMm, (cssHeight - 2 * margin) / table.depthMm),
  );
  return {
    scale,
    ox: (cssWidth - table.widthMm * scale) / 2,
    oy: (cssHeight - table.depthMm * scale) / 2,
    depthMm: table.depthMm,
  };
}

export function tableToCss(v: TableView, p: { x: number; y: number }): { x: number; y: number } {
  return { x: v.ox + p.x * v.scale, y: v.oy + (v.depthMm - p.y) * v.scale };
}

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

export function drawTactical(
  ctx: CanvasRenderingContext2D,
  size: { width: number; height: number; dpr: number },
  table: { widthMm: number; depthMm: number },
  frame: ReplayFrame,
  opts: { trails: boolean; annotations: ReadonlyArray<{ x: number; y: number; text: string }> },
): TableView {
  const v = fitTable(size.width, size.height, table);
  ctx.setTransform(size.dpr, 0, 0, size.dpr, 0, 0);
  ctx.clearRect(0, 0, size.width, size.height);
  // Cloth and a 6-inch grid.
  ctx.fillStyle = '#2f4a2c';
  ctx.fillRect(v.ox, v.oy, table.widthMm * v.scale, table.depthMm * v.scale);
  ctx.strokeStyle = 'rgba(255,255,255,0.08)';
  ctx.lineWidth = 1;
  for (let x = 152.4; x < table.widthMm; x += 152.4)
    line(ctx, tableToCss(v, { x, y: 0 }), tableToCss(v, { x, y: table.depthMm }));
  for (let y = 152.4; y < table.depthMm; y += 152.4)
    line(ctx, tableToCss(v, { x: 0, y }), tableToCss(v, { x: table.widthMm, y }));
  ctx.strokeStyle = 'rgba(255,255,255,0.5)';
  ctx.strokeRect(v.ox, v.oy, table.widthMm * v.scale, table.depthMm * v.scale);

  if (opts.trails) {
    for (const trail of frame.trails) {
      if (trail.points.length < 2) continue;
      ctx.beginPath();
      trail.points.forEach((p, i) => {
        const c = tableToCss(v, p);
        if (i === 0) ctx.moveTo(c.x, c.y);
        else ctx.lineTo(c.x, c.y);
      });
      ctx.strokeStyle = trail.colour;
      ctx.globalAlpha = 0.55;
      ctx.setLineDash([4, 3]);
      ctx.lineWidth = 1.5;
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.globalAlpha = 1;
      for (const p of trail.points.slice(0, -1)) {
        const c = tableToCss(v, p);
        ctx.beginPath();
        ctx.arc(c.x, c.y, 1.8, 0, Math.PI * 2);
        ctx.fillStyle = trail.colour;
        ctx.fill();
      }
    }
  }

  for (const unit of frame.units) {
    for (const base of unit.bases) {
      const corners = footprintCorners(base).map((p) => tableToCss(v, p));
      ctx.beginPath();
      corners.forEach((c, i) => (i === 0 ? ctx.moveTo(c.x, c.y) : ctx.lineTo(c.x, c.y)));
      ctx.closePath();
      ctx.fillStyle = unit.colour;
      ctx.globalAlpha = 0.75;
      ctx.fill();
      ctx.globalAlpha = 1;
      ctx.strokeStyle = 'rgba(0,0,0,0.6)';
      ctx.lineWidth = 1;
      ctx.stroke();
      // Front edge: front-right → front-left.
      const [, , fr, fl] = corners;
      if (fr && fl) {
        ctx.strokeStyle = '#ffffff';
        ctx.lineWidth = 2;
        line(ctx, fr, fl);
      }
    }
    const mid = unit.bases.reduce(
      (s, b) => ({ x: s.x + b.x / unit.bases.length, y: s.y + b.y / unit.bases.length }),
      { x: 0, y: 0 },
    );
    const c = tableToCss(v, mid);
    ctx.font = `500 11px ${FONT}`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    ctx.fillStyle = 'rgba(0,0,0,0.7)';
    const w = ctx.measureText(unit.name).width + 8;
    ctx.fillRect(c.x - w / 2, c.y - 26, w, 15);
    ctx.fillStyle = '#ffffff';
    ctx.fillText(unit.name, c.x, c.y - 12);
  }

  for (const a of opts.annotations) {
    const c = tableToCss(v, a);
    ctx.fillStyle = '#b197fc';
    ctx.beginPath();
    ctx.arc(c.x, c.y, 5, 0, Math.PI * 2);
    ctx.fill();
  }

  const between = frame.ruling?.verdict.between;
  if (frame.ruling && between) {
    const a = tableToCss(v, between[0]);
    const b = tableToCss(v, between[1]);
    ctx.lineCap = 'round';
    ctx.strokeStyle = 'rgba(0,0,0,0.6)';
    ctx.lineWidth = 5;
    line(ctx, a, b);
    ctx.strokeStyle = '#ffd43b';
    ctx.lineWidth = 2.5;
    line(ctx, a, b);
    const r = frame.ruling.verdict;
    const word = r.answer === 'borderline' ? 'too close to call' : r.answer;
    const text =
      r.value !== undefined ? `${r.value.toFixed(2)}${r.unit ? ` ${r.unit}` : ''} — ${word}` : word;
    ctx.font = `700 13px ${FONT}`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    const w = ctx.measureText(text).width + 12;
    const m = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 - 14 };
    ctx.fillStyle = 'rgba(15,17,20,0.9)';
    ctx.fillRect(m.x - w / 2, m.y - 10, w, 20);
    ctx.fillStyle = '#ffd43b';
    ctx.fillText(text, m.x, m.y);
  }
  return v;
}

function line(ctx: CanvasRenderingContext2D, a: { x: number; y: number }, b: { x: number; y: number }): void {
  ctx.beginPath();
  ctx.moveTo(a.x, a.y);
  ctx.lineTo(b.x, b.y);
  ctx.stroke();
}
