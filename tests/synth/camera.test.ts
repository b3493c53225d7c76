import { describe, expect, it } from 'vitest';
import {
  frameTable,
  projectPoint,
  RESOLUTIONS,
  syntheticCameraProfile,
  truePose,
  cameraCentre,
} from '../../src/synth/camera.ts';
import { parseCameraProfile } from '../../src/camera/profile.ts';
import { loadOpenCV } from '../../src/vision/opencv.ts';

const TABLE = { widthMm: 1828.8, depthMm: 1219.2 };

describe('synth camera', () => {
  it.each(Object.entries(RESOLUTIONS))('%s frames the whole table inside the image', (name, size) => {
    const cam = frameTable(TABLE, { resolution: name as keyof typeof RESOLUTIONS });
    expect([cam.width, cam.height]).toEqual([size.width, size.height]);
    for (const [x, y] of [
      [0, 0],
      [TABLE.widthMm, 0],
      [TABLE.widthMm, TABLE.depthMm],
      [0, TABLE.depthMm],
    ] as const) {
      const p = projectPoint(cam, { x, y, z: 0 });
      expect(p).not.toBeNull();
      expect(p!.u).toBeGreaterThan(0);
      expect(p!.v).toBeGreaterThan(0);
      expect(p!.u).toBeLessThan(cam.width - 1);
      expect(p!.v).toBeLessThan(cam.height - 1);
    }
  });

  it('hangs about heightMm above the table, table +y up in the image, +x to the right', () => {
    const cam = frameTable(TABLE, { heightMm: 1200, tiltDeg: 10 });
    const c = cameraCentre(cam);
    expect(c.z).toBeCloseTo(1200, 6);
    expect(c.x).toBeCloseTo(TABLE.widthMm / 2, 6);
    expect(c.y).toBeLessThan(TABLE.depthMm / 2);
    const centre = projectPoint(cam, { x: TABLE.widthMm / 2, y: TABLE.depthMm / 2, z: 0 })!;
    const right = projectPoint(cam, { x: TABLE.widthMm / 2 + 100, y: TABLE.depthMm / 2, z: 0 })!;
    const far = projectPoint(cam, { x: TABLE.widthMm / 2, y: TABLE.depthMm / 2 + 100, z: 0 })!;
    expect(right.u).toBeGreaterThan(centre.u);
    expect(far.v).toBeLessThan(centre.v);
  });

  it('has an orthonormal, right-handed rotation', () => {
    const r = truePose(frameTable(TABLE, { tiltDeg: 15, rollDeg: 3, offsetMm: { x: 50, y: -20 } })).rotation;
    const row = (i: number) => [r[3 * i]!, r[3 * i + 1]!, r[3 * i + 2]!];
    const dot = (a: number[], b: number[]) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++) expect(dot(row(i), row(j))).toBeCloseTo(i === j ? 1 : 0, 12);
    const [x, y, z] = [row(0), row(1), row(2)];
    const cross = [
      x[1]! * y[2]! - x[2]! * y[1]!,
      x[2]! * y[0]! - x[0]! * y[2]!,
      x[0]! * y[1]! - x[1]! * y[0]!,
    ];
    cross.forEach((v, i) => expect(v).toBeCloseTo(z[i]!, 12));
  });

  it('gives a valid synthetic camera profile', () => {
    const profile = parseCameraProfile(syntheticCameraProfile(frameTable(TABLE)));
    expect(profile.source).toBe('synthetic');
    expect(profile.imageWidth).toBe(1920);
  });

  it("projects exactly as OpenCV's projectPoints", async () => {
    const cv = await loadOpenCV();
    const cam = frameTable(TABLE, { tiltDeg: 12, rollDeg: 2 });
    const pts: [number, number, number][] = [];
    for (let x = 0; x <= TABLE.widthMm; x += 300)
      for (let y = 0; y <= TABLE.depthMm; y += 300) pts.push([x, y, (x + y) % 7]);
    const obj = cv.matFromArray(pts.length, 1, cv.CV_64FC3, pts.flat());
    const rmat = cv.matFromArray(3, 3, cv.CV_64F, [...cam.rotation]);
    const rvec = new cv.Mat();
    cv.Rodrigues(rmat, rvec);
    const tvec = cv.matFromArray(3, 1, cv.CV_64F, [...cam.translation]);
    const k = cv.matFromArray(3, 3, cv.CV_64F, [cam.fx, 0, cam.cx, 0, cam.fy, cam.cy, 0, 0, 1]);
    const dist = cv.matFromArray(1, 5, cv.CV_64F, [...cam.distortion]);
    const img = new cv.Mat();
    cv.projectPoints(obj, rvec, tvec, k, dist, img);
    const out = img.data64F as Float64Array;
    pts.forEach(([x, y, z], i) => {
      const p = projectPoint(cam, { x, y, z })!;
      expect(Math.abs(p.u - out[2 * i]!)).toBeLessThan(1e-6);
      expect(Math.abs(p.v - out[2 * i + 1]!)).toBeLessThan(1e-6);
    });
    for (const m of [obj, rmat, rvec, tvec, k, dist, img]) m.delete();
  });
});
