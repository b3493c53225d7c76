import type { MarkerDictionaryName } from '../table/scenario.ts';
import { markerBits } from './marker-bits.ts';
import { parseColour, type SceneBase } from './scene.ts';

/**
 * Marked bases standing on the synthetic table that the scenario does not know: what a player
 * does when they press a new base onto the table before binding its marker. The renderer draws
 * them like any base (a raised box with its printed marker); the vision pipeline sees a marker
 * no base owns, and once the marker is bound the same physical base becomes that unit's base.
 */
export interface LooseBase {
  readonly markerId: number;
  /** Base centre on the table, mm. */
  readonly x: number;
  readonly y: number;
  /** Facing, degrees counter-clockwise from table +y (as scenario poses). */
  readonly headingDeg: number;
  readonly widthMm: number;
  readonly depthMm: number;
  readonly markerSizeMm: number;
  /** Height of the marker surface (base thickness plus sticker), mm. */
  readonly markerHeightMm: number;
  /** Paint of the base, #rrggbb (default an unpainted grey-brown). */
  readonly colour?: string;
}

export const LOOSE_BASE_COLOUR = '#8c7b5e';

/**
 * The loose bases as scene bases (marker centred on the base, square to it), in the scenario's
 * marker dictionary. Bases whose marker id is in `skipIds` (drawn already because the scenario
 * places a base with it) are left out, so no marker is ever printed twice.
 */
export async function looseSceneBases(
  dictionary: MarkerDictionaryName,
  bases: readonly LooseBase[],
  skipIds: ReadonlySet<number> = new Set(),
): Promise<SceneBase[]> {
  const out: SceneBase[] = [];
  for (const [i, b] of bases.entries()) {
    if (skipIds.has(b.markerId)) continue;
    const bits = await markerBits(dictionary, b.markerId);
    const h = (b.headingDeg * Math.PI) / 180;
    const cell = b.markerSizeMm / bits.cells;
    out.push({
      unitId: '',
      baseIndex: i,
      side: '',
      x: b.x,
      y: b.y,
      headingDeg: b.headingDeg,
      cos: Math.cos(h),
      sin: Math.sin(h),
      halfWidth: b.widthMm / 2,
      halfDepth: b.depthMm / 2,
      topMm: b.markerHeightMm,
      colour: parseColour(b.colour ?? LOOSE_BASE_COLOUR),
      marker: {
        id: b.markerId,
        x: b.x,
        y: b.y,
        z: b.markerHeightMm,
        sizeMm: b.markerSizeMm,
        right: [Math.cos(h), Math.sin(h)],
        up: [-Math.sin(h), Math.cos(h)],
        paperHalfMm:
          b.markerSizeMm / 2 +
          Math.max(cell, Math.min(2 * cell, (Math.min(b.widthMm, b.depthMm) - b.markerSizeMm) / 2)),
        bits,
      },
    });
  }
  return out;
}
