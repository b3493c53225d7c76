import type { Pixel } from '../../../src/camera/projection.ts';
import type { MeasurementOverlay, OverlayModel, UnitOverlay } from '../core/overlay-model.ts';
import type { ProjectedShape } from '../core/shape-projection.ts';
import { placeLabel, type LabelRect } from '../core/label-layout.ts';
import { MEASURE_COLOUR } from './palette.ts';
import { drawShapeLabels, drawShapes, type PlacedShape } from './shapes.ts';
import { imageToCss, pictureRect, type Viewport } from '../core/viewport.ts';

/**
 * Draws one frame: the camera picture scaled into the viewport and the overlay model on top.
 * Thin by design: every position comes from the overlay model; this file only decides looks.
 * Line widths and text sizes are in CSS pixels so they read the same at any window size.
 */

export interface RenderInput {
  readonly viewport: Viewport;
  /** Device pixels per CSS pixel of the canvas backing store. */
  readonly dpr: number;
  readonly picture: CanvasImageSource | null;
  /** Leave the canvas transparent where there is no picture (the streamer overlay). */
  readonly transparent?: boolean;
  readonly model: OverlayModel | null;
  readonly hover: string | null;
  /** Referee overlays (terrain, zones, reach, sight), already projected into the image. */
  readonly shapes?: readonly ProjectedShape[];
}

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

/** Where each unit's name went (null: no free place next to it), CSS px, for tests and the console. */
export interface UnitLabel {
  readonly id: string;
  readonly text: string | null;
  readonly rect: LabelRect | null;
  /** The unit's outline box. */
  readonly around: LabelRect;
}

export function render(ctx: CanvasRenderingContext2D, input: RenderInput): UnitLabel[] {
  const { viewport: vp, dpr } = input;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, vp.cssWidth, vp.cssHeight);
  const rect = pictureRect(vp);
  if (input.picture) {
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(input.picture, rect.x, rect.y, rect.width, rect.height);
  } else if (!input.transparent) {
    ctx.fillStyle = '#1b1e23';
    ctx.fillRect(rect.x, rect.y, rect.width, rect.height);
  }
  const model = input.model;
  if (!model) return [];

  ctx.save();
  ctx.beginPath();
  ctx.rect(rect.x, rect.y, rect.width, rect.height);
  ctx.clip();
  if (model.tableOutline) drawTableOutline(ctx, vp, model.tableOutline);
  const shapes: PlacedShape[] = (input.shapes ?? []).map((s) => ({
    shape: s.shape,
    css: s.points.map((p) => imageToCss(vp, p)),
    labelCss: s.labelAt ? imageToCss(vp, s.labelAt) : null,
  }));
  if (shapes.length > 0) drawShapes(ctx, shapes, { terrainFill: false, labels: false });
  // Unselected first so selected units sit on top.
  const ordered = [...model.units].sort((a, b) => Number(a.selected) - Number(b.selected));
  for (const unit of ordered) drawUnit(ctx, vp, unit, unit.id === input.hover);
  if (model.measurement) drawMeasurementLine(ctx, vp, model.measurement);
  ctx.restore();

  // Labels, most important first, each moved out of the way of labels already placed: the
  // distances, the referee's overlays (reach, terrain), then selected units, then the rest.
  const placed: LabelRect[] = [];
  if (model.measurement) drawMeasurementLabel(ctx, vp, model.measurement, placed);
  drawShapeLabels(ctx, shapes, placed, { width: vp.cssWidth, height: vp.cssHeight });
  return [...ordered].reverse().map((unit) => drawUnitLabel(ctx, vp, unit, placed));
}

function tracePolygon(
  ctx: CanvasRenderingContext2D,
  vp: Viewport,
  points: readonly Pixel[],
  close: boolean,
): void {
  ctx.beginPath();
  points.forEach((p, i) => {
    const c = imageToCss(vp, p);
    if (i === 0) ctx.moveTo(c.x, c.y);
    else ctx.lineTo(c.x, c.y);
  });
  if (close) ctx.closePath();
}

function drawTableOutline(ctx: CanvasRenderingContext2D, vp: Viewport, outline: readonly Pixel[]): void {
  tracePolygon(ctx, vp, outline, true);
  ctx.setLineDash([2, 6]);
  ctx.lineWidth = 1;
  ctx.strokeStyle = 'rgba(255, 255, 255, 0.45)';
  ctx.stroke();
  ctx.setLineDash([]);
}

function setColour(ctx: CanvasRenderingContext2D, kind: 'fillStyle' | 'strokeStyle', colour: string): void {
  ctx[kind] = '#cccccc'; // an invalid colour string is ignored by canvas: start from a default
  ctx[kind] = colour;
}

function drawUnit(ctx: CanvasRenderingContext2D, vp: Viewport, unit: UnitOverlay, hovered: boolean): void {
  for (const base of unit.bases) {
    tracePolygon(ctx, vp, base.outline, true);
    setColour(ctx, 'fillStyle', unit.colour);
    ctx.globalAlpha = unit.selected ? 0.38 : hovered ? 0.3 : 0.18;
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.setLineDash(base.seen ? [] : [5, 4]);
    if (unit.selected) {
      ctx.lineWidth = 6;
      ctx.strokeStyle = 'rgba(255, 255, 255, 0.95)';
      ctx.stroke();
    } else {
      ctx.lineWidth = 4;
      ctx.strokeStyle = 'rgba(0, 0, 0, 0.45)';
      ctx.stroke();
    }
    ctx.lineWidth = unit.selected ? 3 : 2;
    setColour(ctx, 'strokeStyle', unit.colour);
    ctx.stroke();
    ctx.setLineDash([]);
  }
}

