// One file over ~400 lines on purpose: every function here reads or regrows the sweep's module-level
// typed arrays, and its hot loops must reach them as this module's own variables (the sweep ran
// 3-4 % slower with its edge arrays imported from a module of their own).
import type { Polygon } from './polygon.ts';
import { trapezoid } from './slab-trapezoid.ts';
import { sortAscending } from './sort-numbers.ts';

/**
 * The slab sweep behind region-area.ts: edges in typed arrays, boundaries at every vertex and
 * crossing, each slab's cuts ordered up the slab, winding counts, trapezoids.
 */

/** Which area: of A ∖ B, of A ∩ B, or of A alone (B ignored). */
export type AreaOp = 'difference' | 'intersection' | 'union';

/*
 * Edges and the cuts of one slab live in typed arrays reused from call to call (the sweep runs
 * tens of thousands of times for an all-pairs table; objects per edge were most of its garbage).
 * Edge i: left and right end (x0 < x1; vertical edges add no area and are dropped), its y range,
 * its winding step when crossed upwards (+1 or −1) and its region (0: A, 1: B).
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
/**
 * Where each live edge lies against A's height (B's edges only; 0 for A's): 0 across it, 1 wholly
 * below it, 2 wholly above it (by more than any rounding of a cut). Below-edges only count in B's
 * winding, above-edges not at all: every cut of theirs sorts before (after) every cut of A's.
 */
let SIDE = new Uint8Array(0);
/** Each edge's last cut at a slab's right side and that side's x: the next slab's left cut. */
let LAST_X = new Float64Array(0);
let LAST_Y = new Float64Array(0);
/**
 * The edges that span each slab, in edge order, slab after slab (SPAN_AT[k] … SPAN_AT[k + 1]
 * into SPANS): each edge is listed for the slabs between its ends, found by bisection in the
 * sorted boundaries, instead of every edge being tested against every slab.
 */
let SPAN_AT = new Int32Array(1 << 16);
let SPANS = new Int32Array(1 << 16);
/** Each live edge's first slab and the slab after its last. */
let FIRST_SLAB = new Int32Array(0);
let END_SLAB = new Int32Array(0);
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
  SIDE = new Uint8Array(c);
  LAST_X = new Float64Array(c);
  LAST_Y = new Float64Array(c);
  FIRST_SLAB = new Int32Array(c);
  END_SLAB = new Int32Array(c);
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

/** Stretches thinner than this (mm) are rounding noise, far below anything a camera measures. */
const SLIVER_MM = 1e-9;

/** How far (relative to the coordinates) an edge of B must lie beyond A's height to be left out of the slabs' cuts. */
const SIDE_MARGIN = 1e-9;

