/**
 * Plain geometry on detected board corners (image pixels): ids as ranges for messages, collinear
 * corners, how far two views' shared corners moved, how much of the picture the corners cover,
 * and the angle between board normals. No OpenCV.
 */

export interface Point2 {
  readonly x: number;
  readonly y: number;
}

/** Sorted ids as ranges: 0–16, 20, 22–23. */
export function formatIds(ids: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < ids.length;) {
    let j = i;
    while (j + 1 < ids.length && ids[j + 1] === ids[j]! + 1) j++;
    parts.push(j > i ? `${ids[i]}–${ids[j]}` : String(ids[i]));
    i = j + 1;
  }
  return parts.join(', ');
}

/** True when all corners lie on one line (within 1 % of their spread). */
export function collinear(corners: ReadonlyMap<number, Point2>): boolean {
  const pts = [...corners.values()];
  if (pts.length < 3) return true;
  const mx = pts.reduce((s, p) => s + p.x, 0) / pts.length;
  const my = pts.reduce((s, p) => s + p.y, 0) / pts.length;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (const p of pts) {
    sxx += (p.x - mx) ** 2;
    syy += (p.y - my) ** 2;
    sxy += (p.x - mx) * (p.y - my);
  }
  const tr = sxx + syy;
  const disc = Math.sqrt(((sxx - syy) / 2) ** 2 + sxy ** 2);
  const small = tr / 2 - disc;
  const large = tr / 2 + disc;
  return large <= 0 || Math.sqrt(Math.max(small, 0) / large) < 0.01;
}

/** RMS distance between the corners two views share; Infinity if they share fewer than 4. */
export function poseDistancePx(a: ReadonlyMap<number, Point2>, b: ReadonlyMap<number, Point2>): number {
  let sum = 0;
  let n = 0;
  for (const [id, p] of a) {
    const q = b.get(id);
    if (!q) continue;
    sum += (p.x - q.x) ** 2 + (p.y - q.y) ** 2;
    n++;
  }
  return n >= 4 ? Math.sqrt(sum / n) : Infinity;
}

export function gridCoverage(
  views: ReadonlyArray<ReadonlyMap<number, Point2>>,
  width: number,
  height: number,
  nx: number,
  ny: number,
): number {
  const hit = new Set<number>();
  for (const v of views) {
    for (const p of v.values()) {
      const gx = Math.min(nx - 1, Math.max(0, Math.floor((p.x / width) * nx)));
      const gy = Math.min(ny - 1, Math.max(0, Math.floor((p.y / height) * ny)));
      hit.add(gy * nx + gx);
    }
  }
  return hit.size / (nx * ny);
}

export type Vec3 = readonly [number, number, number];

export function angleDeg(a: Vec3, b: Vec3): number {
  const dot = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2]);
  return (Math.acos(Math.min(1, dot)) * 180) / Math.PI;
}
