import type { Pixel } from '../../src/camera/projection.ts';
import { CandidatePass } from '../../src/vision/candidate-pass.ts';
import { DEFAULT_EDGE_REFINE, refineMarkerCorners } from '../../src/vision/edge-refine.ts';
import type { Quad } from '../../src/vision/candidates.ts';
import { codeBook, dictionaryCodes, type CodeBook } from '../../src/vision/code-book.ts';
import { applyHomography } from '../../src/vision/homography.ts';
import { loadOpenCV } from '../../src/vision/opencv.ts';
import { gridToImage } from '../../src/vision/tag-footprint.ts';
import { tagPatch } from '../../src/vision/tag-patch.ts';
import type { MarkerDictionaryName } from '../../src/table/scenario.ts';
import { paintCard, paintDie, paintHand, paintRuler, type ClutterTarget } from './clutter.ts';
import { CELLS, randomSpec, renderCrop, type CropSpec } from './crop-scene.ts';
import { camera, castShadow, lightAndGlare, printDefects, randomDegradation } from './degrade.ts';
import { Rng } from './rng.ts';

/**
 * Labelled patches from one rendered crop: what the reader learns from and is measured on.
 *
 * Positives are the quads of real markers as a detector hands them over: the true corners moved
 * by realistic errors (up to 1 px, or a third of a cell on large tags), and the quads OpenCV's own
 * candidate pass finds on the picture (read or rejected) that fall within that error of a
 * marker. Each carries its 36 data bits in the quad's own frame (the CodeBook view of its
 * rotation), with the bits a hand hides left out of the loss.
 * Negatives are quads that are not a marker's outline: OpenCV candidates far from every marker
 * (dice, text, rulers, cloth, base corners, half-covered tags), the tag quad shifted by one cell
 * or more, shrunk to its inside or grown to its sticker or base, half a tag, random squares.
 * Quads in between (too far to be a clean read, too close to be clearly wrong) are left out.
 */

export const DATA_BITS = 36;

export type SampleKind =
  | 'jitter'
  | 'candidate'
  | 'surround'
  | 'shifted'
  | 'scaled'
  | 'half'
  | 'outline'
  | 'random'
  | 'candidate-negative';

export interface Sample {
  readonly patch: Float32Array;
  /** The quad the patch was taken from (in the crop). */
  readonly quad: Quad;
  readonly marker: 0 | 1;
  /** Data bits in the quad's frame (1 = white) and which of them are visible (1) or hidden by a hand (0). */
  readonly bits: Uint8Array;
  readonly bitMask: Uint8Array;
  readonly kind: SampleKind;
  readonly pxPerCell: number;
  /** Largest corner error against the marker (positives), px. */
  readonly cornerErrorPx: number;
  readonly dictionary: MarkerDictionaryName;
  /** Marker id and the rotation its quad is in (positives); -1 otherwise. */
  readonly id: number;
  readonly rotation: number;
  /** The crop's seed (for finding the picture again). */
  readonly seed: number;
  /** Whether the crop had clutter, a hand, glare, shadow, JPEG. */
  readonly tags: readonly string[];
}

interface TruthMarker {
  readonly id: number;
  readonly dictionary: MarkerDictionaryName;
  readonly corners: Quad;
}

/** Best cyclic correspondence of a quad with a marker's corners: the shift and the largest corner distance. */
export function matchQuad(quad: Quad, marker: Quad): { rotation: number; error: number } {
  let best = { rotation: 0, error: Infinity };
  for (let s = 0; s < 4; s++) {
    let worst = 0;
    for (let k = 0; k < 4; k++)
      worst = Math.max(
        worst,
        Math.hypot(quad[k]!.u - marker[(k + s) % 4]!.u, quad[k]!.v - marker[(k + s) % 4]!.v),
      );
    if (worst < best.error) best = { rotation: s, error: worst };
  }
  return best;
}

const books = new Map<MarkerDictionaryName, CodeBook>();
async function fullBook(dictionary: MarkerDictionaryName): Promise<CodeBook> {
  let book = books.get(dictionary);
  if (!book) {
    const codes = await dictionaryCodes(dictionary);
    book = codeBook(
      codes,
      Array.from({ length: codes.count }, (_, i) => i),
    );
    books.set(dictionary, book);
  }
  return book;
}

