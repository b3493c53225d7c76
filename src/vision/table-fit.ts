import type { CameraProfile } from '../camera/profile.ts';
import { pixelToTablePlane, projectTablePoint } from '../camera/projection.ts';
import type { TablePose } from '../camera/table-pose.ts';
import type { Quad } from './candidates.ts';
import { quadSide } from './candidates.ts';
import type { GreyImage } from './image.ts';
import { alignWithModel, DEFAULT_ALIGN, type CornerModel, type Footprint } from './quad-align.ts';
import { stepFromKept, type KeptLinearisation } from './kept-linearisation.ts';
import { solveSpd } from './solve-spd.ts';

/**
 * A base's tag measured as what it is: a square of known size lying flat at a known height on a
 * table whose pose is known. Its picture then has three free parameters (where on the table, which
 * way it turns) instead of a free quad's eight. A fit of eight coordinates to a tag of 9–12 px
 * lets noise into scale, skew and perspective, and a corner pulled 1–2 px by noise turns the
 * heading by degrees; with the other five fixed by the table, every pixel of the tag pulls on
 * the three that matter.
 *
 * The free fit is kept when the table's three parameters explain the picture clearly worse than
 * the free quad does (a base on a slope or at another height, a table pose gone stale): a free
 * fit has five more parameters, so on the right model its residual is smaller by a few times the
 * pixel noise variance (about five, χ² with 5 degrees of freedom, were the noise independent);
 * more than `maxChi2` of them refuses.
 */

export interface TableFitOptions {
  /** Largest residual increase over the free fit, in pixel-noise variances (χ², 5 degrees of freedom). */
  readonly maxChi2: number;
  /** A corner may move at most this share of the tag's side from the free fit… */
  readonly maxMoveShare: number;
  /** …or this share when the square explains the picture better than the free fit does. */
  readonly maxMoveShareWhenBetter: number;
  /** The pixel footprint the square is rendered with (quad-align.ts). */
  readonly footprint: Footprint;
}

export const DEFAULT_TABLE_FIT: TableFitOptions = {
  // On the right model the increase is larger than independent pixel noise would make it (the
  // blur model, light varying across the tag): tuning scenes, seeds 1601–1604, 1080p and 720p,
  // 12–25 mm, tilt 15–25°: median 17–20, p90 45. A model 5 % too large: median 860, p90 4,400.
  maxChi2: 100,
  maxMoveShare: 0.25,
  maxMoveShareWhenBetter: 0.5,
  footprint: 'gaussian',
};

export interface TableSquare {
  readonly camera: CameraProfile;
  readonly pose: TablePose;
  readonly sizeMm: number;
  readonly heightMm: number;
}

/** Position steps (mm) and turn step (rad) for the corners' finite-difference Jacobian. */
const STEPS = Float64Array.of(0.01, 0.01, 1e-4);

/** The image corners (TL, TR, BR, BL) of a tag centred at (x, y) turned by `a` (finding-priors.ts expectedQuad's convention). */
function squareModel(square: TableSquare): CornerModel {
  const s = square.sizeMm / 2;
  const out = new Float64Array(8);
  return {
    steps: STEPS,
    corners(p: Float64Array): Float64Array | null {
      const [x, y, a] = p as unknown as [number, number, number];
      const rx = Math.cos(a);
      const ry = Math.sin(a);
      const corners = [
        [-1, 1],
        [1, 1],
        [1, -1],
        [-1, -1],
      ] as const;
      for (let k = 0; k < 4; k++) {
        const [i, j] = corners[k]!;
        const px = projectTablePoint(square.camera, square.pose, {
          x: x + i * s * rx - j * s * ry,
          y: y + i * s * ry + j * s * rx,
          z: square.heightMm,
        });
        if (!px) return null;
        out[2 * k] = px.u;
        out[2 * k + 1] = px.v;
      }
      return Float64Array.from(out);
    },
  };
}

