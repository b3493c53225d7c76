import { closedRanks } from '../engine/closed-ranks.ts';
import { BlockerIndex } from '../../geometry/blocker-index.ts';
import { segmentTouchesBox } from '../../geometry/box.ts';
import type { Polygon } from '../../geometry/polygon.ts';
import { facedBoxPolygon } from '../../geometry/faced-box.ts';
import { makeBlocker, sightObstructions, type Blocker } from '../../geometry/line-of-sight.ts';
import { containsPoint } from '../../geometry/polygon.ts';
import {
  firstStretchInside,
  segmentInsidePolygon,
  type MutableInterval,
} from '../../geometry/segment-clip.ts';
import type { Hider } from '../../geometry/visibility.ts';
import { sightScreen, type SightScreen, type VisibleRegion } from '../../geometry/visible-region.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { TableState } from '../../table/table-state.ts';
import type { TerrainPiece } from '../../table/terrain.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { seenShare, type SeenShare } from '../engine/sight-share.ts';
import { tableCached } from '../engine/pair-cache.ts';
import { tableBefore } from '../engine/table-lineage.ts';
import { BP, inches, mmOf, type BpContext } from './context.ts';
import { hypot } from '../../geometry/hypot.ts';
import { byCodeUnits, sortStable } from '../../geometry/sort-stable.ts';

type UnitBlocker = Blocker & { readonly unitId: string; readonly side: string };

interface SightCache {
  readonly unitBlockers: readonly UnitBlocker[];
  /** Grid over the unit blockers' boxes (same order). */
  readonly unitIndex: BlockerIndex;
  readonly solid: readonly { piece: TerrainPiece; blocker: Blocker }[];
  readonly woods: readonly { piece: TerrainPiece; blocker: Blocker }[];
  readonly hills: readonly { piece: TerrainPiece; blocker: Blocker }[];
  /** The same unit bases as solid sight screens (nothing seen through or under them). */
  readonly unitScreens: ReadonlyArray<{
    readonly unitId: string;
    readonly side: string;
    readonly screen: SightScreen;
  }>;
  /** Buildings, other sight-blocking terrain and hills: they hide what lies behind, not what stands on them. */
  readonly terrainScreens: readonly SightScreen[];
}

const caches = new WeakMap<TableState, SightCache>();

/** Where the last sight line found its first blocker (filled by firstStretchInside). */
const stretch: MutableInterval = { t0: 0, t1: 0 };

/** Whether two polygons have the very same corners (Object.is, so −0 and 0 differ). */
function samePolygon(a: Polygon, b: Polygon): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const p = a[i] as Vec2;
    const q = b[i] as Vec2;
    if (!Object.is(p.x, q.x) || !Object.is(p.y, q.y)) return false;
  }
  return true;
}

/** Whether a unit's sight outlines would be built from the very same numbers as another's. */
function sameOutlines(u: TableUnit, old: TableUnit): boolean {
  if (
    u.id !== old.id ||
    u.name !== old.name ||
    u.side !== old.side ||
    u.formationInUse !== old.formationInUse
  )
    return false;
  if (u.formationInUse === 'skirmish') return samePolygon(facedBoxPolygon(u.box), facedBoxPolygon(old.box));
  if (u.bases.length !== old.bases.length) return false;
  return u.bases.every((b, i) => {
    const o = old.bases[i] as TableUnit['bases'][number];
    return (
      Object.is(b.sigmaMm, o.sigmaMm) &&
      Object.is(b.sigmaHeadingDeg, o.sigmaHeadingDeg) &&
      samePolygon(b.polygon, o.polygon)
    );
  });
}

/** Whether a terrain piece would give the very same blocker as another. */
const samePiece = (t: TerrainPiece, old: TerrainPiece): boolean =>
  t.id === old.id &&
  t.label === old.label &&
  t.kind === old.kind &&
  t.blocksSight === old.blocksSight &&
  samePolygon(t.polygon ?? [], old.polygon ?? []);

