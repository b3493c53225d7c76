import { wrapDegrees } from '../geometry/angle.ts';
import type { RecordedPose } from './types.ts';

/**
 * Settle detection: a base has come to rest when every measurement of it for `frames`
 * consecutive sightings stayed within `toleranceMm` (and `toleranceDeg`) of the first of them.
 * Its settled pose is the mean of those sightings. A settled pose that differs from the base's
 * previous settled pose by more than `minMoveMm`/`minTurnDeg` is a move; anything less is jitter
 * and produces nothing. Frames where the base is not seen (a hand over it) neither count nor reset.
 */

export interface SettleOptions {
  readonly toleranceMm: number;
  readonly toleranceDeg: number;
  /** Sightings in a row within tolerance before a base counts as at rest. */
  readonly frames: number;
  /**
   * A rest counts as a move only this far (mm, degrees) from the previous rest. Larger than the
   * still tolerance, so a jittery base whose still windows land a little apart never "moves".
   */
  readonly minMoveMm: number;
  readonly minTurnDeg: number;
}

export const DEFAULT_SETTLE_OPTIONS: SettleOptions = {
  toleranceMm: 2,
  toleranceDeg: 2,
  frames: 5,
  minMoveMm: 3,
  minTurnDeg: 3,
};

export interface PoseSample extends RecordedPose {
  readonly seen: boolean;
}

export interface SettledMove {
  readonly markerId: number;
  readonly t: number;
  readonly pose: RecordedPose;
  readonly from: RecordedPose | null;
  /** Time of the first sighting away from the previous settled pose. */
  readonly movingSince: number;
}

interface BaseTrack {
  /** The current still window: its first sample, the sums for the mean, and its length. */
  anchor: RecordedPose;
  anchorAt: number;
  n: number;
  sx: number;
  sy: number;
  /** Heading summed as offsets from the anchor (no wrap-around trouble). */
  sdh: number;
  sSigma: number;
  sSigmaH: number;
  /** This window has already been judged (a move emitted or found to be jitter). */
  judged: boolean;
  settled: RecordedPose | null;
  /** When the base was first seen away from its settled pose (null while at rest). */
  leftAt: number | null;
}

function outside(
  a: RecordedPose,
  b: { x: number; y: number; headingDeg: number },
  mm: number,
  deg: number,
): boolean {
  return Math.hypot(a.x - b.x, a.y - b.y) > mm || Math.abs(wrapDegrees(a.headingDeg - b.headingDeg)) > deg;
}

export class SettleDetector {
  readonly options: SettleOptions;
  private readonly tracks = new Map<number, BaseTrack>();

  constructor(options: Partial<SettleOptions> = {}) {
    this.options = { ...DEFAULT_SETTLE_OPTIONS, ...options };
    const o = this.options;
    if (!(o.frames >= 1) || !(o.toleranceMm > 0) || !(o.toleranceDeg > 0))
      throw new Error('settle options need frames ≥ 1 and positive tolerances');
    if (!(o.minMoveMm >= o.toleranceMm) || !(o.minTurnDeg >= o.toleranceDeg))
      throw new Error('settle options: the smallest move must be at least the still tolerance');
  }

  /** Feeds one frame's poses; returns the bases that came to rest somewhere new in it. */
  update(at: number, samples: readonly PoseSample[]): SettledMove[] {
    const out: SettledMove[] = [];
    for (const s of samples) {
      if (!s.seen) continue;
      let track = this.tracks.get(s.markerId);
      if (!track) {
        track = newWindow(s, at, null, null);
        this.tracks.set(s.markerId, track);
      } else if (outside(s, track.anchor, this.options.toleranceMm, this.options.toleranceDeg)) {
        const leftAt =
          track.leftAt ??
          (track.settled && outside(s, track.settled, this.options.minMoveMm, this.options.minTurnDeg)
            ? at
            : null);
        track = newWindow(s, at, track.settled, leftAt);
        this.tracks.set(s.markerId, track);
      } else {
        track.n++;
        track.sx += s.x;
        track.sy += s.y;
        track.sdh += wrapDegrees(s.headingDeg - track.anchor.headingDeg);
        track.sSigma += s.sigmaMm;
        track.sSigmaH += s.sigmaHeadingDeg;
      }
      if (track.judged || track.n < this.options.frames) continue;
      track.judged = true;
      const pose: RecordedPose = {
        markerId: s.markerId,
        x: track.sx / track.n,
        y: track.sy / track.n,
        headingDeg: wrapDegrees(track.anchor.headingDeg + track.sdh / track.n),
        sigmaMm: track.sSigma / track.n,
        sigmaHeadingDeg: track.sSigmaH / track.n,
      };
      const from = track.settled;
      if (from && !outside(pose, from, this.options.minMoveMm, this.options.minTurnDeg)) {
        track.leftAt = null;
        continue; // jitter: back where it was
      }
      out.push({ markerId: s.markerId, t: at, pose, from, movingSince: track.leftAt ?? track.anchorAt });
      track.settled = pose;
      track.leftAt = null;
    }
    return out;
  }

  /** The last settled pose of every base. */
  settledPoses(): RecordedPose[] {
    const out: RecordedPose[] = [];
    for (const t of this.tracks.values()) if (t.settled) out.push(t.settled);
    return out.sort((a, b) => a.markerId - b.markerId);
  }
}

function newWindow(
  s: RecordedPose,
  at: number,
  settled: RecordedPose | null,
  leftAt: number | null,
): BaseTrack {
  return {
    anchor: s,
    anchorAt: at,
    n: 1,
    sx: s.x,
    sy: s.y,
    sdh: 0,
    sSigma: s.sigmaMm,
    sSigmaH: s.sigmaHeadingDeg,
    judged: false,
    settled,
    leftAt,
  };
}