/** First index k of the sorted boundaries with XS[k] ≥ x (`above`: > x). */
function bisect(x: number, above: boolean): number {
  let lo = 0;
  let hi = xsCount;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = XS[mid] as number;
    if (above ? v <= x : v < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Lists, slab by slab, the live edges that span it (X0 ≤ xl and X1 ≥ xr, as XS is sorted: slabs
 * k from the first boundary ≥ X0 to the one before the first boundary > X1), in edge order.
 * Edges wholly above A are left out: they add nothing to any slab.
 */
function listSpans(live: number): void {
  const slabs = xsCount - 1;
  if (SPAN_AT.length < xsCount + 1) SPAN_AT = new Int32Array(2 * (xsCount + 1));
  SPAN_AT.fill(0, 0, xsCount + 1);
  let total = 0;
  for (let i = 0; i < live; i++) {
    const e = LIVE[i] as number;
    let first = 0;
    let end = 0;
    if (SIDE[e] !== 2) {
      first = bisect(X0[e] as number, false);
      end = Math.min(slabs, bisect(X1[e] as number, true) - 1);
    }
    if (end < first) end = first;
    FIRST_SLAB[e] = first;
    END_SLAB[e] = end;
    // Counted at k + 1 for now: the running sum below turns counts into starts.
    for (let k = first; k < end; k++) SPAN_AT[k + 1] = (SPAN_AT[k + 1] as number) + 1;
    total += end - first;
  }
  for (let k = 0; k < slabs; k++) SPAN_AT[k + 1] = (SPAN_AT[k + 1] as number) + (SPAN_AT[k] as number);
  if (SPANS.length < total) SPANS = new Int32Array(2 * total);
  // Fill in edge order; SPAN_AT[k] serves as the fill cursor of slab k and is put back after.
  for (let i = 0; i < live; i++) {
    const e = LIVE[i] as number;
    const end = END_SLAB[e] as number;
    for (let k = FIRST_SLAB[e] as number; k < end; k++) {
      const at = SPAN_AT[k] as number;
      SPANS[at] = e;
      SPAN_AT[k] = at + 1;
    }
  }
  for (let k = slabs; k > 0; k--) SPAN_AT[k] = SPAN_AT[k - 1] as number;
  SPAN_AT[0] = 0;
}

/** Live edges × boundaries above which each slab's spanning edges are listed first (listSpans). */
const LIST_SPANS_ABOVE = 2000;

/** Up to this many live edges every pair is tried; above, pairs are found by x order. */
const PLAIN_CROSSINGS = 48;

/** Pushes every proper crossing of two live edges inside A's x-range, pair by pair in edge order. */
function crossingsInOrder(live: number, minX: number, maxX: number): void {
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
}

/** Live edges ordered by their left end (BY_X), and merge sort scratch. */
let BY_X = new Int32Array(256);
let MERGE = new Int32Array(256);

/**
 * The same crossings as crossingsInOrder (each pair's crossingX with the lower edge first), found
 * by walking the edges in order of their left ends: an edge meets in x only those whose left end
 * is before its right end, so a wood's long fan does not try every pair. They are pushed in
 * another order, which sorting the boundaries undoes (equal numbers are the same bits), except
 * for 0 and −0: when a crossing is 0 it returns false, and the caller pushes them in edge order.
 */
function crossingsByX(live: number, minX: number, maxX: number): boolean {
  if (BY_X.length < live) {
    BY_X = new Int32Array(2 * live);
    MERGE = new Int32Array(2 * live);
  }
  for (let i = 0; i < live; i++) BY_X[i] = LIVE[i] as number;
  sortByLeftEnd(live);
  for (let p = 0; p < live; p++) {
    const e = BY_X[p] as number;
    const right = X1[e] as number;
    for (let q = p + 1; q < live; q++) {
      const f = BY_X[q] as number;
      if (!((X0[f] as number) < right)) break;
      if ((YMAX[e] as number) < (YMIN[f] as number) || (YMAX[f] as number) < (YMIN[e] as number)) continue;
      const x = e < f ? crossingX(e, f) : crossingX(f, e);
      if (x > minX && x < maxX) {
        if (x === 0) return false;
        pushX(x);
      }
    }
  }
  return true;
}

/** BY_X[0 … n) by X0, ascending (bottom-up merge sort; ties in any order). */
function sortByLeftEnd(n: number): void {
  let from = BY_X;
  let to = MERGE;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        const a = from[i] as number;
        const b = from[j] as number;
        if ((X0[b] as number) < (X0[a] as number)) {
          to[k++] = b;
          j++;
        } else {
          to[k++] = a;
          i++;
        }
      }
      while (i < mid) to[k++] = from[i++] as number;
      while (j < hi) to[k++] = from[j++] as number;
    }
    const t = from;
    from = to;
    to = t;
  }
  if (from !== BY_X) {
    MERGE = BY_X;
    BY_X = from;
  }
}

