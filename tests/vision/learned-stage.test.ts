import { beforeAll, describe, expect, it } from 'vitest';
import { benchScenario } from '../../bench/accuracy-scenes.ts';
import { frameTable } from '../../src/synth/camera.ts';
import { renderScene, toGrey, type SynthFrame } from '../../src/synth/render.ts';
import type { Quad } from '../../src/vision/candidates.ts';
import { codeBook, dictionaryCodes, type CodeBook } from '../../src/vision/code-book.ts';
import type { MarkerClass } from '../../src/vision/finding-priors.ts';
import { LearnedTagReader } from '../../src/vision/learned-reader.ts';
import { readUnsureQuads } from '../../src/vision/learned-stage.ts';
import type { Grey } from '../../src/vision/tag-footprint.ts';

/**
 * The learned stage of the marker finder against the renderer's truth: 15 mm ArUco MIP 36h12 tags
 * over a 72 × 48 in table at 1080p (about 1.5 px per cell), every tag's true quad handed over in
 * a different starting corner, as unsure quads would be. Seed 22 is the tests' own.
 */
describe('learned stage on 15 mm tags at 1080p', () => {
  let frame: SynthFrame;
  let grey: Grey;
  let book: CodeBook;
  let reader: LearnedTagReader;
  const markerClass: MarkerClass = { sizeMm: 15, heightMm: 3, ids: [] };

  beforeAll(async () => {
    const scenario = benchScenario({ dictionary: 'aruco_mip_36h12', markerMm: 15, seed: 22 });
    frame = await renderScene(scenario, frameTable(scenario.table, { resolution: '1080p', tiltDeg: 10 }), {
      seed: 22,
    });
    grey = { data: toGrey(frame.image), width: frame.image.width, height: frame.image.height };
    book = codeBook(
      await dictionaryCodes('aruco_mip_36h12'),
      frame.truth.bases.map((b) => b.markerId),
    );
    reader = await LearnedTagReader.load();
  });

  const turned = (c: readonly { u: number; v: number }[], shift: number) =>
    [0, 1, 2, 3].map((k) => c[(k + shift) % 4]!) as unknown as Quad;

  it('reads most tags, each with its own id and its corners put back in marker order', () => {
    const bases = frame.truth.bases;
    const reads = readUnsureQuads(
      reader,
      grey,
      bases.map((b, i) => ({ quad: turned(b.marker.cornersPx, i % 4), markerClass })),
      () => book,
    );
    for (const r of reads) {
      const base = bases.find((b) => b.markerId === r.id);
      expect(base, `read ${r.id}`).toBeDefined();
      // Marker order: corner 0 is the tag's top-left, within the edge refinement's reach.
      const c0 = base!.marker.cornersPx[0];
      expect(Math.hypot(r.corners[0].u - c0.u, r.corners[0].v - c0.v)).toBeLessThan(1.5);
      expect(r.confidence).toBeGreaterThanOrEqual(reader.spec.readThreshold);
    }
    expect(new Set(reads.map((r) => r.id)).size).toBe(reads.length);
    expect(reads.length).toBeGreaterThanOrEqual(0.8 * bases.length);
  });

  it('reads nothing from quads half a tag off, and leaves large tags to the decoder', () => {
    const shifted = frame.truth.bases.map((b) => {
      const c = b.marker.cornersPx;
      const du = (c[1].u - c[0].u) / 2;
      const dv = (c[1].v - c[0].v) / 2;
      return { quad: c.map((p) => ({ u: p.u + du, v: p.v + dv })) as unknown as Quad, markerClass };
    });
    expect(readUnsureQuads(reader, grey, shifted, () => book)).toEqual([]);
    const few = frame.truth.bases.map((b) => ({ quad: b.marker.cornersPx as unknown as Quad, markerClass }));
    expect(readUnsureQuads(reader, grey, few, () => book, { maxCellPx: 1, maxQuads: 64 })).toEqual([]);
  });
});