/** Data bits seen through a quad whose corner 0 is the marker's corner `rotation`. */
export async function viewBits(
  dictionary: MarkerDictionaryName,
  id: number,
  rotation: number,
): Promise<Uint8Array> {
  const book = await fullBook(dictionary);
  const view = book.views[id * 4 + rotation]!;
  if (view.id !== id || view.rotation !== rotation) throw new Error('code book order is not id × rotation');
  const bits = new Uint8Array(DATA_BITS);
  for (const k of view.white) bits[k] = 1;
  return bits;
}

const passes = new Map<MarkerDictionaryName, Promise<CandidatePass>>();
function passFor(dictionary: MarkerDictionaryName): Promise<CandidatePass> {
  let pass = passes.get(dictionary);
  if (!pass) passes.set(dictionary, (pass = CandidatePass.create({ dictionary })));
  return pass;
}

/** OpenCV's candidate quads (read and rejected) on a grey picture. */
export async function candidateQuads(
  grey: Uint8Array,
  size: number,
  dictionary: MarkerDictionaryName,
): Promise<Quad[]> {
  const cv = await loadOpenCV();
  const pass = await passFor(dictionary);
  const mat = new cv.Mat(size, size, cv.CV_8UC1);
  try {
    mat.data.set(grey);
    const result = pass.run(mat);
    return [...result.read.map((r) => r.quad), ...result.unread];
  } finally {
    mat.delete();
  }
}

/** Image quad of the grid square [x0, x0 + side]² (grid units of a marker's cells) through `h`. */
function gridSquare(corners: Quad, x0: number, y0: number, side: number, turn: number): Quad | null {
  const h = gridToImage(corners, CELLS);
  if (!h) return null;
  const pts = [
    [x0, y0],
    [x0 + side, y0],
    [x0 + side, y0 + side],
    [x0, y0 + side],
  ].map(([x, y]) => applyHomography(h, x!, y!));
  return [0, 1, 2, 3].map((k) => pts[(k + turn) % 4]!) as unknown as Quad;
}

/** Hand coverage of each data cell (quad frame) and of the whole tag. */
function occlusion(mask: Float32Array, size: number, quad: Quad): { bits: Uint8Array; tag: number } {
  const h = gridToImage(quad, CELLS);
  const bits = new Uint8Array(DATA_BITS).fill(1);
  if (!h) return { bits, tag: 0 };
  let covered = 0;
  for (let r = 0; r < CELLS; r++) {
    for (let c = 0; c < CELLS; c++) {
      const p = applyHomography(h, c + 0.5, r + 0.5);
      const x = Math.round(p.u);
      const y = Math.round(p.v);
      const m = x >= 0 && y >= 0 && x < size && y < size ? mask[y * size + x]! : 0;
      covered += m;
      if (r > 0 && c > 0 && r < CELLS - 1 && c < CELLS - 1 && m > 0.2)
        bits[(r - 1) * (CELLS - 2) + (c - 1)] = 0;
    }
  }
  return { bits, tag: covered / (CELLS * CELLS) };
}

function jitterQuad(rng: Rng, marker: Quad, scale: number): { quad: Quad; rotation: number } {
  const rotation = rng.int(4);
  const sigma = rng.uniform(0.1, 0.5) * scale;
  const common = rng.chance(0.3) ? { u: rng.normal() * sigma, v: rng.normal() * sigma } : { u: 0, v: 0 };
  const out: Pixel[] = [];
  for (let k = 0; k < 4; k++) {
    const c = marker[(k + rotation) % 4]!;
    let du = 0;
    let dv = 0;
    for (let tries = 0; tries < 10; tries++) {
      du = common.u + rng.normal() * sigma;
      dv = common.v + rng.normal() * sigma;
      if (Math.hypot(du, dv) <= scale) break;
      du = dv = 0;
    }
    out.push({ u: c.u + du, v: c.v + dv });
  }
  return { quad: out as unknown as Quad, rotation };
}

