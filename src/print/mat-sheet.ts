import type { MarkerDictionaryName } from '../table/scenario.ts';
import { MAT_EDGE_MM, matLayout, type MatLayout, type MatMarker, type MatOptions } from './mat.ts';
import { markerBits } from './marker-bits.ts';
import { drawMarker } from './marker-drawing.ts';
import { mmToPt } from './paper.ts';
import { drawScaleBar } from './scale-bar.ts';
import { newDocument } from './sheets.ts';

/**
 * The printed mat as one PDF page exactly the size of the table (for a print shop's large-format
 * printer): a plain field, the table outline, the reference markers on white squares each with
 * its id, a title line and the scale check. Page bottom-left is the table origin; the tags' tops
 * face the page top, the table's +y.
 */

export interface MatSheetOptions extends Omit<MatOptions, 'cells'> {
  readonly dictionary: MarkerDictionaryName;
  /** Colour of the field (default a muted grass green); "white" for a plain sheet. */
  readonly fieldColour?: string;
}

export const DEFAULT_FIELD_COLOUR = '#9aa57f';
const OUTLINE_COLOUR = '#2b2b2b';
const LABEL_COLOUR = '#1e1e1e';

type Doc = PDFKit.PDFDocument;

export async function matSheetPdf(o: MatSheetOptions): Promise<{ pdf: Buffer; layout: MatLayout }> {
  // Every id must exist in the dictionary: ask for the first to learn the cell count, then all.
  const probe = await markerBits(o.dictionary, [o.firstId ?? 0]);
  const layout = matLayout({ ...o, cells: probe[0]!.cells });
  const bits = await markerBits(
    o.dictionary,
    layout.markers.map((m) => m.id),
  );
  const { widthMm: W, depthMm: D } = layout.table;
  const ids = layout.markers.map((m) => m.id);
  const inches = `${(W / 25.4).toFixed(1).replace(/\.0$/, '')} x ${(D / 25.4).toFixed(1).replace(/\.0$/, '')} in`;
  const title =
    `Vedette printed mat - ${inches} (${W.toFixed(1)} x ${D.toFixed(1)} mm) - ${o.dictionary} - ` +
    `${ids.length} reference markers of ${layout.markerMm} mm, ids ${ids[0]}-${ids.at(-1)}`;
  const { doc, done } = newDocument(title);
  doc.addPage({ size: [mmToPt(W), mmToPt(D)], margin: 0 });
  const pageY = (tableY: number) => D - tableY;

  doc.rect(0, 0, mmToPt(W), mmToPt(D)).fill(o.fieldColour ?? DEFAULT_FIELD_COLOUR);
  // The table outline on the trim line (half of the line falls outside the page), and the origin.
  doc.lineWidth(2).rect(0, 0, mmToPt(W), mmToPt(D)).stroke(OUTLINE_COLOUR);
  doc.font('Helvetica').fontSize(7).fillColor(LABEL_COLOUR);
  doc.text('table origin (x 0, y 0)', mmToPt(3), mmToPt(D - 6), { lineBreak: false });

  layout.markers.forEach((m, i) => {
    const half = layout.paperMm / 2;
    doc
      .rect(mmToPt(m.x - half), mmToPt(pageY(m.y) - half), mmToPt(layout.paperMm), mmToPt(layout.paperMm))
      .fill('white');
    drawMarker(doc, bits[i]!, m.x - m.sizeMm / 2, pageY(m.y) - m.sizeMm / 2, m.sizeMm);
    drawId(doc, layout, m);
  });

  // Title, instructions and the scale check, on a white card just inside the near-left corner.
  const cardX = MAT_EDGE_MM + layout.paperMm + 25;
  const cardTop = pageY(MAT_EDGE_MM + layout.paperMm + 14) - 34;
  doc.rect(mmToPt(cardX - 3), mmToPt(cardTop - 3), mmToPt(196), mmToPt(40)).fill('white');
  doc.font('Helvetica-Bold').fontSize(8).fillColor('black');
  doc.text(title, mmToPt(cardX), mmToPt(cardTop), { lineBreak: true, width: mmToPt(190) });
  doc.font('Helvetica').fontSize(6.5);
  doc.text(
    `Print at 100 % on one ${inches} sheet. Tag tops face the far edge (table +y). ` +
      `Base markers must not use ids ${ids[0]}-${ids.at(-1)} (start them at ${ids.at(-1)! + 1}). Paste the matching referenceMarkers ` +
      'into your scenario (vedette print mat --scenario-snippet).',
    mmToPt(cardX),
    mmToPt(cardTop + 7),
    { lineBreak: true, width: mmToPt(190) },
  );
  drawScaleBar(doc, cardX, cardTop + 14);

  doc.end();
  return { pdf: await done, layout };
}

/** The marker's id in large type beside its white square, on the side toward the table's middle. */
function drawId(doc: Doc, layout: MatLayout, m: MatMarker): void {
  const { widthMm: W, depthMm: D } = layout.table;
  const half = layout.paperMm / 2;
  const size = Math.max(9, Math.min(28, mmToPt(layout.markerMm * 0.16)));
  const text = `${m.id}`;
  doc.font('Helvetica-Bold').fontSize(size).fillColor(LABEL_COLOUR);
  const wPt = doc.widthOfString(text);
  const hPt = size * 0.72;
  const onSide =
    m.where === 'border' &&
    (Math.abs(m.x - layout.insetMm) < 1e-6 || Math.abs(m.x - (W - layout.insetMm)) < 1e-6) &&
    Math.abs(m.y - layout.insetMm) > 1e-6 &&
    Math.abs(m.y - (D - layout.insetMm)) > 1e-6;
  const cx = mmToPt(m.x);
  const cy = mmToPt(D - m.y);
  const gap = mmToPt(2);
  let x: number;
  let y: number;
  if (onSide) {
    // Left or right edge: beside the square, toward the middle.
    x = m.x < W / 2 ? cx + mmToPt(half) + gap : cx - mmToPt(half) - gap - wPt;
    y = cy - hPt / 2;
  } else {
    // Near edge (and interior): above the square on the page, toward the far edge; far edge: below.
    x = cx - wPt / 2;
    y = m.y < D / 2 ? cy - mmToPt(half) - gap - hPt : cy + mmToPt(half) + gap;
  }
  doc.text(text, x, y - size * 0.2, { lineBreak: false });
}
