import { placeLabel, type LabelRect } from '../core/label-layout.ts';
import type { CssPoint } from '../core/viewport.ts';
import type { OverlayKind, TableShape } from '../core/table-overlays.ts';
import {
  DASH,
  HALO,
  HALO_ALPHA,
  QUARTER_STROKE,
  TERRAIN_STROKE,
  TERRAIN_STROKE_DEFAULT,
  TONE_COLOUR,
  ZONE_STROKE,
} from './palette.ts';

/**
 * Draws table shapes once they are in CSS pixels (the live view projects them, the tactical view
 * scales them). Looks only: colours and dashes from palette.ts; every line over a dark halo.
 */

export interface PlacedShape {
  readonly shape: TableShape;
  readonly css: readonly CssPoint[];
  readonly labelCss: CssPoint | null;
}

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
  threat: 6.5,
  los: 7,
  measure: 8,
};

function trace(ctx: CanvasRenderingContext2D, pts: readonly CssPoint[], closed: boolean): void {
  ctx.beginPath();
  pts.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, p.y) : ctx.lineTo(p.x, p.y)));
  if (closed) ctx.closePath();
}

/** Strokes the current path: a dark halo `halo` px wider, then the colour, with a dash pattern. */
function outline(
  ctx: CanvasRenderingContext2D,
  colour: string,
  width: number,
  dash: readonly number[],
  halo = 3,
): void {
  ctx.setLineDash([]);
  ctx.globalAlpha = HALO_ALPHA;
  ctx.lineWidth = width + halo;
  ctx.strokeStyle = HALO;
  ctx.stroke();
  ctx.globalAlpha = 1;
  ctx.setLineDash([...dash]);
  ctx.lineWidth = width;
  ctx.strokeStyle = colour;
  ctx.stroke();
  ctx.setLineDash([]);
}

/** The stroke colour and dash of a shape. */
export function strokeOf(shape: TableShape): { colour: string; dash: readonly number[] } {
  const tone = TONE_COLOUR[shape.tone];
  switch (shape.kind) {
    case 'terrain':
      return {
        colour: TERRAIN_STROKE[shape.terrainKind ?? ''] ?? TERRAIN_STROKE_DEFAULT,
        dash: shape.closed ? DASH['terrainArea']! : DASH['solid']!,
      };
    case 'quarter':
      return { colour: QUARTER_STROKE, dash: DASH['quarter']! };
    case 'proximity':
      return { colour: ZONE_STROKE, dash: DASH['zone']! };
    case 'los':
      return { colour: tone, dash: shape.tone === 'no' ? DASH['blockedSight']! : DASH['solid']! };
    case 'threat':
      return {
        colour: tone,
        dash:
          shape.tone === 'no'
            ? DASH['threatNo']!
            : shape.tone === 'borderline'
              ? DASH['borderline']!
              : DASH['solid']!,
      };
    default:
      return { colour: tone, dash: shape.tone === 'borderline' ? DASH['borderline']! : DASH['solid']! };
  }
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
    const { colour, dash } = strokeOf(shape);
    ctx.save();
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    switch (shape.kind) {
      case 'terrain':
        trace(ctx, css, shape.closed);
        if (shape.closed && opts.terrainFill) {
          ctx.fillStyle = TERRAIN_FILL[shape.terrainKind ?? ''] ?? 'rgba(200,200,200,0.3)';
          ctx.fill();
        }
        outline(ctx, colour, shape.closed ? 2 : 5, dash);
        break;
      case 'shadow':
        trace(ctx, css, true);
        ctx.fillStyle = 'rgba(10, 10, 20, 0.35)';
        ctx.fill();
        break;
      case 'quarter':
        trace(ctx, css, true);
        ctx.fillStyle = 'rgba(116, 192, 252, 0.12)';
        ctx.fill();
        outline(ctx, colour, 2, dash);
        break;
      case 'proximity':
        trace(ctx, css, true);
        outline(ctx, colour, 2, dash);
        break;
      case 'range':
      case 'charge':
      case 'command':
        trace(ctx, css, true);
        outline(ctx, colour, 2.5, dash);
        break;
      case 'threat':
        trace(ctx, css, shape.closed);
        outline(ctx, colour, 2.5, dash, 2);
        break;
      case 'los':
        trace(ctx, css, false);
        outline(ctx, colour, 2, dash, 2);
        break;
      case 'measure':
        trace(ctx, css, false);
        outline(ctx, colour, 3, dash, 4);
        break;
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
  threat: 9,
};

/**
 * Draws the shapes' labels, each moved out of the way of the labels in `taken` (and of each
 * other); the rectangles used are added to `taken`. A label with no free place near its shape is
 * left out, except the verdict's distance.
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
    const r = placeLabel(labelCss, w, h, taken, { width: area.width, height: area.height, mustPlace: big });
    if (!r) continue;
    ctx.beginPath();
    ctx.roundRect(r.x, r.y, w, h, h / 2);
    ctx.fillStyle = 'rgba(15, 17, 20, 0.9)';
    ctx.fill();
    const colour = strokeOf(shape).colour;
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1.5;
    ctx.stroke();
    ctx.fillStyle = colour;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, r.x + w / 2, r.y + h / 2 + 0.5);
  }
}
