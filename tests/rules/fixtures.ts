import type { BaseSpec, Scenario, TerrainSpec, UnitAttributes, UnitSpec } from '../../src/table/scenario.ts';
import { buildTableState, type TableState } from '../../src/table/table-state.ts';

/** Test tables are written in the rules' own units, as the spec's worked examples are. */
export const IN = 25.4;
export const CM = 10;

export interface TableSize {
  readonly widthMm: number;
  readonly depthMm: number;
}

/**
 * A scenario with the two sides every rules test and benchmark uses (red and blue), no reference
 * markers (poses come from the file), and the given units and terrain.
 */
export function twoSidedScenario(
  name: string,
  ruleset: string,
  table: TableSize,
  units: readonly UnitSpec[],
  terrain: readonly TerrainSpec[] = [],
): Scenario {
  return {
    name,
    ruleset,
    markerDictionary: 'apriltag_36h11',
    table,
    referenceMarkers: [],
    sides: [
      { id: 'red', name: 'Red', colour: '#f00' },
      { id: 'blue', name: 'Blue', colour: '#00f' },
    ],
    units,
    terrain,
  };
}

/** The table state of such a scenario, as the rules read it. */
export const twoSidedTable = (...args: Parameters<typeof twoSidedScenario>): TableState =>
  buildTableState(twoSidedScenario(...args));

/*
 * Units for the Jacobite rulesets' tests (Prestonpans, D3, O'er the Sea), written in the spec's
 * own unit (inches or cm): axis-aligned rectangles [x0,x1]×[y0,y1], bases in files and ranks.
 */
let nextMarker = 500;

export interface RectOpts extends UnitAttributes {
  readonly side?: string;
  readonly type?: UnitSpec['type'];
  /** 0 = faces +y, 180 = −y, 90 = −x, 270 = +x. */
  readonly headingDeg?: 0 | 90 | 180 | 270;
  /** Bases across the frontage (default: one per 2 units of length). */
  readonly files?: number;
  /** Ranks of bases (default 1). */
  readonly ranks?: number;
  /** Millimetres per unit of the numbers given (IN or CM). */
  readonly scale?: number;
  readonly roles?: readonly BaseSpec['role'][];
}

export function rect(
  id: string,
  x0: number,
  x1: number,
  y0: number,
  y1: number,
  opts: RectOpts = {},
): UnitSpec {
  const k = opts.scale ?? IN;
  const heading = opts.headingDeg ?? 0;
  const alongX = heading === 0 || heading === 180;
  const frontage = alongX ? x1 - x0 : y1 - y0;
  const depth = alongX ? y1 - y0 : x1 - x0;
  const files = opts.files ?? Math.max(1, Math.round(frontage / 2));
  const ranks = opts.ranks ?? 1;
  const bases: BaseSpec[] = [];
  for (let r = 0; r < ranks; r++)
    for (let f = 0; f < files; f++) {
      const along = (alongX ? x0 : y0) + (frontage * (f + 0.5)) / files;
      const across = (alongX ? y0 : x0) + (depth * (r + 0.5)) / ranks;
      const c = alongX ? { x: along, y: across } : { x: across, y: along };
      const role = opts.roles?.[bases.length];
      bases.push({
        widthMm: (frontage / files) * k,
        depthMm: (depth / ranks) * k,
        marker: { id: nextMarker++, sizeMm: 5, heightMm: 3, offsetMm: { x: 0, y: 0 }, rotationDeg: 0 },
        pose: { x: c.x * k, y: c.y * k, headingDeg: heading },
        ...(role ? { role } : {}),
      });
    }
  const { side, type, headingDeg: _h, files: _f, ranks: _r, scale: _s, roles: _ro, ...attrs } = opts;
  void [_h, _f, _r, _s, _ro];
  return { id, name: id, side: side ?? 'red', type: type ?? 'infantry', bases, ...attrs };
}

/** A commander: a 1×1 base centred at (x, y). */
export function commander(id: string, x: number, y: number, opts: RectOpts = {}): UnitSpec {
  return rect(id, x - 0.5, x + 0.5, y - 0.5, y + 0.5, { ...opts, type: 'commander', files: 1 });
}

/** A table big enough for any test (2000 in square), for the given ruleset (Prestonpans unless said). */
export const table = (
  units: readonly UnitSpec[],
  terrain: readonly TerrainSpec[] = [],
  ruleset = 'prestonpans',
): TableState => twoSidedTable('test', ruleset, { widthMm: 2000 * IN, depthMm: 2000 * IN }, units, terrain);

/** A terrain polygon from an axis-aligned rectangle in the given unit. */
export function area(
  id: string,
  kind: TerrainSpec['kind'],
  x0: number,
  x1: number,
  y0: number,
  y1: number,
  scale = IN,
  extra: Partial<TerrainSpec> = {},
): TerrainSpec {
  return {
    id,
    kind,
    polygon: [
      { x: x0 * scale, y: y0 * scale },
      { x: x1 * scale, y: y0 * scale },
      { x: x1 * scale, y: y1 * scale },
      { x: x0 * scale, y: y1 * scale },
    ],
    ...extra,
  };
}
