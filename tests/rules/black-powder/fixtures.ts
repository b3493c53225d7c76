import type { TerrainSpec, UnitSpec, BaseSpec, UnitAttributes } from '../../../src/table/scenario.ts';
import type { TableState } from '../../../src/table/table-state.ts';
import { bpContext, type BpContext } from '../../../src/rules/black-powder/context.ts';
import { EXACT_POLICY, type ThresholdPolicy } from '../../../src/rules/engine/threshold.ts';
import type { OptionValue } from '../../../src/rules/engine/verdict.ts';

import { IN, twoSidedTable } from '../fixtures.ts';

export { IN };
let nextMarker = 100;

export interface BoxOpts extends UnitAttributes {
  readonly side?: string;
  readonly type?: UnitSpec['type'];
  /** Facing: 0 = +y, 180 = −y, 90 = −x, 270 = +x (CCW from +y). */
  readonly headingDeg?: 0 | 90 | 180 | 270;
  /** Base widths along the frontage, inches; default one base per 2". */
  readonly widths?: readonly number[];
  readonly roles?: readonly BaseSpec['role'][];
}

/**
 * A unit filling the axis-aligned rectangle [x0,x1]×[y0,y1] (inches), its bases side by side
 * along its frontage.
 */
export function box(
  id: string,
  x0: number,
  x1: number,
  y0: number,
  y1: number,
  opts: BoxOpts = {},
): UnitSpec {
  const heading = opts.headingDeg ?? 0;
  const alongX = heading === 0 || heading === 180;
  const frontage = alongX ? x1 - x0 : y1 - y0;
  const depth = alongX ? y1 - y0 : x1 - x0;
  const n = Math.max(1, Math.round(frontage / 2));
  const widths = opts.widths ?? Array.from({ length: n }, () => frontage / n);
  let at = alongX ? x0 : y0;
  const bases: BaseSpec[] = widths.map((w, i) => {
    const c = at + w / 2;
    at += w;
    const centre = alongX ? { x: c, y: (y0 + y1) / 2 } : { x: (x0 + x1) / 2, y: c };
    const role = opts.roles?.[i];
    return {
      widthMm: w * IN,
      depthMm: depth * IN,
      marker: { id: nextMarker++, sizeMm: 10, heightMm: 3, offsetMm: { x: 0, y: 0 }, rotationDeg: 0 },
      pose: { x: centre.x * IN, y: centre.y * IN, headingDeg: heading },
      ...(role ? { role } : {}),
    };
  });
  const { side, type, headingDeg: _h, widths: _w, roles: _r, ...attrs } = opts;
  void _h;
  void _w;
  void _r;
  return { id, name: id, side: side ?? 'red', type: type ?? 'infantry', bases, ...attrs };
}

/** A single-base unit (a gun, a commander) centred at (x, y) inches. */
export function piece(id: string, x: number, y: number, w: number, d: number, opts: BoxOpts = {}): UnitSpec {
  const h = opts.headingDeg ?? 0;
  const alongX = h === 0 || h === 180;
  const [hw, hd] = alongX ? [w / 2, d / 2] : [d / 2, w / 2];
  return box(id, x - hw, x + hw, y - hd, y + hd, { ...opts, widths: [w] });
}

/** A 12 ft × 6 ft Black Powder table. */
export const table = (units: readonly UnitSpec[], terrain: readonly TerrainSpec[] = []): TableState =>
  twoSidedTable('test', 'black-powder', { widthMm: 144 * IN, depthMm: 72 * IN }, units, terrain);

export function ctxOf(
  state: TableState,
  options: Record<string, OptionValue> = {},
  policy: ThresholdPolicy = EXACT_POLICY,
): BpContext {
  return bpContext(state, options, policy);
}

/** The standard shooter S of rules-spec §5.16: a 10" × 1.5" line facing +y, leader base 1.6" wide. */
export const shooterS = (opts: BoxOpts = {}): UnitSpec =>
  box('S', -5, 5, -1.5, 0, { widths: [4.2, 1.6, 4.2], weapon: 'smoothbore musket', ...opts });

/** Polygon from inches. */
export const poly = (...pts: Array<[number, number]>) => pts.map(([x, y]) => ({ x: x * IN, y: y * IN }));
export const rectPoly = (x0: number, x1: number, y0: number, y1: number) =>
  poly([x0, y0], [x1, y0], [x1, y1], [x0, y1]);
