import type { PoseSample } from './settle.ts';
import type { BattleRoster, RecordedPose } from './types.ts';

/**
 * A synthetic battle as tracked poses (no rendering): the sides take turns; within a turn one
 * unit at a time advances (and sometimes wheels) over `moveDurationMs`, then stands; every
 * sighting carries Gaussian measurement jitter. Deterministic for its seed. Used by the replay
 * benchmark (hours of 10 Hz frames) and the crash test.
 */

export interface SyntheticBattleOptions {
  readonly seed?: number;
  /** Where each base starts (mm); bases without one are spread along the table. */
  readonly start?: ReadonlyMap<number, { x: number; y: number; headingDeg: number }>;
  readonly frameIntervalMs?: number;
  /** A unit starts moving this often. */
  readonly moveEveryMs?: number;
  readonly moveDurationMs?: number;
  /** The side to move changes this often. */
  readonly turnMs?: number;
  readonly jitterMm?: number;
  readonly jitterDeg?: number;
}

interface ScheduledMove {
  readonly unitIndex: number;
  readonly start: number;
  readonly end: number;
  readonly dx: number;
  readonly dy: number;
  readonly dh: number;
}

class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 1;
  }
  next(): number {
    // xorshift32
    let x = this.s;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.s = x >>> 0;
    return this.s / 4294967296;
  }
  gauss(): number {
    const u = Math.max(1e-12, this.next());
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
}

export class SyntheticBattle {
  readonly frameIntervalMs: number;
  private readonly o: Required<Omit<SyntheticBattleOptions, 'start' | 'seed'>>;
  private readonly moves: ScheduledMove[] = [];
  private readonly jitter: Rng;
  /** Pose of every base at rest after each scheduled move (index k: after moves[0..k-1]). */
  private readonly restPoses: Array<Map<number, RecordedPose>> = [];
  private readonly units: ReadonlyArray<{ side: string; markers: number[] }>;

  constructor(
    readonly roster: BattleRoster,
    readonly startedAt: number,
    readonly durationMs: number,
    options: SyntheticBattleOptions = {},
  ) {
    this.o = {
      frameIntervalMs: options.frameIntervalMs ?? 100,
      moveEveryMs: options.moveEveryMs ?? 20_000,
      moveDurationMs: options.moveDurationMs ?? 2000,
      turnMs: options.turnMs ?? 240_000,
      jitterMm: options.jitterMm ?? 0.3,
      jitterDeg: options.jitterDeg ?? 0.2,
    };
    this.frameIntervalMs = this.o.frameIntervalMs;
    const rng = new Rng(options.seed ?? 7);
    this.jitter = new Rng((options.seed ?? 7) * 7919 + 1);
    this.units = roster.units.map((u) => ({ side: u.side, markers: u.bases.map((b) => b.markerId) }));
    const { widthMm, depthMm } = roster.table;
    let poses = new Map<number, RecordedPose>();
    let k = 0;
    for (const u of roster.units)
      for (const b of u.bases) {
        const s = options.start?.get(b.markerId) ?? {
          x: widthMm * (0.1 + 0.8 * ((k * 0.618) % 1)),
          y: depthMm * (u.side === roster.units[0]?.side ? 0.25 : 0.75),
          headingDeg: u.side === roster.units[0]?.side ? 0 : 180,
        };
        k++;
        poses.set(b.markerId, { markerId: b.markerId, ...s, sigmaMm: 0.3, sigmaHeadingDeg: 0.2 });
      }
    this.restPoses.push(poses);
    const sides = [...new Set(this.units.map((u) => u.side))];
    const turnCursor = new Map<string, number>();
    for (let t = this.o.moveEveryMs; t + this.o.moveDurationMs < durationMs; t += this.o.moveEveryMs) {
      const side = sides[Math.floor(t / this.o.turnMs) % sides.length]!;
      const candidates = this.units.map((u, i) => ({ u, i })).filter(({ u }) => u.side === side);
      if (candidates.length === 0) continue;
      const c = turnCursor.get(side) ?? 0;
      turnCursor.set(side, c + 1);
      const { u, i } = candidates[c % candidates.length]!;
      const dist = 20 + rng.next() * 130;
      const dh = rng.next() < 0.3 ? (rng.next() - 0.5) * 40 : 0;
      const lead = poses.get(u.markers[0]!)!;
      const dir = ((lead.headingDeg + (rng.next() - 0.5) * 60) * Math.PI) / 180;
      let dx = -Math.sin(dir) * dist;
      let dy = Math.cos(dir) * dist;
      // Stay on the table: turn back if the unit would leave it.
      const cx = u.markers.reduce((s, m) => s + poses.get(m)!.x, 0) / u.markers.length;
      const cy = u.markers.reduce((s, m) => s + poses.get(m)!.y, 0) / u.markers.length;
      if (cx + dx < 100 || cx + dx > widthMm - 100) dx = -dx;
      if (cy + dy < 100 || cy + dy > depthMm - 100) dy = -dy;
      const move: ScheduledMove = { unitIndex: i, start: t, end: t + this.o.moveDurationMs, dx, dy, dh };
      this.moves.push(move);
      poses = this.applyMove(poses, move, 1);
      this.restPoses.push(poses);
    }
  }

