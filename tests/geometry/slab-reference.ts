import type { Polygon } from '../../src/geometry/polygon.ts';
import type { AreaOp } from '../../src/geometry/region-area.ts';

/**
 * The slab sweep as it was before its cuts skipped B's edges beyond A's height and took each
 * slab's left cuts from the slab before (round eight, docs/rules-engine.md): every live edge cut
 * at both sides and the middle of every slab, and boundaries sorted by Array.prototype.sort. The
 * truth the sweep's fast paths are tested against (bit for bit).
 */
let capacity = 0;
let X0 = new Float64Array(0);
let Y0 = new Float64Array(0);
let X1 = new Float64Array(0);
let Y1 = new Float64Array(0);
let YMIN = new Float64Array(0);
let YMAX = new Float64Array(0);
let W = new Int8Array(0);
let SET = new Uint8Array(0);
/** Indices of the edges within A's x-range, in edge order. */
let LIVE = new Int32Array(0);
/** Where each edge that spans the slab crosses it: at its middle, left and right side. */
let CUT_MID = new Float64Array(0);
let CUT_L = new Float64Array(0);
let CUT_R = new Float64Array(0);
let CUT_W = new Int8Array(0);
let CUT_SET = new Uint8Array(0);
/** The slab's cuts in order up the slab (indices into the CUT_ arrays). */
let ORDER = new Int32Array(0);
let edgeCount = 0;
/**
 * Slab boundaries, XS[0 … xsCount): sorted ascending by a stable sort (`sortAscending`), the order
 * `Array.prototype.sort((p, q) => p - q)` gave them (−0 and 0 tie and keep their order).
 */
// Room for far more boundaries than any sweep of a table makes (512 kB once): growing it is a
// path no sweep has taken, and taking it for the first time in the middle of a large sweep
// threw the optimised sweep away (a cold server held its event loop ~50 ms on it).
let XS = new Float64Array(1 << 16);
let xsCount = 0;

function pushX(x: number): void {
  if (xsCount === XS.length) {
    const b = new Float64Array(2 * XS.length);
    b.set(XS);
    XS = b;
  }
  XS[xsCount++] = x;
}

function grown<T extends Float64Array | Int8Array | Uint8Array | Int32Array>(
  a: T,
  make: (n: number) => T,
  n: number,
): T {
  const b = make(n);
  b.set(a);
  return b;
}

/** Room for at least `n` edges. */
function reserve(n: number): void {
  if (n <= capacity) return;
  const c = Math.max(n, 2 * capacity, 64);
  X0 = grown(X0, (k) => new Float64Array(k), c);
  Y0 = grown(Y0, (k) => new Float64Array(k), c);
  X1 = grown(X1, (k) => new Float64Array(k), c);
  Y1 = grown(Y1, (k) => new Float64Array(k), c);
  YMIN = grown(YMIN, (k) => new Float64Array(k), c);
  YMAX = grown(YMAX, (k) => new Float64Array(k), c);
  W = grown(W, (k) => new Int8Array(k), c);
  SET = grown(SET, (k) => new Uint8Array(k), c);
  LIVE = new Int32Array(c);
  CUT_MID = new Float64Array(c);
  CUT_L = new Float64Array(c);
  CUT_R = new Float64Array(c);
  CUT_W = new Int8Array(c);
  CUT_SET = new Uint8Array(c);
  ORDER = new Int32Array(c);
  capacity = c;
}

function collect(region: readonly Polygon[], set: 0 | 1): void {
  for (const poly of region) {
    const n = poly.length;
    if (n < 3) continue;
    let s = 0;
    for (let i = 0; i < n; i++) {
      const p = poly[i] as { x: number; y: number };
      const q = poly[(i + 1) % n] as { x: number; y: number };
      s += p.x * q.y - q.x * p.y;
    }
    if (s === 0) continue;
    reserve(edgeCount + n);
    // Counter-clockwise: the lower edges run left to right, and crossing one upwards enters.
    const orient = s > 0 ? 1 : -1;
    for (let i = 0; i < n; i++) {
      const p = poly[i] as { x: number; y: number };
      const q = poly[(i + 1) % n] as { x: number; y: number };
      if (p.x === q.x) continue;
      const k = edgeCount++;
      YMIN[k] = Math.min(p.y, q.y);
      YMAX[k] = Math.max(p.y, q.y);
      SET[k] = set;
      if (p.x < q.x) {
        X0[k] = p.x;
        Y0[k] = p.y;
        X1[k] = q.x;
        Y1[k] = q.y;
        W[k] = orient;
      } else {
        X0[k] = q.x;
        Y0[k] = q.y;
        X1[k] = p.x;
        Y1[k] = p.y;
        W[k] = -orient;
      }
    }
  }
}