/**
 * A candidate that is a sticker or base top around a marker (concentric, 1.1–2.3 times its side)
 * turned into the tag's square, as finding-priors.ts does from the printed size: the concentric
 * square scaled by the tag's side over the candidate's.
 */
function surroundOf(q: Quad, markers: readonly TruthMarker[]): Quad | null {
  const side = quadSidePx(q);
  const c = centreOf(q);
  for (const m of markers) {
    const ratio = side / quadSidePx(m.corners);
    const mc = centreOf(m.corners);
    if (ratio < 1.1 || ratio > 2.3 || Math.hypot(mc.u - c.u, mc.v - c.v) > 0.25 * side) continue;
    const k = 1 / ratio;
    return q.map((p) => ({ u: c.u + (p.u - c.u) * k, v: c.v + (p.v - c.v) * k })) as unknown as Quad;
  }
  return null;
}

function centreOf(q: Quad): Pixel {
  return { u: (q[0].u + q[1].u + q[2].u + q[3].u) / 4, v: (q[0].v + q[1].v + q[2].v + q[3].v) / 4 };
}

function quadSidePx(q: Quad): number {
  let s = 0;
  for (let i = 0; i < 4; i++) s += Math.hypot(q[(i + 1) % 4]!.u - q[i]!.u, q[(i + 1) % 4]!.v - q[i]!.v);
  return s / 4;
}

/** Clockwise in the image (as OpenCV gives quads). */
function clockwise(q: Quad): Quad {
  let area = 0;
  for (let i = 0; i < 4; i++) area += q[i]!.u * q[(i + 1) % 4]!.v - q[(i + 1) % 4]!.u * q[i]!.v;
  return area >= 0 ? q : ([q[0], q[3], q[2], q[1]] as const);
}

export interface CropPlan {
  readonly spec: CropSpec;
  readonly clutter: boolean;
  readonly hand: boolean;
}

/** The mix of crops: 60 % with a marker (some with clutter or a hand), 40 % without. */
export function planCrop(rng: Rng): CropPlan {
  const r = rng.next();
  const target: CropSpec['target'] = r < 0.6 ? 'marker' : r < 0.7 ? 'blank' : r < 0.8 ? 'bare' : 'none';
  const spec = randomSpec(rng, target);
  return target === 'marker'
    ? { spec, clutter: rng.chance(0.3), hand: rng.chance(0.15) }
    : { spec, clutter: rng.chance(0.8), hand: rng.chance(0.25) };
}

/** One crop's grey picture and its labelled patches. */
export interface CropSamples {
  readonly image: { readonly data: Uint8Array; readonly width: number; readonly height: number };
  readonly plan: CropPlan;
  readonly samples: Sample[];
}

/** Every labelled patch of one crop (deterministic for the seed). */
export async function cropSamples(seed: number): Promise<Sample[]> {
  return (await cropWithSamples(seed)).samples;
}