function cacheFor(state: TableState): SightCache {
  let c = caches.get(state);
  if (c) return c;
  // After an update (table-lineage.ts), the unchanged units' and terrain's blockers are the table
  // before's very objects (the same numbers): their shadows, kept per outline object and eye,
  // are found again instead of built anew for every eye.
  const previousState = tableBefore(state);
  const previous = previousState && caches.get(previousState);
  const oldUnits = new Map(previousState?.units.map((u) => [u.id, u]));
  const oldBlockers = new Map<string, UnitBlocker[]>();
  for (const b of previous?.unitBlockers ?? [])
    oldBlockers.set(b.unitId, [...(oldBlockers.get(b.unitId) ?? []), b]);
  const oldPieces = new Map(
    [...(previous?.solid ?? []), ...(previous?.woods ?? []), ...(previous?.hills ?? [])].map((e) => [
      e.piece.id,
      e,
    ]),
  );
  const pieceBlocker = (t: TerrainPiece) => {
    const old = oldPieces.get(t.id);
    return {
      piece: t,
      blocker: old && samePiece(t, old.piece) ? old.blocker : makeBlocker(t.id, t.label, t.polygon ?? []),
    };
  };
  const areas = state.terrain.filter((t) => t.polygon && t.kind !== 'obstacle' && t.kind !== 'road');
  // Skirmishers block as a body (no seeing between the spread-out models).
  const unitBlockers: UnitBlocker[] = state.units.flatMap((u) => {
    const old = oldUnits.get(u.id);
    const kept = old && sameOutlines(u, old) ? oldBlockers.get(u.id) : undefined;
    if (kept) return kept;
    return (u.formationInUse === 'skirmish' ? [facedBoxPolygon(u.box)] : closedRanks(u.bases)).map(
      (poly) => ({
        ...makeBlocker(u.id, u.name, poly),
        unitId: u.id,
        side: u.side,
      }),
    );
  });
  const solid = areas.filter((t) => t.blocksSight && t.kind !== 'wood').map(pieceBlocker);
  const hills = areas.filter((t) => t.kind === 'hill').map(pieceBlocker);
  c = {
    unitBlockers,
    unitIndex: new BlockerIndex(unitBlockers.map((b) => b.box)),
    solid,
    woods: areas.filter((t) => t.blocksSight && t.kind === 'wood').map(pieceBlocker),
    hills,
    unitScreens: unitBlockers.map((b) => ({
      unitId: b.unitId,
      side: b.side,
      screen: { id: b.unitId, label: b.label, polygon: b.polygon, box: b.box, kind: 'solid' as const },
    })),
    terrainScreens: [...solid, ...hills].map(({ piece, blocker }) =>
      sightScreen(piece.id, piece.label, blocker.polygon, 'screen'),
    ),
  };
  caches.set(state, c);
  return c;
}

export interface SightOptions {
  /** Units whose bases do not block (the looker, the target). */
  readonly exclude: ReadonlySet<string>;
  /** Units of this side do not block (howitzers, mortars and rockets fire over their own troops). */
  readonly overSide?: string;
  /** Units never block (the caller handles them, e.g. artillery overhead fire). */
  readonly ignoreUnits?: boolean;
  /**
   * False: a sight not already in the pair cache is computed without being kept there (see asks
   * last of the three questions, and nothing asks the same sight after it: kept, sights see alone
   * computed were most of what an all-pairs run held, ~30 MB, copied by every young collection).
   */
  readonly keep?: boolean;
}

/**
 * What blocks the straight line eye → p, if anything: another unit (commanders never do), a
 * building or other solid terrain, a wood the line runs more than the allowed depth through,
 * or a hill lying between (neither end standing on it). Units are looked up through a grid over
 * their bases, in table order, so the answer (and which unit is named) is that of a plain scan
 * (`sightBlockerPlain`).
 */
export function sightBlocker(ctx: BpContext, eye: Vec2, p: Vec2, opts: SightOptions): Hider | undefined {
  return sightBlockerExcept(
    ctx,
    eye,
    p,
    (unitId) => opts.exclude.has(unitId),
    opts.overSide,
    opts.ignoreUnits,
  );
}

/**
 * sightBlocker with the excluded units given as a predicate (no set to build per question: the
 * all-pairs table asks this 3,540 times for 60 units).
 */
