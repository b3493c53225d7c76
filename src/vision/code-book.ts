import type { MarkerDictionaryName } from '../table/scenario.ts';
import { dictionaryConstant } from './dictionary.ts';
import { loadOpenCV } from './opencv.ts';

/**
 * The codes of a marker dictionary as plain bits, and the subset a scenario plays with.
 *
 * Decoding by maximum likelihood over the ids in play (template-decoder.ts) needs each code as a
 * grid of data bits in each of its four rotations. OpenCV keeps them packed in `bytesList`
 * (row-major bits, most significant bit first, the four rotations one after another); we unpack rotation 0
 * and turn it ourselves, so the rotation convention is ours and tested.
 */

export interface DictionaryCodes {
  readonly dictionary: MarkerDictionaryName;
  /** Data bits per side (6 for the 6 × 6 dictionaries). Cells across = bitsPerSide + 2. */
  readonly bitsPerSide: number;
  /** Number of ids (0 … count − 1). */
  readonly count: number;
  /** Data bits of id `id` as printed (rotation 0), row-major from the marker's top-left; 1 = white. */
  bits(id: number): Uint8Array;
}

const cache = new Map<MarkerDictionaryName, Promise<DictionaryCodes>>();

/** Every code of a dictionary, unpacked from OpenCV's own tables (cached per dictionary). */
export function dictionaryCodes(dictionary: MarkerDictionaryName): Promise<DictionaryCodes> {
  let codes = cache.get(dictionary);
  if (!codes) {
    codes = (async () => {
      const cv = await loadOpenCV();
      const dict = cv.getPredefinedDictionary(dictionaryConstant(cv, dictionary));
      try {
        const side = dict.markerSize as number;
        const bytes = dict.bytesList.data as Uint8Array;
        const count = dict.bytesList.rows as number;
        // Each row holds the four rotations one after another (nBytes each); rotation 0 first.
        const nBytes = dict.bytesList.cols as number;
        const perMarker = nBytes * 4;
        const nBits = side * side;
        // The last byte keeps its leftover bits right-aligned (OpenCV's getByteListFromBits).
        const tailBits = nBits % 8 || 8;
        const table: Uint8Array[] = [];
        for (let id = 0; id < count; id++) {
          const bits = new Uint8Array(nBits);
          for (let k = 0; k < nBits; k++) {
            const byteIndex = Math.floor(k / 8);
            const width = byteIndex === nBytes - 1 ? tailBits : 8;
            const byte = bytes[id * perMarker + byteIndex]!;
            bits[k] = (byte >> (width - 1 - (k % 8))) & 1;
          }
          table.push(bits);
        }
        return {
          dictionary,
          bitsPerSide: side,
          count,
          bits(id: number): Uint8Array {
            const b = table[id];
            if (!b) throw new Error(`marker id ${id} is not in ${dictionary} (ids 0..${count - 1})`);
            return b;
          },
        };
      } finally {
        dict.delete?.();
      }
    })();
    cache.set(dictionary, codes);
  }
  return codes;
}

/**
 * Turns a square grid of bits a quarter turn clockwise as seen in the image: the cell at
 * (row r, column c) moves to (c, side − 1 − r).
 */
export function rotateClockwise(bits: Uint8Array, side: number): Uint8Array {
  const out = new Uint8Array(bits.length);
  for (let r = 0; r < side; r++)
    for (let c = 0; c < side; c++) out[c * side + (side - 1 - r)] = bits[r * side + c]!;
  return out;
}

/** One code as the decoder meets it: the bits seen when a quad's corner 0 is the marker's corner `rotation`. */
export interface CodeView {
  readonly id: number;
  /** Which marker corner (0 TL, 1 TR, 2 BR, 3 BL) sits at the quad's corner 0. */
  readonly rotation: number;
  /** Indices of the white data bits (the decoder sums over these). */
  readonly white: Uint16Array;
}

/** The codes a scenario plays with, each in its four rotations, and the rest of the dictionary. */
export interface CodeBook {
  readonly dictionary: MarkerDictionaryName;
  readonly bitsPerSide: number;
  readonly ids: readonly number[];
  readonly views: readonly CodeView[];
  /**
   * Every other code of the dictionary, in its four rotations: not candidates for a declared
   * base, but rivals. A code in play is only believed when it also explains the picture better
   * than any code not in play (a base being bound, or someone else's marker on the table).
   */
  readonly foreign: readonly CodeView[];
  /** The white bits of `views` and of `foreign`, packed for the decoder's screen (views.length + 1 offsets). */
  readonly packed: { readonly views: PackedViews; readonly foreign: PackedViews };
}

/** White-bit indices of many views in one array: view h owns white[offsets[h] … offsets[h + 1]). */
export interface PackedViews {
  readonly white: Uint16Array;
  readonly offsets: Uint32Array;
}

function pack(views: readonly CodeView[]): PackedViews {
  const offsets = new Uint32Array(views.length + 1);
  for (let h = 0; h < views.length; h++) offsets[h + 1] = offsets[h]! + views[h]!.white.length;
  const white = new Uint16Array(offsets[views.length]!);
  for (let h = 0; h < views.length; h++) white.set(views[h]!.white, offsets[h]!);
  return { white, offsets };
}

/**
 * The book of the given ids. A quad whose corner 0 is the marker's corner r shows the marker
 * turned r quarter turns anticlockwise in the quad's frame, so the view for rotation r is the
 * code turned (4 − r) quarter turns clockwise.
 */
export function codeBook(codes: DictionaryCodes, ids: Iterable<number>): CodeBook {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  for (const id of unique) codes.bits(id); // refuses ids outside the dictionary, naming its range
  const inPlay = new Set(unique);
  const others: number[] = [];
  for (let id = 0; id < codes.count; id++) if (!inPlay.has(id)) others.push(id);
  const views = unique.flatMap((id) => viewsOf(codes, id));
  const foreign = others.flatMap((id) => viewsOf(codes, id));
  return {
    dictionary: codes.dictionary,
    bitsPerSide: codes.bitsPerSide,
    ids: unique,
    views,
    foreign,
    packed: { views: pack(views), foreign: pack(foreign) },
  };
}

function viewsOf(codes: DictionaryCodes, id: number): CodeView[] {
  const side = codes.bitsPerSide;
  const turns: Uint8Array[] = [codes.bits(id)];
  for (let k = 1; k < 4; k++) turns.push(rotateClockwise(turns[k - 1]!, side));
  const views: CodeView[] = [];
  for (let rotation = 0; rotation < 4; rotation++) {
    const seen = turns[(4 - rotation) % 4]!;
    const white: number[] = [];
    for (let k = 0; k < seen.length; k++) if (seen[k]) white.push(k);
    views.push({ id, rotation, white: Uint16Array.from(white) });
  }
  return views;
}
