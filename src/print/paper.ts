/**
 * Paper and physical units for printing. PDF user space is in points, 1 pt = 1/72 in exactly,
 * so a length in millimetres becomes mm × 72 / 25.4 points; nothing else scales the drawing.
 */

export const PT_PER_MM = 72 / 25.4;
export const mmToPt = (mm: number): number => mm * PT_PER_MM;

export const PAPERS = {
  a4: { name: 'A4', widthMm: 210, heightMm: 297 },
  letter: { name: 'US Letter', widthMm: 215.9, heightMm: 279.4 },
} as const;

export type PaperName = keyof typeof PAPERS;
export const PAPER_NAMES = Object.keys(PAPERS) as PaperName[];

export interface Paper {
  readonly name: string;
  readonly widthMm: number;
  readonly heightMm: number;
}

/**
 * Margin kept clear on every side. Most printers cannot print the outer 4–6 mm; 10 mm leaves
 * room for that and for the page furniture.
 */
export const PAGE_MARGIN_MM = 10;

/** Height reserved at the foot of every page for the scale bar and its caption. */
export const FOOTER_MM = 22;

/** Height reserved at the head of every page for the title line. */
export const HEADER_MM = 10;

export function parsePaper(name: string): Paper {
  const key = name.toLowerCase() as PaperName;
  const paper = PAPERS[key];
  if (!paper) throw new Error(`unknown paper "${name}"; use one of: ${PAPER_NAMES.join(', ')}`);
  return paper;
}

/** The area between header and footer, inside the margins (mm, origin top-left of the page). */
export function contentBox(paper: Paper): { x: number; y: number; width: number; height: number } {
  return {
    x: PAGE_MARGIN_MM,
    y: PAGE_MARGIN_MM + HEADER_MM,
    width: paper.widthMm - 2 * PAGE_MARGIN_MM,
    height: paper.heightMm - 2 * PAGE_MARGIN_MM - HEADER_MM - FOOTER_MM,
  };
}
