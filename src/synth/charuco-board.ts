import { BOARD_DICTIONARY_CONSTANTS, boardLayout, type BoardSpec } from '../camera/calibration-board.ts';
import { loadOpenCV } from '../vision/opencv.ts';
import { cameraCentre, type SynthCamera } from './camera.ts';
import { undistort } from './lens.ts';
import type { Rect } from './noise.ts';

/**
 * A printed ChArUco board held over the synthetic table, for calibrating the synthetic camera
 * the way a player calibrates a real one. OpenCV only prints the board (`generateImage`, one
 * texel per 1/pxPerMm mm, exactly what `vedette print board` puts on paper); the picture is
 * ray-cast with the synthetic camera's own lens (src/synth/lens.ts), never with src/camera, so
 * a calibration of these pictures is checked against an independent truth.
 */

/** The printed board as a grey bitmap: row 0 is the board's top edge, 255 = paper, 0 = ink. */
export interface BoardImage {
  readonly width: number;
  readonly height: number;
  readonly pxPerMm: number;
  readonly widthMm: number;
  readonly heightMm: number;
  readonly data: Uint8Array;
}

const images = new Map<string, BoardImage>();

/** OpenCV's drawing of the board, `pxPerMm` texels per millimetre, no margin (cached). */
export async function charucoBoardImage(spec: BoardSpec, pxPerMm = 8): Promise<BoardImage> {
  const key = JSON.stringify([
    spec.squaresX,
    spec.squaresY,
    spec.squareLengthMm,
    spec.markerLengthMm,
    spec.dictionary,
    spec.legacyPattern,
    pxPerMm,
  ]);
  const hit = images.get(key);
  if (hit) return hit;
  const cv = await loadOpenCV();
  const layout = boardLayout(spec);
  const width = Math.round(layout.widthMm * pxPerMm);
  const height = Math.round(layout.heightMm * pxPerMm);
  const dictionary = cv.getPredefinedDictionary(cv[BOARD_DICTIONARY_CONSTANTS[spec.dictionary]]);
  const noIds = new cv.Mat();
  const board = new cv.aruco_CharucoBoard(
    new cv.Size(spec.squaresX, spec.squaresY),
    spec.squareLengthMm,
    spec.markerLengthMm,
    dictionary,
    noIds,
  );
  const mat = new cv.Mat();
  try {
    board.setLegacyPattern(spec.legacyPattern);
    board.generateImage(new cv.Size(width, height), mat, 0, 1);
    const image: BoardImage = {
      width,
      height,
      pxPerMm,
      widthMm: layout.widthMm,
      heightMm: layout.heightMm,
      data: new Uint8Array(mat.data as Uint8Array),
    };
    images.set(key, image);
    return image;
  } finally {
    mat.delete();
    board.delete();
    noIds.delete();
    dictionary.delete?.();
  }
}

type Mat3 = number[][];
const mul3 = (A: Mat3, B: Mat3): Mat3 =>
  A.map((row) => B[0]!.map((_, j) => row.reduce((s, v, k) => s + v * B[k]![j]!, 0)));

/** Rotation Rz(az)·Rx(ax)·Ry(ay), degrees, as rows. */
export function boardRotation(axDeg: number, ayDeg: number, azDeg: number): Mat3 {
  const [a, b, c] = [axDeg, ayDeg, azDeg].map((d) => (d * Math.PI) / 180) as [number, number, number];
  const Rx = [
    [1, 0, 0],
    [0, Math.cos(a), -Math.sin(a)],
    [0, Math.sin(a), Math.cos(a)],
  ];
  const Ry = [
    [Math.cos(b), 0, Math.sin(b)],
    [0, 1, 0],
    [-Math.sin(b), 0, Math.cos(b)],
  ];
  const Rz = [
    [Math.cos(c), -Math.sin(c), 0],
    [Math.sin(c), Math.cos(c), 0],
    [0, 0, 1],
  ];
  return mul3(Rz, mul3(Rx, Ry));
}

/**
 * Where the board is held, in table millimetres: its centre (z above the cloth), and how it is
 * turned. Untilted, the board lies face up with its top edge toward the far side of the table
 * (+y), so it reads upright in the picture; `tiltXDeg` tips it about the table's x axis,
 * `tiltYDeg` about y, `yawDeg` turns it about the vertical, in that order (Rz·Rx·Ry).
 */
export interface BoardPose {
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly tiltXDeg: number;
  readonly tiltYDeg: number;
  readonly yawDeg: number;
}

/** A board shown to the synthetic camera: which board, where it is held in turn, how long each. */
export interface CalibrationBoardShow {
  readonly spec: BoardSpec;
  readonly poses: readonly BoardPose[];
  /** Frames the board stays at each pose before moving to the next (default 4). */
  readonly holdFrames?: number;
}

