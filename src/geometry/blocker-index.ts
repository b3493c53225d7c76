import type { Box } from './box.ts';
import { noteSegment } from './look-record.ts';
import type { Vec2 } from './vec.ts';

/**
 * A uniform grid over the bounding boxes of a fixed list of blockers (base footprints, terrain
 * outlines), so a sight line only looks at the blockers whose boxes lie in the cells it crosses.
 *
 * It never decides anything: `first(a, b, accept)` hands the candidates to `accept` in the
 * blockers' own order (lowest index first) and returns the first accepted, which is exactly what
 * a plain scan of the whole list in order would return, provided `accept` rejects blockers whose
 * box the segment misses. Candidates are a superset of the blockers whose boxes touch the
 * segment: boxes and the segment's reach in each row of cells are widened by a hair (`slack`) so
 * rounding never drops one.
 *
 * Parameters:
 * - `cellsPerBlocker` (default 2): how many grid cells to lay per blocker over the area the
 *   boxes span. More cells: fewer candidates per line, more cells visited.
 */
export class BlockerIndex {
  readonly count: number;
  private readonly minX: number;
  private readonly minY: number;
  private readonly maxX: number;
  private readonly maxY: number;
  private readonly cell: number;
  private readonly nx: number;
  private readonly ny: number;
  private readonly slack: number;
  /** Cell k holds items[start[k] .. start[k + 1]). */
  private readonly start: Int32Array;
  private readonly items: Int32Array;
  /** Candidate set of the current query, one bit per blocker. */
  private readonly bits: Int32Array;

  constructor(boxes: readonly Box[], cellsPerBlocker = 2) {
    this.count = boxes.length;
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (const b of boxes) {
      if (b.minX < minX) minX = b.minX;
      if (b.minY < minY) minY = b.minY;
      if (b.maxX > maxX) maxX = b.maxX;
      if (b.maxY > maxY) maxY = b.maxY;
    }
    if (boxes.length === 0) minX = minY = maxX = maxY = 0;
    const spanX = Math.max(maxX - minX, 1e-9);
    const spanY = Math.max(maxY - minY, 1e-9);
    this.slack =
      1e-9 * Math.max(1, spanX, spanY, Math.abs(minX), Math.abs(minY), Math.abs(maxX), Math.abs(maxY));
    const cells = Math.max(1, Math.min(65536, boxes.length * cellsPerBlocker));
    const cell = Math.sqrt((spanX * spanY) / cells) || Math.max(spanX, spanY);
    this.nx = Math.max(1, Math.min(1024, Math.ceil(spanX / cell)));
    this.ny = Math.max(1, Math.min(1024, Math.ceil(spanY / cell)));
    this.cell = Math.max(spanX / this.nx, spanY / this.ny);
    this.minX = minX;
    this.minY = minY;
    this.maxX = maxX;
    this.maxY = maxY;
    // Counting pass, then fill (compressed rows).
    const counts = new Int32Array(this.nx * this.ny + 1);
    const span = (b: Box): [number, number, number, number] => [
      this.col(b.minX - this.slack),
      this.col(b.maxX + this.slack),
      this.row(b.minY - this.slack),
      this.row(b.maxY + this.slack),
    ];
    for (const b of boxes) {
      const [c0, c1, r0, r1] = span(b);
      for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) (counts[r * this.nx + c] as number)++;
    }
    this.start = new Int32Array(this.nx * this.ny + 1);
    for (let k = 0; k < this.nx * this.ny; k++)
      this.start[k + 1] = (this.start[k] as number) + (counts[k] as number);
    this.items = new Int32Array(this.start[this.nx * this.ny] as number);
    const fill = this.start.slice(0, this.nx * this.ny);
    boxes.forEach((b, i) => {
      const [c0, c1, r0, r1] = span(b);
      for (let r = r0; r <= r1; r++)
        for (let c = c0; c <= c1; c++) {
          const k = r * this.nx + c;
          this.items[fill[k] as number] = i;
          fill[k] = (fill[k] as number) + 1;
        }
    });
    this.bits = new Int32Array(Math.max(1, Math.ceil(boxes.length / 32)));
  }

  private col(x: number): number {
    const c = Math.floor((x - this.minX) / this.cell);
    return c < 0 ? 0 : c >= this.nx ? this.nx - 1 : c;
  }

  private row(y: number): number {
    const r = Math.floor((y - this.minY) / this.cell);
    return r < 0 ? 0 : r >= this.ny ? this.ny - 1 : r;
  }

  /** Marks every blocker filed in a cell the segment [a, b] may touch. */
  private collect(a: Vec2, b: Vec2): boolean {
    this.bits.fill(0);
    const s = this.slack;
    const sx0 = Math.min(a.x, b.x) - s;
    const sx1 = Math.max(a.x, b.x) + s;
    const sy0 = Math.min(a.y, b.y) - s;
    const sy1 = Math.max(a.y, b.y) + s;
    if (this.count === 0 || sx1 < this.minX || sx0 > this.maxX || sy1 < this.minY || sy0 > this.maxY)
      return false;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const r0 = this.row(sy0);
    const r1 = this.row(sy1);
    for (let r = r0; r <= r1; r++) {
      // The segment's x reach within this row of cells (the whole row for the grid's edge rows).
      const y0 = r === 0 ? sy0 : Math.max(sy0, this.minY + r * this.cell - s);
      const y1 = r === this.ny - 1 ? sy1 : Math.min(sy1, this.minY + (r + 1) * this.cell + s);
      let x0 = sx0;
      let x1 = sx1;
      if (dy !== 0) {
        const xa = a.x + ((y0 - a.y) * dx) / dy;
        const xb = a.x + ((y1 - a.y) * dx) / dy;
        x0 = Math.max(sx0, Math.min(xa, xb) - s);
        x1 = Math.min(sx1, Math.max(xa, xb) + s);
      }
      if (x1 < this.minX - s || x0 > this.maxX + s) continue;
      const c0 = this.col(x0);
      const c1 = this.col(x1);
      for (let c = c0; c <= c1; c++) {
        const k = r * this.nx + c;
        const end = this.start[k + 1] as number;
        for (let q = this.start[k] as number; q < end; q++) {
          const i = this.items[q] as number;
          this.bits[i >> 5] = (this.bits[i >> 5] as number) | (1 << (i & 31));
        }
      }
    }
    return true;
  }

  /**
   * The lowest-index blocker near the segment [a, b] that `accept` accepts, or −1. `accept` is
   * asked in index order and only until it first says yes.
   */
  first(a: Vec2, b: Vec2, accept: (index: number) => boolean): number {
    // `accept` rejects blockers whose box the segment misses: only those touching it count.
    noteSegment(a, b);
    if (!this.collect(a, b)) return -1;
    const bits = this.bits;
    for (let w = 0; w < bits.length; w++) {
      let word = bits[w] as number;
      while (word !== 0) {
        const lowest = word & -word;
        const i = (w << 5) + 31 - Math.clz32(lowest);
        if (accept(i)) return i;
        word ^= lowest;
      }
    }
    return -1;
  }

  /** Every blocker near the segment, in index order (for tests and callers wanting them all). */
  candidates(a: Vec2, b: Vec2): number[] {
    const out: number[] = [];
    this.first(a, b, (i) => {
      out.push(i);
      return false;
    });
    return out;
  }
}