/** The crop of a seed, its picture and its labelled patches; `plan` overrides the seed's own mix. */
export async function cropWithSamples(seed: number, plan?: (rng: Rng) => CropPlan): Promise<CropSamples> {
  const rng = new Rng(seed);
  const cropPlan = (plan ?? planCrop)(rng);
  const crop = await renderCrop(rng, cropPlan.spec);
  const { size, clean, spec } = crop;
  const pxPerMm = 1 / crop.mmPerPx;
  const tags: string[] = [];
  const markers: TruthMarker[] = [];
  crop.truth.bases.forEach((b, i) => {
    if (b.markerId >= 0 && b.marker.inView)
      markers.push({
        id: b.markerId,
        dictionary: crop.dictionaries[i]!,
        corners: b.marker.cornersPx as Quad,
      });
  });
  const target = crop.targetIndex !== null ? crop.truth.bases[crop.targetIndex]! : null;
  const targetQuad = target ? (target.marker.cornersPx as Quad) : null;
  const tagPx = spec.pxPerCell * CELLS;
  const centre = targetQuad
    ? {
        x: (targetQuad[0].u + targetQuad[1].u + targetQuad[2].u + targetQuad[3].u) / 4,
        y: (targetQuad[0].v + targetQuad[1].v + targetQuad[2].v + targetQuad[3].v) / 4,
      }
    : { x: size / 2, y: size / 2 };
  const d = randomDegradation(rng);
  if (target && spec.target === 'marker') {
    const paper = gridSquare(target.marker.cornersPx as Quad, -1, -1, CELLS + 2, 0);
    if (paper)
      printDefects(
        clean,
        size,
        paper.map((p) => ({ x: p.u, y: p.v })),
        d,
        rng,
      );
  }
  if (cropPlan.clutter) {
    tags.push('clutter');
    const keep: ClutterTarget = {
      centre,
      keepOut: spec.target === 'marker' ? tagPx * 0.9 : 0,
    };
    for (let n = 1 + rng.int(3); n > 0; n--) {
      const pick = rng.int(3);
      if (pick === 0) paintDie(clean, size, rng, pxPerMm, keep);
      else if (pick === 1) paintRuler(clean, size, rng, pxPerMm, keep);
      else paintCard(clean, size, rng, pxPerMm, keep);
    }
  }
  const handMask = new Float32Array(size * size);
  if (cropPlan.hand) {
    tags.push('hand');
    const reach = tagPx * (spec.target === 'marker' ? rng.uniform(0.35, 0.9) : rng.uniform(0, 1.2));
    const a = rng.uniform(0, 2 * Math.PI);
    paintHand(
      clean,
      size,
      rng,
      pxPerMm,
      { x: centre.x + reach * Math.cos(a), y: centre.y + reach * Math.sin(a) },
      handMask,
    );
  }
  castShadow(clean, size, d, rng);
  lightAndGlare(clean, size, d, rng);
  if (d.shadow > 0) tags.push('shadow');
  if (d.glare > 0) tags.push('glare');
  if (d.jpegQuality > 0) tags.push('jpeg');
  if (d.fade > 0 || d.bleed !== 0 || d.specks > 0) tags.push('print');
  const grey = await camera(clean, size, d, (seed * 2654435761) >>> 0);
  const image = { data: grey, width: size, height: size };

  const out: Sample[] = [];
  const errorScale = Math.max(1, 0.35 * spec.pxPerCell);
  const negativeGap = Math.max(2.2, spec.pxPerCell);
  const nearest = (q: Quad) => {
    let best: { marker: TruthMarker; rotation: number; error: number } | null = null;
    for (const m of markers) {
      const match = matchQuad(q, m.corners);
      if (!best || match.error < best.error) best = { marker: m, ...match };
    }
    return best;
  };
  const base = { pxPerCell: spec.pxPerCell, seed, tags };
  const positive = async (quad: Quad, m: TruthMarker, rotation: number, error: number, kind: SampleKind) => {
    const occluded = occlusion(handMask, size, quad);
    if (occluded.tag > 0.3) return;
    const patch = tagPatch(image, quad, CELLS);
    if (!patch) return;
    out.push({
      ...base,
      patch,
      quad,
      marker: 1,
      bits: await viewBits(m.dictionary, m.id, rotation),
      bitMask: occluded.bits,
      kind,
      cornerErrorPx: error,
      dictionary: m.dictionary,
      id: m.id,
      rotation,
    });
  };
  const negative = (quad: Quad | null, kind: SampleKind) => {
    if (!quad) return;
    const near = nearest(quad);
    if (near && near.error < negativeGap) return;
    const turned = clockwise(quad);
    const patch = tagPatch(image, turned, CELLS);
    if (!patch) return;
    out.push({
      ...base,
      patch,
      quad: turned,
      marker: 0,
      bits: new Uint8Array(DATA_BITS),
      bitMask: new Uint8Array(DATA_BITS),
      kind,
      cornerErrorPx: near?.error ?? Infinity,
      dictionary: spec.dictionary,
      id: -1,
      rotation: -1,
    });
  };

  // Positives: the target (and any neighbour tag in view) from jittered true corners.
  const targetMarker = spec.target === 'marker' ? markers.find((m) => m.corners === targetQuad) : undefined;
  if (targetMarker)
    for (let n = 0; n < 3; n++) {
      const j = jitterQuad(rng, targetMarker.corners, errorScale);
      await positive(
        j.quad,
        targetMarker,
        j.rotation,
        matchQuad(j.quad, targetMarker.corners).error,
        'jitter',
      );
    }
  const other = markers.filter((m) => m !== targetMarker);
  if (other.length > 0 && rng.chance(0.5)) {
    const m = rng.pick(other);
    const j = jitterQuad(rng, m.corners, errorScale);
    await positive(j.quad, m, j.rotation, matchQuad(j.quad, m.corners).error, 'jitter');
  }

  // OpenCV's candidates as the finder reads them: the quad itself, or (a sticker or base top
  // around a tag) its concentric square of the tag's size; each also edge-refined.
  let candidateNegatives = 0;
  for (const raw of await candidateQuads(grey, size, spec.dictionary)) {
    const readings: Array<{ quad: Quad; kind: SampleKind }> = [{ quad: raw, kind: 'candidate' }];
    const around = surroundOf(raw, markers);
    if (around) readings.push({ quad: around, kind: 'surround' });
    for (const r of [...readings]) {
      const refined = refineMarkerCorners(image, r.quad, {
        ...DEFAULT_EDGE_REFINE,
        searchPx: Math.min(DEFAULT_EDGE_REFINE.searchPx, Math.max(1, 0.75 * (quadSidePx(r.quad) / CELLS))),
      });
      if (refined) readings.push({ quad: refined, kind: r.kind });
    }
    for (const { quad, kind } of readings) {
      const near = nearest(quad);
      if (near && near.error <= errorScale) {
        await positive(quad, near.marker, near.rotation, near.error, kind);
      } else if (kind === 'candidate' && candidateNegatives < 4) {
        const ratio = quadSidePx(quad) / tagPx;
        if (ratio >= 0.7 && ratio <= 1.35) {
          const before = out.length;
          negative(quad, 'candidate-negative');
          candidateNegatives += out.length - before;
        }
      }
    }
  }

  // Synthetic negatives around the target (marker, blank sticker or bare base).
  const grid = targetQuad && spec.target !== 'bare' && spec.target !== 'none' ? targetQuad : null;
  if (grid) {
    const shift = () => (rng.chance(0.5) ? 1 : -1) * rng.uniform(1, 3.5);
    negative(gridSquare(grid, rng.chance(0.5) ? shift() : 0, shift(), CELLS, rng.int(4)), 'shifted');
    const s = rng.chance(0.5) ? rng.uniform(0.45, 0.8) : rng.uniform(1.25, 1.7);
    const side = CELLS * s;
    negative(gridSquare(grid, (CELLS - side) / 2, (CELLS - side) / 2, side, rng.int(4)), 'scaled');
    const half = rng.int(4);
    const offsets = [
      [CELLS / 2, 0],
      [-CELLS / 2, 0],
      [0, CELLS / 2],
      [0, -CELLS / 2],
    ][half]!;
    negative(gridSquare(grid, offsets[0]!, offsets[1]!, CELLS, rng.int(4)), 'half');
  }
  if (target && rng.chance(0.5)) negative(clockwise(target.topCornersPx as Quad), 'outline');
  for (let n = spec.target === 'marker' ? 1 : 3; n > 0; n--) {
    const cx = rng.uniform(0.25, 0.75) * size;
    const cy = rng.uniform(0.25, 0.75) * size;
    const side = tagPx * rng.uniform(0.8, 1.25);
    const a = rng.uniform(0, Math.PI / 2);
    const pts = [0, 1, 2, 3].map((k) => ({
      u: cx + (side / Math.SQRT2) * Math.cos(a + (k * Math.PI) / 2) + rng.normal() * 0.03 * side,
      v: cy + (side / Math.SQRT2) * Math.sin(a + (k * Math.PI) / 2) + rng.normal() * 0.03 * side,
    }));
    negative(pts as unknown as Quad, 'random');
  }
  return { image, plan: cropPlan, samples: out };
}
