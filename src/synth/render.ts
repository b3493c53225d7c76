import type { Scenario } from '../table/scenario.ts';
import type { SynthCamera } from './camera.ts';
import { jpegRoundTrip } from './encode.ts';
import { blurRgb, gaussianKernel, Prng, quantiseWithNoise } from './noise.ts';
import { buildScene, loadSceneBits, type PoseOverrides, type SceneExtras } from './scene.ts';
import { Shader } from './shade.ts';
import { sceneTruth, type SceneTruth } from './truth.ts';

/** An 8-bit RGB image, row-major, 3 bytes per pixel. */
export interface RgbImage {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

/**
 * How to render. Besides the sensor and the light, a scene may hold clutter (bare bases, dice,
 * rulers, cards, hands: clutter.ts), glare spots and cast shadows (lighting.ts) and printing
 * defects (print-defects.ts); all are off by default, and the defaults give the same bytes as
 * before they existed.
 */
export interface RenderOptions extends SceneExtras {
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
  /**
   * JPEG quality 1–100: the picture goes through a JPEG encoder and back, as a webcam's MJPEG
   * stream does (default: none). The truth does not change.
   */
  readonly jpegQuality?: number;
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
  const scene = buildScene(scenario, bits, o.poses, o);
  const shader = new Shader(camera, scene, { lighting: o.lighting, supersampling: o.supersampling });
  const { width, height } = camera;
  const clean = new Float32Array(width * height * 3);
  shader.renderBackground(clean);
  shader.renderBases(
    clean,
    scene.bases.map((b) => shader.baseBox(b)),
    undefined,
    (scene.props ?? []).flatMap((p) => shader.propBoxes(p)),
  );
  const blurred = new Float32Array(clean.length);
  blurRgb(clean, blurred, new Float32Array(clean.length), width, height, gaussianKernel(o.blurSigma));
  const data = new Uint8Array(clean.length);
  quantiseWithNoise(blurred, data, o.noiseSigma, new Prng(o.seed));
  const image = { width, height, data };
  return {
    image: o.jpegQuality === undefined ? image : await jpegRoundTrip(image, o.jpegQuality),
    truth: sceneTruth(camera, scene),
  };
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
