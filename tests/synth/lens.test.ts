import { describe, expect, it } from 'vitest';
import { distort, undistort, type Distortion } from '../../src/synth/lens.ts';
import { DEFAULT_DISTORTION } from '../../src/synth/camera.ts';

const LENSES: Distortion[] = [
  DEFAULT_DISTORTION,
  [0, 0, 0, 0, 0],
  [-0.3, 0.12, 0.001, -0.002, -0.02],
  [0.1, -0.02, -0.003, 0.002, 0.004],
];

describe('synth lens', () => {
  it('undistort inverts distort to 1e-12 across the field of view', () => {
    for (const d of LENSES) {
      for (let x = -0.9; x <= 0.9; x += 0.05) {
        for (let y = -0.6; y <= 0.6; y += 0.05) {
          const [xd = 0, yd = 0] = distort(d, x, y);
          const [xu = 0, yu = 0] = undistort(d, xd, yd);
          expect(Math.abs(xu - x)).toBeLessThan(1e-12);
          expect(Math.abs(yu - y)).toBeLessThan(1e-12);
        }
      }
    }
  });

  it('matches the Brown–Conrady formula at a hand-checked point', () => {
    const [k1, k2, p1, p2, k3] = [-0.08, 0.03, 0.001, -0.002, 0.01];
    const x = 0.4;
    const y = -0.3;
    const r2 = 0.25;
    const radial = 1 + k1 * r2 + k2 * r2 * r2 + k3 * r2 * r2 * r2;
    const [xd = 0, yd = 0] = distort([k1, k2, p1, p2, k3], x, y);
    expect(xd).toBeCloseTo(x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x), 14);
    expect(yd).toBeCloseTo(y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y, 14);
  });

  it('is the identity without distortion', () => {
    const [xd = 0, yd = 0] = distort([0, 0, 0, 0, 0], 0.3, -0.7);
    expect([xd, yd]).toEqual([0.3, -0.7]);
  });
});