/** The tag's place and turn on the table from its image corners (their mean, their edges' direction). */
function startOf(corners: Quad, square: TableSquare): Float64Array | null {
  const p = corners.map((c) => pixelToTablePlane(square.camera, square.pose, c, square.heightMm));
  if (p.some((q) => q === null)) return null;
  const [tl, tr, br, bl] = p as [
    NonNullable<(typeof p)[0]>,
    NonNullable<(typeof p)[0]>,
    NonNullable<(typeof p)[0]>,
    NonNullable<(typeof p)[0]>,
  ];
  // Right from the top and bottom edges, plus up from the side edges turned a quarter back.
  const upX = tl.x - bl.x + (tr.x - br.x);
  const upY = tl.y - bl.y + (tr.y - br.y);
  const rightX = tr.x - tl.x + (br.x - bl.x) + upY;
  const rightY = tr.y - tl.y + (br.y - bl.y) - upX;
  return Float64Array.of(
    (tl.x + tr.x + br.x + bl.x) / 4,
    (tl.y + tr.y + br.y + bl.y) / 4,
    Math.atan2(rightY, rightX),
  );
}

/** A tag measured as a square on the table, with the fit's own uncertainty. */
export interface TableFitMeasure {
  readonly corners: Quad;
  /**
   * One-sigma errors of the tag's place on the table (mm, along each axis) and of its turn
   * (degrees), from the fit's covariance: the residual's variance over the fit's information
   * about its three parameters. A tag of few pixels, or one the model explains poorly (JPEG
   * blocks, blur it does not model), is measured less surely, and says so.
   */
  readonly sigmaMm: number;
  readonly sigmaHeadingDeg: number;
  /** The fit's last linearisation: the same pixels measured again in one step (remeasureOnTable). */
  readonly kept: KeptLinearisation | null;
}

/** Levels the fit solves besides the tag's three parameters (quad-align.ts: a, b, c, e, f). */
const FIT_LEVELS = 5;

/**
 * The tag's corners fitted as a square on the table, or null when that model does not explain
 * the picture (see above) or the fit fails. `corners`: the free fit (code or edges). Its
 * arguments are measureOnTable's.
 */
export function fitOnTable(...args: Parameters<typeof measureOnTable>): Quad | null {
  return measureOnTable(...args)?.corners ?? null;
}

/** The tag measured as a square on the table (fitOnTable), with the fit's own sigmas (TableFitMeasure). */
export function measureOnTable(
  grey: GreyImage,
  corners: Quad,
  pattern: Float64Array,
  cells: number,
  square: TableSquare,
  blurSigmaPx: number,
  options: TableFitOptions = DEFAULT_TABLE_FIT,
): TableFitMeasure | null {
  const start = startOf(corners, square);
  if (!start) return null;
  const fit = alignWithModel(grey, corners, pattern, cells, squareModel(square), start, {
    ...DEFAULT_ALIGN,
    blurSigmaPx,
    footprint: options.footprint,
  });
  if (!fit) return null;
  // Pixel noise variance from the free fit: eight corners and three levels were fitted to the pixels.
  const noiseVariance = fit.startSse / Math.max(1, fit.pixels - 11);
  if (fit.sse - fit.startSse > options.maxChi2 * noiseVariance) return null;
  // A square that explains the picture better than the free corners shows those were wrong, and
  // may move further from them (a blurred 720p tag's free quad bent 5 px out of square, its
  // square 125 noise variances better, was refused at a quarter side and its base placed 3 mm
  // off; tuning seed 1762).
  const share = fit.sse < fit.startSse ? options.maxMoveShareWhenBetter : options.maxMoveShare;
  const most = share * quadSide(corners);
  for (let k = 0; k < 4; k++)
    if (Math.hypot(fit.corners[k]!.u - corners[k]!.u, fit.corners[k]!.v - corners[k]!.v) > most) return null;
  return { corners: fit.corners, ...sigmasOf(fit.sse, fit.pixels, fit.information), kept: fit.kept };
}

