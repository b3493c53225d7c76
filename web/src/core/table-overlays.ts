import { hasLineOfSight, makeBlocker } from '../../../src/geometry/line-of-sight.ts';
import { shadowPieces } from '../../../src/geometry/shadow.ts';
import type { Vec2 } from '../../../src/geometry/vec.ts';
import type { AskResponse } from '../../../src/server/referee-routes.ts';
import type { StateMessage, UnitView } from '../../../src/server/protocol.ts';
import type { ScenarioFile } from '../../../src/table/scenario.ts';
import { answerMatches, verdictDistance } from './answer.ts';
import { formatLength, MM_PER, displayUnit } from './lengths.ts';
import type { Zone } from './rulesets.ts';
import { centroidOf, frontQuarterOf, roundedOffset, topMost, unitPolygons } from './shape-geometry.ts';

/**
 * The headless overlay model in table millimetres: every overlay the referee draws (terrain, the
 * selected unit's front quarter, range and charge reach, the ruleset's zone, command radius, line
 * of sight rays and shadows, the measurement) as a polygon or polyline on the table, at a height.
 * No pixels here: the live view projects these through the camera model (edges sampled so lens
 * distortion bends them), the tactical view draws them straight from above. Lengths come from the
 * verdict (its limit, its points) and geometry from src/geometry and the referee's answer.
 */

export type OverlayKind =
  | 'terrain'
  | 'quarter'
  | 'range'
  | 'charge'
  | 'proximity'
  | 'command'
  | 'los'
  | 'shadow'
  | 'measure'
  | 'threat';

export type Tone = 'yes' | 'no' | 'borderline' | 'neutral';

export interface TableShape {
  readonly kind: OverlayKind;
  /** Closed polygon (area) or open polyline. */
  readonly closed: boolean;
  readonly points: readonly Vec2[];
  /** Height above the table, mm (drawn there in the live view). */
  readonly z: number;
  readonly tone: Tone;
  readonly label?: string;
  readonly labelAt?: Vec2;
  /** Terrain: its kind, for the fill. */
  readonly terrainKind?: string;
}

export interface OverlayToggles {
  readonly quarter: boolean;
  readonly reach: boolean;
  readonly proximity: boolean;
  readonly los: boolean;
  readonly terrain: boolean;
}

export function defaultToggles(): OverlayToggles {
  return { quarter: true, reach: true, proximity: false, los: true, terrain: true };
}

export interface TableOverlayInput {
  readonly state: StateMessage;
  readonly scenario: ScenarioFile | null;
  readonly selection: readonly string[];
  readonly answer: AskResponse | null;
  /** The answer no longer describes the table (its units moved): its drawings are left out. */
  readonly answerStale?: boolean;
  readonly toggles: OverlayToggles;
  /** The zone the ruleset keeps asking about (drawn around A with the zone toggle). */
  readonly zone?: Zone | null;
  /** Ruleset names by id, for labels ("Black Powder"); the id is shown when missing. */
  readonly rulesetNames?: Readonly<Record<string, string>>;
  /** The threat view's lines (core/threats.ts), drawn under the referee's answer. */
  readonly threats?: readonly TableShape[];
}

/** Millimetres per unit of a scenario file's lengths. */
export function fileMm(file: ScenarioFile | null): number {
  return MM_PER[displayUnit(file?.lengthUnit ?? 'mm')];
}

const toneOf = (answer: string): Tone => (answer === 'yes' ? 'yes' : answer === 'no' ? 'no' : 'borderline');

function topOf(unit: UnitView | undefined): number {
  return unit && unit.bases.length > 0 ? Math.max(...unit.bases.map((b) => b.topMm)) : 0;
}

