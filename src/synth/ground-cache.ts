/**
 * What the rays of a redrawn pixel meet when they miss every base, kept per pixel: the live
 * table redraws the tiles its walking unit covers every frame, and those rays never change (the
 * camera, the table, its reference sheets and its light stay put). Each ray keeps its direction
 * and either what a reference sheet or the floor adds (fixed), or the cloth's colour and light
 * before the bases' contact shadows (which move with the bases, so they are applied per frame).
 * The values are the very doubles `shadeRay` (ray-caster.ts) computes, so cached pixels come out
 * bit for bit as shaded afresh.
 */

/** Doubles per ray: direction (3), then cloth x, y, light × weight, colour (3) — or NaN, ·, ·, addends (3). */
export const RAY_STRIDE = 9;
export const TILE = 16;
/** Tiles kept at most (≈ 166 KB each at 3 × 3 samples); past it the cache starts again. The demo's walk covers ≈ 130. */
const MAX_TILES = 400;

/** One tile's pixels, shaded with `samples` × `samples` rays each. */
export interface RayTile {
  readonly samples: number;
  readonly rays: Float64Array;
  /** Whether each pixel's rays are filled in yet (pixel index (v − y0) × TILE + (u − x0)). */
  readonly filled: Uint8Array;
}

export class GroundCache {
  private readonly tiles = new Map<number, RayTile>();

  /** The cache of tile `key` for `samples` rays per axis (a tile shaded otherwise starts again). */
  tile(key: number, samples: number): RayTile {
    let tile = this.tiles.get(key);
    if (!tile || tile.samples !== samples) {
      if (this.tiles.size >= MAX_TILES) this.tiles.clear();
      const pixels = TILE * TILE;
      tile = {
        samples,
        rays: new Float64Array(pixels * samples * samples * RAY_STRIDE),
        filled: new Uint8Array(pixels),
      };
      this.tiles.set(key, tile);
    }
    return tile;
  }

  /** Forgets everything (the light changed). */
  clear(): void {
    this.tiles.clear();
  }

  /** Tiles held (for tests). */
  get size(): number {
    return this.tiles.size;
  }
}