/** The pose index shown in frame `sequence` (the board steps through its poses, then starts again). */
export function boardPoseIndex(
  show: Pick<CalibrationBoardShow, 'poses' | 'holdFrames'>,
  sequence: number,
): number {
  const hold = Math.max(1, Math.round(show.holdFrames ?? 4));
  return show.poses.length === 0 ? -1 : Math.floor(Math.max(0, sequence) / hold) % show.poses.length;
}

/** White paper left around the printed squares, mm. */
const PAPER_MARGIN_MM = 8;
const PAPER = 236;
const INK = 22;

/** The board's frame in table coordinates: centre, its right (+x of the print) and down (+y of the print) axes, normal. */
function boardFrame(pose: BoardPose): { c: number[]; right: number[]; down: number[]; normal: number[] } {
  const R = boardRotation(pose.tiltXDeg, pose.tiltYDeg, pose.yawDeg);
  const col = (j: number) => [R[0]![j]!, R[1]![j]!, R[2]![j]!];
  const ex = col(0);
  const ey = col(1);
  return { c: [pose.x, pose.y, pose.z], right: ex, down: ey.map((v) => -v), normal: col(2) };
}

/**
 * Paints the board at `pose` into a linear RGB float image (0–255 scale, as the shader writes),
 * occluding whatever is behind it, with `samples`² rays per pixel. Returns the pixel rectangle
 * painted (empty if the board is out of view or turned away from the camera).
 */
export function paintBoard(
  cam: SynthCamera,
  board: BoardImage,
  pose: BoardPose,
  buf: Float32Array,
  samples = 3,
): Rect {
  const o = cameraCentre(cam);
  const { c, right, down, normal } = boardFrame(pose);
  const empty: Rect = { x0: 0, y0: 0, x1: 0, y1: 0 };
  const toCam = [o.x - c[0]!, o.y - c[1]!, o.z - c[2]!];
  if (normal[0]! * toCam[0]! + normal[1]! * toCam[1]! + normal[2]! * toCam[2]! <= 0) return empty;
  const hw = board.widthMm / 2 + PAPER_MARGIN_MM;
  const hh = board.heightMm / 2 + PAPER_MARGIN_MM;
  // Bounding rectangle of the paper's corners, in pixels, through the synthetic lens.
  const r = cam.rotation;
  const [tx, ty, tz] = cam.translation;
  let u0 = Infinity;
  let v0 = Infinity;
  let u1 = -Infinity;
  let v1 = -Infinity;
  for (const [sx, sy] of [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
  ] as const) {
    const p = [0, 1, 2].map((i) => c[i]! + sx * hw * right[i]! + sy * hh * down[i]!);
    const xc = r[0] * p[0]! + r[1] * p[1]! + r[2] * p[2]! + tx;
    const yc = r[3] * p[0]! + r[4] * p[1]! + r[5] * p[2]! + ty;
    const zc = r[6] * p[0]! + r[7] * p[1]! + r[8] * p[2]! + tz;
    if (zc <= 1) return empty;
    // The lens model's distortion, written out here (cameraPointToPixel would do the same).
    const [k1, k2, p1, p2, k3] = cam.distortion;
    const x = xc / zc;
    const y = yc / zc;
    const r2 = x * x + y * y;
    const radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3));
    const u = cam.fx * (x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)) + cam.cx;
    const v = cam.fy * (y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y) + cam.cy;
    u0 = Math.min(u0, u);
    v0 = Math.min(v0, v);
    u1 = Math.max(u1, u);
    v1 = Math.max(v1, v);
  }
  const rect: Rect = {
    x0: Math.max(0, Math.floor(u0) - 2),
    y0: Math.max(0, Math.floor(v0) - 2),
    x1: Math.min(cam.width, Math.ceil(u1) + 3),
    y1: Math.min(cam.height, Math.ceil(v1) + 3),
  };
  if (rect.x0 >= rect.x1 || rect.y0 >= rect.y1) return empty;

  const n0 = new Float64Array(2);
  const n1 = new Float64Array(2);
  const n2 = new Float64Array(2);
  const s = Math.max(1, Math.round(samples));
  const w = 1 / (s * s);
  const nx = normal[0]!;
  const ny = normal[1]!;
  const nz = normal[2]!;
  const planeD = nx * (c[0]! - o.x) + ny * (c[1]! - o.y) + nz * (c[2]! - o.z);
  const { data, width: bw, height: bh, pxPerMm } = board;
  const halfW = board.widthMm / 2;
  const halfH = board.heightMm / 2;
  // One ray: paper/ink weight at the hit, or -1 if the ray misses the paper.
  const sample = (x: number, y: number): number => {
    const dx = r[0] * x + r[3] * y + r[6];
    const dy = r[1] * x + r[4] * y + r[7];
    const dz = r[2] * x + r[5] * y + r[8];
    const den = nx * dx + ny * dy + nz * dz;
    if (Math.abs(den) < 1e-12) return -1;
    const t = planeD / den;
    if (t <= 0) return -1;
    const px = o.x + t * dx - c[0]!;
    const py = o.y + t * dy - c[1]!;
    const pz = o.z + t * dz - c[2]!;
    const bx = px * right[0]! + py * right[1]! + pz * right[2]!;
    const by = px * down[0]! + py * down[1]! + pz * down[2]!;
    if (Math.abs(bx) > hw || Math.abs(by) > hh) return -1;
    if (Math.abs(bx) >= halfW || Math.abs(by) >= halfH) return PAPER;
    const col = Math.min(bw - 1, Math.floor((bx + halfW) * pxPerMm));
    const row = Math.min(bh - 1, Math.floor((by + halfH) * pxPerMm));
    return INK + ((PAPER - INK) * data[row * bw + col]!) / 255;
  };
  // Paper is lit a little unevenly (brighter toward the table's hot spot), like the cloth.
  const light = 1.02;
  for (let v = rect.y0; v < rect.y1; v++) {
    for (let u = rect.x0; u < rect.x1; u++) {
      const xd = (u - cam.cx) / cam.fx;
      const yd = (v - cam.cy) / cam.fy;
      undistort(cam.distortion, xd, yd, n0);
      undistort(cam.distortion, xd + 1 / cam.fx, yd, n1, n0[0], n0[1]);
      undistort(cam.distortion, xd, yd + 1 / cam.fy, n2, n0[0], n0[1]);
      const ax = n1[0]! - n0[0]!;
      const ay = n1[1]! - n0[1]!;
      const bx = n2[0]! - n0[0]!;
      const by = n2[1]! - n0[1]!;
      let hit = 0;
      let acc = 0;
      for (let j = 0; j < s; j++) {
        const fv = (j + 0.5) / s - 0.5;
        for (let i = 0; i < s; i++) {
          const fu = (i + 0.5) / s - 0.5;
          const g = sample(n0[0]! + fu * ax + fv * bx, n0[1]! + fu * ay + fv * by);
          if (g >= 0) {
            hit += w;
            acc += g * w;
          }
        }
      }
      if (hit === 0) continue;
      const o3 = (v * cam.width + u) * 3;
      const k = acc * light;
      // Partly covered pixels (the paper's edge) mix with what is behind.
      buf[o3] = buf[o3]! * (1 - hit) + k;
      buf[o3 + 1] = buf[o3 + 1]! * (1 - hit) + k;
      buf[o3 + 2] = buf[o3 + 2]! * (1 - hit) + k * 0.97;
    }
  }
  return rect;
}

