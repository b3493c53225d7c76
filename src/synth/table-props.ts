import {
  colourOf,
  type CardItem,
  type ClutterItem,
  type DieItem,
  type Rgb,
  type RulerItem,
} from './clutter.ts';
import { textInk } from './font.ts';
import { GLOSS } from './lighting.ts';
import { BoxProp, put } from './prop-shape.ts';
import { valueNoise } from './value-noise.ts';

/** The box-shaped clutter: bases without markers, dice, rulers, printed cards. */

export class BareBaseProp extends BoxProp {
  private readonly colour: Rgb;
  private readonly topColour: Rgb | null;
  private readonly rim: number;
  constructor(item: Extract<ClutterItem, { kind: 'base' }>, index: number) {
    super(item, index, item.widthMm / 2, item.depthMm / 2, item.heightMm);
    const what = `clutter item ${index} (base)`;
    this.colour = colourOf(item.colour, what);
    this.topColour = item.rim ? colourOf(item.rim.topColour, what) : null;
    this.rim = item.rim?.widthMm ?? 0;
  }
  protected top(lx: number, ly: number, out: Float64Array): number {
    const rimmed = this.topColour && Math.abs(lx) < this.hw - this.rim && Math.abs(ly) < this.hd - this.rim;
    if (rimmed && this.topColour) {
      // Flock: grainy, matte.
      const n = valueNoise(lx / 0.9 + 31 * this.index, ly / 0.9, 11);
      put(out, this.topColour, 0.75 + 0.4 * n);
      return GLOSS.cloth;
    }
    put(out, this.colour, 0.95 + 0.1 * valueNoise(lx / 6, ly / 6, 12 + this.index));
    return GLOSS.paint;
  }
  protected wall(_f: number, _s: number, _lx: number, _ly: number, _z: number, out: Float64Array): void {
    put(out, this.colour);
  }
}

/** Pip centres on a die face, in face units (the face spans −1…1). */
const PIPS: Record<number, readonly (readonly [number, number])[]> = {
  1: [[0, 0]],
  2: [
    [-0.5, -0.5],
    [0.5, 0.5],
  ],
  3: [
    [-0.5, -0.5],
    [0, 0],
    [0.5, 0.5],
  ],
  4: [
    [-0.5, -0.5],
    [0.5, -0.5],
    [-0.5, 0.5],
    [0.5, 0.5],
  ],
  5: [
    [-0.5, -0.5],
    [0.5, -0.5],
    [0, 0],
    [-0.5, 0.5],
    [0.5, 0.5],
  ],
  6: [
    [-0.5, -0.5],
    [0.5, -0.5],
    [-0.5, 0],
    [0.5, 0],
    [-0.5, 0.5],
    [0.5, 0.5],
  ],
};
const PIP_RADIUS = 0.19;

export class DieProp extends BoxProp {
  private readonly colour: Rgb;
  private readonly pip: Rgb;
  /** Pips on the faces: top, then +x, −x, +y, −y. */
  private readonly faces: { top: number; px: number; nx: number; py: number; ny: number };
  constructor(item: DieItem, index: number) {
    super(item, index, item.sizeMm / 2, item.sizeMm / 2, item.sizeMm);
    const what = `clutter item ${index} (die)`;
    this.colour = colourOf(item.colour, what);
    this.pip = colourOf(item.pipColour, what);
    const pairs = [
      [1, 6],
      [2, 5],
      [3, 4],
    ].filter((p) => !p.includes(item.top));
    const [a, b] = [pairs[0]!, pairs[1]!];
    this.faces = { top: item.top, px: a[0]!, nx: a[1]!, py: b[0]!, ny: b[1]! };
  }
  private pips(n: number, p: number, q: number, out: Float64Array): number {
    for (const [cx, cy] of PIPS[n]!) {
      if ((p - cx) ** 2 + (q - cy) ** 2 < PIP_RADIUS * PIP_RADIUS) {
        put(out, this.pip);
        return GLOSS.plastic;
      }
    }
    // Rounded edges catch less light.
    put(out, this.colour, Math.max(Math.abs(p), Math.abs(q)) > 0.86 ? 0.82 : 1);
    return GLOSS.plastic;
  }
  protected top(lx: number, ly: number, out: Float64Array): number {
    return this.pips(this.faces.top, lx / this.hw, ly / this.hd, out);
  }
  protected wall(face: number, sgn: number, lx: number, ly: number, z: number, out: Float64Array): void {
    const q = (2 * z) / this.topMm - 1;
    if (face === 1) this.pips(sgn > 0 ? this.faces.px : this.faces.nx, ly / this.hd, q, out);
    else this.pips(sgn > 0 ? this.faces.py : this.faces.ny, lx / this.hw, q, out);
  }
}

