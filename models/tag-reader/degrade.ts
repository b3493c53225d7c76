import { encodeJpeg, decodeImage } from '../../src/synth/encode.ts';
import { blurRgb, gaussianKernel, Prng, quantiseWithNoise } from '../../src/synth/noise.ts';
import { toGrey, type RgbImage } from '../../src/synth/render.ts';
import type { Point } from './paint.ts';
import type { Rng } from './rng.ts';

/**
 * What happens to a clean rendering between the printer and the detector: printing defects on the
 * sticker (faded or bled ink, specks), light (shadows of models and hands, glare on glossy paper,
 * uneven exposure), the lens (blur), the sensor (noise) and the webcam's JPEG. Each is drawn with
 * a random strength, some often at zero, so the reader also sees clean pictures.
 */

export interface Degradation {
  readonly fade: number;
  readonly bleed: number;
  readonly specks: number;
  readonly shadow: number;
  readonly glare: number;
  readonly exposure: number;
  readonly gradient: number;
  readonly blurSigma: number;
  readonly noiseSigma: number;
  /** JPEG quality, or 0 for none. */
  readonly jpegQuality: number;
}

export function randomDegradation(rng: Rng): Degradation {
  return {
    fade: rng.chance(0.3) ? rng.uniform(0, 0.45) : 0,
    bleed: rng.chance(0.35) ? rng.uniform(-0.5, 0.6) : 0,
    specks: rng.chance(0.2) ? rng.int(8) : 0,
    shadow: rng.chance(0.3) ? rng.uniform(0.25, 0.7) : 0,
    glare: rng.chance(0.25) ? rng.uniform(30, 220) : 0,
    exposure: rng.uniform(0.45, 1.15),
    gradient: rng.chance(0.5) ? rng.uniform(0, 0.5) : 0,
    blurSigma: rng.logUniform(0.3, 1.2),
    noiseSigma: rng.uniform(0.5, 6),
    jpegQuality: rng.chance(0.5) ? Math.round(rng.uniform(45, 95)) : 0,
  };
}

function pointInQuad(q: readonly Point[], x: number, y: number): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const a = q[i]!;
    const b = q[(i + 1) % 4]!;
    const cross = (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x);
    if (cross !== 0) {
      if (sign === 0) sign = Math.sign(cross);
      else if (Math.sign(cross) !== sign) return false;
    }
  }
  return true;
}

/**
 * Ink that faded (pulled toward the local paper level), bled (dark spreads: local minimum) or
 * printed thin (local maximum), and specks of dirt or missing ink, inside `region` (a quad in
 * pixels: the sticker).
 */
export function printDefects(
  img: Float32Array,
  size: number,
  region: readonly Point[],
  d: Degradation,
  rng: Rng,
): void {
  if (d.fade === 0 && d.bleed === 0 && d.specks === 0) return;
  const src = Float32Array.from(img);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (!pointInQuad(region, x, y)) continue;
      for (let ch = 0; ch < 3; ch++) {
        let lo = Infinity;
        let hi = -Infinity;
        let paper = -Infinity;
        for (let dy = -2; dy <= 2; dy++) {
          for (let dx = -2; dx <= 2; dx++) {
            const xx = Math.min(size - 1, Math.max(0, x + dx));
            const yy = Math.min(size - 1, Math.max(0, y + dy));
            const v = src[(yy * size + xx) * 3 + ch]!;
            paper = Math.max(paper, v);
            if (Math.abs(dx) <= 1 && Math.abs(dy) <= 1) {
              lo = Math.min(lo, v);
              hi = Math.max(hi, v);
            }
          }
        }
        const o = (y * size + x) * 3 + ch;
        let v = src[o]!;
        if (d.bleed > 0) v += d.bleed * (lo - v);
        else if (d.bleed < 0) v += -d.bleed * (hi - v);
        v += d.fade * (paper - v);
        img[o] = v;
      }
    }
  }
  for (let k = 0; k < d.specks; k++) {
    const cx = rng.uniform(0, size);
    const cy = rng.uniform(0, size);
    if (!pointInQuad(region, cx, cy)) continue;
    const level = rng.chance(0.5) ? 235 : 30;
    const o = (Math.floor(cy) * size + Math.floor(cx)) * 3;
    const a = rng.uniform(0.4, 1);
    for (let ch = 0; ch < 3; ch++) img[o + ch] = img[o + ch]! * (1 - a) + level * a;
  }
}

/** Shadow of something tall (a model, a hand, a building): a soft-edged half-plane, darker inside. */
export function castShadow(img: Float32Array, size: number, d: Degradation, rng: Rng): void {
  if (d.shadow === 0) return;
  const angle = rng.uniform(0, 2 * Math.PI);
  const nx = Math.cos(angle);
  const ny = Math.sin(angle);
  const offset = rng.uniform(-0.4, 0.4) * size;
  const soft = rng.uniform(0.5, 6);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const dist = (x - size / 2) * nx + (y - size / 2) * ny - offset;
      const t = 1 / (1 + Math.exp(-dist / soft));
      const k = 1 - d.shadow * t;
      const o = (y * size + x) * 3;
      img[o] = img[o]! * k;
      img[o + 1] = img[o + 1]! * k;
      img[o + 2] = img[o + 2]! * k;
    }
  }
}

/** Glare on glossy paper or sleeves: a bright blob added (it saturates when quantised), and exposure. */
export function lightAndGlare(img: Float32Array, size: number, d: Degradation, rng: Rng): void {
  const gx = rng.uniform(-1, 1) * d.gradient;
  const gy = rng.uniform(-1, 1) * d.gradient;
  const bx = rng.uniform(0, size);
  const by = rng.uniform(0, size);
  const br = rng.uniform(0.1, 0.6) * size;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const k = d.exposure * (1 + (gx * (x - size / 2) + gy * (y - size / 2)) / size);
      const r2 = ((x - bx) ** 2 + (y - by) ** 2) / (br * br);
      const add = d.glare > 0 ? d.glare * Math.exp(-r2 / 2) : 0;
      const o = (y * size + x) * 3;
      img[o] = img[o]! * k + add;
      img[o + 1] = img[o + 1]! * k + add;
      img[o + 2] = img[o + 2]! * k + add;
    }
  }
}

/** Lens blur, sensor noise, JPEG; returns the grey picture the detector sees. */
export async function camera(
  img: Float32Array,
  size: number,
  d: Degradation,
  seed: number,
): Promise<Uint8Array> {
  const blurred = new Float32Array(img.length);
  blurRgb(img, blurred, new Float32Array(img.length), size, size, gaussianKernel(d.blurSigma));
  const rgb = new Uint8Array(img.length);
  quantiseWithNoise(blurred, rgb, d.noiseSigma, new Prng(seed));
  let image: RgbImage = { width: size, height: size, data: rgb };
  if (d.jpegQuality > 0) image = await decodeImage(await encodeJpeg(image, { quality: d.jpegQuality }));
  return toGrey(image);
}
