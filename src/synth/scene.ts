import type { MarkerDictionaryName, Scenario } from '../table/scenario.ts';
import type { ClutterItem } from './clutter.ts';
import type { CastShadow, GlareSpot, SceneLighting } from './lighting.ts';
import { markerBits, type MarkerBits } from './marker-bits.ts';
import { markerPrint, type MarkerPrint, type PrintDefects } from './print-defects.ts';
import { compileProps, type Prop } from './props.ts';

/**
 * The scene the renderer draws: every base resolved to table millimetres (pose, box, marker
 * frame, colours), every reference marker with its paper. Built once per frame from the
 * scenario plus any pose overrides; the renderer and the truth both read it.
 */

export interface BasePose {
  readonly x: number;
  readonly y: number;
  readonly headingDeg: number;
}

/** Poses that replace the scenario's, keyed by the base's marker id. */
export type PoseOverrides = Readonly<Record<number, BasePose>>;

export type Rgb = readonly [number, number, number];

export interface SceneMarker {
  readonly id: number;
  /** Centre on the table, mm; z = surface height. */
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly sizeMm: number;
  /** Unit vectors on the table of the marker image's right (+columns) and up (−rows). */
  readonly right: readonly [number, number];
  readonly up: readonly [number, number];
  /** Half side of the white square printed around the marker (clipped to the base for bases). */
  readonly paperHalfMm: number;
  readonly bits: MarkerBits;
  /** Printing defects (absent: a perfect print); `sizeMm` is already the printed size. */
  readonly print?: MarkerPrint;
}

export interface SceneBase {
  readonly unitId: string;
  readonly baseIndex: number;
  readonly side: string;
  readonly x: number;
  readonly y: number;
  readonly headingDeg: number;
  readonly cos: number;
  readonly sin: number;
  readonly halfWidth: number;
  readonly halfDepth: number;
  /** Top of the box (the marker's surface). */
  readonly topMm: number;
  readonly colour: Rgb;
  readonly marker: SceneMarker;
}

export interface SynthScene {
  readonly table: { readonly widthMm: number; readonly depthMm: number };
  readonly dictionary: MarkerDictionaryName;
  readonly bases: readonly SceneBase[];
  readonly references: readonly SceneMarker[];
  /** Clutter on (and hands over) the table, compiled for the ray caster; absent: none. */
  readonly props?: readonly Prop[];
  /** Glare and cast shadows; absent: none. */
  readonly lighting?: SceneLighting;
}

/** What a scene may hold besides the scenario's bases and reference markers (all off by default). */
export interface SceneExtras {
  readonly clutter?: readonly ClutterItem[];
  readonly glare?: readonly GlareSpot[];
  readonly shadows?: readonly CastShadow[];
  readonly printDefects?: PrintDefects;
}

/** The props and lighting of `extras`, as scene fields (nothing at all when there are none). */
export function sceneExtras(extras: SceneExtras): Pick<SynthScene, 'props' | 'lighting'> {
  const glare = extras.glare ?? [];
  const shadows = extras.shadows ?? [];
  return {
    ...(extras.clutter?.length ? { props: compileProps(extras.clutter) } : {}),
    ...(glare.length || shadows.length ? { lighting: { glare, shadows } } : {}),
  };
}

/** Applies print defects to a marker: printed size, paper still around it, the defects themselves. */
function printed(m: SceneMarker, defects: PrintDefects | undefined): SceneMarker {
  const print = markerPrint(defects, m.id);
  if (!print) return m;
  const sizeMm = m.sizeMm * print.scale;
  const cell = sizeMm / m.bits.cells;
  return { ...m, sizeMm, paperHalfMm: Math.max(m.paperHalfMm, sizeMm / 2 + 0.5 * cell), print };
}

export function parseColour(text: string): Rgb {
  const hex = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i.exec(text.trim());
  if (!hex?.[1]) return [128, 128, 128];
  const h = hex[1].length === 3 ? [...hex[1]].map((c) => c + c).join('') : hex[1];
  return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
}