const yAt = (e: number, x: number): number =>
  x <= (X0[e] as number)
    ? (Y0[e] as number)
    : x >= (X1[e] as number)
      ? (Y1[e] as number)
      : (Y0[e] as number) +
        (((Y1[e] as number) - (Y0[e] as number)) * (x - (X0[e] as number))) /
          ((X1[e] as number) - (X0[e] as number));

/** x of the proper crossing of two edges strictly inside both x-ranges, or NaN. */
function crossingX(a: number, b: number): number {
  const lo = Math.max(X0[a] as number, X0[b] as number);
  const hi = Math.min(X1[a] as number, X1[b] as number);
  if (!(lo < hi)) return NaN;
  const dLo = yAt(a, lo) - yAt(b, lo);
  const dHi = yAt(a, hi) - yAt(b, hi);
  if (dLo === 0 || dHi === 0 || dLo > 0 === dHi > 0) return NaN;
  return lo + ((hi - lo) * dLo) / (dLo - dHi);
}

/** One stretch of the result inside a slab: a trapezoid with vertical sides at xl and xr. */
type Stretch = (xl: number, xr: number, lowL: number, lowR: number, highL: number, highR: number) => void;

/** Stretches thinner than this (mm) are rounding noise, far below anything a camera measures. */
const SLIVER_MM = 1e-9;

