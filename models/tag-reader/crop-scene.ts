import type { SynthCamera } from '../../src/synth/camera.ts';
import { markerBits, type MarkerBits } from '../../src/synth/marker-bits.ts';
import type { Rgb, SceneBase, SynthScene } from '../../src/synth/scene.ts';
import { Shader } from '../../src/synth/shade.ts';
import { sceneTruth, type SceneTruth } from '../../src/synth/truth.ts';
import type { MarkerDictionaryName } from '../../src/table/scenario.ts';
import type { Rng } from './rng.ts';

/**
 * One small picture of the synthetic table: a tiny camera that looks at one base from a random
 * direction, so a tag of a chosen size in pixels per cell can be rendered in milliseconds
 * instead of a whole 1080p frame. The scene and the shading are the renderer's own
 * (src/synth/shade.ts: cloth, raised bases, stickers, contact shadows, light); blur, noise and
 * everything else the camera and the table add come after (degrade.ts, clutter.ts).
 */

/** The dictionaries the reader serves: both 6 × 6 data bits, 8 cells across with the border. */
export const READER_DICTIONARIES: readonly MarkerDictionaryName[] = ['aruco_mip_36h12', 'apriltag_36h11'];
export const DICTIONARY_SIZE: Readonly<Record<string, number>> = {
  aruco_mip_36h12: 250,
  apriltag_36h11: 587,
};
export const CELLS = 8;

const TABLE = { widthMm: 72 * 25.4, depthMm: 48 * 25.4 } as const;

/** Base paints: the armies' colours, dark bases (the classic phantom), light and flock greens. */
const BASE_COLOURS: readonly Rgb[] = [
  [107, 125, 79],
  [60, 50, 40],
  [28, 28, 30],
  [45, 40, 36],
  [140, 123, 94],
  [150, 40, 35],
  [40, 60, 120],
  [200, 190, 170],
  [70, 95, 50],
  [90, 90, 92],
];

export interface CropSpec {
  readonly dictionary: MarkerDictionaryName;
  /** Image pixels per marker cell, looked at square on. */
  readonly pxPerCell: number;
  /** Side of the target's black square, mm. */
  readonly markerMm: number;
  /** Camera tilt from straight down at the target, degrees. */
  readonly tiltDeg: number;
  /** 'marker': the target base carries a marker; 'blank': a white sticker only; 'bare': no sticker; 'none': cloth. */
  readonly target: 'marker' | 'blank' | 'bare' | 'none';
  /** Uneven light of the renderer (0–1). */
  readonly lighting: number;
}

export interface Crop {
  readonly spec: CropSpec;
  readonly camera: SynthCamera;
  /** Linear RGB floats (0–255), S × S × 3, before blur and noise. */
  readonly clean: Float32Array;
  readonly size: number;
  readonly truth: SceneTruth;
  /** Table millimetres per image pixel near the target. */
  readonly mmPerPx: number;
  /** The target base (its marker may be blank), or null for a cloth-only crop. */
  readonly targetIndex: number | null;
  /** Dictionary of each base's marker (truth.bases order). */
  readonly dictionaries: readonly MarkerDictionaryName[];
}

function normalise(v: readonly number[]): [number, number, number] {
  const n = Math.hypot(v[0]!, v[1]!, v[2]!);
  return [v[0]! / n, v[1]! / n, v[2]! / n];
}