/** Every base that stands on the table (has a pose or an override), in scenario order. */
export function placedBases(
  scenario: Scenario,
  overrides: PoseOverrides = {},
): Array<{
  unitId: string;
  baseIndex: number;
  side: string;
  pose: BasePose;
  base: Scenario['units'][number]['bases'][number];
}> {
  const out = [];
  for (const unit of scenario.units) {
    for (let i = 0; i < unit.bases.length; i++) {
      const base = unit.bases[i]!;
      const pose = overrides[base.marker.id] ?? base.pose;
      if (pose) out.push({ unitId: unit.id, baseIndex: i, side: unit.side, pose, base });
    }
  }
  return out;
}

/** Builds the scene; marker patterns must already be loaded (see `loadSceneBits`). */
export function buildScene(
  scenario: Scenario,
  bits: ReadonlyMap<number, MarkerBits>,
  overrides: PoseOverrides = {},
  extras: SceneExtras = {},
): SynthScene {
  const colours = new Map(scenario.sides.map((s) => [s.id, parseColour(s.colour)] as const));
  const need = (id: number): MarkerBits => {
    const b = bits.get(id);
    if (!b) throw new Error(`no bit pattern loaded for marker ${id}`);
    return b;
  };
  const bases: SceneBase[] = placedBases(scenario, overrides).map(
    ({ unitId, baseIndex, side, pose, base }) => {
      const h = (pose.headingDeg * Math.PI) / 180;
      const cos = Math.cos(h);
      const sin = Math.sin(h);
      const m = base.marker;
      // Marker centre: its base-frame offset rotated by the heading.
      const mx = pose.x + m.offsetMm.x * cos - m.offsetMm.y * sin;
      const my = pose.y + m.offsetMm.x * sin + m.offsetMm.y * cos;
      const a = h + (m.rotationDeg * Math.PI) / 180;
      const b = need(m.id);
      const cell = m.sizeMm / b.cells;
      return {
        unitId,
        baseIndex,
        side,
        x: pose.x,
        y: pose.y,
        headingDeg: pose.headingDeg,
        cos,
        sin,
        halfWidth: base.widthMm / 2,
        halfDepth: base.depthMm / 2,
        topMm: m.heightMm,
        colour: colours.get(side) ?? [128, 128, 128],
        marker: printed(
          {
            id: m.id,
            x: mx,
            y: my,
            z: m.heightMm,
            sizeMm: m.sizeMm,
            right: [Math.cos(a), Math.sin(a)],
            up: [-Math.sin(a), Math.cos(a)],
            // At least one cell of white; a little more where the base leaves room.
            paperHalfMm:
              m.sizeMm / 2 +
              Math.max(cell, Math.min(2 * cell, (Math.min(base.widthMm, base.depthMm) - m.sizeMm) / 2)),
            bits: b,
          },
          extras.printDefects,
        ),
      };
    },
  );
  const references: SceneMarker[] = scenario.referenceMarkers.map((r) => {
    const b = need(r.id);
    return printed(
      {
        id: r.id,
        x: r.x,
        y: r.y,
        z: r.heightMm,
        sizeMm: r.sizeMm,
        right: [1, 0],
        up: [0, 1],
        paperHalfMm: r.sizeMm / 2 + (1.5 * r.sizeMm) / b.cells,
        bits: b,
      },
      extras.printDefects,
    );
  });
  return {
    table: scenario.table,
    dictionary: scenario.markerDictionary,
    bases,
    references,
    ...sceneExtras(extras),
  };
}

/** Loads (and caches) the patterns of every marker in the scenario. */
export async function loadSceneBits(scenario: Scenario): Promise<Map<number, MarkerBits>> {
  const ids = [
    ...scenario.referenceMarkers.map((r) => r.id),
    ...scenario.units.flatMap((u) => u.bases.map((b) => b.marker.id)),
  ];
  const out = new Map<number, MarkerBits>();
  for (const id of ids) out.set(id, await markerBits(scenario.markerDictionary, id));
  return out;
}
