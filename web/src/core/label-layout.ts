/**
 * Where overlay labels go so they do not cover one another and stay next to what they name.
 * A label tries places around the thing it names (a unit's outline: above, below, beside; a
 * distance or a zone: on its anchor, then a step away), nearest first, and takes the first that
 * overlaps no label placed before it. When every place near its thing is taken it is not placed
 * (the caller may try a shorter text, or leave it to the unit list) rather than drifting away.
 * Headless (CSS pixels in, a rectangle out), shared by the live view and the tactical view.
 */

export interface LabelRect {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export function overlaps(a: LabelRect, b: LabelRect, gap = 0): boolean {
  return a.x < b.x + b.w + gap && b.x < a.x + a.w + gap && a.y < b.y + b.h + gap && b.y < a.y + a.h + gap;
}

/** Gap between a rectangle and another, 0 when they touch or overlap. */
export function gapBetween(a: LabelRect, b: LabelRect): number {
  const dx = Math.max(0, b.x - (a.x + a.w), a.x - (b.x + b.w));
  const dy = Math.max(0, b.y - (a.y + a.h), a.y - (b.y + b.h));
  return Math.hypot(dx, dy);
}

export interface PlaceOptions {
  /** The drawing area, CSS px: labels are kept inside it. */
  readonly width: number;
  readonly height: number;
  /**
   * What the label names, as a box (a unit's outline): places are tried around it. Without it the
   * label is centred on its anchor (a distance, a zone) and steps away from there.
   */
  readonly around?: LabelRect;
  /** Place it even when every near place is taken (the one distance that must show). */
  readonly mustPlace?: boolean;
}

/** Farthest a label may sit from what it names, in label heights. */
export const MAX_LABEL_GAP_HEIGHTS = 1.5;

function candidates(anchor: { x: number; y: number }, w: number, h: number, o: PlaceOptions): LabelRect[] {
  const out: Array<{ x: number; y: number }> = [];
  const g = 3;
  if (o.around) {
    const b = o.around;
    const cx = b.x + b.w / 2 - w / 2;
    const cy = b.y + b.h / 2 - h / 2;
    const above = b.y - h - g;
    const below = b.y + b.h + g;
    const left = b.x - w - g;
    const right = b.x + b.w + g;
    out.push(
      { x: anchor.x - w / 2, y: above },
      { x: cx, y: below },
      { x: right, y: cy },
      { x: left, y: cy },
      { x: b.x, y: above },
      { x: b.x + b.w - w, y: above },
      { x: b.x, y: below },
      { x: b.x + b.w - w, y: below },
      { x: cx, y: above - h - g },
      { x: cx, y: below + h + g },
      { x: cx, y: cy },
    );
  } else {
    const x0 = anchor.x - w / 2;
    const y0 = anchor.y - h / 2;
    const step = h + 2;
    out.push({ x: x0, y: y0 });
    for (const k of [1, 2]) {
      out.push({ x: x0, y: y0 - k * step }, { x: x0, y: y0 + k * step });
      out.push({ x: x0 + k * (w / 2 + 4), y: y0 }, { x: x0 - k * (w / 2 + 4), y: y0 });
    }
  }
  const clampX = (x: number) => Math.max(2, Math.min(o.width - w - 2, x));
  const clampY = (y: number) => Math.max(2, Math.min(o.height - h - 2, y));
  return out.map((p) => ({ x: clampX(p.x), y: clampY(p.y), w, h }));
}

/**
 * Places a w × h label for something anchored at `anchor` (centre-bottom of the label above a
 * unit, else its centre), records it in `placed` and returns it; null when there is no free place
 * near it (unless `mustPlace`).
 */
export function placeLabel(
  anchor: { readonly x: number; readonly y: number },
  w: number,
  h: number,
  placed: LabelRect[],
  opts: PlaceOptions,
): LabelRect | null {
  const all = candidates(anchor, w, h, opts);
  const near = opts.around
    ? all.filter((c) => gapBetween(c, opts.around!) <= MAX_LABEL_GAP_HEIGHTS * h)
    : all;
  const rect = near.find((c) => !placed.some((p) => overlaps(c, p, 1))) ?? (opts.mustPlace ? all[0]! : null);
  if (rect) placed.push(rect);
  return rect;
}
