import type { Rect } from './noise.ts';

/**
 * The picture in 16-px tiles: what the shader redraws at a time (shade.ts `renderBases`), and
 * which boxes reach each tile.
 */

export const TILE = 16;

export class TileGrid {
  readonly tilesX: number;
  readonly tilesY: number;

  constructor(
    private readonly width: number,
    private readonly height: number,
  ) {
    this.tilesX = Math.ceil(this.width / TILE);
    this.tilesY = Math.ceil(this.height / TILE);
  }

  /** Adds each box to the list of every tile its rectangle touches (only `onlyTiles`, if given). */
  tileLists<B extends { rect: Rect }>(boxes: readonly B[], onlyTiles?: Uint8Array): Map<number, B[]> {
    const lists = new Map<number, B[]>();
    for (const box of boxes) {
      const { x0, y0, x1, y1 } = box.rect;
      if (x0 >= x1 || y0 >= y1) continue;
      for (let ty = Math.floor(y0 / TILE); ty <= Math.floor((y1 - 1) / TILE); ty++) {
        for (let tx = Math.floor(x0 / TILE); tx <= Math.floor((x1 - 1) / TILE); tx++) {
          const key = ty * this.tilesX + tx;
          if (onlyTiles && !onlyTiles[key]) continue;
          let list = lists.get(key);
          if (!list) lists.set(key, (list = []));
          list.push(box);
        }
      }
    }
    return lists;
  }

  /** Marks the tiles a rectangle touches. */
  markTiles(mask: Uint8Array, rect: Rect): void {
    if (rect.x0 >= rect.x1 || rect.y0 >= rect.y1) return;
    for (let ty = Math.floor(rect.y0 / TILE); ty <= Math.floor((rect.y1 - 1) / TILE); ty++) {
      for (let tx = Math.floor(rect.x0 / TILE); tx <= Math.floor((rect.x1 - 1) / TILE); tx++)
        mask[ty * this.tilesX + tx] = 1;
    }
  }

  tileCount(): number {
    return this.tilesX * this.tilesY;
  }

  /** Pixel rectangle of one tile. */
  tileRect(key: number): Rect {
    const tx = key % this.tilesX;
    const ty = (key - tx) / this.tilesX;
    return {
      x0: tx * TILE,
      y0: ty * TILE,
      x1: Math.min(this.width, (tx + 1) * TILE),
      y1: Math.min(this.height, (ty + 1) * TILE),
    };
  }
}
