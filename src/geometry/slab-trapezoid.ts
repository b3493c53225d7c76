import type { Polygon } from './polygon.ts';

/** A stretch of a slab as a polygon: a side of zero height makes it a triangle. */
export function trapezoid(
  xl: number,
  xr: number,
  lowL: number,
  lowR: number,
  highL: number,
  highR: number,
): Polygon {
  return lowL === highL
    ? [
        { x: xl, y: lowL },
        { x: xr, y: lowR },
        { x: xr, y: highR },
      ]
    : lowR === highR
      ? [
          { x: xl, y: lowL },
          { x: xr, y: lowR },
          { x: xl, y: highL },
        ]
      : [
          { x: xl, y: lowL },
          { x: xr, y: lowR },
          { x: xr, y: highR },
          { x: xl, y: highL },
        ];
}
