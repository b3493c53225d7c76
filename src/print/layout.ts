/**
 * Packing equal tiles (a base with its label, a reference marker) into pages, in millimetres.
 * Pure arithmetic, no PDF: the sheets place what this returns.
 */

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface GridLayout {
  readonly columns: number;
  readonly rows: number;
  readonly perPage: number;
  /** Top-left corner of each tile, page by page, in reading order. */
  readonly pages: ReadonlyArray<ReadonlyArray<{ readonly x: number; readonly y: number }>>;
}

/**
 * Lays out `count` tiles of `tileW` × `tileH` mm in rows across `box`, `gap` mm apart, centred
 * horizontally, at most `maxPerPage` per page. Throws when a single tile does not fit.
 */
export function gridLayout(
  count: number,
  tileW: number,
  tileH: number,
  box: Box,
  gap: number,
  maxPerPage = Infinity,
): GridLayout {
  if (tileW > box.width + 1e-9 || tileH > box.height + 1e-9) {
    throw new Error(
      `a ${tileW.toFixed(1)} × ${tileH.toFixed(1)} mm tile does not fit the ${box.width.toFixed(0)} × ${box.height.toFixed(0)} mm printable area`,
    );
  }
  const columns = Math.max(1, Math.floor((box.width + gap) / (tileW + gap)));
  const rowsFit = Math.max(1, Math.floor((box.height + gap) / (tileH + gap)));
  const perPage = Math.max(1, Math.min(columns * rowsFit, maxPerPage));
  const usedColumns = Math.min(columns, perPage);
  const rows = Math.ceil(perPage / usedColumns);
  const left = box.x + (box.width - (usedColumns * tileW + (usedColumns - 1) * gap)) / 2;
  const pages: Array<Array<{ x: number; y: number }>> = [];
  for (let i = 0; i < count; i++) {
    const k = i % perPage;
    if (k === 0) pages.push([]);
    const col = k % usedColumns;
    const row = Math.floor(k / usedColumns);
    pages.at(-1)!.push({ x: left + col * (tileW + gap), y: box.y + row * (tileH + gap) });
  }
  return { columns: usedColumns, rows, perPage, pages };
}

/** Parses marker id lists such as "10-69", "0-3,7,12-15" into sorted unique ids. */
export function parseIds(text: string): number[] {
  const ids = new Set<number>();
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(\d+)(?:\s*[-–]\s*(\d+))?$/.exec(part);
    if (!m) throw new Error(`cannot read marker ids "${part}": use a list such as 0-3,7,10-69`);
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a) throw new Error(`marker id range "${part}" runs backwards`);
    if (b - a > 5000) throw new Error(`marker id range "${part}" is too long`);
    for (let id = a; id <= b; id++) ids.add(id);
  }
  if (ids.size === 0) throw new Error('no marker ids given');
  return [...ids].sort((x, y) => x - y);
}
