import type { MarkerDictionaryName } from './marker-dictionaries.ts';
import type { BaseRole, Formation, TerrainKind, UNIT_TYPES, UnitSize } from './scenario-schema.ts';

/** A scenario as the rest of Vedette sees it: loaded, checked, every length in millimetres. */

export interface MarkerSpec {
  readonly id: number;
  readonly sizeMm: number;
  readonly heightMm: number;
  readonly offsetMm: { readonly x: number; readonly y: number };
  readonly rotationDeg: number;
}
export interface BaseSpec {
  readonly widthMm: number;
  readonly depthMm: number;
  readonly marker: MarkerSpec;
  readonly pose?: { readonly x: number; readonly y: number; readonly headingDeg: number };
  readonly role?: BaseRole;
}
/** Optional rules attributes of a unit (all absent in older scenario files). */
export interface UnitAttributes {
  readonly formation?: Formation;
  readonly weapon?: string;
  readonly brigade?: string;
  readonly size?: UnitSize;
  readonly models?: number;
  readonly mounted?: boolean;
  readonly staffRating?: number;
  readonly general?: boolean;
  readonly irregular?: boolean;
  readonly disordered?: boolean;
  readonly shaken?: boolean;
  readonly engaged?: boolean;
  readonly facingDeg?: number;
  /** Millimetres. */
  readonly leaderAtTurnStart?: { readonly x: number; readonly y: number };
  readonly troop?: string;
  readonly strength?: number;
  readonly quality?: string;
  /** Ruleset unit (not converted). */
  readonly movement?: number;
  readonly inactive?: boolean;
}
export interface UnitSpec extends UnitAttributes {
  readonly id: string;
  readonly name: string;
  readonly side: string;
  readonly type: (typeof UNIT_TYPES)[number];
  readonly bases: readonly BaseSpec[];
}
/** A terrain piece with every length in millimetres. */
export interface TerrainSpec {
  readonly id: string;
  readonly name?: string;
  readonly kind: TerrainKind;
  readonly polygon?: ReadonlyArray<{ readonly x: number; readonly y: number }>;
  readonly line?: ReadonlyArray<{ readonly x: number; readonly y: number }>;
  readonly heightMm?: number;
  readonly widthMm?: number;
  readonly blocksSight?: boolean;
  readonly cover?: 'none' | 'light' | 'heavy';
  readonly skirmishOnly?: boolean;
  readonly cavalryProof?: boolean;
  readonly impassable?: boolean;
}
export interface ReferenceMarkerSpec {
  readonly id: number;
  readonly x: number;
  readonly y: number;
  readonly sizeMm: number;
  readonly heightMm: number;
}
/** A scenario with every length in millimetres. */
export interface Scenario {
  readonly name: string;
  readonly description?: string;
  readonly ruleset: string;
  readonly markerDictionary: MarkerDictionaryName;
  readonly table: { readonly widthMm: number; readonly depthMm: number };
  readonly referenceMarkers: readonly ReferenceMarkerSpec[];
  readonly sides: ReadonlyArray<{ readonly id: string; readonly name: string; readonly colour: string }>;
  readonly units: readonly UnitSpec[];
  /** Terrain pieces; absent in scenarios without terrain. */
  readonly terrain?: readonly TerrainSpec[];
  /** A printed board map on the table; lengths in millimetres. */
  readonly board?: BoardPlacement;
}

/** Where a board map lies on the table (millimetres). */
export interface BoardPlacement {
  readonly map: string;
  readonly originMm: { readonly x: number; readonly y: number };
  readonly rotationDeg: number;
  /** Table millimetres per map inch. */
  readonly mmPerMapInch: number;
}
