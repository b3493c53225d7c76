import type { MarkerDictionaryName } from '../table/scenario.ts';

/**
 * The printed gaming mat: a table-sized sheet with reference markers laid along its border (and,
 * on request, a sparse grid inside). Pure arithmetic here — where each marker goes, in table
 * millimetres — plus the matching `referenceMarkers` for the scenario file; mat-sheet.ts draws it.
 *
 * Table frame (docs/scenarios.md): origin at the mat corner nearest the first marker, x along the
 * long edge, y across. On the page the table's +y is up, so the page's bottom-left corner is the
 * table origin and every tag is printed with its top toward the table's +y.
 */

const UNITS_MM = { mm: 1, cm: 10, in: 25.4, ft: 304.8 } as const;
type LengthUnitName = keyof typeof UNITS_MM;

/** Parses a length such as "12in", "300", "300mm", "30.5cm", "1ft"; a bare number is millimetres. */
export function parseLengthMm(text: string, what = 'length'): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(mm|cm|in|ft|"|')?\s*$/i.exec(text);
  if (!m) throw new Error(`cannot read ${what} "${text}": use a number with mm, cm, in or ft, such as 12in`);
  const unit = unitOf(m[2]);
  const mm = micrometres(Number(m[1]) * UNITS_MM[unit]);
  if (!(mm > 0)) throw new Error(`${what} must be > 0, got "${text}"`);
  return mm;
}

/** Rounds to a micrometre, so 48 in is 1219.2 mm and not 1219.1999999999998. */
const micrometres = (mm: number): number => Math.round(mm * 1000) / 1000;

function unitOf(suffix: string | undefined): LengthUnitName {
  if (suffix === undefined) return 'mm';
  if (suffix === '"') return 'in';
  if (suffix === "'") return 'ft';
  return suffix.toLowerCase() as LengthUnitName;
}

/**
 * Parses a table size, width × depth: "72x48in", "6x4ft", "180x120cm", "1828.8x1219.2" (mm).
 * The longer side becomes the width (x runs along the long edge).
 */
