import type { Pixel } from '../camera/projection.ts';
import type { GreyImage } from './image.ts';

/**
 * Sub-pixel marker corners from the marker's four straight outer edges.
 *
 * OpenCV's corner refinements look at each corner alone; on the 3–4 px cells of a 30 mm tag at
 * 1080p its cornerSubPix window either barely moves or wanders onto the quiet zone's outer edge,
 * leaving corners ~0.5 px out (≈ 1° of heading). Every pixel along an edge carries information,
 * so, like the AprilTag library's `refine_edges`, we locate the black→white transition across
 * each edge at many points, fit a line to each edge, and intersect neighbouring lines.
 */

export interface EdgeRefineOptions {
  /** How far to look either side of the coarse edge, pixels. Must stay inside the black border and the quiet zone. */
  readonly searchPx: number;
  /** Spacing of sample profiles along an edge, pixels. */
  readonly stepPx: number;
  /** Leave this fraction of each edge near the corners out (corners are rounded by blur). */
  readonly cornerMargin: number;
  /** A refined corner further than this from the coarse one is not trusted. */
  readonly maxShiftPx: number;
}

export const DEFAULT_EDGE_REFINE: EdgeRefineOptions = {
  searchPx: 2,
  stepPx: 0.5,
  cornerMargin: 0.12,
  maxShiftPx: 3,
};

type Grey = GreyImage;

/** Profiles per edge at most (see refineEdge). */
const MAX_PROFILES = 48;

function sample(img: Grey, u: number, v: number): number {
  const x0 = Math.floor(u);
  const y0 = Math.floor(v);
  if (x0 < 0 || y0 < 0 || x0 + 1 >= img.width || y0 + 1 >= img.height) return Number.NaN;
  const fx = u - x0;
  const fy = v - y0;
  const i = y0 * img.width + x0;
  const d = img.data;
  const top = d[i]! + (d[i + 1]! - d[i]!) * fx;
  const bottom = d[i + img.width]! + (d[i + img.width + 1]! - d[i + img.width]!) * fx;
  return top + (bottom - top) * fy;
}

/** A line through `point` with unit `direction`. */
interface Line {
  readonly px: number;
  readonly py: number;
  readonly dx: number;
  readonly dy: number;
}

/** Total-least-squares line through points (principal axis of their scatter). */
function fitLine(points: ReadonlyArray<readonly [number, number]>): Line | null {
  if (points.length < 4) return null;
  let mx = 0;
  let my = 0;
  for (const [x, y] of points) {
    mx += x;
    my += y;
  }
  mx /= points.length;
  my /= points.length;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (const [x, y] of points) {
    sxx += (x - mx) ** 2;
    syy += (y - my) ** 2;
    sxy += (x - mx) * (y - my);
  }
  const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  return { px: mx, py: my, dx: Math.cos(angle), dy: Math.sin(angle) };
}

function intersect(a: Line, b: Line): Pixel | null {
  const det = a.dx * b.dy - a.dy * b.dx;
  if (Math.abs(det) < 1e-9) return null;
  const t = ((b.px - a.px) * b.dy - (b.py - a.py) * b.dx) / det;
  return { u: a.px + t * a.dx, v: a.py + t * a.dy };
}

