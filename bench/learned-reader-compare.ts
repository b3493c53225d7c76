/**
 * The two readers side by side on the same quads (bench/learned-reader.ts): the classical
 * maximum-likelihood decoder as the marker finder uses it (the quad as found; when that is not
 * firm, its edge-refined corners too, the better reading kept; firm by DEFAULT_FINDER's
 * thresholds) and the learned reader given the very same one or two quads (the more confident
 * decision kept; read at the model's calibrated threshold).
 */
import type { Quad } from '../src/vision/candidates.ts';
import { quadSide } from '../src/vision/candidates.ts';
import type { CodeBook } from '../src/vision/code-book.ts';
import { DEFAULT_EDGE_REFINE, refineMarkerCorners } from '../src/vision/edge-refine.ts';
import { decide, scoreViews, type LearnedTagReader } from '../src/vision/learned-reader.ts';
import { DEFAULT_FINDER } from '../src/vision/marker-finder.ts';
import type { Grey } from '../src/vision/tag-footprint.ts';
import { readQuad, type TemplateReading } from '../src/vision/template-decoder.ts';

export interface Verdict {
  /** Whether the reader commits to an id, and which (rotation: marker corner at the quad's corner 0). */
  readonly read: boolean;
  readonly id: number;
  readonly rotation: number;
}

export interface PairVerdict {
  readonly classical: Verdict;
  readonly learned: Verdict & { readonly confidence: number };
  /** The network's probability that the quad is no marker, the least over the quads tried. */
  readonly notMarker: number;
}

/** A veto by the network on a classical reading: every quad tried is more likely no marker. */
export const VETO_NOT_MARKER = 0.5;

const NONE: Verdict = { read: false, id: -1, rotation: -1 };

function isFirm(r: TemplateReading): boolean {
  return (
    r.evidence >= DEFAULT_FINDER.firmEvidence &&
    r.plausibility >= DEFAULT_FINDER.minPlausibility &&
    r.contrast >= DEFAULT_FINDER.minContrast
  );
}

/** Edge search within the border and quiet zone (as marker-finder.ts). */
function refined(grey: Grey, quad: Quad, cells: number): Quad | null {
  const cellPx = quadSide(quad) / cells;
  return refineMarkerCorners(grey, quad, {
    ...DEFAULT_EDGE_REFINE,
    searchPx: Math.min(DEFAULT_EDGE_REFINE.searchPx, Math.max(1, 0.75 * cellPx)),
  });
}

/** Both readers on each quad (the learned reader batched over all of them). */
export function readBoth(
  grey: Grey,
  quads: readonly Quad[],
  book: CodeBook,
  reader: LearnedTagReader,
): PairVerdict[] {
  const cells = book.bitsPerSide + 2;
  const tried: Quad[][] = [];
  const classical: Verdict[] = quads.map((quad) => {
    const raw = readQuad(grey, quad, book);
    if (raw && isFirm(raw)) {
      tried.push([quad]);
      return { read: true, id: raw.id, rotation: raw.rotation };
    }
    const again = refined(grey, quad, cells);
    tried.push(again ? [quad, again] : [quad]);
    const second = again ? readQuad(grey, again, book) : null;
    const best = second && (!raw || second.evidence > raw.evidence) ? second : raw;
    return best && isFirm(best) ? { read: true, id: best.id, rotation: best.rotation } : NONE;
  });
  const patches: Float32Array[] = [];
  const owner: number[] = [];
  tried.forEach((qs, i) =>
    qs.forEach((q) => {
      const p = reader.patch(grey, q);
      if (p) {
        patches.push(p);
        owner.push(i);
      }
    }),
  );
  const readings = reader.read(patches);
  const learned: Array<Verdict & { confidence: number }> = quads.map(() => ({ ...NONE, confidence: 0 }));
  const notMarker = quads.map(() => 1);
  readings.forEach((reading, k) => {
    const d = decide(scoreViews(reading, book, reader.spec.calibration), book, reader.spec.readThreshold);
    const i = owner[k]!;
    notMarker[i] = Math.min(notMarker[i]!, d.notMarker);
    if (d.confidence > learned[i]!.confidence)
      learned[i] = { read: d.read, id: d.id, rotation: d.rotation, confidence: d.confidence };
  });
  return quads.map((_, i) => ({ classical: classical[i]!, learned: learned[i]!, notMarker: notMarker[i]! }));
}

/** Milliseconds per quad of each reader alone, quads as found (no refinement), learned batched. */
export function timeReaders(
  grey: Grey,
  quads: readonly Quad[],
  book: CodeBook,
  reader: LearnedTagReader,
): { classicalMs: number; learnedMs: number } {
  if (quads.length === 0) return { classicalMs: 0, learnedMs: 0 };
  let t = performance.now();
  for (const q of quads) readQuad(grey, q, book);
  const classicalMs = (performance.now() - t) / quads.length;
  t = performance.now();
  const patches = quads.map((q) => reader.patch(grey, q)).filter((p): p is Float32Array => p !== null);
  for (const r of reader.read(patches))
    decide(scoreViews(r, book, reader.spec.calibration), book, reader.spec.readThreshold);
  const learnedMs = (performance.now() - t) / quads.length;
  return { classicalMs, learnedMs };
}
