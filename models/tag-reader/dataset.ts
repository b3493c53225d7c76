import { availableParallelism } from 'node:os';
import { startTsWorker } from '../../src/vision/worker-start.ts';
import { DEFAULT_TAG_PATCH } from '../../src/vision/tag-patch.ts';
import type { MarkerDictionaryName } from '../../src/table/scenario.ts';
import { DATA_BITS, type Sample, type SampleKind } from './samples.ts';

/**
 * Many crops' samples packed into flat arrays for training: patches, targets (36 bits + "is a
 * marker") and a loss mask (bits count only on markers, and only where no hand hides them), with
 * each sample's description kept beside them. Crops are generated in worker threads, one seed
 * range each; the result depends only on the seeds, not on the number of workers.
 */

export const PATCH_PIXELS = DEFAULT_TAG_PATCH.size * DEFAULT_TAG_PATCH.size;
export const OUTPUTS = DATA_BITS + 1;

export interface SampleInfo {
  readonly marker: 0 | 1;
  readonly kind: SampleKind;
  readonly pxPerCell: number;
  readonly cornerErrorPx: number;
  readonly dictionary: MarkerDictionaryName;
  readonly id: number;
  readonly rotation: number;
  readonly seed: number;
  readonly tags: readonly string[];
}

export interface Dataset {
  readonly count: number;
  /** count × PATCH_PIXELS */
  readonly patches: Float32Array;
  /** count × OUTPUTS: bits (1 = white) then marker. */
  readonly targets: Float32Array;
  /** count × OUTPUTS: 1 where the target counts in the loss. */
  readonly masks: Float32Array;
  readonly info: readonly SampleInfo[];
}

export function packSamples(samples: readonly Sample[]): Dataset {
  const count = samples.length;
  const patches = new Float32Array(count * PATCH_PIXELS);
  const targets = new Float32Array(count * OUTPUTS);
  const masks = new Float32Array(count * OUTPUTS);
  const info: SampleInfo[] = [];
  samples.forEach((s, i) => {
    patches.set(s.patch, i * PATCH_PIXELS);
    for (let k = 0; k < DATA_BITS; k++) {
      targets[i * OUTPUTS + k] = s.bits[k]!;
      masks[i * OUTPUTS + k] = s.marker ? s.bitMask[k]! : 0;
    }
    targets[i * OUTPUTS + DATA_BITS] = s.marker;
    masks[i * OUTPUTS + DATA_BITS] = 1;
    info.push({
      marker: s.marker,
      kind: s.kind,
      pxPerCell: s.pxPerCell,
      cornerErrorPx: s.cornerErrorPx,
      dictionary: s.dictionary,
      id: s.id,
      rotation: s.rotation,
      seed: s.seed,
      tags: s.tags,
    });
  });
  return { count, patches, targets, masks, info };
}

export function concatDatasets(parts: readonly Dataset[]): Dataset {
  const count = parts.reduce((n, p) => n + p.count, 0);
  const patches = new Float32Array(count * PATCH_PIXELS);
  const targets = new Float32Array(count * OUTPUTS);
  const masks = new Float32Array(count * OUTPUTS);
  let at = 0;
  for (const p of parts) {
    patches.set(p.patches, at * PATCH_PIXELS);
    targets.set(p.targets, at * OUTPUTS);
    masks.set(p.masks, at * OUTPUTS);
    at += p.count;
  }
  return { count, patches, targets, masks, info: parts.flatMap((p) => p.info) };
}

/** The samples `keep(info)` selects, in order. */
export function subset(data: Dataset, keep: (info: SampleInfo, index: number) => boolean): Dataset {
  const picked: number[] = [];
  data.info.forEach((info, i) => {
    if (keep(info, i)) picked.push(i);
  });
  const patches = new Float32Array(picked.length * PATCH_PIXELS);
  const targets = new Float32Array(picked.length * OUTPUTS);
  const masks = new Float32Array(picked.length * OUTPUTS);
  picked.forEach((src, dst) => {
    patches.set(data.patches.subarray(src * PATCH_PIXELS, (src + 1) * PATCH_PIXELS), dst * PATCH_PIXELS);
    targets.set(data.targets.subarray(src * OUTPUTS, (src + 1) * OUTPUTS), dst * OUTPUTS);
    masks.set(data.masks.subarray(src * OUTPUTS, (src + 1) * OUTPUTS), dst * OUTPUTS);
  });
  return { count: picked.length, patches, targets, masks, info: picked.map((i) => data.info[i]!) };
}

export interface GenerateRequest {
  readonly firstSeed: number;
  readonly crops: number;
}

/** Samples of crops firstSeed … firstSeed + crops − 1, generated over `workers` threads. */
export async function generateDataset(
  request: GenerateRequest,
  workers = Math.max(1, Math.min(4, availableParallelism())),
  onProgress?: (done: number, total: number) => void,
): Promise<Dataset> {
  const per = Math.ceil(request.crops / workers);
  const ranges: GenerateRequest[] = [];
  for (let w = 0; w < workers; w++) {
    const first = request.firstSeed + w * per;
    const crops = Math.min(per, request.firstSeed + request.crops - first);
    if (crops > 0) ranges.push({ firstSeed: first, crops });
  }
  let done = 0;
  const parts = await Promise.all(
    ranges.map(
      (range) =>
        new Promise<Dataset>((resolve, reject) => {
          const worker = startTsWorker(
            new URL('./dataset-worker.ts', import.meta.url),
            range,
            'tag-reader-data',
          );
          worker.on('message', (msg: { progress?: number; dataset?: Dataset }) => {
            if (msg.progress !== undefined) {
              done += msg.progress;
              onProgress?.(done, request.crops);
            }
            if (msg.dataset) {
              resolve(msg.dataset);
              void worker.terminate();
            }
          });
          worker.on('error', reject);
          worker.on('exit', (code) => {
            if (code !== 0) reject(new Error(`data worker stopped with code ${code}`));
          });
        }),
    ),
  );
  return concatDatasets(parts);
}