interface PillStyle {
  readonly font: string;
  readonly fg: string;
  readonly bg: string;
  readonly border: string | null;
  readonly height: number;
}

function drawPill(ctx: CanvasRenderingContext2D, rect: LabelRect, text: string, o: PillStyle): void {
  ctx.beginPath();
  ctx.roundRect(rect.x, rect.y, rect.w, rect.h, rect.h / 2);
  setColour(ctx, 'fillStyle', o.bg);
  ctx.fill();
  if (o.border) {
    ctx.lineWidth = 2;
    ctx.strokeStyle = o.border;
    ctx.stroke();
  }
  ctx.fillStyle = o.fg;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, rect.x + rect.w / 2, rect.y + rect.h / 2 + 0.5);
}

/** A unit's name shortened to its first word, for when the whole name finds no place. */
function shortName(name: string): string {
  return name.split(/\s+/).find((w) => !/^(the|a)$/i.test(w)) ?? name;
}

function drawUnitLabel(
  ctx: CanvasRenderingContext2D,
  vp: Viewport,
  unit: UnitOverlay,
  placed: LabelRect[],
): UnitLabel {
  const tl = imageToCss(vp, { u: unit.bounds.minU, v: unit.bounds.minV });
  const br = imageToCss(vp, { u: unit.bounds.maxU, v: unit.bounds.maxV });
  const around = { x: tl.x, y: tl.y, w: br.x - tl.x, h: br.y - tl.y };
  const style: PillStyle = {
    font: `${unit.selected ? 600 : 500} ${unit.selected ? 13 : 12}px ${FONT}`,
    fg: '#ffffff',
    bg: unit.colour,
    border: unit.selected ? '#ffffff' : null,
    height: unit.selected ? 22 : 19,
  };
  ctx.font = style.font;
  const full = !unit.unseen
    ? unit.name
    : unit.moving
      ? `${unit.name} (being moved)`
      : `${unit.name} (last seen ${agoText(unit.lastSeenAgoS)})`;
  for (const text of [...new Set([full, unit.name, shortName(unit.name)])]) {
    const w = ctx.measureText(text).width + 12;
    const rect = placeLabel(imageToCss(vp, unit.labelAt), w, style.height, placed, {
      width: vp.cssWidth,
      height: vp.cssHeight,
      around,
    });
    if (rect) {
      drawPill(ctx, rect, text, style);
      return { id: unit.id, text, rect, around };
    }
  }
  return { id: unit.id, text: null, rect: null, around };
}

function drawMeasurementLine(ctx: CanvasRenderingContext2D, vp: Viewport, m: MeasurementOverlay): void {
  tracePolygon(ctx, vp, m.path, false);
  ctx.lineCap = 'round';
  ctx.lineWidth = 6;
  ctx.strokeStyle = 'rgba(0, 0, 0, 0.6)';
  ctx.stroke();
  ctx.setLineDash(m.valid ? [] : [8, 6]);
  ctx.lineWidth = 2.5;
  ctx.strokeStyle = m.valid ? MEASURE_COLOUR : '#aaaaaa';
  ctx.stroke();
  ctx.setLineDash([]);
  for (const end of [m.path[0], m.path[m.path.length - 1]]) {
    if (!end) continue;
    const c = imageToCss(vp, end);
    ctx.beginPath();
    ctx.arc(c.x, c.y, 4, 0, Math.PI * 2);
    ctx.fillStyle = m.valid ? MEASURE_COLOUR : '#aaaaaa';
    ctx.fill();
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = 'rgba(0, 0, 0, 0.7)';
    ctx.stroke();
  }
}

function drawMeasurementLabel(
  ctx: CanvasRenderingContext2D,
  vp: Viewport,
  m: MeasurementOverlay,
  placed: LabelRect[],
): void {
  const style: PillStyle = {
    font: `700 15px ${FONT}`,
    fg: m.valid ? MEASURE_COLOUR : '#dddddd',
    bg: 'rgba(15, 17, 20, 0.88)',
    border: m.valid ? MEASURE_COLOUR : '#888888',
    height: 26,
  };
  const text = m.valid ? m.label : `${m.label} (stale)`;
  ctx.font = style.font;
  const w = ctx.measureText(text).width + 12;
  const rect = placeLabel(imageToCss(vp, m.labelAt), w, style.height, placed, {
    width: vp.cssWidth,
    height: vp.cssHeight,
    mustPlace: true,
  });
  if (rect) drawPill(ctx, rect, text, style);
}

/** "4 s ago", "2 min ago": how long ago a unit was last seen, in a player's words. */
export function agoText(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 1) return 'just now';
  if (seconds < 90) return `${Math.round(seconds)} s ago`;
  return `${Math.round(seconds / 60)} min ago`;
}
