/**
 * Where overlay labels go so they do not cover one another: each label tries its natural place,
 * then steps away from it (up for a label that sits above its unit, alternately down and up for
 * one centred on its anchor), and takes the first place that overlaps no label placed before it.
 * Headless (CSS pixels in, a rectangle out), shared by the live view and the tactical view.
 */

export interface LabelRect {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export function overlaps(a: LabelRect, b: LabelRect): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

export interface PlaceOptions {
  /** Label above the anchor (a unit's name) or centred on it (a distance). */
  readonly above: boolean;
  /** The drawing area, CSS px: labels are kept inside it. */
  readonly width: number;
  readonly height: number;
  /** Places tried before giving up and overlapping (default 9). */
  readonly tries?: number;
}

/**
 * Places a w × h label anchored at (x, y) (centre-bottom when `above`, else its centre), records
 * it in `placed` and returns it. Tries vertical steps first, then sideways ones.
 */
export function placeLabel(
  anchor: { readonly x: number; readonly y: number },
  w: number,
  h: number,
  placed: LabelRect[],
  opts: PlaceOptions,
): LabelRect {
  const clampX = (x: number) => Math.max(2, Math.min(opts.width - w - 2, x));
  const clampY = (y: number) => Math.max(2, Math.min(opts.height - h - 2, y));
  const x0 = anchor.x - w / 2;
  const y0 = opts.above ? anchor.y - h - 6 : anchor.y - h / 2;
  const step = h + 2;
  const tries = opts.tries ?? 9;
  const candidates: LabelRect[] = [];
  for (let k = 0; k < tries; k++) {
    const dy = opts.above ? -k * step : (k % 2 === 0 ? 1 : -1) * Math.ceil(k / 2) * step;
    candidates.push({ x: clampX(x0), y: clampY(y0 + dy), w, h });
  }
  // Then beside the natural place, for a crowded column.
  for (const dx of [w / 2 + 4, -(w / 2 + 4), w + 4, -(w + 4)])
    candidates.push({ x: clampX(x0 + dx), y: clampY(y0), w, h });
  const rect = candidates.find((c) => !placed.some((p) => overlaps(c, p))) ?? candidates[0]!;
  placed.push(rect);
  return rect;
}