export function sightBlockerExcept(
  ctx: BpContext,
  eye: Vec2,
  p: Vec2,
  excluded: (unitId: string) => boolean,
  overSide?: string,
  ignoreUnits?: boolean,
): Hider | undefined {
  const cache = cacheFor(ctx.state);
  if (!ignoreUnits) {
    const blockers = cache.unitBlockers;
    const i = cache.unitIndex.first(eye, p, (k) => {
      const b = blockers[k] as UnitBlocker;
      return (
        !excluded(b.unitId) &&
        b.side !== overSide &&
        segmentTouchesBox(eye, p, b.box) &&
        firstStretchInside(eye, p, b.polygon, stretch)
      );
    });
    if (i >= 0) {
      const b = blockers[i] as UnitBlocker;
      const len = hypot(p.x - eye.x, p.y - eye.y);
      return { id: b.id, label: b.label, fromMm: stretch.t0 * len, toMm: stretch.t1 * len };
    }
  }
  return terrainBlocker(ctx, cache, eye, p);
}

/**
 * The straightforward sightBlocker: every unit base in table order, then terrain. The truth the
 * indexed version is tested against; also the benchmark's reference.
 */
export function sightBlockerPlain(ctx: BpContext, eye: Vec2, p: Vec2, opts: SightOptions): Hider | undefined {
  const cache = cacheFor(ctx.state);
  if (!opts.ignoreUnits) {
    for (const b of cache.unitBlockers) {
      if (opts.exclude.has(b.unitId) || b.side === opts.overSide || !segmentTouchesBox(eye, p, b.box))
        continue;
      const o = sightObstructions(eye, p, [b], true)[0];
      if (o) return { id: o.blocker.id, label: o.blocker.label, fromMm: o.fromMm, toMm: o.toMm };
    }
  }
  return terrainBlocker(ctx, cache, eye, p);
}

function terrainBlocker(ctx: BpContext, cache: SightCache, eye: Vec2, p: Vec2): Hider | undefined {
  const len = hypot(p.x - eye.x, p.y - eye.y);
  for (const { piece, blocker } of cache.solid) {
    if (!segmentTouchesBox(eye, p, blocker.box)) continue;
    if (containsPoint(blocker.polygon, p) || containsPoint(blocker.polygon, eye)) continue;
    const o = sightObstructions(eye, p, [blocker], true)[0];
    if (o) return { id: piece.id, label: piece.label, fromMm: o.fromMm, toMm: o.toMm };
  }
  const depth = mmOf(ctx.options.woodsSightDepthIn);
  for (const { piece, blocker } of cache.woods) {
    if (!segmentTouchesBox(eye, p, blocker.box)) continue;
    const ivs = segmentInsidePolygon(eye, p, blocker.polygon);
    const inside = ivs.reduce((s, iv) => s + (iv.t1 - iv.t0) * len, 0);
    if (inside > depth) {
      const first = ivs[0];
      return {
        id: piece.id,
        label: piece.label,
        ...(first ? { fromMm: first.t0 * len, toMm: first.t1 * len } : {}),
      };
    }
  }
  for (const { piece, blocker } of cache.hills) {
    if (!segmentTouchesBox(eye, p, blocker.box)) continue;
    if (containsPoint(blocker.polygon, eye) || containsPoint(blocker.polygon, p)) continue;
    const o = sightObstructions(eye, p, [blocker], true)[0];
    if (o) return { id: piece.id, label: piece.label, fromMm: o.fromMm, toMm: o.toMm };
  }
  return undefined;
}

/** Terrain and units as sight screens for the exact visible part (units solid, woods by depth). */
export function sightScreens(ctx: BpContext, opts: SightOptions): SightScreen[] {
  const cache = cacheFor(ctx.state);
  const out: SightScreen[] = [];
  if (!opts.ignoreUnits)
    for (const b of cache.unitScreens)
      if (!opts.exclude.has(b.unitId) && b.side !== opts.overSide) out.push(b.screen);
  out.push(...cache.terrainScreens);
  const depth = mmOf(ctx.options.woodsSightDepthIn);
  for (const { piece, blocker } of cache.woods)
    out.push(sightScreen(piece.id, piece.label, blocker.polygon, 'wood', depth));
  return out;
}

/** The one-sigma position error of a screen: a unit's, or none for terrain. */
export function screenSigma(ctx: BpContext): (s: SightScreen) => number {
  let sigma = screenSigmas.get(ctx.state);
  if (!sigma) {
    const units = new Map(ctx.state.units.map((u) => [u.id, u.sigmaMm]));
    sigma = (s) => units.get(s.id) ?? 0;
    screenSigmas.set(ctx.state, sigma);
  }
  return sigma;
}

