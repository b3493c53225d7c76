import type { MarkerBits } from './marker-bits.ts';
import { mmToPt } from './paper.ts';

/** The part of PDFKit's document the drawing code uses (keeps the drawing testable and typed). */
export interface PdfCanvas {
  rect(x: number, y: number, w: number, h: number): this;
  fill(color?: string): this;
}

/**
 * Draws a marker as filled vector rectangles: each run of black cells in a row is one rectangle,
 * and all of them are one path filled once, so abutting cells leave no hairline seams. `xMm`,
 * `yMm` is the top-left of the black border, `sideMm` its outer side; the marker's top row is
 * towards the top of the page.
 */
export function drawMarker(doc: PdfCanvas, bits: MarkerBits, xMm: number, yMm: number, sideMm: number): void {
  const cell = sideMm / bits.cells;
  let any = false;
  for (let r = 0; r < bits.cells; r++) {
    let c = 0;
    while (c < bits.cells) {
      if (!bits.dark[r * bits.cells + c]) {
        c++;
        continue;
      }
      let end = c;
      while (end < bits.cells && bits.dark[r * bits.cells + end]) end++;
      doc.rect(mmToPt(xMm + c * cell), mmToPt(yMm + r * cell), mmToPt((end - c) * cell), mmToPt(cell));
      any = true;
      c = end;
    }
  }
  if (any) doc.fill('black');
}
