import { quadSide, quadsOverlap, type Quad } from './candidates.ts';
import { MAT_QUIET_CELLS } from '../print/mat.ts';
import { applyHomography } from './homography.ts';
import { gridToImage } from './tag-footprint.ts';

/**
 * Reference sheets OpenCV did not read, read by the finder's own decoder over the sheets' ids.
 *
 * A tilted 720p camera under lens blur sees the far sheets at about 30 px with 4 px cells:
 * OpenCV's bit reading (a cell's middle thresholded) fails there although the candidate pass
 * outlines the tag or its paper, and without three sheets there is no table pose and no base is
 * measured (the recall benchmark's 720p, 15° tilt, blur scenes found nothing). Over the four
 * sheet codes a maximum-likelihood reading needs far less of the picture. Only quads sized like a
 * sheet already read are tried, each as the tag itself and as the sheet's paper around it; a
 * reading must be firm by the finder's own test. A wrong sheet cannot move the table: the locator
 * fits the pose from sheets that agree with each other (locator.ts), so it would only be dropped.
 */

/** Quads from this share of the smallest sheet read… */
const MIN_SIDE_SHARE = 0.45;
/** …to this many times it (the paper, on the near side of a tilted table) are tried. */
const MAX_SIDE_SHARE = 2.2;

export interface SheetRereadInput {
  /** Quads no code was taken from yet. */
  readonly candidates: readonly Quad[];
  /** Corners of the sheets already read. */
  readonly sheetsRead: readonly Quad[];
  /** Cells across a tag, its black border included. */
  readonly cells: number;
  /** Whether a quad overlaps a marker already found. */
  readonly isCovered: (quad: Quad) => boolean;
  /** The finder's reading of a quad over the sheets' ids: the id and measuring corners when firm. */
  readonly readFirm: (quad: Quad) => SheetReading | null;
}

export interface SheetReading {
  readonly id: number;
  readonly corners: Quad;
  /** Nats for the id over the other sheets'. */
  readonly evidence: number;
}

/** Sheets read from quads OpenCV could not read, at most one per id. */
export function rereadSheets(input: SheetRereadInput): SheetReading[] {
  if (input.sheetsRead.length === 0) return [];
  const smallest = Math.min(...input.sheetsRead.map(quadSide));
  const out: SheetReading[] = [];
  const taken: Quad[] = [];
  for (const quad of input.candidates) {
    const side = quadSide(quad);
    if (side < MIN_SIDE_SHARE * smallest || side > MAX_SIDE_SHARE * smallest) continue;
    if (input.isCovered(quad) || taken.some((t) => quadsOverlap(t, quad))) continue;
    for (const tag of [quad, tagInsidePaper(quad, input.cells)]) {
      if (!tag) continue;
      const read = input.readFirm(tag);
      if (!read || out.some((o) => o.id === read.id)) continue;
      out.push(read);
      taken.push(read.corners);
      break;
    }
  }
  return out;
}

/**
 * The tag inside the white square printed round a sheet: 1½ cells of quiet zone each side
 * (MAT_QUIET_CELLS, src/print/mat.ts), so the tag is the square's middle cells / (cells + 3),
 * mapped through its perspective. (A sheet cut from a larger page gives no such quad; the tag
 * itself is tried first.)
 */
export function tagInsidePaper(paper: Quad, cells: number): Quad | null {
  const h = gridToImage(paper, 1);
  if (!h) return null;
  const m = MAT_QUIET_CELLS / (cells + 2 * MAT_QUIET_CELLS);
  return [
    applyHomography(h, m, m),
    applyHomography(h, 1 - m, m),
    applyHomography(h, 1 - m, 1 - m),
    applyHomography(h, m, 1 - m),
  ];
}
