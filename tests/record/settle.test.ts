import { describe, expect, it } from 'vitest';
import { SettleDetector, type PoseSample } from '../../src/record/settle.ts';

const at = (x: number, y: number, headingDeg = 0, seen = true, markerId = 1): PoseSample => ({
  markerId,
  x,
  y,
  headingDeg,
  sigmaMm: 0.2,
  sigmaHeadingDeg: 0.1,
  seen,
});

/** Deterministic jitter in [-a, a]. */
const wobble = (i: number, a: number) => a * Math.sin(i * 12.9898 + 78.233);

describe('settle detector', () => {
  it('emits a base’s first rest after N frames, at the mean pose', () => {
    const d = new SettleDetector({ frames: 5, toleranceMm: 2, toleranceDeg: 2 });
    const out = [];
    for (let i = 0; i < 5; i++)
      out.push(...d.update(i * 100, [at(100 + wobble(i, 0.5), 50, wobble(i + 3, 0.5))]));
    expect(out).toHaveLength(1);
    expect(out[0]!.t).toBe(400);
    expect(out[0]!.from).toBeNull();
    expect(out[0]!.pose.x).toBeCloseTo(100 + [0, 1, 2, 3, 4].reduce((s, i) => s + wobble(i, 0.5), 0) / 5, 9);
  });

  it('never turns jitter into moves, even with the odd outlier', () => {
    const d = new SettleDetector({ frames: 5, toleranceMm: 2, toleranceDeg: 2 });
    let moves = 0;
    for (let i = 0; i < 10_000; i++) {
      const outlier = i % 997 === 0 ? 3 : 0; // a misread now and then
      moves += d.update(i * 100, [
        at(100 + wobble(i, 0.8) + outlier, 50 + wobble(i + 7, 0.8), wobble(i + 1, 0.9)),
      ]).length;
    }
    expect(moves).toBe(1); // the first settle only
  });

  it('records a move when the base comes to rest somewhere new, with where it came from', () => {
    const d = new SettleDetector({ frames: 4, toleranceMm: 2, toleranceDeg: 2 });
    const moves = [];
    let t = 0;
    for (let i = 0; i < 6; i++) moves.push(...d.update((t += 100), [at(100, 50)]));
    for (let s = 1; s <= 10; s++) moves.push(...d.update((t += 100), [at(100 + s * 8, 50, s)])); // moving 8 mm/frame
    for (let i = 0; i < 6; i++) moves.push(...d.update((t += 100), [at(180, 50, 10)]));
    expect(moves).toHaveLength(2);
    const m = moves[1]!;
    expect(m.from).toMatchObject({ x: 100, y: 50 });
    expect(m.pose).toMatchObject({ x: 180, y: 50, headingDeg: 10 });
    expect(m.movingSince).toBe(700);
    expect(m.t).toBe(1900);
  });

  it('notices a turn on the spot (heading only)', () => {
    const d = new SettleDetector({ frames: 3, toleranceMm: 2, toleranceDeg: 2 });
    let n = 0;
    for (let i = 0; i < 5; i++) n += d.update(i, [at(0, 0, 179)]).length;
    for (let i = 5; i < 10; i++) n += d.update(i, [at(0, 0, -150)]).length; // across ±180
    for (let i = 10; i < 15; i++) n += d.update(i, [at(0, 0, -147.5)]).length; // a nudge, not a move
    expect(n).toBe(2);
    expect(d.settledPoses()[0]!.headingDeg).toBeCloseTo(-150, 9);
  });

  it('ignores frames where the base is hidden (neither counts nor resets)', () => {
    const d = new SettleDetector({ frames: 3, toleranceMm: 2, toleranceDeg: 2 });
    let n = 0;
    n += d.update(0, [at(0, 0)]).length;
    n += d.update(1, [at(500, 500, 0, false)]).length;
    n += d.update(2, [at(0.1, 0)]).length;
    n += d.update(3, [at(0, 0.1)]).length;
    expect(n).toBe(1);
  });

  it('refuses nonsense options', () => {
    expect(() => new SettleDetector({ frames: 0 })).toThrow(/frames/);
    expect(() => new SettleDetector({ toleranceMm: 5, minMoveMm: 3 })).toThrow(/smallest move/);
  });
});
