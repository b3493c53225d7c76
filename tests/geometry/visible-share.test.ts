import { describe, expect, it } from 'vitest';
import { rng } from '../../bench/rules-scenario.ts';
import type { Polygon } from '../../src/geometry/polygon.ts';
import { sightScreen, visibleRegion, type SightScreen } from '../../src/geometry/visible-region.ts';
import { visibleShare } from '../../src/geometry/visible-share.ts';
import { turnedRect } from './turned.ts';

/** A unit-sized turned rectangle near (cx, cy). */
const near = (r: () => number, cx: number, cy: number, spread: number): Polygon =>
  turnedRect(
    cx + (r() - 0.5) * spread,
    cy + (r() - 0.5) * spread,
    40 + r() * 120,
    20 + r() * 40,
    r() * Math.PI,
  );

describe('visibleShare: the seen share alone', () => {
  it('equals visibleRegion(…).share to the last bit, over hidden, partly seen, seen and blind sights', () => {
    const r = rng(9127);
    const kinds = { none: 0, some: 0, whole: 0, blind: 0 };
    for (let k = 0; k < 1500; k++) {
      const eye = { x: r() * 1200, y: r() * 1200 };
      const t = { x: r() * 1200, y: r() * 1200 };
      // Screens crowd the sight line (between the eye and the target), so many cut it.
      const screens: SightScreen[] = [];
      const count = 1 + Math.floor(r() * 6);
      for (let i = 0; i < count; i++) {
        const f = 0.2 + r() * 0.7;
        const kind = (['solid', 'solid', 'screen', 'wood', 'area'] as const)[Math.floor(r() * 5)] ?? 'solid';
        const poly = near(r, eye.x + (t.x - eye.x) * f, eye.y + (t.y - eye.y) * f, 120);
        screens.push(sightScreen(`s${i}`, `s${i}`, poly, kind, kind === 'wood' ? r() * 60 : undefined));
      }
      // Now and then the eye stands inside a solid (it sees nothing).
      if (k % 50 === 0)
        screens.push(sightScreen('round-eye', 'round-eye', near(r, eye.x, eye.y, 0), 'solid'));
      const target = r() < 0.3 ? [near(r, t.x, t.y, 0), near(r, t.x, t.y, 60)] : [near(r, t.x, t.y, 0)];
      const region = visibleRegion(eye, target, screens);
      const share = visibleShare(eye, target, screens);
      expect(Object.is(share, region.share), `sight ${k}: ${share} against ${region.share}`).toBe(true);
      if (region.blind) kinds.blind++;
      else if (region.share === 0) kinds.none++;
      else if (region.share === 1) kinds.whole++;
      else kinds.some++;
    }
    // The scenes reach every case the share has (with this seed: none 926, some 435, whole 85, blind 54).
    expect(kinds.blind).toBeGreaterThan(10);
    expect(kinds.none).toBeGreaterThan(100);
    expect(kinds.some).toBeGreaterThan(100);
    expect(kinds.whole).toBeGreaterThan(40);
  });
});
