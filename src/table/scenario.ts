import { z } from 'zod';
import { toMm, type LengthUnit } from './length-unit.ts';

/**
 * Scenario files: the table, its reference markers and the units with their bases, each base
 * bound to one printed marker. Lengths are in the file's `lengthUnit` (default mm) and are
 * converted to millimetres on load. Unknown fields are refused so typos do not pass silently.
 */

const positive = (what: string) =>
  z.number({ error: `${what} must be a number` }).positive(`${what} must be > 0`);
const finite = z.number().finite();

const pointSchema = z.strictObject({ x: finite, y: finite });

const poseSchema = z.strictObject({ x: finite, y: finite, headingDeg: finite.default(0) });

/** Typical thickness of a wargames base plus a printed sticker. */
export const DEFAULT_MARKER_HEIGHT_MM = 3;

const markerSchema = z.strictObject({
  id: z.number().int().nonnegative(),
  /** Side of the black square, edge to edge. */
  size: positive('marker size'),
  /** Height of the printed marker's surface above the table (base thickness plus sticker). */
  height: z.number().nonnegative('marker height must be ≥ 0').optional(),
  /** Marker centre in the base's frame (+y front, +x right). */
  offset: pointSchema.default({ x: 0, y: 0 }),
  /** Marker's "up" relative to the base's front, counter-clockwise degrees. */
  rotationDeg: finite.default(0),
});

/** What a base is within its unit; optional, most bases are plain ranks of the formation. */
export const BASE_ROLES = ['rank', 'leader', 'skirmisher', 'gun', 'crew', 'limber', 'team'] as const;
export type BaseRole = (typeof BASE_ROLES)[number];

const baseSchema = z.strictObject({
  width: positive('base width'),
  depth: positive('base depth'),
  marker: markerSchema,
  /** Where the base stands when there is no camera (synthetic table, rules without vision). */
  pose: poseSchema.optional(),
  role: z.enum(BASE_ROLES).optional(),
});

export const UNIT_TYPES = ['infantry', 'cavalry', 'artillery', 'commander'] as const;

/** Formations a player may declare (otherwise recognised from the bases' arrangement). */
export const FORMATIONS = [
  'line',
  'attackColumn',
  'marchColumn',
  'skirmish',
  'square',
  'warband',
  'mixed',
  'limbered',
  'deployed',
] as const;
export type Formation = (typeof FORMATIONS)[number];
export const UNIT_SIZES = ['tiny', 'small', 'standard', 'large'] as const;
export type UnitSize = (typeof UNIT_SIZES)[number];

const unitSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  side: z.string().min(1),
  type: z.enum(UNIT_TYPES),
  bases: z.array(baseSchema).min(1, 'a unit needs at least one base'),
  /** Declared formation; when absent the table recognises one from the bases. */
  formation: z.enum(FORMATIONS).optional(),
  /** Weapon name as the ruleset spells it, e.g. "smoothbore musket", "smoothbore foot artillery". */
  weapon: z.string().min(1).optional(),
  brigade: z.string().min(1).optional(),
  size: z.enum(UNIT_SIZES).optional(),
  /** Number of models (figures), when a rule counts them. */
  models: z.number().int().positive('models must be > 0').optional(),
  /** Commanders: mounted or on foot; cavalry are always mounted. */
  mounted: z.boolean().optional(),
  /** Commanders: staff rating. */
  staffRating: z.number().int().optional(),
  /** Commanders: the commander-in-chief may order any unit. */
  general: z.boolean().optional(),
  /** Irregular troops (warbands are their default formation). */
  irregular: z.boolean().optional(),
  disordered: z.boolean().optional(),
  shaken: z.boolean().optional(),
  /** In hand-to-hand combat. */
  engaged: z.boolean().optional(),
  /** Facing override, degrees CCW from table +y; otherwise the bases' mean heading. */
  facingDeg: finite.optional(),
  /** Where the unit's leader stood at the start of the turn (charge face), in lengthUnit. */
  leaderAtTurnStart: pointSchema.optional(),
  /** Troop type in the ruleset's own words: "highlander", "skirmishers", "dragoons", "irish", "leader"… */
  troop: z.string().min(1).optional(),
  /** Strength as the ruleset counts it (O'er the Sea unit strength, Montrose battle strength or leadership). */
  strength: z.number().int().nonnegative('strength must be ≥ 0').optional(),
  /** Quality in the ruleset's words: "seasoned", "unseasoned", "untried", "tried", "veteran". */
  quality: z.string().min(1).optional(),
  /** Movement allowance in the ruleset's own unit, when the counter or roster states one (Montrose MP). */
  movement: z.number().nonnegative('movement must be ≥ 0').optional(),
  /** Present but not yet free to act (Montrose's inactive Covenanter leaders). */
  inactive: z.boolean().optional(),
});

