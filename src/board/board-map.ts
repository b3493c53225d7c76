import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { segmentsIntersect } from '../geometry/polygon.ts';
import type { Vec2 } from '../geometry/vec.ts';

/**
 * A point-to-point board map (Campaigns of Montrose): spaces (circles) joined by routes, and the
 * frontier lines that split the map into regions. Lengths are map inches, x to the east and y to
 * the north, origin at the map's south-west corner.
 */

export const REGIONS = ['highlands', 'northernLowlands', 'southernLowlands', 'england'] as const;
export type Region = (typeof REGIONS)[number];
export const FRONTIERS = ['englishBoundary', 'highlandLine', 'royalistLimit'] as const;
export type FrontierId = (typeof FRONTIERS)[number];

const finite = z.number().finite();
const point = z.strictObject({ x: finite, y: finite });

const spaceSchema = z.strictObject({
  id: z.string().min(1),
  /** Place name printed on the map; absent for unnamed Open spaces. */
  name: z.string().min(1).optional(),
  /** Other spellings the rules use (Inverlochry, Iveraray…). */
  aliases: z.array(z.string().min(1)).optional(),
  /** Burgh (major town and hinterland) or Open. */
  kind: z.enum(['burgh', 'open']),
  /** Carries a place name (matters in winter). Burghs are always named. */
  named: z.boolean(),
  region: z.enum(REGIONS),
  x: finite,
  y: finite,
  /** Radius of the printed circle, map inches. */
  radius: z.number().positive('space radius must be > 0'),
  /** Where the sample was laid out from (documentation only). */
  geo: z.strictObject({ lat: finite, lon: finite }).optional(),
  note: z.string().optional(),
});

const routeSchema = z.strictObject({
  from: z.string().min(1),
  to: z.string().min(1),
  kind: z.enum(['land', 'mountain']),
});

export const boardMapSchema = z
  .strictObject({
    name: z.string().min(1),
    /** True for a map that is not the printed one (a development sample). */
    sample: z.boolean().default(false),
    note: z.string().optional(),
    unit: z.literal('in').default('in'),
    /** Map sheet size, map inches. */
    size: z.strictObject({ width: z.number().positive(), height: z.number().positive() }),
    /** The stated scale: the distance between two spaces in map inches and on the ground. */
    scale: z.strictObject({
      from: z.string().min(1),
      to: z.string().min(1),
      inches: z.number().positive(),
      miles: z.number().positive(),
      km: z.number().positive(),
    }),
    /** Movement points per route kind (the map's Terrain Effects Chart). */
    costs: z
      .strictObject({ land: z.number().positive(), mountain: z.number().positive() })
      .default({ land: 1, mountain: 2 }),
    spaces: z.array(spaceSchema).min(1),
    routes: z.array(routeSchema),
    frontiers: z.array(z.strictObject({ id: z.enum(FRONTIERS), line: z.array(point).min(2) })),
  })
  .superRefine((m, ctx) => {
    const ids = new Set<string>();
    m.spaces.forEach((s, i) => {
      if (ids.has(s.id))
        ctx.addIssue({
          code: 'custom',
          path: ['spaces', i, 'id'],
          message: `space id "${s.id}" is used twice`,
        });
      ids.add(s.id);
      if (s.kind === 'burgh' && !s.named)
        ctx.addIssue({
          code: 'custom',
          path: ['spaces', i, 'named'],
          message: 'a Burgh is always a named space',
        });
      if (s.named && !s.name)
        ctx.addIssue({
          code: 'custom',
          path: ['spaces', i, 'name'],
          message: 'a named space needs its name',
        });
    });
    const seen = new Set<string>();
    m.routes.forEach((r, i) => {
      for (const end of ['from', 'to'] as const)
        if (!ids.has(r[end]))
          ctx.addIssue({ code: 'custom', path: ['routes', i, end], message: `unknown space "${r[end]}"` });
      if (r.from === r.to)
        ctx.addIssue({ code: 'custom', path: ['routes', i], message: 'a route joins two different spaces' });
      const key = [r.from, r.to].sort().join('|');
      if (seen.has(key))
        ctx.addIssue({
          code: 'custom',
          path: ['routes', i],
          message: `route ${r.from}–${r.to} is listed twice`,
        });
      seen.add(key);
    });
    for (const end of ['from', 'to'] as const)
      if (!ids.has(m.scale[end]))
        ctx.addIssue({ code: 'custom', path: ['scale', end], message: `unknown space "${m.scale[end]}"` });
  });

export type BoardMapFile = z.input<typeof boardMapSchema>;
export type Space = z.output<typeof spaceSchema>;
export type Route = z.output<typeof routeSchema>;

export interface BoardMap {
  readonly name: string;
  readonly sample: boolean;
  readonly note?: string;
  readonly size: { readonly width: number; readonly height: number };
  readonly scale: {
    readonly from: string;
    readonly to: string;
    readonly inches: number;
    readonly miles: number;
    readonly km: number;
  };
  readonly costs: { readonly land: number; readonly mountain: number };
  readonly spaces: readonly Space[];
  readonly routes: readonly Route[];
  readonly frontiers: ReadonlyArray<{ readonly id: FrontierId; readonly line: readonly Vec2[] }>;
  readonly byId: ReadonlyMap<string, Space>;
  /** Neighbours of each space, with the route kind. */
  readonly adjacency: ReadonlyMap<
    string,
    ReadonlyArray<{ readonly to: string; readonly kind: Route['kind'] }>
  >;
}

