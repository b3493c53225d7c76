import type { z } from 'zod';
import { toMm, type LengthUnit } from './length-unit.ts';
import { DEFAULT_MARKER_HEIGHT_MM, scenarioFileSchema } from './scenario-schema.ts';
import type { Scenario } from './scenario-types.ts';

/**
 * Scenario files: the table, its reference markers and the units with their bases, each base
 * bound to one printed marker. Lengths are in the file's `lengthUnit` (default mm) and are
 * converted to millimetres on load. Unknown fields are refused so typos do not pass silently.
 * The schema is scenario-schema.ts, the loaded scenario's types scenario-types.ts and the marker
 * dictionaries marker-dictionaries.ts; importers take all of them from here.
 */

export * from './marker-dictionaries.ts';
export * from './scenario-schema.ts';
export * from './scenario-types.ts';

type ParsedFile = z.output<typeof scenarioFileSchema>;

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
