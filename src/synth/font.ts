/**
 * A 5 × 7 bitmap font for the text printed on the synthetic table's clutter (ruler numbers, unit
 * labels, rules cards). Written by hand rather than rasterised from a system font through sharp:
 * the renderer must print the same pixels on every machine (the tests and the training data
 * depend on it), and at the sizes a camera sees table text (2–4 px per letter) the face does
 * not matter, only that strokes are dark, thin and dense.
 */

const GLYPHS: Record<string, readonly string[]> = {
  '0': ['.###.', '#...#', '#..##', '#.#.#', '##..#', '#...#', '.###.'],
  '1': ['..#..', '.##..', '..#..', '..#..', '..#..', '..#..', '.###.'],
  '2': ['.###.', '#...#', '....#', '...#.', '..#..', '.#...', '#####'],
  '3': ['#####', '...#.', '..#..', '...#.', '....#', '#...#', '.###.'],
  '4': ['...#.', '..##.', '.#.#.', '#..#.', '#####', '...#.', '...#.'],
  '5': ['#####', '#....', '####.', '....#', '....#', '#...#', '.###.'],
  '6': ['..##.', '.#...', '#....', '####.', '#...#', '#...#', '.###.'],
  '7': ['#####', '....#', '...#.', '..#..', '.#...', '.#...', '.#...'],
  '8': ['.###.', '#...#', '#...#', '.###.', '#...#', '#...#', '.###.'],
  '9': ['.###.', '#...#', '#...#', '.####', '....#', '...#.', '.##..'],
  A: ['.###.', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  B: ['####.', '#...#', '#...#', '####.', '#...#', '#...#', '####.'],
  C: ['.###.', '#...#', '#....', '#....', '#....', '#...#', '.###.'],
  D: ['###..', '#..#.', '#...#', '#...#', '#...#', '#..#.', '###..'],
  E: ['#####', '#....', '#....', '####.', '#....', '#....', '#####'],
  F: ['#####', '#....', '#....', '####.', '#....', '#....', '#....'],
  G: ['.###.', '#...#', '#....', '#.###', '#...#', '#...#', '.####'],
  H: ['#...#', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  I: ['.###.', '..#..', '..#..', '..#..', '..#..', '..#..', '.###.'],
  J: ['..###', '...#.', '...#.', '...#.', '...#.', '#..#.', '.##..'],
  K: ['#...#', '#..#.', '#.#..', '##...', '#.#..', '#..#.', '#...#'],
  L: ['#....', '#....', '#....', '#....', '#....', '#....', '#####'],
  M: ['#...#', '##.##', '#.#.#', '#.#.#', '#...#', '#...#', '#...#'],
  N: ['#...#', '#...#', '##..#', '#.#.#', '#..##', '#...#', '#...#'],
  O: ['.###.', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  P: ['####.', '#...#', '#...#', '####.', '#....', '#....', '#....'],
  Q: ['.###.', '#...#', '#...#', '#...#', '#.#.#', '#..#.', '.##.#'],
  R: ['####.', '#...#', '#...#', '####.', '#.#..', '#..#.', '#...#'],
  S: ['.####', '#....', '#....', '.###.', '....#', '....#', '####.'],
  T: ['#####', '..#..', '..#..', '..#..', '..#..', '..#..', '..#..'],
  U: ['#...#', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  V: ['#...#', '#...#', '#...#', '#...#', '#...#', '.#.#.', '..#..'],
  W: ['#...#', '#...#', '#...#', '#.#.#', '#.#.#', '#.#.#', '.#.#.'],
  X: ['#...#', '#...#', '.#.#.', '..#..', '.#.#.', '#...#', '#...#'],
  Y: ['#...#', '#...#', '.#.#.', '..#..', '..#..', '..#..', '..#..'],
  Z: ['#####', '....#', '...#.', '..#..', '.#...', '#....', '#####'],
  ' ': ['.....', '.....', '.....', '.....', '.....', '.....', '.....'],
  '.': ['.....', '.....', '.....', '.....', '.....', '.##..', '.##..'],
  ',': ['.....', '.....', '.....', '.....', '.##..', '..#..', '.#...'],
  ':': ['.....', '.##..', '.##..', '.....', '.##..', '.##..', '.....'],
  '-': ['.....', '.....', '.....', '#####', '.....', '.....', '.....'],
  '+': ['.....', '..#..', '..#..', '#####', '..#..', '..#..', '.....'],
  '/': ['.....', '....#', '...#.', '..#..', '.#...', '#....', '.....'],
  "'": ['.##..', '..#..', '.#...', '.....', '.....', '.....', '.....'],
  '"': ['.#.#.', '.#.#.', '.....', '.....', '.....', '.....', '.....'],
  '(': ['...#.', '..#..', '.#...', '.#...', '.#...', '..#..', '...#.'],
  ')': ['.#...', '..#..', '...#.', '...#.', '...#.', '..#..', '.#...'],
  '%': ['##...', '##..#', '...#.', '..#..', '.#...', '#..##', '...##'],
  '=': ['.....', '.....', '#####', '.....', '#####', '.....', '.....'],
  '?': ['.###.', '#...#', '....#', '...#.', '..#..', '.....', '..#..'],
};

export const GLYPH_WIDTH = 5;
export const GLYPH_HEIGHT = 7;
/** Advance per character and per line, in font pixels (one column and two rows of space). */
export const CHAR_ADVANCE = 6;
export const LINE_ADVANCE = 9;

const BITS = new Map<string, Uint8Array>(
  Object.entries(GLYPHS).map(([ch, rows]) => {
    const b = new Uint8Array(GLYPH_WIDTH * GLYPH_HEIGHT);
    rows.forEach((row, y) => [...row].forEach((c, x) => (b[y * GLYPH_WIDTH + x] = c === '#' ? 1 : 0)));
    return [ch, b];
  }),
);
const UNKNOWN = BITS.get('?')!;

/** The glyph of a character (lower case printed as upper case; anything unknown as '?'). */
export function glyph(ch: string): Uint8Array {
  return BITS.get(ch.toUpperCase()) ?? UNKNOWN;
}

/**
 * Whether font pixel (col, row) of a text block is ink: `col` counts font pixels from the left of
 * the line, `row` from the top of the first line. Fractional positions fall in the pixel below them.
 */
export function textInk(lines: readonly string[], col: number, row: number): boolean {
  if (col < 0 || row < 0) return false;
  const line = Math.floor(row / LINE_ADVANCE);
  const text = lines[line];
  if (text === undefined) return false;
  const y = Math.floor(row - line * LINE_ADVANCE);
  if (y >= GLYPH_HEIGHT) return false;
  const index = Math.floor(col / CHAR_ADVANCE);
  const ch = text[index];
  if (ch === undefined) return false;
  const x = Math.floor(col - index * CHAR_ADVANCE);
  if (x >= GLYPH_WIDTH) return false;
  return glyph(ch)[y * GLYPH_WIDTH + x] === 1;
}

/** Size of a text block in font pixels. */
export function textSize(lines: readonly string[]): { width: number; height: number } {
  const longest = Math.max(0, ...lines.map((l) => l.length));
  return {
    width: longest > 0 ? longest * CHAR_ADVANCE - 1 : 0,
    height: lines.length > 0 ? (lines.length - 1) * LINE_ADVANCE + GLYPH_HEIGHT : 0,
  };
}
