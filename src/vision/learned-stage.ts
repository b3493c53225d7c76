import type { Quad } from './candidates.ts';
import { quadSide } from './candidates.ts';
import type { CodeBook } from './code-book.ts';
import { DEFAULT_EDGE_REFINE, refineMarkerCorners } from './edge-refine.ts';
import { decide, scoreViews } from './learned-decision.ts';
import type { LearnedTagReader } from './learned-reader.ts';
import type { MarkerClass } from './finding-priors.ts';
import type { Grey } from './tag-footprint.ts';

/**
 * The learned tag reader as a stage of the marker finder (marker-finder.ts): a second opinion on
 * the candidate quads the classical decoder left unsure, and only on small tags, where the
 * benchmark (docs/learned-reader.md) shows it reads tags the decoder misses without a false
 * detection. Each quad is read as found and edge-refined (as the decoder reads it), all in one
 * batch; the more confident reading counts, and only at the model's calibrated threshold.
 */

export interface LearnedStageOptions {
  /** Quads whose cells are wider than this (px) are left to the classical decoder. */
  readonly maxCellPx: number;
  /** At most this many quads per frame go to the network (each costs about a millisecond). */
  readonly maxQuads: number;
}

export const DEFAULT_LEARNED_STAGE: LearnedStageOptions = { maxCellPx: 2.3, maxQuads: 64 };

export interface LearnedRead {
  readonly id: number;
  /** The quad's corners in marker order (TL, TR, BR, BL), as the decoder gives them. */
  readonly corners: Quad;
  /** Calibrated probability of that id and rotation. */
  readonly confidence: number;
}

export function readUnsureQuads(
  reader: LearnedTagReader,
  grey: Grey,
  unsure: ReadonlyArray<{ readonly quad: Quad; readonly markerClass: MarkerClass }>,
  bookOf: (markerClass: MarkerClass) => CodeBook,
  options: LearnedStageOptions = DEFAULT_LEARNED_STAGE,
): LearnedRead[] {
  const cells = reader.bitsPerSide + 2;
  const patches: Float32Array[] = [];
  const owners: Array<{ quad: Quad; markerClass: MarkerClass; index: number }> = [];
  let taken = 0;
  for (const [index, u] of unsure.entries()) {
    if (taken >= options.maxQuads) break;
    const cellPx = quadSide(u.quad) / cells;
    if (cellPx > options.maxCellPx || bookOf(u.markerClass).bitsPerSide !== reader.bitsPerSide) continue;
    taken++;
    const refined = refineMarkerCorners(grey, u.quad, {
      ...DEFAULT_EDGE_REFINE,
      searchPx: Math.min(DEFAULT_EDGE_REFINE.searchPx, Math.max(1, 0.75 * cellPx)),
    });
    for (const quad of refined ? [u.quad, refined] : [u.quad]) {
      const patch = reader.patch(grey, quad);
      if (!patch) continue;
      patches.push(patch);
      owners.push({ quad, markerClass: u.markerClass, index });
    }
  }
  // The better of each unsure quad's two readings (as found, edge-refined).
  const best = new Map<number, LearnedRead>();
  reader.read(patches).forEach((reading, i) => {
    const { quad, markerClass, index } = owners[i]!;
    const book = bookOf(markerClass);
    const d = decide(scoreViews(reading, book, reader.spec.calibration), book, reader.spec.readThreshold);
    if (!d.read) return;
    const r = d.rotation;
    // Marker corner k sits at quad corner k − r (as template-decoder.ts).
    const corners = [quad[(4 - r) % 4]!, quad[(5 - r) % 4]!, quad[(6 - r) % 4]!, quad[(7 - r) % 4]!] as const;
    const previous = best.get(index);
    if (!previous || d.confidence > previous.confidence)
      best.set(index, { id: d.id, corners, confidence: d.confidence });
  });
  return [...best.values()];
}