export function parseTableSize(text: string): { widthMm: number; depthMm: number } {
  const m = /^\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(mm|cm|in|ft|"|')?\s*$/i.exec(text);
  if (!m)
    throw new Error(
      `cannot read table size "${text}": use width x depth with a unit, such as 72x48in or 6x4ft`,
    );
  const k = UNITS_MM[unitOf(m[3])];
  const a = micrometres(Number(m[1]) * k);
  const b = micrometres(Number(m[2]) * k);
  if (!(a > 0 && b > 0)) throw new Error(`table size "${text}" must be positive`);
  return { widthMm: Math.max(a, b), depthMm: Math.min(a, b) };
}

/**
 * Largest page PDF viewers and RIPs accept without a UserUnit: 14 400 pt = 200 in (Acrobat's
 * limit, PDF 1.7 Annex C). A table larger than this has to be printed in strips.
 */
export const MAX_MAT_SIDE_MM = 200 * 25.4;

/** Clear edge left round the mat for the print shop's trim and for hands reaching across. */
export const MAT_EDGE_MM = 15;

export interface MatOptions {
  readonly table: { readonly widthMm: number; readonly depthMm: number };
  /** Marker side, black border edge to edge, mm (default 60). */
  readonly markerMm?: number;
  /** Largest distance between neighbouring border markers, centre to centre, mm (default 12 in). */
  readonly spacingMm?: number;
  /** Id of the first marker (at the table origin's corner); the rest count up from it. Default 0. */
  readonly firstId?: number;
  /** Spacing of an interior grid of markers, mm; absent (the default) for none. */
  readonly interiorSpacingMm?: number;
  /** Cells across the marker including its black border (8 for the 36h1x families, 6 for 4×4). */
  readonly cells: number;
}

export interface MatMarker {
  readonly id: number;
  /** Centre on the table, mm. */
  readonly x: number;
  readonly y: number;
  readonly sizeMm: number;
  readonly where: 'border' | 'interior';
}

export interface MatLayout {
  readonly table: { readonly widthMm: number; readonly depthMm: number };
  readonly markerMm: number;
  /** White square printed round each marker: side, mm (the marker plus its quiet zone). */
  readonly paperMm: number;
  /** Distance from the table edge to the centre of each border marker, mm. */
  readonly insetMm: number;
  readonly markers: readonly MatMarker[];
}

export const DEFAULT_MAT_MARKER_MM = 60;
export const DEFAULT_MAT_SPACING_MM = 12 * 25.4;

/** Quiet zone round a mat marker, in cells: the detector needs one; 1.5 is kinder to blur and ink spread. */
export const MAT_QUIET_CELLS = 1.5;

/** Evenly spaced positions from a to b inclusive, at most `spacing` apart. */
function evenly(a: number, b: number, spacing: number): number[] {
  const n = Math.max(1, Math.ceil((b - a) / spacing - 1e-9));
  return Array.from({ length: n + 1 }, (_, i) => a + ((b - a) * i) / n);
}

/**
 * Where the markers go. Border markers sit on a ring `insetMm` in from the edge, one in each
 * corner and evenly spaced between, numbered from `firstId` at the origin corner and counting
 * counter-clockwise seen from above (along the near edge, up the right, back along the far
 * edge, down the left). Interior markers, if asked for, continue the numbering row by row from
 * the near edge, on a grid that keeps at least half a spacing clear of the ring.
 */
export function matLayout(o: MatOptions): MatLayout {
  const { widthMm: W, depthMm: D } = o.table;
  const markerMm = o.markerMm ?? DEFAULT_MAT_MARKER_MM;
  const spacing = o.spacingMm ?? DEFAULT_MAT_SPACING_MM;
  const firstId = o.firstId ?? 0;
  if (!(W > 0 && D > 0)) throw new Error('the table must have a positive size');
  if (W > MAX_MAT_SIDE_MM + 1e-6 || D > MAX_MAT_SIDE_MM + 1e-6)
    throw new Error(`a one-page mat can be at most 200 in (5080 mm) on a side; this table is ${W} × ${D} mm`);
  if (!(markerMm > 0)) throw new Error('the marker size must be > 0');
  if (!Number.isInteger(firstId) || firstId < 0) throw new Error('the first id must be a whole number ≥ 0');
  const paperMm = markerMm * (1 + (2 * MAT_QUIET_CELLS) / o.cells);
  if (!(spacing >= paperMm + 5))
    throw new Error(`the spacing must leave room between markers: at least ${(paperMm + 5).toFixed(0)} mm`);
  const insetMm = MAT_EDGE_MM + paperMm / 2;
  if (2 * insetMm + paperMm > D)
    throw new Error(`a ${D.toFixed(0)} mm deep table is too small for ${markerMm} mm mat markers`);
  const xs = evenly(insetMm, W - insetMm, spacing);
  const ys = evenly(insetMm, D - insetMm, spacing);
  const ring: Array<{ x: number; y: number }> = [
    ...xs.map((x) => ({ x, y: insetMm })),
    ...ys.slice(1).map((y) => ({ x: W - insetMm, y })),
    ...xs
      .slice(0, -1)
      .reverse()
      .map((x) => ({ x, y: D - insetMm })),
    ...ys
      .slice(1, -1)
      .reverse()
      .map((y) => ({ x: insetMm, y })),
  ];
  const markers: MatMarker[] = ring.map((p, i) => ({
    id: firstId + i,
    ...p,
    sizeMm: markerMm,
    where: 'border',
  }));
  if (o.interiorSpacingMm !== undefined) {
    const s = o.interiorSpacingMm;
    if (!(s >= paperMm + 5))
      throw new Error(`the interior spacing must be at least ${(paperMm + 5).toFixed(0)} mm`);
    const keep = insetMm + Math.max(s / 2, paperMm);
    const grid = (len: number) => {
      const n = Math.floor((len - 2 * keep) / s + 1e-9);
      if (n < 0) return [];
      const start = (len - n * s) / 2;
      return Array.from({ length: n + 1 }, (_, i) => start + i * s);
    };
    for (const y of grid(D))
      for (const x of grid(W))
        markers.push({ id: firstId + markers.length, x, y, sizeMm: markerMm, where: 'interior' });
  }
  return { table: { widthMm: W, depthMm: D }, markerMm, paperMm, insetMm, markers };
}

/** Rounds to 0.01 mm: finer than any print, short in the JSON. */
const r2 = (v: number): number => Math.round(v * 100) / 100;

/**
 * The scenario fields that match the mat, in millimetres: paste them over the scenario's own
 * `lengthUnit`, `markerDictionary`, `table` and `referenceMarkers` (a scenario in inches must
 * then give its other lengths in mm too, or convert these).
 */
export interface MatScenarioSnippet {
  readonly lengthUnit: 'mm';
  readonly markerDictionary: MarkerDictionaryName;
  readonly table: { readonly width: number; readonly depth: number };
  readonly referenceMarkers: ReadonlyArray<{
    readonly id: number;
    readonly x: number;
    readonly y: number;
    readonly size: number;
    readonly height: number;
  }>;
}

export function matScenarioSnippet(layout: MatLayout, dictionary: MarkerDictionaryName): MatScenarioSnippet {
  return {
    lengthUnit: 'mm',
    markerDictionary: dictionary,
    table: { width: r2(layout.table.widthMm), depth: r2(layout.table.depthMm) },
    referenceMarkers: layout.markers.map((m) => ({
      id: m.id,
      x: r2(m.x),
      y: r2(m.y),
      size: r2(m.sizeMm),
      height: 0,
    })),
  };
}