export const TERRAIN_KINDS = [
  'wood',
  'rough',
  'veryRough',
  'extremelyRough',
  'obstacle',
  'building',
  'hill',
  'water',
  'road',
] as const;
export type TerrainKind = (typeof TERRAIN_KINDS)[number];
/** Kinds drawn as a line (a hedge, a road's centre line); the rest are areas. */
export const LINEAR_TERRAIN: readonly TerrainKind[] = ['obstacle', 'road'];

const terrainSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1).optional(),
  kind: z.enum(TERRAIN_KINDS),
  /** Outline of an area piece (wood, rough ground, building, hill, water), in order. */
  polygon: z.array(pointSchema).min(3, 'a terrain polygon needs at least three points').optional(),
  /** Course of a linear piece (obstacle, road), in order. */
  line: z.array(pointSchema).min(2, 'a terrain line needs at least two points').optional(),
  /** Hills: height of the top above the table. */
  height: z.number().nonnegative('terrain height must be ≥ 0').optional(),
  /** Roads: width; obstacles: thickness. */
  width: positive('terrain width').optional(),
  /** Overrides of the kind's defaults. */
  blocksSight: z.boolean().optional(),
  cover: z.enum(['none', 'light', 'heavy']).optional(),
  skirmishOnly: z.boolean().optional(),
  cavalryProof: z.boolean().optional(),
  impassable: z.boolean().optional(),
});

const sideSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  colour: z.string().min(1),
});

const referenceMarkerSchema = z.strictObject({
  id: z.number().int().nonnegative(),
  /** Marker centre on the table. */
  x: finite,
  y: finite,
  size: positive('reference marker size'),
  height: z.number().nonnegative().default(0),
});

/** Where a printed board map (Montrose) lies on the table. */
const boardSchema = z.strictObject({
  /** Map file, relative to the working directory. */
  map: z.string().min(1),
  /** Table position (lengthUnit) of the map's origin (its x = 0, y = 0 corner). */
  origin: pointSchema.default({ x: 0, y: 0 }),
  /** Map +x relative to table +x, counter-clockwise degrees. */
  rotationDeg: finite.default(0),
  /** Length of one map inch on the table, in lengthUnit (default: one real inch, a map printed 1:1). */
  mapInch: positive('board mapInch').optional(),
});

export const MARKER_DICTIONARIES = [
  'apriltag_36h11',
  'aruco_4x4_250',
  'aruco_5x5_250',
  'aruco_mip_36h12',
] as const;
/**
 * The default, chosen by bench/accuracy (docs/markers.md): ArUco MIP 36h12 is the only dictionary
 * that finds ≥ 99 % of 20 mm markers at 1080p over a 6 × 4 ft table, as accurately as AprilTag
 * 36h11 and safer against stray patterns. Tables with more than 246 bases need AprilTag 36h11.
 */
export const DEFAULT_MARKER_DICTIONARY: (typeof MARKER_DICTIONARIES)[number] = 'aruco_mip_36h12';
export type MarkerDictionaryName = (typeof MARKER_DICTIONARIES)[number];

/**
 * How many markers each dictionary has (ids 0 to size − 1), as OpenCV defines them. A marker id
 * outside its dictionary can never be printed or seen, so the scenario schema refuses it.
 */
export const MARKER_DICTIONARY_SIZES: Readonly<Record<MarkerDictionaryName, number>> = {
  apriltag_36h11: 587,
  aruco_4x4_250: 250,
  aruco_5x5_250: 250,
  aruco_mip_36h12: 250,
};

/** Why a marker id cannot be in a dictionary, or null when it can. */
export function markerIdProblem(dictionary: MarkerDictionaryName, id: number): string | null {
  const size = MARKER_DICTIONARY_SIZES[dictionary];
  if (Number.isInteger(id) && id >= 0 && id < size) return null;
  return `marker id ${id} is not in ${dictionary} (its ids are 0–${size - 1})`;
}

