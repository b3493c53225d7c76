import type { Pixel } from '../camera/projection.ts';
import { applyHomography, homographyFrom } from './homography.ts';
import type { GreyImage } from './image.ts';

/**
 * How light the white quiet zone around a read marker is.
 *
 * Every Vedette marker is printed with a one-cell white quiet zone (print/sheets.ts refuses a
 * marker that leaves none), and so is every ArUco / AprilTag marker. Dark things with light
 * spots that are not printed markers — a black die showing four or five, a painted block with
 * highlights — sit on the cloth instead: at 1080p a die is a 12 px dark square with bright dots,
 * and among 50 codes in play one can match its spots closely enough to be read (the recall
 * benchmark's clutter set). What they do not have is paper around them.
 *
 * Measured here: the median of the picture along the middle of the quiet zone (half a cell
 * outside the black border, all round) above the median along the middle of the border, as a
 * share of the brightest white cells above the border: near 1 for a large printed marker, near
 * the cloth's own lightness for a die. Medians, so a finger over one side does not decide.
 * On small tags blur dims the one-cell quiet zone (tuning scenes, 1080p: 12 mm tags median 0.5,
 * some as low as 0.15), so this alone does not settle it; the finder asks for it together with
 * how well the code explains the pixels (marker-finder.ts).
 */
export function quietZoneLightness(
  grey: GreyImage,
  corners: readonly [Pixel, Pixel, Pixel, Pixel],
  bitsPerSide: number,
  bits: ArrayLike<number>,
): number | null {
  const cells = bitsPerSide + 2;
  const toImage = homographyFrom(
    [
      { x: 0, y: 0 },
      { x: cells, y: 0 },
      { x: cells, y: cells },
      { x: 0, y: cells },
    ],
    corners,
  );
  if (!toImage) return null;
  const quiet: number[] = [];
  const border: number[] = [];
  // Half-cell steps along each side, corners included once per side.
  for (let t = 0; t <= 2 * cells; t++) {
    for (const [ring, inset] of [
      [quiet, -0.5],
      [border, 0.5],
    ] as const) {
      const lo = inset;
      const hi = cells - inset;
      const along = lo + ((hi - lo) * t) / (2 * cells);
      for (const [x, y] of [
        [along, lo],
        [hi, along],
        [cells - along, hi],
        [lo, cells - along],
      ] as const) {
        const p = applyHomography(toImage, x, y);
        const value = sample(grey, p.u, p.v);
        if (value !== null) ring.push(value);
      }
    }
  }
  // The centres of the code's white cells (corners in marker order: bit k is row k / n, column k % n).
  const white: number[] = [];
  for (let k = 0; k < bitsPerSide * bitsPerSide; k++) {
    if (!bits[k]) continue;
    const p = applyHomography(toImage, 1.5 + (k % bitsPerSide), 1.5 + Math.floor(k / bitsPerSide));
    const value = sample(grey, p.u, p.v);
    if (value !== null) white.push(value);
  }
  if (quiet.length < 8 || border.length < 8 || white.length === 0) return null;
  const dark = median(border);
  // The paper's level: the brightest white cells (isolated ones are dimmed by blur; a die's pips
  // are as bright as paint gets, while the cloth around the die is not).
  white.sort((a, b) => b - a);
  const light = white[Math.min(1, white.length - 1)]! - dark;
  return light > 0 ? (median(quiet) - dark) / light : null;
}

/** Bilinear grey level at a pixel position (pixel centres at integers); null outside the picture. */
function sample(grey: GreyImage, u: number, v: number): number | null {
  const x0 = Math.floor(u);
  const y0 = Math.floor(v);
  if (x0 < 0 || y0 < 0 || x0 + 1 >= grey.width || y0 + 1 >= grey.height) return null;
  const fx = u - x0;
  const fy = v - y0;
  const i = y0 * grey.width + x0;
  const d = grey.data;
  const top = d[i]! * (1 - fx) + d[i + 1]! * fx;
  const bottom = d[i + grey.width]! * (1 - fx) + d[i + grey.width + 1]! * fx;
  return top * (1 - fy) + bottom * fy;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : 0.5 * (sorted[mid - 1]! + sorted[mid]!);
}
