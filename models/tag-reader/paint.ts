/**
 * A tiny anti-aliased painter for the data generator: filled polygons and ellipses blended into a
 * linear RGB float image (S × S × 3), coverage from 4 × 4 samples per pixel. What clutter.ts puts
 * on the table (dice, rulers, printed text, hands) is drawn with it.
 */

export type Colour = readonly [number, number, number];
export interface Point {
  readonly x: number;
  readonly y: number;
}

const SS = 4;

/** Coverage of each pixel by a shape given as an inside test, within its bounding box. */
function coverage(
  size: number,
  box: { x0: number; y0: number; x1: number; y1: number },
  inside: (x: number, y: number) => boolean,
  visit: (index: number, cover: number) => void,
): void {
  const xa = Math.max(0, Math.floor(box.x0));
  const ya = Math.max(0, Math.floor(box.y0));
  const xb = Math.min(size - 1, Math.ceil(box.x1));
  const yb = Math.min(size - 1, Math.ceil(box.y1));
  for (let py = ya; py <= yb; py++) {
    for (let px = xa; px <= xb; px++) {
      let hits = 0;
      for (let j = 0; j < SS; j++)
        for (let i = 0; i < SS; i++) if (inside(px - 0.5 + (i + 0.5) / SS, py - 0.5 + (j + 0.5) / SS)) hits++;
      if (hits > 0) visit(py * size + px, hits / (SS * SS));
    }
  }
}

function pointInPolygon(pts: readonly Point[], x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    const a = pts[i]!;
    const b = pts[j]!;
    if (a.y > y !== b.y > y && x < ((b.x - a.x) * (y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

function boundsOf(pts: readonly Point[]) {
  return {
    x0: Math.min(...pts.map((p) => p.x)),
    y0: Math.min(...pts.map((p) => p.y)),
    x1: Math.max(...pts.map((p) => p.x)),
    y1: Math.max(...pts.map((p) => p.y)),
  };
}

/** Blends `colour` (times `shade(x, y)` when given) over the polygon, opacity `alpha`; optionally records coverage. */
export function fillPolygon(
  img: Float32Array,
  size: number,
  pts: readonly Point[],
  colour: Colour,
  alpha = 1,
  mask?: Float32Array,
  shade?: (x: number, y: number) => number,
): void {
  coverage(
    size,
    boundsOf(pts),
    (x, y) => pointInPolygon(pts, x, y),
    (i, c) => blend(img, size, i, colour, c * alpha, mask, shade),
  );
}

/** An ellipse centred at (cx, cy) with radii (rx, ry), turned by `angle` radians. */
export function fillEllipse(
  img: Float32Array,
  size: number,
  cx: number,
  cy: number,
  rx: number,
  ry: number,
  angle: number,
  colour: Colour,
  alpha = 1,
  mask?: Float32Array,
  shade?: (x: number, y: number) => number,
): void {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const r = Math.max(rx, ry);
  coverage(
    size,
    { x0: cx - r, y0: cy - r, x1: cx + r, y1: cy + r },
    (x, y) => {
      const dx = x - cx;
      const dy = y - cy;
      const a = (dx * c + dy * s) / rx;
      const b = (-dx * s + dy * c) / ry;
      return a * a + b * b <= 1;
    },
    (i, cov) => blend(img, size, i, colour, cov * alpha, mask, shade),
  );
}

/** A rectangle of `length × width` centred at (cx, cy), its length along `angle`. */
export function rectangle(cx: number, cy: number, length: number, width: number, angle: number): Point[] {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const l = length / 2;
  const w = width / 2;
  return [
    { x: cx - l * c + w * s, y: cy - l * s - w * c },
    { x: cx + l * c + w * s, y: cy + l * s - w * c },
    { x: cx + l * c - w * s, y: cy + l * s + w * c },
    { x: cx - l * c - w * s, y: cy - l * s + w * c },
  ];
}

function blend(
  img: Float32Array,
  size: number,
  i: number,
  colour: Colour,
  a: number,
  mask?: Float32Array,
  shade?: (x: number, y: number) => number,
): void {
  const k = shade ? shade(i % size, Math.floor(i / size)) : 1;
  const o = i * 3;
  img[o] = img[o]! * (1 - a) + colour[0] * k * a;
  img[o + 1] = img[o + 1]! * (1 - a) + colour[1] * k * a;
  img[o + 2] = img[o + 2]! * (1 - a) + colour[2] * k * a;
  if (mask) mask[i] = Math.min(1, mask[i]! + a);
}