export const scenarioFileSchema = z
  .strictObject({
    name: z.string().min(1),
    description: z.string().optional(),
    ruleset: z.string().default('prestonpans'),
    lengthUnit: z.enum(['mm', 'cm', 'in']).default('mm'),
    markerDictionary: z.enum(MARKER_DICTIONARIES).default(DEFAULT_MARKER_DICTIONARY),
    table: z.strictObject({ width: positive('table width'), depth: positive('table depth') }),
    referenceMarkers: z.array(referenceMarkerSchema).min(3, 'at least three reference markers fix the table'),
    sides: z.array(sideSchema).min(1),
    units: z.array(unitSchema),
    terrain: z.array(terrainSchema).optional(),
    /** A printed board map lying on the table (board games such as Campaigns of Montrose). */
    board: boardSchema.optional(),
  })
  .superRefine((scenario, ctx) => {
    const seen = new Map<number, string>();
    const claim = (id: number, owner: string, path: (string | number)[]) => {
      const outside = markerIdProblem(scenario.markerDictionary, id);
      if (outside) ctx.addIssue({ code: 'custom', path, message: outside });
      const previous = seen.get(id);
      if (previous !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path,
          message: `marker id ${id} is used twice (${previous} and ${owner})`,
        });
      } else seen.set(id, owner);
    };
    scenario.referenceMarkers.forEach((m, i) =>
      claim(m.id, `reference marker ${i}`, ['referenceMarkers', i, 'id']),
    );
    const unitIds = new Set<string>();
    const sideIds = new Set(scenario.sides.map((s) => s.id));
    scenario.units.forEach((unit, u) => {
      if (unitIds.has(unit.id))
        ctx.addIssue({
          code: 'custom',
          path: ['units', u, 'id'],
          message: `unit id "${unit.id}" is used twice`,
        });
      unitIds.add(unit.id);
      if (!sideIds.has(unit.side))
        ctx.addIssue({ code: 'custom', path: ['units', u, 'side'], message: `unknown side "${unit.side}"` });
      if (unit.type !== 'commander' && (unit.staffRating !== undefined || unit.general !== undefined))
        ctx.addIssue({
          code: 'custom',
          path: ['units', u, 'staffRating'],
          message: 'only commanders have a staff rating',
        });
      unit.bases.forEach((base, b) => {
        claim(base.marker.id, `${unit.name} base ${b + 1}`, ['units', u, 'bases', b, 'marker', 'id']);
        if (base.width > 0 && base.depth > 0 && base.marker.size > Math.min(base.width, base.depth))
          ctx.addIssue({
            code: 'custom',
            path: ['units', u, 'bases', b, 'marker', 'size'],
            message: `marker (${base.marker.size}) is larger than its base`,
          });
      });
    });
    const terrainIds = new Set<string>();
    (scenario.terrain ?? []).forEach((piece, t) => {
      if (terrainIds.has(piece.id))
        ctx.addIssue({
          code: 'custom',
          path: ['terrain', t, 'id'],
          message: `terrain id "${piece.id}" is used twice`,
        });
      terrainIds.add(piece.id);
      const linear = LINEAR_TERRAIN.includes(piece.kind);
      if (linear && !piece.line)
        ctx.addIssue({
          code: 'custom',
          path: ['terrain', t, 'line'],
          message: `a ${piece.kind} needs a line`,
        });
      if (!linear && !piece.polygon)
        ctx.addIssue({
          code: 'custom',
          path: ['terrain', t, 'polygon'],
          message: `a ${piece.kind} needs a polygon`,
        });
      if (piece.height !== undefined && piece.kind !== 'hill' && piece.kind !== 'building')
        ctx.addIssue({
          code: 'custom',
          path: ['terrain', t, 'height'],
          message: 'only hills and buildings have a height',
        });
    });
  });

export type ScenarioFile = z.input<typeof scenarioFileSchema>;
type ParsedFile = z.output<typeof scenarioFileSchema>;

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

export class ScenarioError extends Error {
  constructor(
    message: string,
    readonly issues: ReadonlyArray<{ path: string; message: string }>,
  ) {
    super(message);
    this.name = 'ScenarioError';
  }
}