/** Where one edge really is: 50 % crossings of profiles taken across it, fitted with a line (outliers dropped). */
function refineEdge(img: Grey, a: Pixel, b: Pixel, centre: Pixel, o: EdgeRefineOptions): Line | null {
  const len = Math.hypot(b.u - a.u, b.v - a.v);
  if (len < 4) return null;
  const tx = (b.u - a.u) / len;
  const ty = (b.v - a.v) / len;
  // Normal pointing out of the marker (dark inside, white quiet zone outside).
  let nx = -ty;
  let ny = tx;
  const mx = (a.u + b.u) / 2;
  const my = (a.v + b.v) / 2;
  if ((mx - centre.u) * nx + (my - centre.v) * ny < 0) {
    nx = -nx;
    ny = -ny;
  }
  // Profiles across the edge, kept so one threshold can serve the whole edge.
  const steps = 16;
  const profiles: Array<{ bx: number; by: number; values: Float64Array }> = [];
  // At most MAX_PROFILES per edge: a long edge (a reference sheet) gains nothing from more.
  const step = Math.max(o.stepPx, (len * (1 - 2 * o.cornerMargin)) / MAX_PROFILES);
  for (let s = len * o.cornerMargin; s <= len * (1 - o.cornerMargin); s += step) {
    const bx = a.u + tx * s;
    const by = a.v + ty * s;
    const values = new Float64Array(steps + 1);
    for (let k = 0; k <= steps; k++) {
      const off = -o.searchPx + (2 * o.searchPx * k) / steps;
      values[k] = sample(img, bx + nx * off, by + ny * off);
    }
    if (!values.some(Number.isNaN)) profiles.push({ bx, by, values });
  }
  if (profiles.length < 4) return null;
  // Ink and paper levels for the whole edge. A profile's own ends are unreliable on small cells:
  // a white data cell just inside the border, or the base just beyond a one-cell quiet zone,
  // bleeds into them and drags its 50 % level (and so the edge) with the bit pattern. The
  // darkest and brightest quarter of the profiles' ends are clean ink and clean paper.
  const darks = profiles.map((p) => Math.min(p.values[0]!, p.values[1]!)).sort((x, y) => x - y);
  const brights = profiles.map((p) => Math.max(p.values[steps]!, p.values[steps - 1]!)).sort((x, y) => x - y);
  const dark = darks[Math.floor(darks.length * 0.25)]!;
  const bright = brights[Math.floor(brights.length * 0.75)]!;
  if (bright - dark < 20) return null; // no clear edge (occluded, glare)
  const mid = (dark + bright) / 2;
  const points: Array<[number, number]> = [];
  for (const { bx, by, values: profile } of profiles) {
    if (Math.max(profile[steps]!, profile[steps - 1]!) - Math.min(profile[0]!, profile[1]!) < 10) continue;
    // The crossing nearest the middle of the profile (the coarse edge), dark → bright outward.
    let best = Number.NaN;
    for (let k = 0; k < steps; k++) {
      const p0 = profile[k]!;
      const p1 = profile[k + 1]!;
      if (p0 < mid && p1 >= mid) {
        const off = -o.searchPx + (2 * o.searchPx * (k + (mid - p0) / (p1 - p0))) / steps;
        if (Number.isNaN(best) || Math.abs(off) < Math.abs(best)) best = off;
      }
    }
    if (!Number.isNaN(best)) points.push([bx + nx * best, by + ny * best]);
  }
  let line = fitLine(points);
  if (!line) return null;
  // One pass of outlier rejection: drop points more than 3 × the median residual away.
  const residual = (p: readonly [number, number], l: Line) =>
    Math.abs((p[0] - l.px) * l.dy - (p[1] - l.py) * l.dx);
  const sorted = points.map((p) => residual(p, line!)).sort((x, y) => x - y);
  const limit = Math.max(3 * sorted[Math.floor(sorted.length / 2)]!, 0.05);
  line = fitLine(points.filter((p) => residual(p, line!) <= limit));
  return line;
}

/**
 * Refines a detected marker's four corners (TL, TR, BR, BL) against its outer edges.
 * Returns null when an edge cannot be found cleanly; callers keep the coarse corners then.
 */
export function refineMarkerCorners(
  img: Grey,
  corners: readonly [Pixel, Pixel, Pixel, Pixel],
  options: EdgeRefineOptions = DEFAULT_EDGE_REFINE,
): [Pixel, Pixel, Pixel, Pixel] | null {
  const centre = {
    u: (corners[0].u + corners[1].u + corners[2].u + corners[3].u) / 4,
    v: (corners[0].v + corners[1].v + corners[2].v + corners[3].v) / 4,
  };
  const lines: Line[] = [];
  for (let i = 0; i < 4; i++) {
    const line = refineEdge(img, corners[i]!, corners[(i + 1) % 4]!, centre, options);
    if (!line) return null;
    lines.push(line);
  }
  const refined: Pixel[] = [];
  for (let i = 0; i < 4; i++) {
    // Corner i joins the edge before it (i-1 → i) and the edge after it (i → i+1).
    const p = intersect(lines[(i + 3) % 4]!, lines[i]!);
    if (!p || Math.hypot(p.u - corners[i]!.u, p.v - corners[i]!.v) > options.maxShiftPx) return null;
    refined.push(p);
  }
  return refined as [Pixel, Pixel, Pixel, Pixel];
}
