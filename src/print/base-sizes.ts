/**
 * Base shapes the marker sheets know, and how large a marker fits on each while keeping its white
 * quiet zone (at least one marker cell of white all round the black border, which the detector
 * needs to see the border at all).
 */

export type BaseShape =
  | { readonly kind: 'rect'; readonly widthMm: number; readonly depthMm: number }
  | { readonly kind: 'round'; readonly diameterMm: number };

/** Common wargames base sizes, by the name the CLI accepts. */
export const COMMON_BASES = ['20x20', '25x25', '40x20', '40x40', '50x50', '60round'] as const;

/** Parses "40x20" (width × depth, mm) or "60round" / "60r" (diameter, mm). */
export function parseBase(text: string): BaseShape {
  const t = text.trim().toLowerCase();
  const round = /^(\d+(?:\.\d+)?)\s*(?:mm)?\s*(?:round|r|ø|dia)$/.exec(t);
  if (round) return { kind: 'round', diameterMm: Number(round[1]) };
  const rect = /^(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)(?:\s*mm)?$/.exec(t);
  if (rect) return { kind: 'rect', widthMm: Number(rect[1]), depthMm: Number(rect[2]) };
  throw new Error(
    `cannot read base size "${text}": use width×depth in mm such as 40x20, or a diameter such as 60round`,
  );
}

export function baseLabel(b: BaseShape): string {
  return b.kind === 'round' ? `${b.diameterMm} mm round` : `${b.widthMm}×${b.depthMm} mm`;
}

/** Outer size of the base's bounding box, mm. */
export function baseExtent(b: BaseShape): { widthMm: number; depthMm: number } {
  return b.kind === 'round'
    ? { widthMm: b.diameterMm, depthMm: b.diameterMm }
    : { widthMm: b.widthMm, depthMm: b.depthMm };
}

/**
 * Largest marker side (black border edge to edge, mm) that fits on the base with `quietCells`
 * of white all round, for a marker `cells` wide including its border. For a round base the
 * marker-plus-quiet-zone square must fit inside the circle. Rounded down to 0.5 mm.
 */
export function largestMarkerMm(b: BaseShape, cells: number, quietCells = 1): number {
  const ratio = cells / (cells + 2 * quietCells);
  const square = b.kind === 'round' ? b.diameterMm / Math.SQRT2 : Math.min(b.widthMm, b.depthMm);
  return Math.floor(square * ratio * 2) / 2;
}

/** True when a marker of `sideMm` keeps its quiet zone on the base. */
export function markerFits(b: BaseShape, sideMm: number, cells: number, quietCells = 1): boolean {
  const outer = sideMm * (1 + (2 * quietCells) / cells);
  return b.kind === 'round'
    ? outer * Math.SQRT2 <= b.diameterMm + 1e-9
    : outer <= Math.min(b.widthMm, b.depthMm) + 1e-9;
}
