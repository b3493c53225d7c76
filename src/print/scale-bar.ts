import { mmToPt } from './paper.ts';

/** The part of PDFKit's document the scale bar uses. */
export interface ScaleBarCanvas {
  rect(x: number, y: number, w: number, h: number): this;
  moveTo(x: number, y: number): this;
  lineTo(x: number, y: number): this;
  fill(color?: string): this;
  stroke(color?: string): this;
  lineWidth(w: number): this;
  font(name: string): this;
  fontSize(size: number): this;
  fillColor(color: string): this;
  text(
    text: string,
    x: number,
    y: number,
    options?: { lineBreak?: boolean; width?: number; align?: string },
  ): this;
}

export const SCALE_BAR_MM = 100;
export const SCALE_BAR_IN = 4;
const BAR_HEIGHT_MM = 2.5;

/**
 * Prints the scale check at (xMm, yMm), top-left: a 100 mm bar in alternating 10 mm black and
 * white blocks with a thin black outline, ticks every millimetre on the first centimetre, and a
 * 4 in bar below it in quarter-inch blocks. A ruler laid along either bar shows at once whether the
 * printer scaled the page. Takes about 20 mm of height.
 */
export function drawScaleBar(doc: ScaleBarCanvas, xMm: number, yMm: number): void {
  doc.font('Helvetica').fontSize(6.5).fillColor('black');
  doc.text(
    'SCALE CHECK - measure these bars: the top one must be exactly 100 mm, the lower one exactly 4 in. ' +
      'If not, print again at 100 % / "Actual size" with "Fit to page" turned off.',
    mmToPt(xMm),
    mmToPt(yMm),
    { lineBreak: true, width: mmToPt(185) },
  );
  bar(doc, xMm, yMm + 5.5, SCALE_BAR_MM, 10, (i) => `${i * 10}`, 'mm', true);
  bar(
    doc,
    xMm,
    yMm + 13,
    SCALE_BAR_IN * 25.4,
    SCALE_BAR_IN * 4,
    (i) => (i % 4 === 0 ? `${i / 4}` : ''),
    'in',
    false,
  );
}

function bar(
  doc: ScaleBarCanvas,
  xMm: number,
  yMm: number,
  lengthMm: number,
  blocks: number,
  label: (i: number) => string,
  unit: string,
  millimetreTicks: boolean,
): void {
  const block = lengthMm / blocks;
  for (let i = 0; i < blocks; i += 2)
    doc.rect(mmToPt(xMm + i * block), mmToPt(yMm), mmToPt(block), mmToPt(BAR_HEIGHT_MM));
  doc.fill('black');
  doc.lineWidth(0.4);
  doc.rect(mmToPt(xMm), mmToPt(yMm), mmToPt(lengthMm), mmToPt(BAR_HEIGHT_MM)).stroke('black');
  // Ticks below the bar at each block boundary, and per millimetre on the first centimetre.
  doc.lineWidth(0.3);
  for (let i = 0; i <= blocks; i++) {
    doc
      .moveTo(mmToPt(xMm + i * block), mmToPt(yMm + BAR_HEIGHT_MM))
      .lineTo(mmToPt(xMm + i * block), mmToPt(yMm + BAR_HEIGHT_MM + 1.2));
  }
  if (millimetreTicks) {
    for (let mm = 1; mm < 10; mm++) {
      doc
        .moveTo(mmToPt(xMm + mm), mmToPt(yMm + BAR_HEIGHT_MM))
        .lineTo(mmToPt(xMm + mm), mmToPt(yMm + BAR_HEIGHT_MM + (mm === 5 ? 1 : 0.6)));
    }
  }
  doc.stroke('black');
  doc.fontSize(5.5);
  for (let i = 0; i <= blocks; i++) {
    const t = label(i);
    if (t)
      doc.text(t, mmToPt(xMm + i * block) - 10, mmToPt(yMm + BAR_HEIGHT_MM + 1.4), {
        lineBreak: false,
        width: 20,
        align: 'center',
      });
  }
  // The unit sits on the label row, clear of the bar itself (a ruler, or a test, reads the bar alone).
  doc.text(unit, mmToPt(xMm + lengthMm + 4), mmToPt(yMm + BAR_HEIGHT_MM + 1.4), { lineBreak: false });
}
