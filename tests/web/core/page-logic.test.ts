import { describe, expect, it } from 'vitest';
import type { StateMessage } from '../../../src/server/protocol.ts';
import { backoffDelay } from '../../../web/src/core/connection.ts';
import { FrameSync, type PresentedFrame } from '../../../web/src/core/frame-sync.ts';
import { parseServerMessage } from '../../../web/src/core/messages.ts';
import { pick, resendFor, type Selection } from '../../../web/src/core/selection.ts';
import { FpsMeter } from '../../../web/src/core/status.ts';
import { cssToImage, fitContain, imageToCss } from '../../../web/src/core/viewport.ts';

describe('selection', () => {
  it('measures on the second pick, restarts on a third, clears on empty space', () => {
    let sel: Selection = [];
    let step = pick(sel, 'a');
    expect(step).toEqual({ selection: ['a'], send: null });
    sel = step.selection;
    step = pick(sel, 'b');
    expect(step).toEqual({ selection: ['a', 'b'], send: { type: 'measure', a: 'a', b: 'b' } });
    sel = step.selection;
    expect(resendFor(sel)).toEqual({ type: 'measure', a: 'a', b: 'b' });
    expect(pick(sel, 'c')).toEqual({ selection: ['c'], send: { type: 'clearMeasure' } });
    expect(pick(sel, 'b')).toEqual({ selection: ['a'], send: { type: 'clearMeasure' } });
    expect(pick(sel, null)).toEqual({ selection: [], send: { type: 'clearMeasure' } });
    expect(pick(['a'], 'a')).toEqual({ selection: [], send: null });
    expect(pick([], null)).toEqual({ selection: [], send: null });
    expect(resendFor(['a'])).toBeNull();
  });
});

describe('viewport', () => {
  it('letterboxes the picture and maps clicks back to image pixels', () => {
    const vp = fitContain(1000, 1000, 1920, 1080);
    expect(vp.scale).toBeCloseTo(1000 / 1920);
    expect(vp.offsetX).toBeCloseTo(0, 9);
    expect(vp.offsetY).toBeCloseTo((1000 - 1080 * vp.scale) / 2);
    // The picture's top-left edge is image coordinate (-0.5, -0.5): pixel centres at integers.
    const corner = cssToImage(vp, { x: vp.offsetX, y: vp.offsetY });
    expect(corner.u).toBeCloseTo(-0.5);
    expect(corner.v).toBeCloseTo(-0.5);
    const p = { u: 812.25, v: 77.5 };
    const back = cssToImage(vp, imageToCss(vp, p));
    expect(back.u).toBeCloseTo(p.u, 9);
    expect(back.v).toBeCloseTo(p.v, 9);
  });
});

describe('backoffDelay', () => {
  it('doubles from the minimum up to the cap, with ±25 % jitter', () => {
    expect(backoffDelay(1, 500, 10_000, () => 0.5)).toBe(500);
    expect(backoffDelay(3, 500, 10_000, () => 0.5)).toBe(2000);
    expect(backoffDelay(30, 500, 10_000, () => 0.5)).toBe(10_000);
    expect(backoffDelay(1, 500, 10_000, () => 0)).toBe(375);
    expect(backoffDelay(1, 500, 10_000, () => 1)).toBe(625);
  });
});

describe('FpsMeter', () => {
  it('counts frames over its window', () => {
    const m = new FpsMeter(2000);
    expect(m.rate(0)).toBeNull();
    for (let t = 0; t <= 1000; t += 100) m.tick(t);
    expect(m.rate(1000)).toBeCloseTo(10);
    expect(m.rate(5000)).toBeNull();
  });
});

