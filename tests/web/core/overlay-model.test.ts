import { describe, expect, it } from 'vitest';
import { projectTablePoint } from '../../../src/camera/projection.ts';
import type { StateMessage, UnitView } from '../../../src/server/protocol.ts';
import {
  buildOverlay,
  footprintCorners,
  formatDistance,
  hitTest,
  pointInPolygon,
  unitInteriorPoint,
} from '../../../web/src/core/overlay-model.ts';

// A camera 1.5 m above the table centre looking straight down: table +x → image right,
// table +y → image up. Mild barrel distortion so outlines are not exact rectangles.
const camera: StateMessage['camera'] = {
  name: 'test',
  source: 'synthetic',
  imageWidth: 1920,
  imageHeight: 1080,
  fx: 1400,
  fy: 1400,
  cx: 959.5,
  cy: 539.5,
  distortion: [-0.08, 0.02, 0, 0, 0],
};
const pose: NonNullable<StateMessage['pose']> = {
  rotation: [1, 0, 0, 0, -1, 0, 0, 0, -1],
  translation: [-914.4, 609.6, 1500],
};

function unit(id: string, side: string, x: number, y: number, headingDeg = 0, seen = true): UnitView {
  return {
    id,
    name: id.toUpperCase(),
    side,
    colour: side === 'red' ? '#c0392b' : '#2c5aa0',
    bases: [0, 1, 2].map((i) => ({
      markerId: id.length * 10 + i,
      x: x + 40 * i,
      y,
      headingDeg,
      widthMm: 40,
      depthMm: 40,
      topMm: 3,
      seen,
      sigmaMm: 0.5,
    })),
  };
}

function state(overrides: Partial<StateMessage> = {}): StateMessage {
  return {
    type: 'state',
    frame: 7,
    timestamp: 0,
    table: { widthMm: 1828.8, depthMm: 1219.2 },
    camera,
    pose,
    poseStatus: 'stable',
    units: [unit('a', 'red', 700, 400), unit('b', 'blue', 700, 800, 180, false)],
    detectionMs: 12,
    measurement: {
      a: 'a',
      b: 'b',
      distanceIn: 14.173,
      uncertaintyIn: 0.04,
      from: { x: 740, y: 420 },
      to: { x: 740, y: 780 },
      valid: true,
      text: '14.17 in ± 0.04',
    },
    ...overrides,
  };
}

describe('footprintCorners', () => {
  it('turns counter-clockwise seen from above, heading 0 facing +y', () => {
    const [rl, rr, fr, fl] = footprintCorners({ x: 100, y: 200, headingDeg: 90, widthMm: 40, depthMm: 20 });
    // Heading 90: the front faces −x, the base's right points +y.
    expect(fl!.x).toBeCloseTo(90);
    expect(fr!.x).toBeCloseTo(90);
    expect(rl!.x).toBeCloseTo(110);
    expect(fr!.y).toBeCloseTo(220);
    expect(rr!.y).toBeCloseTo(220);
    expect(fl!.y).toBeCloseTo(180);
  });
});

describe('buildOverlay', () => {
  it('projects each footprint at its top surface through the lens model', () => {
    const model = buildOverlay(state(), [], { samplesPerEdge: 4, samplesPerLine: 8 });
    const a = model.units.find((u) => u.id === 'a')!;
    expect(a.bases).toHaveLength(3);
    const base = a.bases[0]!;
    expect(base.outline).toHaveLength(16);
    const corner = footprintCorners({ x: 700, y: 400, headingDeg: 0, widthMm: 40, depthMm: 40 })[0]!;
    const expected = projectTablePoint(camera, pose, { ...corner, z: 3 })!;
    expect(base.outline[0]!.u).toBeCloseTo(expected.u, 9);
    expect(base.outline[0]!.v).toBeCloseTo(expected.v, 9);
    expect(a.unseen).toBe(false);
    expect(model.units.find((u) => u.id === 'b')!.unseen).toBe(true);
  });

  it('places the name label above the unit', () => {
    const model = buildOverlay(state(), []);
    const a = model.units.find((u) => u.id === 'a')!;
    const topOfOutline = Math.min(...a.bases.flatMap((b) => b.outline.map((p) => p.v)));
    expect(a.labelAt.v).toBeCloseTo(topOfOutline);
  });

  it('draws the measurement only for the selected pair, in either order', () => {
    expect(buildOverlay(state(), []).measurement).toBeNull();
    expect(buildOverlay(state(), ['a']).measurement).toBeNull();
    expect(buildOverlay(state(), ['a', 'c']).measurement).toBeNull();
    const m = buildOverlay(state(), ['b', 'a']).measurement!;
    expect(m.label).toBe('edge to edge, nearest bases 14.17 in ± 0.04');
    const from = projectTablePoint(camera, pose, { x: 740, y: 420, z: 3 })!;
    expect(m.path[0]!.u).toBeCloseTo(from.u, 9);
    expect(m.path[0]!.v).toBeCloseTo(from.v, 9);
    expect(buildOverlay(state(), ['a', 'b']).units.every((u) => u.selected)).toBe(true);
  });

  it('draws nothing but says so when the table pose is unknown', () => {
    const model = buildOverlay(state({ pose: null }), ['a', 'b']);
    expect(model.poseKnown).toBe(false);
    expect(model.units).toEqual([]);
    expect(model.measurement).toBeNull();
    expect(model.imageWidth).toBe(1920);
  });
});

describe('hit-testing', () => {
  const model = buildOverlay(state(), []);

  it('finds the unit under a base centre and a point inside it for tests', () => {
    for (const id of ['a', 'b']) {
      const p = unitInteriorPoint(model, id)!;
      expect(hitTest(model, p, 0)).toBe(id);
      const u = model.units.find((x) => x.id === id)!;
      expect(u.bases.some((b) => pointInPolygon(p, b.outline))).toBe(true);
    }
    expect(unitInteriorPoint(model, 'nobody')).toBeNull();
  });

  it('honours the tolerance just outside a footprint, and misses empty table', () => {
    const a = model.units.find((u) => u.id === 'a')!;
    const left = Math.min(...a.bases[0]!.outline.map((p) => p.u));
    const centre = a.bases[0]!.centre;
    const outside = { u: left - 5, v: centre.v };
    expect(hitTest(model, outside, 2)).toBeNull();
    expect(hitTest(model, outside, 8)).toBe('a');
    expect(hitTest(model, { u: 20, v: 20 }, 10)).toBeNull();
  });
});

describe('formatDistance', () => {
  it('shows hundredths, the uncertainty rounded up, at least 0.01', () => {
    expect(formatDistance(7.256, 0.005)).toBe('7.26 in ± 0.01');
    expect(formatDistance(7.244, 0.111)).toBe('7.24 in ± 0.12');
    expect(formatDistance(0, 0)).toBe('0.00 in ± 0.01');
    expect(formatDistance(12, 0.3)).toBe('12.00 in ± 0.30');
  });
});