/** One-sigma errors of place (mm) and turn (degrees) from a fit's residual and information. */
function sigmasOf(
  sse: number,
  pixels: number,
  information: Float64Array | null,
): { sigmaMm: number; sigmaHeadingDeg: number } {
  const variance = sse / Math.max(1, pixels - STEPS.length - FIT_LEVELS);
  const inverse = (m: number): number => {
    if (!information) return Number.POSITIVE_INFINITY;
    const unit = new Float64Array(STEPS.length);
    unit[m] = 1;
    const column = solveSpd(information, unit, STEPS.length);
    return column ? (column[m] as number) : Number.POSITIVE_INFINITY;
  };
  return {
    sigmaMm: Math.sqrt((variance * (inverse(0) + inverse(1))) / 2),
    sigmaHeadingDeg: (Math.sqrt(variance * inverse(2)) * 180) / Math.PI,
  };
}

/**
 * A still tag measured again on another picture of the same pixels (the mean of the frames it
 * stood in) by one step from its last fit's linearisation (kept-linearisation.ts). `at`: where
 * the tag is taken to be now. Null when `at` is not where that fit left it, or the step moves a
 * corner more than `maxMovePx` (either by over `maxMovePx`): then the picture is not the one the
 * fit was linearised on plus noise, and the tag is to be measured afresh (measureOnTable).
 */
export function remeasureOnTable(
  kept: KeptLinearisation,
  grey: GreyImage,
  square: TableSquare,
  at: Quad,
  maxMovePx: number,
): TableFitMeasure | null {
  const model = squareModel(square);
  const from = model.corners(kept.params);
  if (!from || at.some((c, k) => Math.hypot(c.u - from[2 * k]!, c.v - from[2 * k + 1]!) > maxMovePx))
    return null;
  const step = stepFromKept(kept, grey);
  const to = step && model.corners(step.params);
  if (!step || !to) return null;
  for (let j = 0; j < 8; j += 2)
    if (Math.hypot(to[j]! - from[j]!, to[j + 1]! - from[j + 1]!) > maxMovePx) return null;
  const corners: Quad = [
    { u: to[0]!, v: to[1]! },
    { u: to[2]!, v: to[3]! },
    { u: to[4]!, v: to[5]! },
    { u: to[6]!, v: to[7]! },
  ];
  return { corners, ...sigmasOf(step.sse, step.pixels, kept.information), kept };
}

/**
 * A tag's frame placed on the table without knowing its code: the printed square (black border,
 * white quiet zone) with its data cells a uniform grey, fitted by its three table parameters from
 * a rough quad (one inferred from the sticker round the tag). Null when the fit fails or moves a
 * corner more than half the tag's side.
 */
export function fitFrameOnTable(
  grey: GreyImage,
  corners: Quad,
  cells: number,
  square: TableSquare,
  blurSigmaPx: number,
): Quad | null {
  const start = startOf(corners, square);
  if (!start) return null;
  // Only placed, to be read: the cheaper tent (quad-align.ts Footprint).
  const fit = alignWithModel(grey, corners, framePattern(cells), cells, squareModel(square), start, {
    ...DEFAULT_ALIGN,
    blurSigmaPx,
    footprint: 'tent',
  });
  if (!fit) return null;
  const most = 0.5 * quadSide(corners);
  for (let k = 0; k < 4; k++)
    if (Math.hypot(fit.corners[k]!.u - corners[k]!.u, fit.corners[k]!.v - corners[k]!.v) > most) return null;
  return fit.corners;
}

const framePatterns = new Map<number, Float64Array>();

/** The whiteness of a tag with an unknown code: border black, data cells half white. */
function framePattern(cells: number): Float64Array {
  let pattern = framePatterns.get(cells);
  if (!pattern) {
    pattern = new Float64Array(cells * cells);
    for (let y = 1; y < cells - 1; y++) for (let x = 1; x < cells - 1; x++) pattern[y * cells + x] = 0.5;
    framePatterns.set(cells, pattern);
  }
  return pattern;
}
