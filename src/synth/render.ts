import type { Scenario } from '../table/scenario.ts';
import type { SynthCamera } from './camera.ts';
import { blurRgb, gaussianKernel, Prng, quantiseWithNoise } from './noise.ts';
import { buildScene, loadSceneBits, type PoseOverrides } from './scene.ts';
import { Shader } from './shade.ts';
import { sceneTruth, type SceneTruth } from './truth.ts';

/** An 8-bit RGB image, row-major, 3 bytes per pixel. */
export interface RgbImage {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

export interface RenderOptions {
  /** Noise seed; the same seed gives the same bytes (default 1). */
  readonly seed?: number;
  /** Sensor noise, grey levels (default 2). */
  readonly noiseSigma?: number;
  /** Lens blur, pixels (default 0.6). */
  readonly blurSigma?: number;
  /** Unevenness of light: hot spot, gradient, vignette; 0 = flat (default 0.25). */
  readonly lighting?: number;
  /** Samples per axis on edges (bases, markers, table edge); default 4. */
  readonly supersampling?: number;
  /** Poses replacing the scenario's, keyed by marker id (move units without editing the file). */
  readonly poses?: PoseOverrides;
}

export interface SynthFrame {
  readonly image: RgbImage;
  readonly truth: SceneTruth;
}

export const RENDER_DEFAULTS = {
  seed: 1,
  noiseSigma: 2,
  blurSigma: 0.6,
  lighting: 0.25,
  supersampling: 4,
} as const;

/** Renders a scenario through a synthetic camera; returns the picture and its ground truth. */
export async function renderScene(
  scenario: Scenario,
  camera: SynthCamera,
  options: RenderOptions = {},
): Promise<SynthFrame> {
  const o = { ...RENDER_DEFAULTS, ...options };
  const bits = await loadSceneBits(scenario);
  const scene = buildScene(scenario, bits, o.poses);
  const shader = new Shader(camera, scene, { lighting: o.lighting, supersampling: o.supersampling });
  const { width, height } = camera;
  const clean = new Float32Array(width * height * 3);
  shader.renderBackground(clean);
  shader.renderBases(
    clean,
    scene.bases.map((b) => shader.baseBox(b)),
  );
  const blurred = new Float32Array(clean.length);
  blurRgb(clean, blurred, new Float32Array(clean.length), width, height, gaussianKernel(o.blurSigma));
  const data = new Uint8Array(clean.length);
  quantiseWithNoise(blurred, data, o.noiseSigma, new Prng(o.seed));
  return { image: { width, height, data }, truth: sceneTruth(camera, scene) };
}

/** Converts an RGB image to one grey channel (ITU-R BT.601 weights, as OpenCV's cvtColor). */
export function toGrey(image: RgbImage): Uint8Array {
  const n = image.width * image.height;
  const out = new Uint8Array(n);
  const d = image.data;
  for (let i = 0; i < n; i++)
    out[i] = Math.round(0.299 * d[3 * i]! + 0.587 * d[3 * i + 1]! + 0.114 * d[3 * i + 2]!);
  return out;
}