/**
 * A calibration session's worth of poses for this camera: the board held at `distanceMm` from
 * the lens (default 560) at the centre, the four corners and the four edge middles of the
 * picture, each tipped a different way by about 20–30°, as the wizard asks a player to do.
 * Positions are chosen in the picture and found on the table with the synthetic lens.
 */
export function defaultBoardPoses(cam: SynthCamera, distanceMm = 560): BoardPose[] {
  const o = cameraCentre(cam);
  const r = cam.rotation;
  const n = new Float64Array(2);
  // (fraction across, fraction down, tiltX, tiltY, yaw)
  const plan: ReadonlyArray<readonly [number, number, number, number, number]> = [
    [0.5, 0.5, 22, 0, 0],
    [0.22, 0.26, -18, 20, 8],
    [0.78, 0.26, -20, -22, -10],
    [0.78, 0.74, 24, -18, 12],
    [0.22, 0.74, 20, 24, -6],
    [0.5, 0.24, -26, 4, 90],
    [0.5, 0.76, 26, -6, -90],
    [0.2, 0.5, 4, 28, 20],
    [0.8, 0.5, -4, -28, -20],
  ];
  return plan.map(([fu, fv, ax, ay, az]) => {
    const u = fu * (cam.width - 1);
    const v = fv * (cam.height - 1);
    undistort(cam.distortion, (u - cam.cx) / cam.fx, (v - cam.cy) / cam.fy, n);
    const d = [
      r[0] * n[0]! + r[3] * n[1]! + r[6],
      r[1] * n[0]! + r[4] * n[1]! + r[7],
      r[2] * n[0]! + r[5] * n[1]! + r[8],
    ];
    const len = Math.hypot(d[0]!, d[1]!, d[2]!);
    const t = distanceMm / len;
    return {
      x: o.x + t * d[0]!,
      y: o.y + t * d[1]!,
      z: o.z + t * d[2]!,
      tiltXDeg: ax,
      tiltYDeg: ay,
      yawDeg: az,
    };
  });
}
