import type { Vec2 } from '../geometry/vec.ts';
import type { Scenario } from './scenario.ts';
import { terrainPiece, type TerrainPiece } from './terrain.ts';
import { buildTableUnit, tableBase, type TableBase, type TableUnit } from './table-unit.ts';

/** A base pose as measured: table millimetres, heading CCW degrees from +y, one-sigma errors. */
export interface BasePose {
  readonly x: number;
  readonly y: number;
  readonly headingDeg: number;
  readonly sigmaMm: number;
  readonly sigmaHeadingDeg: number;
}

/** A commander: a point (the head, from above: the base centre) with his ratings. */
export interface Commander {
  readonly id: string;
  readonly name: string;
  readonly side: string;
  readonly head: Vec2;
  readonly sigmaMm: number;
  readonly mounted: boolean;
  readonly staffRating?: number;
  readonly general: boolean;
  readonly brigade?: string;
}

/** Everything on the table the rules may read. Millimetres throughout; no pixels, no camera. */
export interface TableState {
  readonly table: { readonly widthMm: number; readonly depthMm: number };
  readonly units: readonly TableUnit[];
  readonly commanders: readonly Commander[];
  readonly terrain: readonly TerrainPiece[];
  /** Scenario units and commanders that could not be placed, and why. */
  readonly missing: ReadonlyArray<{ readonly id: string; readonly name: string; readonly reason: string }>;
  /**
   * The table as it stood at the start of the current turn, from the recorded pose history (the
   * poses at the last turn mark), when there is one: Black Powder's charge face is decided by where
   * the charger's leader stood then.
   */
  readonly turnStart?: TableState;
}

export interface BuildOptions {
  /** Uncertainty given to poses taken from the scenario file (exact by default). */
  readonly filePoseSigmaMm?: number;
  readonly filePoseSigmaHeadingDeg?: number;
  /** Use file poses for bases the camera has not located (default true). */
  readonly fallBackToFilePoses?: boolean;
  /**
   * Poses of the bases at the start of the current turn (the recorded pose history at the last
   * turn mark): builds `turnStart`. Bases not in it are left out of that table.
   */
  readonly turnStartPoses?: ReadonlyMap<number, BasePose>;
}

/**
 * Builds the table the rules read from a scenario and the poses measured for its markers.
 * Bases without a measurement fall back to the pose written in the file; a unit with no base
 * located at all is listed in `missing`.
 */
export function buildTableState(
  scenario: Scenario,
  basePoses: ReadonlyMap<number, BasePose> = new Map(),
  options: BuildOptions = {},
): TableState {
  const fileSigma = options.filePoseSigmaMm ?? 0;
  const fileSigmaHeading = options.filePoseSigmaHeadingDeg ?? 0;
  const fallBack = options.fallBackToFilePoses ?? true;
  const units: TableUnit[] = [];
  const commanders: Commander[] = [];
  const missing: Array<{ id: string; name: string; reason: string }> = [];
  for (const spec of scenario.units) {
    const bases: TableBase[] = [];
    for (const b of spec.bases) {
      const measured = basePoses.get(b.marker.id);
      const pose: BasePose | undefined =
        measured ??
        (fallBack && b.pose
          ? { ...b.pose, sigmaMm: fileSigma, sigmaHeadingDeg: fileSigmaHeading }
          : undefined);
      if (!pose) continue;
      bases.push(
        tableBase(
          b.marker.id,
          {
            center: { x: pose.x, y: pose.y },
            width: b.widthMm,
            depth: b.depthMm,
            headingDeg: pose.headingDeg,
          },
          pose.sigmaMm,
          pose.sigmaHeadingDeg,
          b.role,
        ),
      );
    }
    if (bases.length === 0) {
      missing.push({ id: spec.id, name: spec.name, reason: 'no base located' });
      continue;
    }
    if (spec.type === 'commander') {
      const first = bases[0] as TableBase;
      commanders.push({
        id: spec.id,
        name: spec.name,
        side: spec.side,
        head: first.footprint.center,
        sigmaMm: first.sigmaMm,
        mounted: spec.mounted ?? false,
        general: spec.general ?? false,
        ...(spec.staffRating === undefined ? {} : { staffRating: spec.staffRating }),
        ...(spec.brigade === undefined ? {} : { brigade: spec.brigade }),
      });
    } else units.push(buildTableUnit(spec, bases));
  }
  const turnStart = options.turnStartPoses
    ? buildTableState(scenario, options.turnStartPoses, { fallBackToFilePoses: false })
    : undefined;
  return {
    table: scenario.table,
    units,
    commanders,
    terrain: (scenario.terrain ?? []).map(terrainPiece),
    missing,
    ...(turnStart ? { turnStart } : {}),
  };
}

export class UnknownNameError extends Error {
  override name = 'UnknownNameError';
}

const norm = (s: string) => s.trim().toLowerCase().replace(/[’`]/g, "'");

/**
 * Finds a unit or commander by id or name: exact (case-insensitive) first, then a unique
 * prefix or substring. Throws UnknownNameError naming the candidates when ambiguous.
 */
export function findByName<T extends { readonly id: string; readonly name: string }>(
  items: readonly T[],
  ref: string,
  what = 'unit',
): T {
  const needle = norm(ref);
  const exact = items.filter((u) => norm(u.id) === needle || norm(u.name) === needle);
  if (exact.length === 1) return exact[0] as T;
  const partial = items.filter(
    (u) => norm(u.name).startsWith(needle) || norm(u.name).includes(needle) || norm(u.id).startsWith(needle),
  );
  if (partial.length === 1) return partial[0] as T;
  if (partial.length > 1)
    throw new UnknownNameError(`"${ref}" could be any of: ${partial.map((u) => u.name).join(', ')}`);
  throw new UnknownNameError(`no ${what} called "${ref}"`);
}

/** Units found by each name asked, per units list (lists are never changed once built). */
const foundUnits = new WeakMap<readonly TableUnit[], Map<string, TableUnit>>();

/**
 * findByName over the table's units, remembered per units list and name: the all-pairs table
 * asks it for every pair, and the lookup (every unit's id and name normalised) cost more than
 * some verdicts. Failures are not remembered (they throw afresh, with the same words).
 */
export function findUnit(state: TableState, ref: string): TableUnit {
  let found = foundUnits.get(state.units);
  if (!found) foundUnits.set(state.units, (found = new Map()));
  let u = found.get(ref);
  if (!u) {
    u = findByName(state.units, ref, 'unit');
    found.set(ref, u);
  }
  return u;
}
export const enemiesOf = (state: TableState, unit: TableUnit): TableUnit[] =>
  state.units.filter((u) => u.side !== unit.side);
export const friendsOf = (state: TableState, unit: TableUnit): TableUnit[] =>
  state.units.filter((u) => u.side === unit.side && u.id !== unit.id);