  get frameCount(): number {
    return Math.floor(this.durationMs / this.frameIntervalMs) + 1;
  }

  private applyMove(
    poses: Map<number, RecordedPose>,
    m: ScheduledMove,
    f: number,
  ): Map<number, RecordedPose> {
    const markers = this.units[m.unitIndex]!.markers;
    const cx = markers.reduce((s, id) => s + poses.get(id)!.x, 0) / markers.length;
    const cy = markers.reduce((s, id) => s + poses.get(id)!.y, 0) / markers.length;
    const a = (m.dh * f * Math.PI) / 180;
    const cos = Math.cos(a);
    const sin = Math.sin(a);
    const out = new Map(poses);
    for (const id of markers) {
      const p = poses.get(id)!;
      const rx = p.x - cx;
      const ry = p.y - cy;
      out.set(id, {
        ...p,
        x: cx + rx * cos - ry * sin + m.dx * f,
        y: cy + rx * sin + ry * cos + m.dy * f,
        headingDeg: p.headingDeg + m.dh * f,
      });
    }
    return out;
  }

  /** True poses at t (ms since the start). */
  truthAt(elapsedMs: number): Map<number, RecordedPose> {
    // Moves are in time order and never overlap.
    let lo = 0;
    let hi = this.moves.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.moves[mid]!.start <= elapsedMs) lo = mid + 1;
      else hi = mid;
    }
    const started = lo; // moves[0..started-1] have started
    if (started === 0) return this.restPoses[0]!;
    const m = this.moves[started - 1]!;
    if (elapsedMs >= m.end) return this.restPoses[started]!;
    const f = (elapsedMs - m.start) / (m.end - m.start);
    return this.applyMove(this.restPoses[started - 1]!, m, 0.5 - 0.5 * Math.cos(Math.PI * f));
  }

  /** Frame i as the tracker would report it: true poses plus jitter. */
  frame(i: number): { at: number; bases: PoseSample[] } {
    const elapsed = i * this.frameIntervalMs;
    const truth = this.truthAt(elapsed);
    const bases: PoseSample[] = [];
    for (const p of truth.values())
      bases.push({
        ...p,
        x: p.x + this.jitter.gauss() * this.o.jitterMm,
        y: p.y + this.jitter.gauss() * this.o.jitterMm,
        headingDeg: p.headingDeg + this.jitter.gauss() * this.o.jitterDeg,
        seen: true,
      });
    return { at: this.startedAt + elapsed, bases };
  }

  get scheduledMoves(): number {
    return this.moves.length;
  }

  /** Base moves the schedule makes (every base of the moving unit, each time). */
  get scheduledBaseMoves(): number {
    return this.moves.reduce((s, m) => s + this.units[m.unitIndex]!.markers.length, 0);
  }
}
