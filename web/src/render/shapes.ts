import { placeLabel, type LabelRect } from '../core/label-layout.ts';
import type { CssPoint } from '../core/viewport.ts';
import type { OverlayKind, TableShape, Tone } from '../core/table-overlays.ts';

/**
 * Draws table shapes once they are in CSS pixels (the live view projects them, the tactical view
 * scales them). Looks only: colours by kind and verdict tone; a borderline answer is dashed
 * amber, yes solid green, no solid red, so it never rests on colour alone.
 */

export interface PlacedShape {
  readonly shape: TableShape;
  readonly css: readonly CssPoint[];
  readonly labelCss: CssPoint | null;
}

export const TONE_COLOUR: Record<Tone, string> = {
  yes: '#51cf66',
  no: '#ff6b6b',
  borderline: '#ffb02e',
  neutral: '#74c0fc',
};

const TERRAIN_FILL: Record<string, string> = {
  wood: 'rgba(46, 125, 50, 0.45)',
  building: 'rgba(120, 90, 70, 0.6)',
  hill: 'rgba(160, 130, 70, 0.35)',
  water: 'rgba(40, 110, 200, 0.45)',
  rough: 'rgba(140, 120, 90, 0.35)',
  veryRough: 'rgba(140, 110, 80, 0.45)',
  extremelyRough: 'rgba(130, 100, 70, 0.55)',
};

const ORDER: Record<OverlayKind, number> = {
  terrain: 0,
  shadow: 1,
  quarter: 2,
  proximity: 3,
  command: 4,
  range: 5,
  charge: 6,
  los: 7,
  measure: 8,
};

function trace(ctx: CanvasRenderingContext2D, pts: readonly CssPoint[], closed: boolean): void {
  ctx.beginPath();
  pts.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, p.y) : ctx.lineTo(p.x, p.y)));
  if (closed) ctx.closePath();
}

/** Draws the shapes; their labels too unless `labels` is false (then call `drawShapeLabels`). */
export function drawShapes(
  ctx: CanvasRenderingContext2D,
  placed: readonly PlacedShape[],
  opts: { terrainFill: boolean; labels?: boolean },
): void {
  const sorted = [...placed].sort((a, b) => ORDER[a.shape.kind] - ORDER[b.shape.kind]);
  for (const { shape, css } of sorted) {
    if (css.length < 2) continue;
    const colour = TONE_COLOUR[shape.tone];
    ctx.save();
    ctx.setLineDash(shape.tone === 'borderline' ? [10, 6] : []);
    switch (shape.kind) {
      case 'terrain': {
        trace(ctx, css, shape.closed);
        if (shape.closed && opts.terrainFill) {
          ctx.fillStyle = TERRAIN_FILL[shape.terrainKind ?? ''] ?? 'rgba(200,200,200,0.3)';
          ctx.fill();
        }
        ctx.lineWidth = shape.closed ? 2 : 5;
        ctx.strokeStyle =
          shape.terrainKind === 'wood' ? '#69db7c' : shape.terrainKind === 'road' ? '#d6b98c' : '#e9ecef';
        ctx.setLineDash(shape.closed ? [6, 4] : []);
        ctx.stroke();
        break;
      }
      case 'shadow':
        trace(ctx, css, true);
        ctx.fillStyle = 'rgba(10, 10, 20, 0.35)';
        ctx.fill();
        break;
      case 'quarter':
        trace(ctx, css, true);
        ctx.fillStyle = 'rgba(116, 192, 252, 0.12)';
        ctx.fill();
        ctx.lineWidth = 1.5;
        ctx.strokeStyle = 'rgba(116, 192, 252, 0.8)';
        ctx.setLineDash([4, 4]);
        ctx.stroke();
        break;
      case 'proximity':
        trace(ctx, css, true);
        ctx.lineWidth = 2;
        ctx.strokeStyle = 'rgba(255, 255, 255, 0.75)';
        ctx.setLineDash([3, 5]);
        ctx.stroke();
        break;
      case 'range':
      case 'charge':
      case 'command':
        trace(ctx, css, true);
        ctx.lineWidth = 5;
        ctx.strokeStyle = 'rgba(0, 0, 0, 0.45)';
        ctx.stroke();
        ctx.lineWidth = 2.5;
        ctx.strokeStyle = colour;
        ctx.stroke();
        break;
      case 'los':
        trace(ctx, css, false);
        ctx.lineWidth = 1.5;
        ctx.strokeStyle = colour;
        ctx.globalAlpha = 0.85;
        ctx.stroke();
        break;
      case 'measure': {
        trace(ctx, css, false);
        ctx.lineCap = 'round';
        ctx.lineWidth = 7;
        ctx.strokeStyle = 'rgba(0, 0, 0, 0.6)';
        ctx.stroke();
        ctx.lineWidth = 3;
        ctx.strokeStyle = colour;
        ctx.stroke();
        break;
      }
    }
    ctx.restore();
  }
  if (opts.labels !== false) {
    const { width, height } = ctx.canvas.getBoundingClientRect();
    drawShapeLabels(ctx, placed, [], {
      width: width || ctx.canvas.width,
      height: height || ctx.canvas.height,
    });
  }
}

/** Label order: the verdict's distance first, then reach bands, zones and terrain. */
const LABEL_ORDER: Record<OverlayKind, number> = {
  measure: 0,
  charge: 1,
  range: 2,
  command: 3,
  proximity: 4,
  quarter: 5,
  terrain: 6,
  los: 7,
  shadow: 8,
};

/**
 * Draws the shapes' labels, each moved out of the way of the labels in `taken` (and of each
 * other); the rectangles used are added to `taken`.
 */
export function drawShapeLabels(
  ctx: CanvasRenderingContext2D,
  placed: readonly PlacedShape[],
  taken: LabelRect[],
  area: { readonly width: number; readonly height: number },
): void {
  const sorted = [...placed].sort((a, b) => LABEL_ORDER[a.shape.kind] - LABEL_ORDER[b.shape.kind]);
  for (const { shape, labelCss } of sorted) {
    if (!shape.label || !labelCss || shape.kind === 'los' || shape.kind === 'shadow') continue;
    const big = shape.kind === 'measure';
    ctx.font = `${big ? 700 : 600} ${big ? 15 : 12}px system-ui, sans-serif`;
    const text = shape.label;
    const w = ctx.measureText(text).width + 12;
    const h = big ? 24 : 19;
    const r = placeLabel(labelCss, w, h, taken, { above: false, width: area.width, height: area.height });
    ctx.beginPath();
    ctx.roundRect(r.x, r.y, w, h, h / 2);
    ctx.fillStyle = 'rgba(15, 17, 20, 0.85)';
    ctx.fill();
    const colour = shape.kind === 'terrain' ? '#e9ecef' : TONE_COLOUR[shape.tone];
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1.5;
    ctx.stroke();
    ctx.fillStyle = colour;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, r.x + w / 2, r.y + h / 2 + 0.5);
  }
}