/** screenSigma per table (a map of every unit, built once rather than once per sight). */
const screenSigmas = new WeakMap<TableState, (s: SightScreen) => number>();

/**
 * What the eye sees of a target, exactly (`seenShare`): the seen part's outlines and share, and
 * the share with the target moved, for how far it is from an answer changing.
 */
export function seen(
  ctx: BpContext,
  eye: Vec2,
  eyeSigmaMm: number,
  target: TableUnit,
  opts: SightOptions,
  polygons: readonly Polygon[] = target.bodyPolygons,
): SeenShare {
  // Shoot, charge and see ask the same sight from the same leader: remembered per table while a
  // pair cache is active (the key holds everything but the table and the context).
  if (polygons !== target.bodyPolygons) return seenAfresh(ctx, eye, eyeSigmaMm, target, opts, polygons);
  const excluded = sortStable([...opts.exclude], byCodeUnits);
  return tableCached(
    ctx,
    `bp.seen ${eye.x},${eye.y} ${eyeSigmaMm} ${opts.overSide ?? ''} ${opts.ignoreUnits ? 1 : 0} ${excluded.length}`,
    [target],
    excluded,
    () => seenAfresh(ctx, eye, eyeSigmaMm, target, opts, polygons),
    opts.keep ?? true,
  );
}

function seenAfresh(
  ctx: BpContext,
  eye: Vec2,
  eyeSigmaMm: number,
  target: TableUnit,
  opts: SightOptions,
  polygons: readonly Polygon[],
): SeenShare {
  return seenShare(
    {
      eye,
      eyeSigmaMm,
      target: polygons,
      targetSigmaMm: target.sigmaMm,
      screens: sightScreens(ctx, opts),
      screenSigmaMm: screenSigma(ctx),
      // Units are placed by the camera (off by the band at least); terrain stays.
      screenMoves: (s) => s.kind === 'solid',
    },
    (sigmaMm) => BP.bandMm(ctx, sigmaMm),
  );
}

/** "blocked by Lee's between 14.2 in and 16.8 in" */
export function hiderWords(h: Hider): string {
  if (h.fromMm === undefined || h.toMm === undefined) return `blocked by ${h.label}`;
  return `blocked by ${h.label} between ${inches(h.fromMm).toFixed(1)} in and ${inches(h.toMm).toFixed(1)} in`;
}

/** "40% hidden by Tranent Wood; 10% by Lee's" */
export const hiddenWords = (hiddenBy: VisibleRegion['hiddenBy']): string[] =>
  hiddenBy.map((h) => `${(h.share * 100).toFixed(0)}% hidden by ${h.label}`);

/** Ground height under a point (the highest hill it stands on), mm. */
export function groundHeight(state: TableState, p: Vec2): number {
  let h = 0;
  for (const t of state.terrain)
    if (t.kind === 'hill' && t.polygon && containsPoint(t.polygon, p)) h = Math.max(h, t.heightMm);
  return h;
}

/** Every unit base and blocking terrain piece as a gap obstacle (ids: unit or terrain id). */
export function gapObstacles(
  ctx: BpContext,
  exclude: ReadonlySet<string>,
): Array<{ id: string; label: string; polygon: readonly Vec2[] }> {
  const cache = cacheFor(ctx.state);
  return [
    ...cache.unitBlockers
      .filter((b) => !exclude.has(b.unitId))
      .map((b) => ({ id: b.id, label: b.label, polygon: b.polygon })),
    ...[...cache.solid, ...cache.woods, ...cache.hills].map(({ piece, blocker }) => ({
      id: piece.id,
      label: piece.label,
      polygon: blocker.polygon,
    })),
  ];
}

/** Units whose footprints the line a → b passes through (other than those excluded). */
export function unitsCrossed(ctx: BpContext, a: Vec2, b: Vec2, exclude: ReadonlySet<string>): TableUnit[] {
  const cache = cacheFor(ctx.state);
  const ids = new Set<string>();
  for (const o of sightObstructions(
    a,
    b,
    cache.unitBlockers.filter((x) => !exclude.has(x.unitId)),
  ))
    ids.add(o.blocker.id);
  return ctx.state.units.filter((u) => ids.has(u.id));
}
