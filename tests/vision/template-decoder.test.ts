import { beforeAll, describe, expect, it } from 'vitest';
import { benchScenario } from '../../bench/accuracy-scenes.ts';
import { frameTable } from '../../src/synth/camera.ts';
import { renderScene, toGrey, type SynthFrame } from '../../src/synth/render.ts';
import { codeBook, dictionaryCodes, type CodeBook } from '../../src/vision/code-book.ts';
import { readQuad } from '../../src/vision/template-decoder.ts';
import type { Grey } from '../../src/vision/tag-footprint.ts';

/**
 * The maximum-likelihood decoder against the renderer's truth: 15 mm ArUco MIP 36h12 tags over a
 * 72 × 48 in table at 1080p (about 1.5 px per cell, where OpenCV's own reading fails half the time),
 * read from their true corners in every starting rotation. Half the scene's ids are in play; the
 * other half are markers of the same dictionary that no base declares.
 */
describe('template decoder on 15 mm tags at 1080p', () => {
  let frame: SynthFrame;
  let grey: Grey;
  let book: CodeBook;
  let inPlay: Set<number>;

  beforeAll(async () => {
    const scenario = benchScenario({ dictionary: 'aruco_mip_36h12', markerMm: 15, seed: 21 });
    frame = await renderScene(scenario, frameTable(scenario.table, { resolution: '1080p', tiltDeg: 10 }), {
      seed: 21,
    });
    grey = { data: toGrey(frame.image), width: frame.image.width, height: frame.image.height };
    const ids = frame.truth.bases.map((b) => b.markerId);
    inPlay = new Set([0, 1, 2, 3, ...ids.filter((_, i) => i % 2 === 0)]);
    book = codeBook(await dictionaryCodes('aruco_mip_36h12'), inPlay);
  });

  const quadOf = (c: SynthFrame['truth']['bases'][number]['marker']['cornersPx'], shift: number) =>
    [0, 1, 2, 3].map((k) => c[(k + shift) % 4]!) as [
      { u: number; v: number },
      { u: number; v: number },
      { u: number; v: number },
      { u: number; v: number },
    ];

  it('reads every tag in play, in every rotation, with its corners put back in marker order', () => {
    let read = 0;
    for (const base of frame.truth.bases.filter((b) => inPlay.has(b.markerId))) {
      for (let shift = 0; shift < 4; shift++) {
        const r = readQuad(grey, quadOf(base.marker.cornersPx, shift), book)!;
        expect(r.id, `marker ${base.markerId} rotation ${shift}`).toBe(base.markerId);
        expect(r.rotation).toBe(shift);
        expect(r.corners[0]).toEqual(base.marker.cornersPx[0]);
        expect(r.evidence).toBeGreaterThan(20);
        expect(r.plausibility).toBeGreaterThan(5);
        read++;
      }
    }
    expect(read).toBe(4 * 27);
  });

  it('never reads a marker that is not in play as one that is, and names its own code instead', () => {
    let named = 0;
    const foreign = frame.truth.bases.filter((b) => !inPlay.has(b.markerId));
    for (const base of foreign) {
      const r = readQuad(grey, quadOf(base.marker.cornersPx, 1), book)!;
      expect(r.plausibility, `marker ${base.markerId} read as ${r.id}`).toBeLessThan(0);
      if (r.foreign?.id === base.markerId && r.foreign.evidence > 10) named++;
    }
    expect(named).toBeGreaterThanOrEqual(foreign.length - 2);
  });

  it('finds no code in plain cloth or in the white sticker around a tag', () => {
    for (const base of frame.truth.bases.slice(0, 10)) {
      const c = base.marker.cornersPx;
      // The same quad moved two tag widths sideways: cloth (and perhaps a base wall).
      const side = Math.hypot(c[1].u - c[0].u, c[1].v - c[0].v);
      const moved = c.map((p) => ({ u: p.u + 2 * side, v: p.v })) as unknown as Parameters<
        typeof readQuad
      >[1];
      const r = readQuad(grey, moved, book);
      if (r) expect(r.evidence < 10 || r.plausibility < 2, `cloth beside ${base.markerId}`).toBe(true);
    }
  });
});