/** Walks the slabs of A op B, reporting each maximal "in" stretch of each slab. */
function sweep(a: readonly Polygon[], b: readonly Polygon[], op: AreaOp, emit: Stretch): void {
  edgeCount = 0;
  collect(a, 0);
  if (edgeCount === 0) return;
  if (op !== 'union') collect(b, 1);
  // Only A's x-range can hold area.
  let minX = Infinity;
  let maxX = -Infinity;
  for (let e = 0; e < edgeCount; e++)
    if (SET[e] === 0) {
      if ((X0[e] as number) < minX) minX = X0[e] as number;
      if ((X1[e] as number) > maxX) maxX = X1[e] as number;
    }
  let live = 0;
  for (let e = 0; e < edgeCount; e++)
    if ((X1[e] as number) > minX && (X0[e] as number) < maxX) LIVE[live++] = e;
  xsCount = 0;
  pushX(minX);
  pushX(maxX);
  for (let i = 0; i < live; i++) {
    const e = LIVE[i] as number;
    if ((X0[e] as number) > minX) pushX(X0[e] as number);
    if ((X1[e] as number) < maxX) pushX(X1[e] as number);
  }
  for (let i = 0; i < live; i++) {
    const ea = LIVE[i] as number;
    for (let j = i + 1; j < live; j++) {
      const eb = LIVE[j] as number;
      // Edges whose boxes do not overlap cannot cross (crossingX would say NaN).
      if (
        (YMAX[ea] as number) < (YMIN[eb] as number) ||
        (YMAX[eb] as number) < (YMIN[ea] as number) ||
        (X1[ea] as number) <= (X0[eb] as number) ||
        (X1[eb] as number) <= (X0[ea] as number)
      )
        continue;
      const x = crossingX(ea, eb);
      if (x > minX && x < maxX) pushX(x);
    }
  }
  const sorted = Array.from(XS.subarray(0, xsCount)).sort((p, q) => p - q);
  for (let i = 0; i < xsCount; i++) XS[i] = sorted[i] as number;
  const difference = op === 'difference';
  const intersection = op === 'intersection';
  for (let k = 0; k + 1 < xsCount; k++) {
    const xl = XS[k] as number;
    const xr = XS[k + 1] as number;
    if (!(xr > xl)) continue;
    const xm = (xl + xr) / 2;
    let m = 0;
    for (let i = 0; i < live; i++) {
      const e = LIVE[i] as number;
      if ((X0[e] as number) <= xl && (X1[e] as number) >= xr) {
        CUT_MID[m] = yAt(e, xm);
        CUT_L[m] = yAt(e, xl);
        CUT_R[m] = yAt(e, xr);
        CUT_W[m] = W[e] as number;
        CUT_SET[m] = SET[e] as number;
        m++;
      }
    }
    if (m < 2) continue;
    // Up the slab by the middle; a stable insertion sort keeps ties in edge order, as a stable
    // sort by the same comparison would.
    for (let i = 0; i < m; i++) {
      const c = i;
      const v = CUT_MID[c] as number;
      let j = i - 1;
      while (j >= 0 && (CUT_MID[ORDER[j] as number] as number) - v > 0) {
        ORDER[j + 1] = ORDER[j] as number;
        j--;
      }
      ORDER[j + 1] = c;
    }
    let wa = 0;
    let wb = 0;
    let from = -1;
    for (let i = 0; i + 1 < m; i++) {
      const c = ORDER[i] as number;
      if (CUT_SET[c] === 0) wa += CUT_W[c] as number;
      else wb += CUT_W[c] as number;
      const on = difference ? wa !== 0 && wb === 0 : intersection ? wa !== 0 && wb !== 0 : wa !== 0;
      if (on && from < 0) from = i;
      if (from >= 0 && (!on || i + 2 === m)) {
        // The run of "in" stretches ends at edge i (not in) or at the last edge.
        const top = on ? (ORDER[i + 1] as number) : c;
        const low = ORDER[from] as number;
        const lowL = CUT_L[low] as number;
        const lowR = CUT_R[low] as number;
        const topL = CUT_L[top] as number;
        const topR = CUT_R[top] as number;
        // Slivers are float noise where edges of A and B coincide (a shadow edge along the
        // target's side, a slab between two copies of one vertex): neither area nor a piece.
        const sliver = xr - xl < SLIVER_MM || (topL - lowL < SLIVER_MM && topR - lowR < SLIVER_MM);
        if (!sliver) emit(xl, xr, lowL, lowR, topL, topR);
        from = -1;
      }
    }
  }
}

/** The area of A ∖ B, A ∩ B, or A (as a union of its polygons). */
export function referenceArea(a: readonly Polygon[], b: readonly Polygon[], op: AreaOp): number {
  let area = 0;
  sweep(a, b, op, (xl, xr, lowL, lowR, highL, highR) => {
    area += ((highL - lowL + (highR - lowR)) * (xr - xl)) / 2;
  });
  return area;
}

/**
 * A ∖ B, A ∩ B or A as pieces (trapezoids, one per slab and run, none of zero area) whose union
 * is the result, with its area: what a nearest point or a distance needs, without merging the
 * pieces into outlines.
 */
export function referencePieces(
  a: readonly Polygon[],
  b: readonly Polygon[],
  op: AreaOp,
): { pieces: Polygon[]; area: number } {
  const pieces: Polygon[] = [];
  let area = 0;
  sweep(a, b, op, (xl, xr, lowL, lowR, highL, highR) => {
    const pieceArea = ((highL - lowL + (highR - lowR)) * (xr - xl)) / 2;
    area += pieceArea;
    if (!(pieceArea > 0)) return;
    // A side of zero height makes it a triangle.
    const piece: Polygon =
      lowL === highL
        ? [
            { x: xl, y: lowL },
            { x: xr, y: lowR },
            { x: xr, y: highR },
          ]
        : lowR === highR
          ? [
              { x: xl, y: lowL },
              { x: xr, y: lowR },
              { x: xl, y: highL },
            ]
          : [
              { x: xl, y: lowL },
              { x: xr, y: lowR },
              { x: xr, y: highR },
              { x: xl, y: highL },
            ];
    pieces.push(piece);
  });
  return { pieces, area };
}
