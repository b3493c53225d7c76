import type { PixelResponse } from './pixel-response.ts';
import { quadSide, type Quad } from './candidates.ts';
import type { CodeFit } from './code-fit.ts';
import { DEFAULT_EDGE_REFINE, refineMarkerCorners } from './edge-refine.ts';
import type { GreyImage } from './image.ts';

/** Edge search within the one-cell border and quiet zone: ±¾ cell, at most ±2 px. */
function edgeOptions(quad: Quad, cells: number) {
  const cellPx = quadSide(quad) / cells;
  return {
    ...DEFAULT_EDGE_REFINE,
    searchPx: Math.min(DEFAULT_EDGE_REFINE.searchPx, Math.max(1, 0.75 * cellPx)),
  };
}

/** A quad's corners fitted to its edges (edge-refine.ts), or as found when the fit fails. */
export function edgeFitted(grey: GreyImage, quad: Quad, cells: number): Quad {
  return refineMarkerCorners(grey, quad, edgeOptions(quad, cells)) ?? quad;
}

/** A quad's corners fitted to its edges, or null when the fit fails. */
export function edgeFittedOrNull(grey: GreyImage, quad: Quad, cells: number): Quad | null {
  return refineMarkerCorners(grey, quad, edgeOptions(quad, cells));
}

/**
 * Corners for measuring a marker whose id is known. Edge fitting is good down to cells of about
 * three pixels (`alignBelowCellPx`); below that the black border's inner edge and the data cells
 * behind it pull the edges, so small tags are fitted whole, as their code looks through the
 * camera (code-fit.ts), starting from the edge-fitted corners. On 15 mm tags at 1080p this takes
 * the median position error from 0.09 to 0.03 mm and the heading p95 from 1.1° to 0.4° (tuning
 * scenes). Reference sheets are always measured by their edges.
 */
export function measuringCorners(
  grey: GreyImage,
  id: number,
  corners: Quad,
  c: {
    codeFit: CodeFit;
    cells: number;
    alignBelowCellPx: number;
    blurSigmaPx: number;
    /** The camera's pixel response learned from the sheets (pixel-response.ts), once known. */
    response?: PixelResponse | null;
    isReference: boolean;
    /** Whether a quad can be this marker's square on the table (when the table is known). */
    isSquare?: (quad: Quad) => boolean;
    /** Whether the marker, with its edges here, is being carried (carried-markers.ts): then edges suffice. */
    isCarried?: (edges: Quad) => boolean;
  },
): Quad {
  const edges = edgeFitted(grey, corners, c.cells);
  if (quadSide(edges) / c.cells >= c.alignBelowCellPx || c.isReference || c.isCarried?.(edges)) return edges;
  const shift = measuringShiftPx(c.blurSigmaPx);
  const picture = {
    blurSigmaPx: c.response?.sigmaPx ?? c.blurSigmaPx,
    footprint: c.response?.footprint ?? ('gaussian' as const),
  };
  // A fit that bent the tag out of square found some other optimum: a blurred 720p tag's corner
  // went 4 px astray while the other three stayed within 0.2 px, and the base was placed 3 mm off
  // (tuning seed 1742, 25 mm at 25°, blur σ 1.4).
  const kept = (q: Quad | undefined): Quad | null => (q && (!c.isSquare || c.isSquare(q)) ? q : null);
  // When the fine fit fails (a quad inferred from a sticker can be a few pixels off), a coarse
  // pass, the model blurred more, may reach twice as far.
  return (
    kept(c.codeFit.fit(grey, edges, id, { ...picture, maxShiftPx: shift, coarse: false })?.corners) ??
    kept(c.codeFit.fit(grey, edges, id, { ...picture, maxShiftPx: 2 * shift, coarse: true })?.corners) ??
    edges
  );
}

/**
 * How far the code fit may move a corner from its edge fit. A sharp camera's edge fits are good
 * to a few tenths of a pixel, so a pixel is plenty; under lens blur (σ 1.4 px on 1.5 px cells)
 * the edge fits of a small tag come out about a pixel short, and with a 1 px limit 46 of 53 fits
 * on a tuning scene were refused, leaving blurred tags measured by their edges (centre p95
 * 0.86 px; 0.35 px with the fits kept).
 */
function measuringShiftPx(blurSigmaPx: number): number {
  return Math.max(1, 2 * blurSigmaPx);
}