/** Copies the keys that are present, so absent optional fields stay absent. */
function present<T extends object>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function toMillimetres(file: ParsedFile): Scenario {
  const mm = (v: number) => toMm(v, file.lengthUnit as LengthUnit);
  const pt = (p: { x: number; y: number }) => ({ x: mm(p.x), y: mm(p.y) });
  return {
    name: file.name,
    ...(file.description === undefined ? {} : { description: file.description }),
    ruleset: file.ruleset,
    markerDictionary: file.markerDictionary,
    table: { widthMm: mm(file.table.width), depthMm: mm(file.table.depth) },
    referenceMarkers: file.referenceMarkers.map((m) => ({
      id: m.id,
      x: mm(m.x),
      y: mm(m.y),
      sizeMm: mm(m.size),
      heightMm: mm(m.height),
    })),
    sides: file.sides,
    units: file.units.map((u) => ({
      id: u.id,
      name: u.name,
      side: u.side,
      type: u.type,
      ...present({
        formation: u.formation,
        weapon: u.weapon,
        brigade: u.brigade,
        size: u.size,
        models: u.models,
        mounted: u.mounted,
        staffRating: u.staffRating,
        general: u.general,
        irregular: u.irregular,
        disordered: u.disordered,
        shaken: u.shaken,
        engaged: u.engaged,
        facingDeg: u.facingDeg,
        leaderAtTurnStart: u.leaderAtTurnStart ? pt(u.leaderAtTurnStart) : undefined,
        troop: u.troop,
        strength: u.strength,
        quality: u.quality,
        movement: u.movement,
        inactive: u.inactive,
      }),
      bases: u.bases.map((b) => ({
        widthMm: mm(b.width),
        depthMm: mm(b.depth),
        marker: {
          id: b.marker.id,
          sizeMm: mm(b.marker.size),
          // The default is a physical 3 mm (base plus sticker) whatever unit the file speaks.
          heightMm: b.marker.height === undefined ? DEFAULT_MARKER_HEIGHT_MM : mm(b.marker.height),
          offsetMm: { x: mm(b.marker.offset.x), y: mm(b.marker.offset.y) },
          rotationDeg: b.marker.rotationDeg,
        },
        ...(b.pose ? { pose: { x: mm(b.pose.x), y: mm(b.pose.y), headingDeg: b.pose.headingDeg } } : {}),
        ...(b.role ? { role: b.role } : {}),
      })),
    })),
    ...(file.terrain
      ? {
          terrain: file.terrain.map((t) => ({
            id: t.id,
            kind: t.kind,
            ...present({
              name: t.name,
              polygon: t.polygon?.map(pt),
              line: t.line?.map(pt),
              heightMm: t.height === undefined ? undefined : mm(t.height),
              widthMm: t.width === undefined ? undefined : mm(t.width),
              blocksSight: t.blocksSight,
              cover: t.cover,
              skirmishOnly: t.skirmishOnly,
              cavalryProof: t.cavalryProof,
              impassable: t.impassable,
            }),
          })),
        }
      : {}),
    ...(file.board
      ? {
          board: {
            map: file.board.map,
            originMm: pt(file.board.origin),
            rotationDeg: file.board.rotationDeg,
            mmPerMapInch: file.board.mapInch === undefined ? 25.4 : mm(file.board.mapInch),
          },
        }
      : {}),
  };
}

/** Validates a parsed JSON value as a scenario; throws ScenarioError naming each bad field. */
export function parseScenario(value: unknown, source = 'scenario'): Scenario {
  const result = scenarioFileSchema.safeParse(value);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.') || '(root)',
      message:
        issue.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : issue.message,
    }));
    const lines = issues.map((i) => `  ${i.path}: ${i.message}`).join('\n');
    throw new ScenarioError(`${source} is not a valid scenario:\n${lines}`, issues);
  }
  return toMillimetres(result.data);
}

/** Parses scenario JSON text; malformed JSON gets the same clear error as a bad field. */
export function parseScenarioText(text: string, source = 'scenario'): Scenario {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ScenarioError(`${source} is not valid JSON: ${(err as Error).message}`, [
      { path: '(root)', message: 'not valid JSON' },
    ]);
  }
  return parseScenario(value, source);
}
