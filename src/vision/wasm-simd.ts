/**
 * A tiny WebAssembly assembler for the vision worker's SIMD kernels (grey-kernel.ts,
 * block-sum-kernel.ts): section sizes and LEB128 numbers are counted, not typed by hand, and the
 * few opcodes used are named. Each kernel is one exported function over its own memory.
 */

export const leb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return out;
};

const section = (id: number, body: number[]): number[] => [id, ...leb(body.length), ...body];
const name = (s: string): number[] => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];

const SIMD = 0xfd;
export const op = {
  localGet: (i: number) => [0x20, i],
  localSet: (i: number) => [0x21, i],
  localTee: (i: number) => [0x22, i],
  i32Const: (v: number) => [0x41, ...leb(v)],
  i32Add: [0x6a],
  v128Load: (offset: number) => [SIMD, 0x00, 0x00, ...leb(offset)],
  v128Store: (offset = 0) => [SIMD, 0x0b, 0x00, ...leb(offset)],
  v128Const: (bytes: number[]) => [SIMD, 0x0c, ...bytes],
  shuffle: (lanes: number[]) => [SIMD, 0x0d, ...lanes],
  addPairsU8: [SIMD, 0x7d], // i16x8.extadd_pairwise_i8x16_u
  addPairsU16: [SIMD, 0x7f], // i32x4.extadd_pairwise_i16x8_u
  add16: [SIMD, 0x8e, 0x01], // i16x8.add
  dot: [SIMD, 0xba, 0x01], // i32x4.dot_i16x8_s
  add32: [SIMD, 0xae, 0x01], // i32x4.add
  shrU32: [SIMD, 0xad, 0x01], // i32x4.shr_u
  narrow32: [SIMD, 0x86, 0x01], // i16x8.narrow_i32x4_u
  narrow16: [SIMD, 0x66], // i8x16.narrow_i16x8_u
};

/** `count` loop: runs `body` while local `counter` is not zero, decrementing it after each pass. */
export function loop(counter: number, body: number[]): number[] {
  return [
    ...[0x02, 0x40, 0x03, 0x40], // block, loop
    ...[0x20, counter, 0x45, 0x0d, 0x01], // if counter == 0: break
    ...body,
    ...[0x20, counter, 0x41, 0x01, 0x6b, 0x21, counter], // counter -= 1
    ...[0x0c, 0x00, 0x0b, 0x0b], // br loop; end loop, block
  ];
}

/** `local += step` for an i32 local. */
export const advance = (local: number, step: number): number[] => [
  ...op.localGet(local),
  ...op.i32Const(step),
  ...op.i32Add,
  ...op.localSet(local),
];

/**
 * A module exporting its memory and one function `exported` with `params` i32 parameters and
 * `locals` extra locals ([count, type] runs: 0x7f i32, 0x7b v128), or null without SIMD.
 */
export function simdModule(
  exported: string,
  params: number,
  locals: readonly (readonly [number, number])[],
  code: number[],
): WebAssembly.Module | null {
  const body = [locals.length, ...locals.flatMap(([n, t]) => [n, t]), ...code, 0x0b];
  const bytes = Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [0x01, 0x60, params, ...new Array<number>(params).fill(0x7f), 0x00]),
    ...section(3, [0x01, 0x00]),
    ...section(5, [0x01, 0x00, 0x01]), // memory, at least 1 page (grown from JS)
    ...section(7, [0x02, ...name('memory'), 0x02, 0x00, ...name(exported), 0x00, 0x00]),
    ...section(10, [0x01, ...leb(body.length), ...body]),
  ]);
  return WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
}

/** An instance of `module` with at least `bytes` of memory, its memory and its function. */
export function instantiate<F>(module: WebAssembly.Module, exported: string, bytes: number) {
  const instance = new WebAssembly.Instance(module);
  const memory = instance.exports['memory'] as WebAssembly.Memory;
  memory.grow(Math.max(0, Math.ceil(bytes / 65536) - memory.buffer.byteLength / 65536));
  return { memory, run: instance.exports[exported] as F };
}