/** Walks the slabs of A op B, reporting each maximal "in" stretch of each slab. */
export function sweep(
  a: readonly Polygon[],
  b: readonly Polygon[],
  op: AreaOp,
  pieces: Polygon[] | undefined,
): number {
  edgeCount = 0;
  collect(a, 0);
  if (edgeCount === 0) return 0;
  let area = 0;
  if (op !== 'union') collect(b, 1);
  // Only A's x-range can hold area.
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let e = 0; e < edgeCount; e++)
    if (SET[e] === 0) {
      if ((X0[e] as number) < minX) minX = X0[e] as number;
      if ((X1[e] as number) > maxX) maxX = X1[e] as number;
      if ((YMIN[e] as number) < minY) minY = YMIN[e] as number;
      if ((YMAX[e] as number) > maxY) maxY = YMAX[e] as number;
    }
  // A cut of an edge is within a few ulps of the edge's y range; this is far more than that.
  const apartY = SIDE_MARGIN * Math.max(1, Math.abs(minY), Math.abs(maxY));
  const below = minY - apartY;
  const above = maxY + apartY;
  let live = 0;
  for (let e = 0; e < edgeCount; e++)
    if ((X1[e] as number) > minX && (X0[e] as number) < maxX) {
      LIVE[live++] = e;
      SIDE[e] = SET[e] === 0 ? 0 : (YMAX[e] as number) < below ? 1 : (YMIN[e] as number) > above ? 2 : 0;
      LAST_X[e] = NaN;
    }
  xsCount = 0;
  pushX(minX);
  pushX(maxX);
  for (let i = 0; i < live; i++) {
    const e = LIVE[i] as number;
    if ((X0[e] as number) > minX) pushX(X0[e] as number);
    if ((X1[e] as number) < maxX) pushX(X1[e] as number);
  }
  const beforeCrossings = xsCount;
  if (live <= PLAIN_CROSSINGS || !crossingsByX(live, minX, maxX)) {
    xsCount = beforeCrossings;
    crossingsInOrder(live, minX, maxX);
  }
  sortAscending(XS, xsCount);
  // Small sweeps test every live edge at every slab; larger ones list each slab's edges first.
  const listed = live * xsCount > LIST_SPANS_ABOVE;
  if (listed) listSpans(live);
  const difference = op === 'difference';
  const intersection = op === 'intersection';
  for (let k = 0; k + 1 < xsCount; k++) {
    const xl = XS[k] as number;
    const xr = XS[k + 1] as number;
    if (!(xr > xl)) continue;
    const xm = (xl + xr) / 2;
    // The left side's cut is the slab before's right one when that side is the very same x
    // (−0 and 0 apart): yAt of the same edge at the same x.
    const xlZero = xl === 0;
    const xlPositive = 1 / xl > 0;
    let m = 0;
    let wbBelow = 0;
    const spansEnd = listed ? (SPAN_AT[k + 1] as number) : live;
    for (let i = listed ? (SPAN_AT[k] as number) : 0; i < spansEnd; i++) {
      const e = listed ? (SPANS[i] as number) : (LIVE[i] as number);
      if (listed || ((X0[e] as number) <= xl && (X1[e] as number) >= xr)) {
        const side = SIDE[e] as number;
        if (side !== 0) {
          // Wholly below A: sorted first, it only steps B's winding; wholly above: sorted after
          // A's last cut, where nothing is "in" any more.
          if (side === 1) wbBelow += W[e] as number;
          continue;
        }
        const lx = LAST_X[e] as number;
        CUT_MID[m] = yAt(e, xm);
        CUT_L[m] = lx === xl && (!xlZero || 1 / lx > 0 === xlPositive) ? (LAST_Y[e] as number) : yAt(e, xl);
        const yr = yAt(e, xr);
        CUT_R[m] = yr;
        LAST_X[e] = xr;
        LAST_Y[e] = yr;
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
    let wb = wbBelow;
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
        if (!sliver) {
          // Each stretch is a trapezoid with vertical sides at xl and xr (summed here, in slab
          // order: a callback per stretch boxed its six numbers and the running sum).
          const pieceArea = ((topL - lowL + (topR - lowR)) * (xr - xl)) / 2;
          area += pieceArea;
          if (pieces && pieceArea > 0) pieces.push(trapezoid(xl, xr, lowL, lowR, topL, topR));
        }
        from = -1;
      }
    }
  }
  return area;
}