export class RulerProp extends BoxProp {
  private readonly colour: Rgb;
  private readonly ink: Rgb;
  private readonly pitch: number;
  private readonly ticks: number;
  private readonly textMm: number;
  private static readonly START_MM = 4;
  private static readonly LINE_MM = 0.35;
  constructor(
    private readonly ruler: RulerItem,
    index: number,
  ) {
    super(ruler, index, ruler.lengthMm / 2, ruler.widthMm / 2, ruler.heightMm);
    const what = `clutter item ${index} (ruler)`;
    this.colour = colourOf(ruler.colour, what);
    this.ink = colourOf(ruler.inkColour, what);
    this.pitch = ruler.units === 'in' ? 25.4 / 8 : 1;
    this.ticks = Math.floor((ruler.lengthMm - 2 * RulerProp.START_MM) / this.pitch);
    this.textMm = ruler.units === 'in' ? 3.6 : 2.8;
  }
  /** Tick length for tick i, mm. */
  private tickLength(i: number): number {
    if (this.ruler.units === 'in') return i % 8 === 0 ? 9 : i % 4 === 0 ? 6.5 : i % 2 === 0 ? 5 : 3.5;
    return i % 10 === 0 ? 8 : i % 5 === 0 ? 5.5 : 3.5;
  }
  protected top(lx: number, ly: number, out: Float64Array): number {
    put(out, this.colour);
    const s = lx + this.hw - RulerProp.START_MM;
    const fromEdge = this.hd - ly;
    const i = Math.round(s / this.pitch);
    if (i >= 0 && i <= this.ticks) {
      if (Math.abs(s - i * this.pitch) < RulerProp.LINE_MM / 2 && fromEdge < this.tickLength(i)) {
        put(out, this.ink);
        return GLOSS.plastic;
      }
    }
    // Numbers under the long ticks: inches 1, 2, 3 … or centimetres.
    const major = this.ruler.units === 'in' ? 8 : 10;
    const k = Math.round(s / (major * this.pitch));
    if (k >= 1 && k * major <= this.ticks) {
      const label = String(k);
      const fp = this.textMm / 7;
      const widthMm = (label.length * 6 - 1) * fp;
      const col = (s - k * major * this.pitch + widthMm / 2) / fp;
      const row = (fromEdge - this.tickLength(0) - 1) / fp;
      if (textInk([label], col, row)) put(out, this.ink);
    }
    return GLOSS.plastic;
  }
  protected wall(_f: number, _s: number, _lx: number, _ly: number, _z: number, out: Float64Array): void {
    put(out, this.colour);
  }
}

export class CardProp extends BoxProp {
  private readonly colour: Rgb;
  private readonly ink: Rgb;
  private readonly margin: number;
  private readonly fontPx: number;
  private readonly textBottomMm: number;
  private static readonly LINE_MM = 0.3;
  constructor(
    private readonly card: CardItem,
    index: number,
  ) {
    super(card, index, card.widthMm / 2, card.depthMm / 2, 0.4);
    const what = `clutter item ${index} (card)`;
    this.colour = colourOf(card.colour, what);
    this.ink = colourOf(card.inkColour, what);
    this.margin = Math.min(4, 0.12 * Math.min(card.widthMm, card.depthMm));
    this.fontPx = card.textMm / 7;
    this.textBottomMm = this.margin + this.fontPx * (card.lines.length * 9);
  }
  protected top(lx: number, ly: number, out: Float64Array): number {
    const { card, margin } = this;
    // Card coordinates from its top-left corner (top = the card's far edge, +y).
    const cx = lx + this.hw;
    const cy = this.hd - ly;
    put(out, this.colour);
    const line = CardProp.LINE_MM;
    if (card.border) {
      const b = margin / 2;
      const inFrame =
        cx > b - line && cx < card.widthMm - b + line && cy > b - line && cy < card.depthMm - b + line;
      const nearEdge =
        Math.abs(cx - b) < line ||
        Math.abs(cx - (card.widthMm - b)) < line ||
        Math.abs(cy - b) < line ||
        Math.abs(cy - (card.depthMm - b)) < line;
      if (inFrame && nearEdge) {
        put(out, this.ink);
        return GLOSS.paper;
      }
    }
    if (textInk(card.lines, (cx - margin) / this.fontPx, (cy - margin) / this.fontPx)) {
      put(out, this.ink);
      return GLOSS.paper;
    }
    if (card.grid) {
      const x0 = margin;
      const x1 = card.widthMm - margin;
      const y0 = this.textBottomMm;
      const y1 = card.depthMm - margin;
      if (y1 - y0 > 2 && cx > x0 - line && cx < x1 + line && cy > y0 - line && cy < y1 + line) {
        const fx = ((cx - x0) / (x1 - x0)) * card.grid.columns;
        const fy = ((cy - y0) / (y1 - y0)) * card.grid.rows;
        const dxMm = (Math.abs(fx - Math.round(fx)) * (x1 - x0)) / card.grid.columns;
        const dyMm = (Math.abs(fy - Math.round(fy)) * (y1 - y0)) / card.grid.rows;
        if (dxMm < line / 2 || dyMm < line / 2) put(out, this.ink);
      }
    }
    return GLOSS.paper;
  }
  protected wall(_f: number, _s: number, _lx: number, _ly: number, _z: number, out: Float64Array): void {
    put(out, this.colour, 0.9);
  }
}
