export const degToRad = (deg: number): number => (deg * Math.PI) / 180;
export const radToDeg = (rad: number): number => (rad * 180) / Math.PI;

/** Wraps an angle in degrees into (-180, 180]. */
export function wrapDegrees(deg: number): number {
  const wrapped = ((((deg + 180) % 360) + 360) % 360) - 180;
  return wrapped === -180 ? 180 : wrapped;
}

/** Smallest signed difference a − b in degrees, in (-180, 180]. */
export const angleDiffDegrees = (a: number, b: number): number => wrapDegrees(a - b);
