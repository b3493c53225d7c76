import { describe, expect, it } from 'vitest';
import { RemeasureBudget } from '../../src/vision/remeasure-budget.ts';

/** Spends everything left in each of `frames` frames captured `gapMs` apart; returns what each frame had. */
function drain(budget: RemeasureBudget, frames: number, gapMs: number, startMs = 0): number[] {
  const had: number[] = [];
  for (let f = 0; f < frames; f++) {
    budget.nextFrame(startMs + f * gapMs);
    had.push(budget.left);
    budget.spend(budget.left);
  }
  return had;
}

describe('RemeasureBudget', () => {
  it('gives the same re-measures per second whether frames come at 30 fps or 10 fps', () => {
    const fast = drain(new RemeasureBudget(120, 24), 301, 1000 / 30);
    const slow = drain(new RemeasureBudget(120, 24), 101, 100);
    // Ten seconds each, the first frame's full budget aside: 1,200 re-measures, whole ones only.
    const sum = (a: number[]) => a.slice(1).reduce((s, x) => s + x, 0);
    expect(sum(fast)).toBeGreaterThanOrEqual(1195);
    expect(sum(fast)).toBeLessThanOrEqual(1200);
    expect(sum(slow)).toBe(1200);
    expect(Math.max(...fast.slice(1))).toBeLessThanOrEqual(5);
    expect(slow.slice(1).every((n) => n === 12)).toBe(true);
  });

  it('never holds more than its most, however late a frame comes', () => {
    const budget = new RemeasureBudget(120, 24);
    expect(drain(budget, 3, 5000)).toEqual([24, 24, 24]);
    budget.nextFrame(60_000);
    expect(budget.left).toBe(24);
  });

  it('keeps what a frame did not spend, up to its most', () => {
    const budget = new RemeasureBudget(120, 24);
    budget.nextFrame(0);
    budget.spend(20);
    budget.nextFrame(50); // six earned
    expect(budget.left).toBe(10);
    budget.spend(3);
    budget.nextFrame(100);
    expect(budget.left).toBe(13);
  });

  it('earns nothing from a clock that went back, and counts on from there', () => {
    const budget = new RemeasureBudget(120, 24);
    budget.nextFrame(10_000);
    budget.spend(24);
    budget.nextFrame(0);
    expect(budget.left).toBe(0);
    budget.nextFrame(100);
    expect(budget.left).toBe(12);
  });

  it('earns nothing from a capture time that is not a number, and counts on from the last one', () => {
    const budget = new RemeasureBudget(120, 24);
    budget.nextFrame(0);
    budget.spend(24);
    budget.nextFrame(Number.NaN);
    expect(budget.left).toBe(0);
    budget.nextFrame(100);
    expect(budget.left).toBe(12);
  });

  it('spends no more than it holds', () => {
    const budget = new RemeasureBudget(120, 24);
    budget.spend(100);
    expect(budget.left).toBe(0);
  });
});