export function buildTableOverlays(input: TableOverlayInput): TableShape[] {
  const { state, scenario, selection, answer, toggles, rulesetNames = {} } = input;
  const shapes: TableShape[] = [];
  const mm = fileMm(scenario);

  if (toggles.terrain) {
    for (const t of scenario?.terrain ?? []) {
      const pts = (t.polygon ?? t.line ?? []).map((p) => ({ x: p.x * mm, y: p.y * mm }));
      if (pts.length < 2) continue;
      shapes.push({
        kind: 'terrain',
        closed: !!t.polygon,
        points: pts,
        z: 0,
        tone: 'neutral',
        label: t.name ?? t.id,
        labelAt: centroidOf(pts),
        terrainKind: t.kind,
      });
    }
  }

  const [aId, bId] = selection;
  const a = state.units.find((u) => u.id === aId);
  const current = answerMatches(answer, selection) && !input.answerStale ? answer : null;
  if (a && toggles.quarter) {
    const q = current?.subject?.frontQuarter ?? frontQuarterOf(a, state);
    if (q)
      shapes.push({
        kind: 'quarter',
        closed: true,
        points: q,
        z: 0,
        tone: 'neutral',
        label: 'front quarter',
      });
  }
  const zone = input.zone;
  if (a && toggles.proximity && zone) {
    const ring = roundedOffset(unitPolygons(a).flat(), zone.value * MM_PER[zone.unit]);
    shapes.push({
      kind: 'proximity',
      closed: true,
      points: ring,
      z: 0,
      tone: 'neutral',
      label: `${formatLength(zone.value, zone.unit)} ${zone.purpose}`,
      labelAt: topMost(ring),
    });
  }

  const v = current?.verdict;
  const subject = current?.subject ?? null;
  if (current && v && subject) {
    const tone = toneOf(v.answer);
    const unitMm = MM_PER[displayUnit(v.unit)];
    // Reach: the limit swept around the base the ruleset measured from (or the whole unit).
    // Not while the distance is withheld: a reach ring would let players measure by eye.
    if (
      toggles.reach &&
      !v.hiddenUntilDeclared &&
      v.limit !== undefined &&
      (v.unit === 'in' || v.unit === 'cm') &&
      (v.question === 'shoot' || v.question === 'charge' || v.question === 'command')
    ) {
      const kind: OverlayKind =
        v.question === 'shoot' ? 'range' : v.question === 'charge' ? 'charge' : 'command';
      const from = subject.measuredFrom ?? (kind === 'command' ? [subject.leader] : subject.outline);
      const ring = roundedOffset(from, v.limit * unitMm);
      const word = kind === 'range' ? 'range' : kind === 'charge' ? 'charge reach' : 'command';
      shapes.push({
        kind,
        closed: true,
        points: ring,
        z: 0,
        tone,
        label: `${word} ${formatLength(v.limit, v.unit)}`,
        labelAt: topMost(ring),
      });
    }
    // Line of sight: rays from the eye to the target's corners; clear rays solid, blocked dashed.
    if (toggles.los && (v.question === 'see' || v.question === 'shoot') && current.object) {
      const eye = v.question === 'see' && v.between ? v.between[0] : subject.leader;
      const blockers = current.blockers.map((b) => makeBlocker(b.id, b.label, b.polygon));
      for (const p of current.object.polygons.flat()) {
        const clear = hasLineOfSight(eye, p, blockers);
        shapes.push({ kind: 'los', closed: false, points: [eye, p], z: 0, tone: clear ? 'yes' : 'no' });
      }
      const box = { minX: 0, minY: 0, maxX: state.table.widthMm, maxY: state.table.depthMm };
      for (const b of current.blockers) {
        for (const piece of shadowPieces(eye, b.polygon, box))
          shapes.push({ kind: 'shadow', closed: true, points: piece, z: 0, tone: 'no' });
      }
    }
    if (v.between && !v.hiddenUntilDeclared) {
      const [p, q] = v.between;
      const label = verdictDistance(current, selection, rulesetNames)?.text ?? v.answer;
      shapes.push({
        kind: 'measure',
        closed: false,
        points: [p, q],
        z: Math.max(topOf(a), topOf(state.units.find((u) => u.id === bId))),
        tone,
        label,
        labelAt: { x: (p.x + q.x) / 2, y: (p.y + q.y) / 2 },
      });
    }
  }
  if (input.threats) shapes.push(...input.threats);
  return shapes;
}
