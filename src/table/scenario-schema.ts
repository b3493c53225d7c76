import { z } from 'zod';
import { DEFAULT_MARKER_DICTIONARY, MARKER_DICTIONARIES, markerIdProblem } from './marker-dictionaries.ts';

/**
 * The scenario file's schema, in the file's own `lengthUnit`: every field, its bounds and the
 * checks across fields (marker ids used once and in the dictionary, known sides, a line or a
 * polygon as the terrain kind needs). Unknown fields are refused so typos do not pass silently.
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
