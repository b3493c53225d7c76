import type { MeasurementView, StateMessage, UnitView } from '../../../src/server/protocol.ts';
import { moveSteps, stateAt, trailsAt } from '../../../src/record/replay-state.ts';
import type {
  MarkRecord,
  RecordedPose,
  ReplayData,
  RulingRecord,
  SnapshotInfo,
} from '../../../src/record/types.ts';

/**
 * The replay's headless model: what the table looked like at a moment of a recorded battle,
 * which ruling to re-show, which picture to put behind it. No DOM; the page draws it.
 */

/** A ruling stays on screen this long (battle time) after it was given. */
export const RULING_SHOWN_MS = 20_000;
/** Settles closer together than this are one step (a unit's bases coming to rest). */
export const STEP_GAP_MS = 500;
/** Bases first recorded this soon after the start were on the table when the battle began. */
export const OPENING_MS = 60_000;

export interface ReplayFrame {
  readonly t: number;
  readonly units: readonly UnitView[];
  /** Each base's settled positions so far, with its unit's colour. */
  readonly trails: ReadonlyArray<{
    readonly markerId: number;
    readonly colour: string;
    readonly points: ReadonlyArray<{ x: number; y: number }>;
  }>;
  readonly ruling: RulingRecord | null;
  readonly snapshot: SnapshotInfo | null;
  /** The turn (and phase) under way. */
  readonly turn: MarkRecord | null;
  readonly phase: MarkRecord | null;
}

export class ReplayModel {
  readonly start: number;
  readonly end: number;
  readonly steps: ReadonlyArray<{ start: number; end: number }>;
  private readonly colours: Map<string, string>;
  private readonly unitOfMarker = new Map<number, string>();
  private readonly openingPoses = new Map<number, RecordedPose>();

  constructor(readonly data: ReplayData) {
    const b = data.battle;
    this.start = b.startedAt;
    this.end = Math.max(b.endedAt ?? 0, b.lastEventAt, b.startedAt + 1000);
    this.steps = moveSteps(data.moves, STEP_GAP_MS);
    const sides = new Map(b.roster.sides.map((s) => [s.id, s.colour]));
    this.colours = new Map(b.roster.units.map((u) => [u.id, sides.get(u.side) ?? '#888888']));
    for (const u of b.roster.units) for (const base of u.bases) this.unitOfMarker.set(base.markerId, u.id);
    for (const p of data.initial.t <= this.start + OPENING_MS ? data.initial.poses : [])
      this.openingPoses.set(p.markerId, p);
    for (const m of data.moves) {
      if (m.t > this.start + OPENING_MS) break;
      if (!this.openingPoses.has(m.markerId)) this.openingPoses.set(m.markerId, m);
    }
  }

  clamp(t: number): number {
    return Math.min(this.end, Math.max(this.start, t));
  }

  /** The end of the next step after t (when its last base settled), or null at the last one. */
  nextStep(t: number): number | null {
    return this.steps.find((s) => s.end > t)?.end ?? null;
  }

  /** The end of the step before t, or the start of the battle. */
  prevStep(t: number): number | null {
    const before = this.steps.filter((s) => s.end < t);
    return before[before.length - 1]?.end ?? (t > this.start ? this.start : null);
  }

  frame(t: number): ReplayFrame {
    const poses = stateAt(this.data.initial, this.data.moves, t);
    const trails = trailsAt(this.data.initial, this.data.moves, t);
    // A base is recorded once it has stood still for a few frames: at 0:00:00 the units that
    // began the battle are shown where they first stood, not missing.
    for (const [id, p] of this.openingPoses) if (!poses.has(id)) poses.set(id, p);
    const units: UnitView[] = [];
    const sideColour = new Map(this.data.battle.roster.sides.map((s) => [s.id, s.colour]));
    for (const u of this.data.battle.roster.units) {
      const bases = u.bases.flatMap((b) => {
        const p: RecordedPose | undefined = poses.get(b.markerId);
        if (!p) return [];
        return [
          {
            markerId: b.markerId,
            x: p.x,
            y: p.y,
            headingDeg: p.headingDeg,
            widthMm: b.widthMm,
            depthMm: b.depthMm,
            topMm: b.topMm,
            seen: true,
            sigmaMm: p.sigmaMm,
          },
        ];
      });
      if (bases.length > 0)
        units.push({
          id: u.id,
          name: u.name,
          side: u.side,
          colour: sideColour.get(u.side) ?? '#888888',
          bases,
        });
    }
    const ruling = lastAtOrBefore(this.data.rulings, t);
    const snapshot = lastAtOrBefore(this.data.snapshots, t) ?? this.data.snapshots[0] ?? null;
    return {
      t,
      units,
      trails: [...trails].map(([markerId, points]) => ({
        markerId,
        colour: this.colours.get(this.unitOfMarker.get(markerId) ?? '') ?? '#888888',
        points,
      })),
      ruling: ruling && t - ruling.t <= RULING_SHOWN_MS ? ruling : null,
      snapshot,
      turn: lastAtOrBefore(
        this.data.marks.filter((m) => m.kind === 'turn'),
        t,
      ),
      phase: lastAtOrBefore(
        this.data.marks.filter((m) => m.kind === 'phase'),
        t,
      ),
    };
  }

  /** A state message for the live page's overlay code, drawn over the kept picture. */
  cameraState(frame: ReplayFrame): StateMessage | null {
    const camera = this.data.battle.camera;
    if (!camera || !frame.snapshot?.pose) return null;
    return {
      type: 'state',
      frame: frame.snapshot.id,
      timestamp: frame.t,
      table: this.data.battle.roster.table,
      camera,
      pose: frame.snapshot.pose,
      poseStatus: 'stable',
      units: frame.units,
      detectionMs: 0,
      measurement: rulingLine(frame.ruling),
    };
  }
}

/** Pseudo unit ids for a ruling's line: the overlay draws a measurement for the selected pair. */
export const RULING_PAIR = ['ruling:from', 'ruling:to'] as const;

export function rulingLine(r: RulingRecord | null): MeasurementView | null {
  const between = r?.verdict.between;
  if (!r || !between) return null;
  const [from, to] = between;
  const lengthIn = Math.hypot(to.x - from.x, to.y - from.y) / 25.4;
  return {
    a: RULING_PAIR[0],
    b: RULING_PAIR[1],
    distanceIn: lengthIn,
    uncertaintyIn: Number(r.verdict.facts['uncertaintyIn'] ?? 0),
    from,
    to,
    valid: true,
    text: r.verdict.asked,
  };
}

export function lastAtOrBefore<T extends { readonly t: number }>(items: readonly T[], t: number): T | null {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (items[mid]!.t <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? items[lo - 1]! : null;
}

/** "1:02:03" from milliseconds. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}`;
}

/** "1 ruling", "3 rulings": a count with its noun. */
export function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
