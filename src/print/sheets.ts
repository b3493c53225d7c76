import PDFDocument from 'pdfkit';
import { boardLayout, type BoardDictionaryName, type BoardSpec } from '../camera/calibration-board.ts';
import { baseExtent, baseLabel, largestMarkerMm, markerFits, type BaseShape } from './base-sizes.ts';
import { gridLayout } from './layout.ts';
import { markerBits, type MarkerBits } from './marker-bits.ts';
import { drawMarker } from './marker-drawing.ts';
import { contentBox, FOOTER_MM, HEADER_MM, mmToPt, PAGE_MARGIN_MM, type Paper } from './paper.ts';
import { drawScaleBar } from './scale-bar.ts';

/**
 * The printable sheets: base markers, table reference markers, the ChArUco calibration board.
 * Each returns a PDF at exact physical size (every length is millimetres × 72/25.4 points),
 * with a title on top and the scale check at the foot of every page.
 */

type Doc = PDFKit.PDFDocument;

const CUT_LINE_PT = 0.35;
const CUT_COLOUR = '#555555';

/** A PDFKit document with no automatic page, and the finished file as a promise. */
export function newDocument(title: string): { doc: Doc; done: Promise<Buffer> } {
  const doc = new PDFDocument({
    autoFirstPage: false,
    margin: 0,
    info: { Title: title, Creator: 'Vedette', Producer: 'Vedette (PDFKit)' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, done };
}

function addPage(doc: Doc, paper: Paper, title: string, page: number, pages: number): void {
  doc.addPage({ size: [mmToPt(paper.widthMm), mmToPt(paper.heightMm)], margin: 0 });
  doc.font('Helvetica-Bold').fontSize(9).fillColor('black');
  doc.text(title, mmToPt(PAGE_MARGIN_MM), mmToPt(PAGE_MARGIN_MM), { lineBreak: false });
  doc.font('Helvetica').fontSize(7);
  const pageText = `${paper.name}, page ${page} of ${pages}`;
  doc.text(
    pageText,
    mmToPt(paper.widthMm - PAGE_MARGIN_MM) - doc.widthOfString(pageText),
    mmToPt(PAGE_MARGIN_MM) + 1,
    { lineBreak: false },
  );
  drawScaleBar(doc, PAGE_MARGIN_MM, paper.heightMm - PAGE_MARGIN_MM - FOOTER_MM + 2);
}

function label(
  doc: Doc,
  text: string,
  xMm: number,
  yMm: number,
  widthMm: number,
  sizePt: number,
  bold = false,
): void {
  doc
    .font(bold ? 'Helvetica-Bold' : 'Helvetica')
    .fontSize(sizePt)
    .fillColor('black');
  doc.text(text, mmToPt(xMm), mmToPt(yMm), { lineBreak: false, width: mmToPt(widthMm), align: 'center' });
}

export interface MarkerSheetOptions {
  readonly dictionary: BoardDictionaryName;
  readonly ids: readonly number[];
  readonly base: BaseShape;
  /** Marker side, black border edge to edge, mm. Default: the largest that keeps a one-cell quiet zone. */
  readonly markerMm?: number;
  readonly paper: Paper;
}

/** Where each base sits on a marker sheet, for tests and for the PDF. */
export interface PlacedMarker {
  readonly id: number;
  readonly page: number;
  /** Marker black border, top-left and side, mm from the page's top-left. */
  readonly xMm: number;
  readonly yMm: number;
  readonly sideMm: number;
}

const LABEL_MM = 4;
const GAP_MM = 3;

/** Sheets of base markers: each base outline as a cut line, the marker centred on it, its id below. */
export async function markerSheetPdf(
  o: MarkerSheetOptions,
): Promise<{ pdf: Buffer; placed: PlacedMarker[]; markerMm: number }> {
  const bits = await markerBits(o.dictionary, o.ids);
  const cells = bits[0]!.cells;
  const markerMm = o.markerMm ?? largestMarkerMm(o.base, cells);
  if (!(markerMm > 0)) throw new Error(`no marker fits on a ${baseLabel(o.base)} base`);
  if (!markerFits(o.base, markerMm, cells)) {
    throw new Error(
      `a ${markerMm} mm marker does not fit on a ${baseLabel(o.base)} base with its one-cell white quiet zone; ` +
        `the largest that does is ${largestMarkerMm(o.base, cells)} mm`,
    );
  }
  const ext = baseExtent(o.base);
  const grid = gridLayout(bits.length, ext.widthMm, ext.depthMm + LABEL_MM, contentBox(o.paper), GAP_MM);
  const ids = o.ids;
  const title = `Vedette base markers - ${o.dictionary} - ${baseLabel(o.base)} bases - ${markerMm} mm markers - ids ${ids[0]}-${ids.at(-1)}`;
  const { doc, done } = newDocument(title);
  const placed: PlacedMarker[] = [];
  let n = 0;
  grid.pages.forEach((tiles, p) => {
    addPage(doc, o.paper, title, p + 1, grid.pages.length);
    for (const t of tiles) {
      const b = bits[n++]!;
      const mx = t.x + (ext.widthMm - markerMm) / 2;
      const my = t.y + (ext.depthMm - markerMm) / 2;
      drawBaseOutline(doc, o.base, t.x, t.y);
      drawMarker(doc, b, mx, my, markerMm);
      label(
        doc,
        `id ${b.id}`,
        t.x - GAP_MM / 2,
        t.y + ext.depthMm + 0.8,
        ext.widthMm + GAP_MM,
        ext.widthMm < 25 ? 6 : 7,
        true,
      );
      placed.push({ id: b.id, page: p, xMm: mx, yMm: my, sideMm: markerMm });
    }
  });
  doc.end();
  return { pdf: await done, placed, markerMm };
}

/** Cut line on the base outline, plus a small notch mark outside its front (top) edge. */
function drawBaseOutline(doc: Doc, base: BaseShape, xMm: number, yMm: number): void {
  const ext = baseExtent(base);
  doc.lineWidth(CUT_LINE_PT);
  if (base.kind === 'round') {
    const r = base.diameterMm / 2;
    doc.circle(mmToPt(xMm + r), mmToPt(yMm + r), mmToPt(r)).stroke(CUT_COLOUR);
  } else {
    doc.rect(mmToPt(xMm), mmToPt(yMm), mmToPt(ext.widthMm), mmToPt(ext.depthMm)).stroke(CUT_COLOUR);
  }
  // Front mark: a small triangle just outside the top edge (the marker's top faces the base's front).
  const cx = xMm + ext.widthMm / 2;
  doc
    .moveTo(mmToPt(cx - 1), mmToPt(yMm - 1.4))
    .lineTo(mmToPt(cx + 1), mmToPt(yMm - 1.4))
    .lineTo(mmToPt(cx), mmToPt(yMm - 0.4))
    .fill(CUT_COLOUR);
}

export interface ReferenceSheetOptions {
  readonly dictionary: BoardDictionaryName;
  readonly ids: readonly number[];
  readonly sizeMm: number;
  readonly paper: Paper;
  /** At most this many markers per page. Default: as many as fit. */
  readonly perPage?: number;
}

/** Table reference markers: each with a cut square around its quiet zone and its id beside it. */
export async function referenceSheetPdf(
  o: ReferenceSheetOptions,
): Promise<{ pdf: Buffer; placed: PlacedMarker[] }> {
  const bits = await markerBits(o.dictionary, o.ids);
  const cells = bits[0]!.cells;
  const quiet = o.sizeMm / cells;
  const outer = o.sizeMm + 2 * quiet;
  const grid = gridLayout(
    bits.length,
    outer,
    outer + LABEL_MM + 1,
    contentBox(o.paper),
    6,
    o.perPage ?? Infinity,
  );
  const title = `Vedette table reference markers - ${o.dictionary} - ${o.sizeMm} mm`;
  const { doc, done } = newDocument(title);
  const placed: PlacedMarker[] = [];
  let n = 0;
  grid.pages.forEach((tiles, p) => {
    addPage(doc, o.paper, title, p + 1, grid.pages.length);
    for (const t of tiles) {
      const b = bits[n++]!;
      doc
        .lineWidth(CUT_LINE_PT)
        .rect(mmToPt(t.x), mmToPt(t.y), mmToPt(outer), mmToPt(outer))
        .stroke(CUT_COLOUR);
      drawMarker(doc, b, t.x + quiet, t.y + quiet, o.sizeMm);
      label(
        doc,
        `reference id ${b.id} - ${o.sizeMm} mm - this edge is the top`,
        t.x,
        t.y + outer + 1,
        outer,
        7,
        true,
      );
      placed.push({ id: b.id, page: p, xMm: t.x + quiet, yMm: t.y + quiet, sideMm: o.sizeMm });
    }
  });
  doc.end();
  return { pdf: await done, placed };
}

export interface BoardSheetOptions {
  readonly board: BoardSpec;
  readonly paper: Paper;
}

/** The ChArUco calibration board, centred on one page, with its spec and a square to measure. */
export async function boardSheetPdf(
  o: BoardSheetOptions,
): Promise<{ pdf: Buffer; originMm: { x: number; y: number } }> {
  const b = o.board;
  const layout = boardLayout(b);
  const box = contentBox(o.paper);
  if (layout.widthMm > box.width || layout.heightMm > box.height - 8) {
    throw new Error(
      `the ${layout.widthMm} × ${layout.heightMm} mm board does not fit the ${box.width} × ${box.height - 8} mm printable area of ${o.paper.name}; ` +
        'use smaller squares or fewer of them in the board spec',
    );
  }
  const bits = await markerBits(
    b.dictionary,
    layout.markers.map((m) => m.id),
  );
  const byId = new Map<number, MarkerBits>(bits.map((m) => [m.id, m]));
  const title = `Vedette ChArUco calibration board - ${b.name}`;
  const { doc, done } = newDocument(title);
  addPage(doc, o.paper, title, 1, 1);
  const x0 = box.x + (box.width - layout.widthMm) / 2;
  const y0 = box.y + 8 + (box.height - 8 - layout.heightMm) / 2;
  doc.font('Helvetica').fontSize(7.5).fillColor('black');
  doc.text(
    `${b.squaresX} x ${b.squaresY} squares of ${b.squareLengthMm} mm, markers ${b.markerLengthMm} mm, ${b.dictionary}` +
      `${b.legacyPattern ? ', legacy pattern' : ''}. Check with a ruler: each square must measure ${b.squareLengthMm} mm. ` +
      'Glue the sheet flat to card or board: a curled board spoils the calibration.',
    mmToPt(box.x),
    mmToPt(PAGE_MARGIN_MM + HEADER_MM - 3),
    { width: mmToPt(box.width) },
  );
  for (const s of layout.blackSquares)
    doc.rect(mmToPt(x0 + s.x), mmToPt(y0 + s.y), mmToPt(b.squareLengthMm), mmToPt(b.squareLengthMm));
  doc.fill('black');
  for (const m of layout.markers) drawMarker(doc, byId.get(m.id)!, x0 + m.x, y0 + m.y, m.side);
  doc.end();
  return { pdf: await done, originMm: { x: x0, y: y0 } };
}
