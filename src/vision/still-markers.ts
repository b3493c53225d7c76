import { quadSide, type Quad } from './candidates.ts';
import type { GreyImage } from './image.ts';
import { WorkArray } from './work-array.ts';

/**
 * Markers that have not moved since they were read: the pixels say so.
 *
 * A wargames table is still most of the time. For every marker read, the pixels around it are
 * kept; in the next frame the same pixels are compared, and if nothing there changed beyond
 * sensor noise, the marker is where it was, with the same id and the same corners — no reading,
 * no refining, and no flicker. Any real change (a hand, a nudge of a fraction of a pixel, the
 * camera knocked) shows as many pixels changing by far more than noise, and the marker is read
 * afresh by the search.
 *
 * The test: pixel differences with their median removed (a uniform change of light is not a
 * move), against a threshold of six robust sigmas of those differences (at least `minThreshold`
 * grey levels, at most six times `maxNoiseSigma`); more than `maxChangedShare` of the pixels
 * beyond it means the region changed.
 *
 * While a marker stays still, the pixels around it are also added up frame by frame, so it can be
 * measured again on their mean (`averagedDue`): sensor noise falls as 1/√n, and a still small tag's
 * heading settles instead of keeping the first frame's noise for as long as it stands there.
 *
 * A marker is coarse while its place is not yet measured on a settled picture: the caller says so
 * when it keeps one measured by its edges alone (a carried base), and a marker kept where the
 * picture still changed (the caller's change map) is coarse too. A tag of a few blurred pixels
 * creeping by a pixel a frame passes the test above (720p, 25 mm tags at the far edge, blur σ 1.4,
 * tests/vision/pipeline-stop.test.ts: 1.7 px off its kept picture, at most 3 of 650 pixels beyond
 * the threshold where 7 fail it), so its sum mixes places and its kept corners stay where it was
 * measured; in the first frame its picture is unchanged again its sum starts afresh. Coarse
 * markers are offered first, under their own limit (`averagedDue`).
 */

export interface StillOptions {
  /** Region kept around a marker, in marker sides beyond its edge. */
  readonly marginSides: number;
  readonly minThreshold: number;
  /**
   * Most sensor noise believed (grey levels, one sigma). The noise is measured from the
   * differences themselves, but when most of a region changed those differences are all change,
   * not noise: the cap keeps a vanished marker from passing for a noisy one.
   */
  readonly maxNoiseSigma: number;
  readonly maxChangedShare: number;
}

export const DEFAULT_STILL: StillOptions = {
  marginSides: 0.4,
  minThreshold: 14,
  maxNoiseSigma: 5,
  maxChangedShare: 0.01,
};

interface Kept<T> {
  value: T;
  readonly x0: number;
  readonly y0: number;
  readonly w: number;
  readonly h: number;
  readonly pixels: Float32Array;
  /** The region's pixels added up over the frames it has been still, this one included. */
  readonly sum: Float32Array;
  frames: number;
  /** Frames summed at which it is next due to be measured again (2, 3, 5, 8, 12 …). */
  nextDue: number;
  /** Its place not yet measured on a settled picture: measured again first. */
  coarse: boolean;
  /** Its picture changed in the last frame summed: the next unchanged one starts the sum afresh. */
  changing: boolean;
}

/** A still marker due to be measured again, with its region's mean written into the caller's frame. */
export interface AveragedMarker<T> {
  readonly value: T;
  readonly frames: number;
  readonly coarse: boolean;
}

/** Markers offered by `averagedDue` at most: coarse ones, and the others (routine). */
export interface AveragedLimits {
  readonly coarse: number;
  readonly routine: number;
}

/**
 * Past this many frames summed a marker is not measured again: the noise left is under a fifth
 * of one frame's, below what the model's own misfit leaves in a small tag's heading.
 */
export const MAX_AVERAGED_FRAMES = 32;

export class StillMarkers<T extends { readonly id: number; readonly corners: Quad }> {
  private kept: Array<Kept<T>> = [];

  constructor(readonly options: StillOptions = DEFAULT_STILL) {}

  /**
   * The markers whose surroundings are unchanged in this frame; the others are forgotten. `add`:
   * false when this frame was already added (a second look at it). `changing`: whether the
   * picture changed where a marker is since the frame before, by the caller's coarser measure.
   */
  recall(grey: GreyImage, add = true, changing: (corners: Quad) => boolean = () => false): T[] {
    const still: T[] = [];
    this.kept = this.kept.filter((k) => {
      const unchanged = this.unchanged(grey, k);
      if (unchanged) {
        still.push(k.value);
        if (add) this.add(grey, k, changing(k.value.corners));
      }
      return unchanged;
    });
    return still;
  }

  /**
   * Keeps (or replaces) what was found for an id, with the pixels around it now. `coarse`: its
   * place measured by its edges alone.
   */
  remember(grey: GreyImage, value: T, coarse = false): void {
    const region = this.regionOf(grey, value.corners);
    this.kept = this.kept.filter((k) => k.value.id !== value.id);
    if (!region) return;
    const { x0, y0, w, h } = region;
    const pixels = new Float32Array(w * h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) pixels[y * w + x] = grey.data[(y0 + y) * grey.width + x0 + x]!;
    const sum = Float32Array.from(pixels);
    this.kept.push({ value, x0, y0, w, h, pixels, sum, frames: 1, nextDue: 2, coarse, changing: false });
  }