describe('parseServerMessage', () => {
  it('accepts the protocol messages and refuses anything else', () => {
    expect(parseServerMessage('{"type":"hello","scenario":"s","source":"synthetic"}')?.type).toBe('hello');
    expect(parseServerMessage('{"type":"error","message":"x"}')?.type).toBe('error');
    expect(parseServerMessage('not json')).toBeNull();
    expect(parseServerMessage('{"type":"state","frame":1}')).toBeNull();
    expect(parseServerMessage('{"type":"other"}')).toBeNull();
    const state = {
      type: 'state',
      frame: 1,
      timestamp: 0,
      table: { widthMm: 1, depthMm: 1 },
      camera: { imageWidth: 10, imageHeight: 10, distortion: [0, 0, 0, 0, 0] },
      pose: null,
      units: [{ id: 'u', bases: [{}] }],
      detectionMs: 1,
      measurement: null,
    };
    expect(parseServerMessage(JSON.stringify(state))?.type).toBe('state');
  });
});

describe('FrameSync', () => {
  class Pic {
    closed = false;
    constructor(readonly n: number) {}
    close() {
      this.closed = true;
    }
  }
  const st = (frame: number) => ({ type: 'state', frame }) as unknown as StateMessage;
  const bytes = (n: number) => new Uint8Array([n]).buffer;

  function harness() {
    const pending: Array<{ n: number; resolve: (p: Pic) => void }> = [];
    const shown: Array<PresentedFrame<Pic>> = [];
    const sync = new FrameSync<Pic>(
      (data) => new Promise<Pic>((resolve) => pending.push({ n: new Uint8Array(data)[0]!, resolve })),
      (f) => shown.push(f),
    );
    const finish = async () => {
      const job = pending.shift()!;
      const pic = new Pic(job.n);
      job.resolve(pic);
      await Promise.resolve();
      await Promise.resolve();
      return pic;
    };
    return { sync, pending, shown, finish };
  }

  it('presents a picture with the state that followed it', async () => {
    const h = harness();
    h.sync.pushFrame(bytes(1));
    h.sync.pushState(st(1));
    await h.finish();
    expect(h.shown.map((f) => [f.picture.n, f.state.frame])).toEqual([[1, 1]]);
    // A second state without a new picture is not paired with the old picture.
    expect(h.sync.pushState(st(1))).toBe(false);
  });

  it('waits for the state when the decode finishes first', async () => {
    const h = harness();
    h.sync.pushFrame(bytes(1));
    await h.finish();
    expect(h.shown).toHaveLength(0);
    h.sync.pushState(st(1));
    expect(h.shown.map((f) => f.state.frame)).toEqual([1]);
  });

  it('drops frames that arrive while a decode is pending, keeping only the newest', async () => {
    const h = harness();
    h.sync.pushFrame(bytes(1));
    h.sync.pushState(st(1));
    h.sync.pushFrame(bytes(2));
    h.sync.pushState(st(2));
    h.sync.pushFrame(bytes(3));
    h.sync.pushState(st(3));
    expect(h.pending).toHaveLength(1); // one decode at a time
    await h.finish();
    await h.finish(); // frame 3 (frame 2 was replaced while waiting)
    expect(h.pending).toHaveLength(0);
    expect(h.shown.map((f) => [f.picture.n, f.state.frame])).toEqual([
      [1, 1],
      [3, 3],
    ]);
    expect(h.sync.stats).toMatchObject({ received: 3, dropped: 1, presented: 2 });
  });

  it('closes a picture whose frame was superseded before its state came', async () => {
    const h = harness();
    h.sync.pushFrame(bytes(1));
    const p1 = await h.finish();
    h.sync.pushFrame(bytes(2));
    h.sync.pushState(st(2));
    await h.finish();
    expect(h.shown.map((f) => f.state.frame)).toEqual([2]);
    expect(p1.closed).toBe(true);
  });

  it('forgets frames in flight on reset', async () => {
    const h = harness();
    h.sync.pushFrame(bytes(1));
    h.sync.reset();
    h.sync.pushState(st(9));
    const p = await h.finish();
    expect(p.closed).toBe(true);
    expect(h.shown).toHaveLength(0);
  });
});
