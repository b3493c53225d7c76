/**
 * The change map's 8 × 8 block sums of a grey picture (change-map.ts), 16 pixels × 8 rows a step
 * with WebAssembly SIMD: each row's 16 bytes are added in pairs into 8 lanes, the 8 rows summed
 * (at most 8 × 2 × 255 = 4080 a lane, no overflow), then the lanes in pairs again; two blocks
 * are the sums of lanes (0, 1) and (2, 3) of the result. Sums are whole numbers, so they are the
 * plain loop's exactly. The picture is copied into the kernel's memory first (one memcpy).
 */
import { advance, instantiate, loop, op, simdModule } from './wasm-simd.ts';

// Locals: 0 src, 1 stride, 2 dst, 3 groups (params); 4 row address (i32).
const ROW = 4;

/** Row k of the group (k ≥ 1): the next row's 16 bytes added in pairs, and to the sum so far. */
const nextRow = (): number[] => [
  ...op.localGet(ROW),
  ...op.localGet(1),
  ...op.i32Add,
  ...op.localTee(ROW),
  ...op.v128Load(0),
  ...op.addPairsU8,
  ...op.add16,
];

const KERNEL = simdModule(
  'blockRow',
  4,
  [[1, 0x7f]],
  loop(3, [
    ...op.localGet(2),
    ...op.localGet(0),
    ...op.localTee(ROW),
    ...op.v128Load(0),
    ...op.addPairsU8,
    ...nextRow(),
    ...nextRow(),
    ...nextRow(),
    ...nextRow(),
    ...nextRow(),
    ...nextRow(),
    ...nextRow(),
    ...op.addPairsU16,
    ...op.v128Store(),
    ...advance(0, 16),
    ...advance(2, 16),
  ]),
);

type BlockRow = (src: number, stride: number, dst: number, groups: number) => void;

/** Whether the SIMD kernel runs here. */
export const SIMD_BLOCK_SUMS = KERNEL !== null;

class BlockSumKernel {
  readonly grey: Uint8Array;
  readonly lanes: Uint32Array;
  readonly run: BlockRow;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    const pixels = width * height;
    const lanesAt = Math.ceil(pixels / 16) * 16;
    const { memory, run } = instantiate<BlockRow>(KERNEL!, 'blockRow', lanesAt + 4 * (width / 4));
    this.grey = new Uint8Array(memory.buffer, 0, pixels);
    this.lanes = new Uint32Array(memory.buffer, lanesAt, width / 4);
    this.run = run;
  }
}

let kernel: BlockSumKernel | null = null;

/**
 * Sums of the whole 8 × 8 blocks of a grey picture whose width is a multiple of 16 (cols =
 * width / 8 blocks a row, `rows` block rows), row-major; null when the kernel cannot take it
 * (no SIMD here, or another width).
 */
export function blockSums8Simd(data: Uint8Array, width: number, rows: number): Float64Array | null {
  if (!SIMD_BLOCK_SUMS || width % 16 !== 0 || width === 0 || rows * 8 * width > data.length) return null;
  const height = rows * 8;
  if (kernel?.width !== width || kernel.height !== height) kernel = new BlockSumKernel(width, height);
  const { grey, lanes, run } = kernel;
  grey.set(data.subarray(0, width * height));
  const cols = width / 8;
  const groups = width / 16;
  const sums = new Float64Array(cols * rows);
  for (let by = 0; by < rows; by++) {
    run(grey.byteOffset + by * 8 * width, width, lanes.byteOffset, groups);
    const base = by * cols;
    for (let g = 0; g < groups; g++) {
      sums[base + 2 * g] = lanes[4 * g]! + lanes[4 * g + 1]!;
      sums[base + 2 * g + 1] = lanes[4 * g + 2]! + lanes[4 * g + 3]!;
    }
  }
  return sums;
}