export class BoardMapError extends Error {
  override name = 'BoardMapError';
}

export function parseBoardMap(value: unknown, source = 'board map'): BoardMap {
  const r = boardMapSchema.safeParse(value);
  if (!r.success) {
    const lines = r.error.issues.map(
      (i) =>
        `  ${i.path.map(String).join('.') || '(root)'}: ${i.code === 'unrecognized_keys' ? `unknown field(s): ${i.keys.join(', ')}` : i.message}`,
    );
    throw new BoardMapError(`${source} is not a valid board map:\n${lines.join('\n')}`);
  }
  const m = r.data;
  const adjacency = new Map<string, Array<{ to: string; kind: Route['kind'] }>>(
    m.spaces.map((s) => [s.id, []]),
  );
  for (const route of m.routes) {
    adjacency.get(route.from)?.push({ to: route.to, kind: route.kind });
    adjacency.get(route.to)?.push({ to: route.from, kind: route.kind });
  }
  return {
    name: m.name,
    sample: m.sample,
    ...(m.note ? { note: m.note } : {}),
    size: m.size,
    scale: m.scale,
    costs: m.costs,
    spaces: m.spaces,
    routes: m.routes,
    frontiers: m.frontiers,
    byId: new Map(m.spaces.map((s) => [s.id, s])),
    adjacency,
  };
}

export function loadBoardMap(path: string): BoardMap {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new BoardMapError(`${path}: ${(err as Error).message}`);
  }
  return parseBoardMap(value, path);
}

/** The sample map shipped in maps/ (a stand-in for the printed map). */
export const SAMPLE_MAP_URL = new URL('../../maps/montrose-sample.json', import.meta.url);
let sample: BoardMap | undefined;
export function sampleBoardMap(): BoardMap {
  sample ??= parseBoardMap(JSON.parse(readFileSync(SAMPLE_MAP_URL, 'utf8')), 'maps/montrose-sample.json');
  return sample;
}

const norm = (s: string) => s.trim().toLowerCase().replace(/[’`]/g, "'").replace(/\s+/g, ' ');

/** A space by id, name or alias (case-insensitive; "Burgh of Montrose" finds Montrose). */
export function findSpace(map: BoardMap, ref: string): Space {
  const n = norm(ref);
  const hit = map.spaces.find(
    (s) => norm(s.id) === n || (s.name && norm(s.name) === n) || (s.aliases ?? []).some((a) => norm(a) === n),
  );
  if (!hit) throw new BoardMapError(`no space called "${ref}" on ${map.name}`);
  return hit;
}

/** Player-facing name: the place name, or "the unnamed space near X" / its id. */
export const spaceLabel = (s: Space): string => s.name ?? `unnamed space ${s.id}`;

export function routeBetween(map: BoardMap, a: string, b: string): Route['kind'] | undefined {
  return map.adjacency.get(a)?.find((n) => n.to === b)?.kind;
}

export const mapDistance = (a: Pick<Space, 'x' | 'y'>, b: Pick<Space, 'x' | 'y'>): number =>
  Math.hypot(a.x - b.x, a.y - b.y);

/** Ground distance of a map length: by the stated miles (default) or the stated kilometres. */
export function groundDistance(
  map: BoardMap,
  mapInches: number,
  from: 'miles' | 'km' = 'miles',
): { miles: number; km: number } {
  const KM_PER_MILE = 1.609344;
  if (from === 'miles') {
    const miles = (mapInches * map.scale.miles) / map.scale.inches;
    return { miles, km: miles * KM_PER_MILE };
  }
  const km = (mapInches * map.scale.km) / map.scale.inches;
  return { miles: km / KM_PER_MILE, km };
}

/** How many times the straight line between two spaces crosses a frontier. */
export function frontierCrossings(map: BoardMap, frontier: FrontierId, a: Vec2, b: Vec2): number {
  let n = 0;
  for (const f of map.frontiers.filter((x) => x.id === frontier))
    for (let i = 0; i + 1 < f.line.length; i++)
      if (segmentsIntersect(a, b, f.line[i] as Vec2, f.line[i + 1] as Vec2)) n++;
  return n;
}

/** Which frontier separates two regions (undefined when the same region). */
export function frontierBetween(r1: Region, r2: Region): FrontierId | undefined {
  if (r1 === r2) return undefined;
  const pair = new Set([r1, r2]);
  if (pair.has('england')) return 'englishBoundary';
  if (pair.has('highlands')) return 'highlandLine';
  return 'royalistLimit';
}

/**
 * Checks that each route crosses the frontier its two regions imply, and no other: the regions
 * written on the spaces and the frontier lines drawn on the map must tell the same story.
 */
export function frontierConsistency(map: BoardMap): string[] {
  const issues: string[] = [];
  for (const r of map.routes) {
    const a = map.byId.get(r.from) as Space;
    const b = map.byId.get(r.to) as Space;
    const expected = frontierBetween(a.region, b.region);
    for (const f of FRONTIERS) {
      const odd = frontierCrossings(map, f, a, b) % 2 === 1;
      if (odd && f !== expected)
        issues.push(`route ${a.id}–${b.id} crosses the ${f} but both ends are on the same side of it`);
      if (!odd && f === expected)
        issues.push(`route ${a.id}–${b.id} joins ${a.region} and ${b.region} without crossing the ${f}`);
    }
  }
  return issues;
}
