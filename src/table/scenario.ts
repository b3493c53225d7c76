import { z } from 'zod';
import { toMm, type LengthUnit } from './length-unit.ts';

/**
 * Scenario files: the table, its reference markers and the units with their bases, each base
 * bound to one printed marker. Lengths are in the file's `lengthUnit` (default mm) and are
 * converted to millimetres on load. Unknown fields are refused so typos do not pass silently.
 */

const positive = (what: string) => z.number({ error: `${what} must be a number` }).positive(`${what} must be > 0`);
const finite = z.number().finite();

const pointSchema = z.strictObject({ x: finite, y: finite });

const poseSchema = z.strictObject({ x: finite, y: finite, headingDeg: finite.default(0) });

const markerSchema = z.strictObject({
  id: z.number().int().nonnegative(),
  /** Side of the black square, edge to edge. */
  size: positive('marker size'),
  /** Height of the printed marker's surface above the table (base thickness plus sticker). */
  height: z.number().nonnegative('marker height must be ≥ 0').default(3),
  /** Marker centre in the base's frame (+y front, +x right). */
  offset: pointSchema.default({ x: 0, y: 0 }),
  /** Marker's "up" relative to the base's front, counter-clockwise degrees. */
  rotationDeg: finite.default(0),
});

const baseSchema = z.strictObject({
  width: positive('base width'),
  depth: positive('base depth'),
  marker: markerSchema,
  /** Where the base stands when there is no camera (synthetic table, rules without vision). */
  pose: poseSchema.optional(),
});

export const UNIT_TYPES = ['infantry', 'cavalry', 'artillery', 'commander'] as const;

const unitSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  side: z.string().min(1),
  type: z.enum(UNIT_TYPES),
  bases: z.array(baseSchema).min(1, 'a unit needs at least one base'),
});

const sideSchema = z.strictObject({ id: z.string().min(1), name: z.string().min(1), colour: z.string().min(1) });

const referenceMarkerSchema = z.strictObject({
  id: z.number().int().nonnegative(),
  /** Marker centre on the table. */
  x: finite,
  y: finite,
  size: positive('reference marker size'),
  height: z.number().nonnegative().default(0),
});

export const MARKER_DICTIONARIES = ['apriltag_36h11', 'aruco_4x4_250', 'aruco_5x5_250', 'aruco_mip_36h12'] as const;
export type MarkerDictionaryName = (typeof MARKER_DICTIONARIES)[number];

export const scenarioFileSchema = z
  .strictObject({
    name: z.string().min(1),
    description: z.string().optional(),
    ruleset: z.string().default('prestonpans'),
    lengthUnit: z.enum(['mm', 'cm', 'in']).default('mm'),
    markerDictionary: z.enum(MARKER_DICTIONARIES).default('apriltag_36h11'),
    table: z.strictObject({ width: positive('table width'), depth: positive('table depth') }),
    referenceMarkers: z.array(referenceMarkerSchema).min(3, 'at least three reference markers fix the table'),
    sides: z.array(sideSchema).min(1),
    units: z.array(unitSchema),
  })
  .superRefine((scenario, ctx) => {
    const seen = new Map<number, string>();
    const claim = (id: number, owner: string, path: (string | number)[]) => {
      const previous = seen.get(id);
      if (previous !== undefined) {
        ctx.addIssue({ code: 'custom', path, message: `marker id ${id} is used twice (${previous} and ${owner})` });
      } else seen.set(id, owner);
    };
    scenario.referenceMarkers.forEach((m, i) => claim(m.id, `reference marker ${i}`, ['referenceMarkers', i, 'id']));
    const unitIds = new Set<string>();
    const sideIds = new Set(scenario.sides.map((s) => s.id));
    scenario.units.forEach((unit, u) => {
      if (unitIds.has(unit.id)) ctx.addIssue({ code: 'custom', path: ['units', u, 'id'], message: `unit id "${unit.id}" is used twice` });
      unitIds.add(unit.id);
      if (!sideIds.has(unit.side))
        ctx.addIssue({ code: 'custom', path: ['units', u, 'side'], message: `unknown side "${unit.side}"` });
      unit.bases.forEach((base, b) => {
        claim(base.marker.id, `${unit.name} base ${b + 1}`, ['units', u, 'bases', b, 'marker', 'id']);
        if (base.marker.size > Math.min(base.width, base.depth))
          ctx.addIssue({
            code: 'custom',
            path: ['units', u, 'bases', b, 'marker', 'size'],
            message: `marker (${base.marker.size}) is larger than its base`,
          });
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
}
export interface UnitSpec {
  readonly id: string;
  readonly name: string;
  readonly side: string;
  readonly type: (typeof UNIT_TYPES)[number];
  readonly bases: readonly BaseSpec[];
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

function toMillimetres(file: ParsedFile): Scenario {
  const mm = (v: number) => toMm(v, file.lengthUnit as LengthUnit);
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
      bases: u.bases.map((b) => ({
        widthMm: mm(b.width),
        depthMm: mm(b.depth),
        marker: {
          id: b.marker.id,
          sizeMm: mm(b.marker.size),
          heightMm: mm(b.marker.height),
          offsetMm: { x: mm(b.marker.offset.x), y: mm(b.marker.offset.y) },
          rotationDeg: b.marker.rotationDeg,
        },
        ...(b.pose ? { pose: { x: mm(b.pose.x), y: mm(b.pose.y), headingDeg: b.pose.headingDeg } } : {}),
      })),
    })),
  };
}

/** Validates a parsed JSON value as a scenario; throws ScenarioError naming each bad field. */
export function parseScenario(value: unknown, source = 'scenario'): Scenario {
  const result = scenarioFileSchema.safeParse(value);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.') || '(root)',
      message: issue.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : issue.message,
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
