/**
 * Scoring for the recall benchmark (bench/recall.ts), against the renderer's truth only: nothing
 * here asks the detector what it meant. A base counts as found when the pipeline located its id
 * within MATCH_MM of where the renderer put it; a detection is false when no marker with its id
 * stands where it was seen.
 */
import type { PixelPoint, SceneTruth } from '../src/synth/truth.ts';
import type { SceneRun } from './recall-run.ts';

/** A located base further than this from its truth is not found (and is a false detection). */
export const MATCH_MM = 2.5;
/**
 * A detection's centre must lie within this share of the true marker's side (pixels) of a marker
 * with its id (0.15 of a 20 mm tag is 3 mm).
 */
export const MATCH_SIDE_SHARE = 0.15;

/** What the pipeline located: a base id and its place on the table. */
export interface LocatedBase {
  readonly markerId: number;
  readonly x: number;
  readonly y: number;
  readonly headingDeg: number;
  /** The pose's own one-sigma errors, when it reports them (the locator does). */
  readonly sigmaMm?: number;
  readonly sigmaHeadingDeg?: number;
}

/** A raw detection: an id and four corners in pixels. */
export interface SeenMarker {
  readonly id: number;
  readonly corners: readonly PixelPoint[];
}

export interface BaseScore {
  /** Ids of bases located within MATCH_MM of their truth. */
  readonly found: ReadonlySet<number>;
  /** Located bases with an id not on the table, or further than MATCH_MM from their truth. */
  readonly wrong: readonly LocatedBase[];
  /** Position error of each found base, mm. */
  readonly errorsMm: readonly number[];
  /** Heading error of each found base, degrees (0–180). */
  readonly headingErrorsDeg: readonly number[];
  /**
   * Each found base's errors over the sigmas it reported (when it did): position error over its
   * per-axis sigma, heading error over its heading sigma. Honest sigmas put 95 % of the first under
   * 2.45 (a 2-D normal's radius) and 95 % of the second under 1.96.
   */
  readonly positionOverSigma: readonly number[];
  readonly headingOverSigma: readonly number[];
}

export function headingError(a: number, b: number): number {
  return Math.abs(((((a - b + 180) % 360) + 360) % 360) - 180);
}

/** Scores located bases against the truth's bases (same table millimetres). */
export function scoreBases(truth: Pick<SceneTruth, 'bases'>, located: readonly LocatedBase[]): BaseScore {
  const byId = new Map(truth.bases.map((b) => [b.markerId, b] as const));
  const found = new Set<number>();
  const wrong: LocatedBase[] = [];
  const errorsMm: number[] = [];
  const headingErrorsDeg: number[] = [];
  const positionOverSigma: number[] = [];
  const headingOverSigma: number[] = [];
  for (const m of located) {
    const t = byId.get(m.markerId);
    const e = t ? Math.hypot(m.x - t.centreMm.x, m.y - t.centreMm.y) : Infinity;
    if (!t || !(e <= MATCH_MM) || found.has(m.markerId)) {
      wrong.push(m);
      continue;
    }
    found.add(m.markerId);
    errorsMm.push(e);
    const h = headingError(m.headingDeg, t.headingDeg);
    headingErrorsDeg.push(h);
    if (m.sigmaMm !== undefined && m.sigmaMm > 0) positionOverSigma.push(e / m.sigmaMm);
    if (m.sigmaHeadingDeg !== undefined && m.sigmaHeadingDeg > 0)
      headingOverSigma.push(h / m.sigmaHeadingDeg);
  }
  return { found, wrong, errorsMm, headingErrorsDeg, positionOverSigma, headingOverSigma };
}

const centre = (q: readonly PixelPoint[]): PixelPoint => ({
  u: q.reduce((s, p) => s + p.u, 0) / q.length,
  v: q.reduce((s, p) => s + p.v, 0) / q.length,
});
const meanSide = (q: readonly PixelPoint[]): number =>
  q.reduce((s, p, i) => s + Math.hypot(q[(i + 1) % q.length]!.u - p.u, q[(i + 1) % q.length]!.v - p.v), 0) /
  q.length;

export interface DetectionScore {
  /** Ids of truth markers (bases and reference sheets) seen where they are. */
  readonly seen: ReadonlySet<number>;
  /** Detections with an id that no marker there has. */
  readonly falseDetections: readonly SeenMarker[];
}

/** Scores raw detections against every marker in the truth (bases and reference sheets), in pixels. */
export function scoreDetections(
  truth: Pick<SceneTruth, 'bases' | 'references'>,
  detections: readonly SeenMarker[],
): DetectionScore {
  const markers = [...truth.bases.map((b) => b.marker), ...truth.references];
  const byId = new Map(markers.map((m) => [m.markerId, m] as const));
  const seen = new Set<number>();
  const falseDetections: SeenMarker[] = [];
  for (const d of detections) {
    const t = byId.get(d.id);
    const ok =
      t !== undefined &&
      (() => {
        const a = centre(d.corners);
        const b = centre(t.cornersPx);
        return Math.hypot(a.u - b.u, a.v - b.v) <= MATCH_SIDE_SHARE * meanSide(t.cornersPx);
      })();
    if (ok) seen.add(d.id);
    else falseDetections.push(d);
  }
  return { seen, falseDetections };
}

/** The q-quantile of a list (nearest rank), NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Visible bases found in the first frame, and in the last. */
export function recallCounts(run: SceneRun): {
  visible: number;
  single: number;
  last: number;
  lostFrames: number;
} {
  const first = run.foundPerFrame[0] ?? new Set<number>();
  const last = run.foundPerFrame[run.foundPerFrame.length - 1] ?? new Set<number>();
  let lostFrames = 0;
  for (const id of run.visible) {
    const firstSeen = run.foundPerFrame.findIndex((s) => s.has(id));
    if (firstSeen < 0) continue;
    for (let f = firstSeen + 1; f < run.foundPerFrame.length; f++)
      if (!run.foundPerFrame[f]!.has(id)) lostFrames++;
  }
  return {
    visible: run.visible.length,
    single: run.visible.filter((id) => first.has(id)).length,
    last: run.visible.filter((id) => last.has(id)).length,
    lostFrames,
  };
}