  /**
   * Still markers the caller wants whose summed frames reached their next due count (2, 3, 5, 8 … up
   * to MAX_AVERAGED_FRAMES): coarse ones first, up to `limits.coarse`, then up to `limits.routine`
   * others, each the fewest frames first; each one's mean is written into `frame` (a picture of
   * the camera's size, `width` wide) over its region. Each is then due again at half as many
   * frames more (so the noise a measurement keeps falls by a fifth or more each time), whatever
   * the caller makes of it; one stays coarse until `replace`d.
   */
  averagedDue(
    limits: AveragedLimits,
    frame: Float32Array,
    width: number,
    wanted: (value: T) => boolean,
  ): Array<AveragedMarker<T>> {
    const all = this.kept
      .filter((k) => k.frames >= k.nextDue && k.nextDue <= MAX_AVERAGED_FRAMES && wanted(k.value))
      .sort((a, b) => a.frames - b.frames);
    const due = [
      ...all.filter((k) => k.coarse).slice(0, limits.coarse),
      ...all.filter((k) => !k.coarse).slice(0, limits.routine),
    ];
    return due.map((k) => {
      const scale = 1 / k.frames;
      for (let y = 0; y < k.h; y++) {
        const row = (k.y0 + y) * width + k.x0;
        for (let x = 0; x < k.w; x++) frame[row + x] = k.sum[y * k.w + x]! * scale;
      }
      k.nextDue = Math.ceil(1.5 * k.frames);
      return { value: k.value, frames: k.frames, coarse: k.coarse };
    });
  }

  /** Replaces the value kept for an id (measured again, finely), keeping its pixels and sums. */
  replace(value: T): void {
    const k = this.kept.find((e) => e.value.id === value.id);
    if (!k) return;
    k.value = value;
    k.coarse = false;
  }

  forget(id: number): void {
    this.kept = this.kept.filter((k) => k.value.id !== id);
  }

  private regionOf(grey: GreyImage, corners: Quad): { x0: number; y0: number; w: number; h: number } | null {
    const margin = quadSide(corners) * this.options.marginSides + 1;
    const x0 = Math.max(0, Math.floor(Math.min(...corners.map((c) => c.u)) - margin));
    const y0 = Math.max(0, Math.floor(Math.min(...corners.map((c) => c.v)) - margin));
    const x1 = Math.min(grey.width, Math.ceil(Math.max(...corners.map((c) => c.u)) + margin) + 1);
    const y1 = Math.min(grey.height, Math.ceil(Math.max(...corners.map((c) => c.v)) + margin) + 1);
    return x1 - x0 >= 4 && y1 - y0 >= 4 ? { x0, y0, w: x1 - x0, h: y1 - y0 } : null;
  }

  private add(grey: GreyImage, k: Kept<T>, changing: boolean): void {
    if (changing) {
      k.changing = true;
      k.coarse = true;
    } else if (k.changing) {
      // Unchanged again: the frames summed so far mixed places.
      k.changing = false;
      k.coarse = true;
      k.sum.fill(0);
      k.frames = 0;
      k.nextDue = 2;
    }
    for (let y = 0; y < k.h; y++) {
      const row = (k.y0 + y) * grey.width + k.x0;
      for (let x = 0; x < k.w; x++) k.sum[y * k.w + x]! += grey.data[row + x]!;
    }
    k.frames++;
  }

  private unchanged(grey: GreyImage, k: Kept<T>): boolean {
    // A large marker (a reference sheet) is compared on a sparser grid: an edge that moves
    // still changes hundreds of the pixels looked at.
    const stride = Math.max(1, Math.floor(Math.sqrt((k.w * k.h) / MAX_COMPARED)));
    const cols = Math.ceil(k.w / stride);
    const rows = Math.ceil(k.h / stride);
    const n = cols * rows;
    // Differences are whole grey levels in −255 … 255: medians come from histograms, in linear time.
    const diff = work.diff.take(n);
    const histogram = work.histogram.take(511);
    let i = 0;
    for (let y = 0; y < k.h; y += stride) {
      const row = (k.y0 + y) * grey.width + k.x0;
      for (let x = 0; x < k.w; x += stride) {
        const d = Math.round(grey.data[row + x]! - k.pixels[y * k.w + x]!);
        diff[i++] = d;
        histogram[d + 255]!++;
      }
    }
    const median = medianOf(histogram, n) - 255;
    const spread = work.spread.take(511);
    for (let j = 0; j < n; j++) spread[Math.abs(diff[j]! - median)]!++;
    const sigma = Math.min(this.options.maxNoiseSigma, 1.4826 * medianOf(spread, n));
    const threshold = Math.max(this.options.minThreshold, 6 * sigma);
    let changed = 0;
    for (let j = 0; j < n; j++) if (Math.abs(diff[j]! - median) > threshold) changed++;
    return changed <= this.options.maxChangedShare * n;
  }
}

/**
 * unchanged()'s arrays, reused: three small off-heap arrays per kept marker per frame (the
 * demo table keeps 31 markers: ≈ 90 arrays a frame at camera rate) for the garbage collector.
 */
const work = {
  diff: new WorkArray(Int16Array),
  histogram: new WorkArray(Uint32Array),
  spread: new WorkArray(Uint32Array),
};

/** Pixels compared per marker at most (see unchanged()). */
const MAX_COMPARED = 1600;

/** The median bin of a histogram holding n values. */
function medianOf(histogram: Uint32Array, n: number): number {
  let seen = 0;
  for (let b = 0; b < histogram.length; b++) {
    seen += histogram[b]!;
    if (seen * 2 > n) return b;
  }
  return histogram.length - 1;
}
