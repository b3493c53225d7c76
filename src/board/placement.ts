import { degToRad } from '../geometry/angle.ts';
import { rotate, type Vec2 } from '../geometry/vec.ts';
import type { BoardPlacement } from '../table/scenario.ts';

/** A map lying on the table: its origin (table mm), rotation, and table mm per map inch. */
export type { BoardPlacement };

/** A printed map lying square at the table origin, 1:1. */
export const IDENTITY_PLACEMENT: BoardPlacement = {
  map: '',
  originMm: { x: 0, y: 0 },
  rotationDeg: 0,
  mmPerMapInch: 25.4,
};

/** Table millimetres → map inches. */
export function tableToMap(p: BoardPlacement, table: Vec2): Vec2 {
  const d = { x: table.x - p.originMm.x, y: table.y - p.originMm.y };
  const r = rotate(d, -degToRad(p.rotationDeg));
  return { x: r.x / p.mmPerMapInch, y: r.y / p.mmPerMapInch };
}

/** Map inches → table millimetres. */
export function mapToTable(p: BoardPlacement, map: Vec2): Vec2 {
  const r = rotate({ x: map.x * p.mmPerMapInch, y: map.y * p.mmPerMapInch }, degToRad(p.rotationDeg));
  return { x: r.x + p.originMm.x, y: r.y + p.originMm.y };
}