function cross(a: readonly number[], b: readonly number[]): [number, number, number] {
  return [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
}

/** A camera at `distanceMm` from `target`, tilted and turned, with focal length for `pxPerMm` there. */
export function cropCamera(
  target: { x: number; y: number; z: number },
  size: number,
  pxPerMm: number,
  tiltDeg: number,
  azimuthDeg: number,
  rollDeg: number,
  distanceMm = 1200,
): SynthCamera {
  const t = (tiltDeg * Math.PI) / 180;
  const a = (azimuthDeg * Math.PI) / 180;
  const centre = [
    target.x + distanceMm * Math.sin(t) * Math.cos(a),
    target.y + distanceMm * Math.sin(t) * Math.sin(a),
    target.z + distanceMm * Math.cos(t),
  ];
  const z = normalise([target.x - centre[0]!, target.y - centre[1]!, target.z - centre[2]!]);
  const helper = Math.abs(z[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const dot = helper[0]! * z[0] + helper[1]! * z[1] + helper[2]! * z[2];
  let x = normalise([helper[0]! - dot * z[0], helper[1]! - dot * z[1], helper[2]! - dot * z[2]]);
  let y = cross(z, x);
  const r = (rollDeg * Math.PI) / 180;
  const c = Math.cos(r);
  const s = Math.sin(r);
  [x, y] = [
    [c * x[0] + s * y[0], c * x[1] + s * y[1], c * x[2] + s * y[2]],
    [-s * x[0] + c * y[0], -s * x[1] + c * y[1], -s * x[2] + c * y[2]],
  ];
  const rotation = [x[0], x[1], x[2], y[0], y[1], y[2], z[0], z[1], z[2]] as const;
  const translation = [
    -(x[0] * centre[0]! + x[1] * centre[1]! + x[2] * centre[2]!),
    -(y[0] * centre[0]! + y[1] * centre[1]! + y[2] * centre[2]!),
    -(z[0] * centre[0]! + z[1] * centre[1]! + z[2] * centre[2]!),
  ] as const;
  const f = pxPerMm * distanceMm;
  return {
    name: 'tag-reader-crop',
    width: size,
    height: size,
    fx: f,
    fy: f,
    cx: (size - 1) / 2,
    cy: (size - 1) / 2,
    distortion: [0, 0, 0, 0, 0],
    rotation,
    translation,
  };
}

const BLANK_STICKER: MarkerBits = { cells: CELLS, white: new Uint8Array(CELLS * CELLS).fill(1) };

interface BasePlan {
  x: number;
  y: number;
  headingDeg: number;
  widthMm: number;
  depthMm: number;
  heightMm: number;
  colour: Rgb;
  markerMm: number;
  bits: MarkerBits;
  id: number;
  /** false: no sticker at all (bare painted base). */
  sticker: boolean;
  dictionary: MarkerDictionaryName;
}

function sceneBase(p: BasePlan, index: number): SceneBase {
  const h = (p.headingDeg * Math.PI) / 180;
  const cell = p.markerMm / p.bits.cells;
  return {
    unitId: `b${index}`,
    baseIndex: 0,
    side: 'crop',
    x: p.x,
    y: p.y,
    headingDeg: p.headingDeg,
    cos: Math.cos(h),
    sin: Math.sin(h),
    halfWidth: p.widthMm / 2,
    halfDepth: p.depthMm / 2,
    topMm: p.heightMm,
    colour: p.colour,
    marker: {
      id: p.id,
      x: p.x,
      y: p.y,
      z: p.heightMm,
      sizeMm: p.sticker ? p.markerMm : 0,
      right: [Math.cos(h), Math.sin(h)],
      up: [-Math.sin(h), Math.cos(h)],
      paperHalfMm: p.sticker
        ? p.markerMm / 2 +
          Math.max(cell, Math.min(2 * cell, (Math.min(p.widthMm, p.depthMm) - p.markerMm) / 2))
        : 0,
      bits: p.bits,
    },
  };
}

async function randomBits(
  rng: Rng,
  dictionary: MarkerDictionaryName,
): Promise<{ id: number; bits: MarkerBits }> {
  const id = rng.int(DICTIONARY_SIZE[dictionary]!);
  return { id, bits: await markerBits(dictionary, id) };
}

/** A random crop spec: tag sizes log-uniform over 1.0–4.2 px per cell, tilt mostly mild. */
export function randomSpec(rng: Rng, target: CropSpec['target']): CropSpec {
  return {
    dictionary: rng.pick(READER_DICTIONARIES),
    pxPerCell: rng.logUniform(1.0, 4.2),
    markerMm: rng.uniform(10, 32),
    tiltDeg: rng.chance(0.7) ? rng.uniform(0, 25) : rng.uniform(25, 45),
    target,
    lighting: rng.uniform(0, 0.6),
  };
}

/** Renders one crop (clean: no blur, no noise) with its truth. */
export async function renderCrop(rng: Rng, spec: CropSpec): Promise<Crop> {
  const cellMm = spec.markerMm / CELLS;
  const pxPerMm = spec.pxPerCell / cellMm;
  const tagPx = spec.pxPerCell * CELLS;
  const size = Math.max(40, Math.min(104, Math.round(tagPx * 2.4 + 8)));
  // The target base: the bench's tight base (one white cell around the tag) or a roomier one.
  const tight = rng.chance(0.55);
  const side = spec.markerMm * (tight ? 10 / 8 : rng.uniform(1.3, 2.2));
  const cx = rng.uniform(120, TABLE.widthMm - 120);
  const cy = rng.uniform(120, TABLE.depthMm - 120);
  const plans: BasePlan[] = [];
  const targetBits =
    spec.target === 'marker' ? await randomBits(rng, spec.dictionary) : { id: -1, bits: BLANK_STICKER };
  if (spec.target !== 'none') {
    plans.push({
      x: cx,
      y: cy,
      headingDeg: rng.uniform(-180, 180),
      widthMm: side,
      depthMm: tight ? side : side * rng.uniform(1, 1.6),
      heightMm: rng.uniform(1.5, 6),
      colour: rng.pick(BASE_COLOURS),
      markerMm: spec.markerMm,
      bits: targetBits.bits,
      id: targetBits.id,
      sticker: spec.target !== 'bare',
      dictionary: spec.dictionary,
    });
  }
  // Neighbours, touching or not: other tags (either dictionary), blank stickers, bare bases.
  const neighbours = rng.int(5);
  const reach = (size / pxPerMm) * 0.55;
  for (let n = 0; n < neighbours * 4 && plans.length < neighbours + 1; n++) {
    const mm = rng.chance(0.7) ? spec.markerMm : rng.uniform(10, 32);
    const w = mm * (rng.chance(0.5) ? 10 / 8 : rng.uniform(1.3, 2.2));
    const d = w * (rng.chance(0.6) ? 1 : rng.uniform(1, 1.6));
    const x = cx + rng.uniform(-reach, reach);
    const y = cy + rng.uniform(-reach, reach);
    const radius = Math.hypot(w, d) / 2;
    if (plans.some((p) => Math.hypot(p.x - x, p.y - y) < radius + Math.hypot(p.widthMm, p.depthMm) / 2))
      continue;
    const kind = rng.next();
    const dictionary = rng.chance(0.8) ? spec.dictionary : rng.pick(READER_DICTIONARIES);
    const marked = kind < 0.7 ? await randomBits(rng, dictionary) : { id: -1, bits: BLANK_STICKER };
    plans.push({
      x,
      y,
      headingDeg: rng.uniform(-180, 180),
      widthMm: w,
      depthMm: d,
      heightMm: rng.uniform(1.5, 6),
      colour: rng.pick(BASE_COLOURS),
      markerMm: mm,
      bits: marked.bits,
      id: marked.id,
      sticker: kind < 0.9,
      dictionary,
    });
  }
  const bases = plans.map(sceneBase);
  const scene: SynthScene = { table: TABLE, dictionary: spec.dictionary, bases, references: [] };
  const look = { x: cx, y: cy, z: plans[0]?.heightMm ?? 0 };
  // The tag is not always centred, and is seen turned any way.
  const shift = (size / pxPerMm) * 0.08;
  const camera = cropCamera(
    { x: look.x + rng.uniform(-shift, shift), y: look.y + rng.uniform(-shift, shift), z: look.z },
    size,
    pxPerMm,
    spec.tiltDeg,
    rng.uniform(0, 360),
    rng.uniform(0, 360),
  );
  const shader = new Shader(camera, scene, { lighting: spec.lighting, supersampling: 3 });
  const clean = new Float32Array(size * size * 3);
  shader.renderBackground(clean);
  shader.renderBases(
    clean,
    bases.map((b) => shader.baseBox(b)),
  );
  return {
    spec,
    camera,
    clean,
    size,
    truth: sceneTruth(camera, scene),
    mmPerPx: 1 / pxPerMm,
    targetIndex: spec.target === 'none' ? null : 0,
    dictionaries: plans.map((p) => p.dictionary),
  };
}
