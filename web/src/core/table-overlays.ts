import { clipToConvex } from '../../../src/geometry/convex-clip.ts';
import { facedBoxAround, facedBoxPolygon } from '../../../src/geometry/faced-box.ts';
import { hasLineOfSight, makeBlocker } from '../../../src/geometry/line-of-sight.ts';
import type { Polygon } from '../../../src/geometry/polygon.ts';
import { quarterPolygon } from '../../../src/geometry/quarters.ts';
import { shadowPieces } from '../../../src/geometry/shadow.ts';
import type { Vec2 } from '../../../src/geometry/vec.ts';
import type { Verdict } from '../../../src/rules/engine/verdict.ts';
import type { AskResponse } from '../../../src/server/referee-routes.ts';
import type { StateMessage, UnitView } from '../../../src/server/protocol.ts';
import type { ScenarioFile } from '../../../src/table/scenario.ts';
import { footprintCorners } from './overlay-model.ts';

/**
 * The headless overlay model in table millimetres: every overlay the referee draws (terrain, the
 * selected unit's front quarter, range and charge reach, the 12 in zone, command radius, line of
 * sight rays and shadows, the measurement) as a polygon or polyline on the table, at a height.
 * No pixels here: the live view projects these through the camera model (edges sampled so lens
 * distortion bends them), the tactical view draws them straight from above. Rules math is not
 * redone here: lengths come from the verdict (its limit, its points) and geometry from
 * src/geometry and the referee's answer.
 */

export type OverlayKind =
  'terrain' | 'quarter' | 'range' | 'charge' | 'proximity' | 'command' | 'los' | 'shadow' | 'measure';

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
  readonly toggles: OverlayToggles;
  /** Ruleset names by id, for labels ("Black Powder"); the id is shown when missing. */
  readonly rulesetNames?: Readonly<Record<string, string>>;
}

/**
 * Where the verdict's distance was measured from, in words, read from the options the ruleset
 * consulted (Black Powder's rangeFrom, Prestonpans' measureFrom). The page's plain measurement is
 * always edge to edge between the nearest bases, so the two can differ and must say which is which.
 */
export function measuredFromPhrase(v: Pick<Verdict, 'options' | 'question'>): string {
  const from = v.options['rangeFrom'] ?? v.options['measureFrom'];
  if (from === 'leaderBase') return "from the leader's base";
  if (from === 'leaderPoint') return 'from the leader';
  if (from === 'frontCentre') return 'from the front centre';
  if (from === 'footprint') return 'edge to edge, whole unit';
  return v.question === 'command' ? 'from the commander' : 'as the rules measure it';
}

/** The verdict is about the two units picked now (A, and B when there is one). */
export function answerMatches(
  answer: AskResponse | null,
  selection: readonly string[],
): answer is AskResponse {
  const [aId, bId] = selection;
  return !!answer?.subject && answer.subject.id === aId && (bId === undefined || answer.object?.id === bId);
}

/** The rules forbid knowing the distance yet (Prestonpans before a charge is declared). */
export function distanceWithheld(answer: AskResponse | null, selection: readonly string[]): boolean {
  return answerMatches(answer, selection) && answer.verdict.hiddenUntilDeclared === true;
}

/** The verdict's own distance and what it was measured from, or null when it gives none. */
export function verdictDistance(
  answer: AskResponse | null,
  selection: readonly string[],
  rulesetNames: Readonly<Record<string, string>> = {},
): { value: number; unit: string; text: string } | null {
  if (!answerMatches(answer, selection)) return null;
  const v = answer.verdict;
  if (v.hiddenUntilDeclared || !v.between || v.value === undefined || !v.unit) return null;
  const name = rulesetNames[v.ruleset] ?? v.ruleset;
  return {
    value: v.value,
    unit: v.unit,
    text: `${fmtIn(v.value, v.unit)} ${measuredFromPhrase(v)} (${name})`,
  };
}

export const MM_PER_IN = 25.4;
const UNIT_MM: Record<string, number> = { in: 25.4, cm: 10, mm: 1 };
/** The 12 in zone (proximity to the enemy). */
export const PROXIMITY_MM = 12 * MM_PER_IN;

/** Millimetres per unit of a scenario file's lengths. */
export function fileMm(file: ScenarioFile | null): number {
  return UNIT_MM[file?.lengthUnit ?? 'mm'] ?? 1;
}

/** Convex hull (counter-clockwise), monotone chain. */
export function convexHull(points: readonly Vec2[]): Vec2[] {
  const pts = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (pts.length < 3) return pts;
  const cross = (o: Vec2, a: Vec2, b: Vec2) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const lower: Vec2[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0)
      lower.pop();
    lower.push(p);
  }
  const upper: Vec2[] = [];
  for (const p of pts.reverse()) {
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0)
      upper.pop();
    upper.push(p);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

/**
 * Everything within `r` of a convex polygon: its edges pushed out by r, joined by arcs at the
 * corners (the shape a tape measure sweeps around a base). `stepDeg` sets the arc sampling.
 */
export function roundedOffset(poly: readonly Vec2[], r: number, stepDeg = 6): Vec2[] {
  const hull = convexHull(poly);
  const n = hull.length;
  if (n === 0) return [];
  if (n === 1) {
    const c = hull[0]!;
    const out: Vec2[] = [];
    for (let a = 0; a < 360; a += stepDeg)
      out.push({ x: c.x + r * Math.cos((a * Math.PI) / 180), y: c.y + r * Math.sin((a * Math.PI) / 180) });
    return out;
  }
  const out: Vec2[] = [];
  for (let i = 0; i < n; i++) {
    const prev = hull[(i + n - 1) % n]!;
    const p = hull[i]!;
    const next = hull[(i + 1) % n]!;
    // Outward normals of the edges into and out of p (hull is counter-clockwise: outward is right-hand).
    const a0 = Math.atan2(-(p.x - prev.x), p.y - prev.y);
    let a1 = Math.atan2(-(next.x - p.x), next.y - p.y);
    while (a1 < a0) a1 += 2 * Math.PI;
    const steps = Math.max(1, Math.ceil(((a1 - a0) * 180) / Math.PI / stepDeg));
    for (let k = 0; k <= steps; k++) {
      const a = a0 + ((a1 - a0) * k) / steps;
      out.push({ x: p.x + r * Math.cos(a), y: p.y + r * Math.sin(a) });
    }
  }
  return out;
}

function tableRect(state: StateMessage): Polygon {
  const { widthMm: w, depthMm: d } = state.table;
  return [
    { x: 0, y: 0 },
    { x: w, y: 0 },
    { x: w, y: d },
    { x: 0, y: d },
  ];
}

export function unitPolygons(unit: UnitView): Polygon[] {
  return unit.bases.map((b) => footprintCorners(b));
}

/** The unit's front quarter from its bases (mean heading), clipped to the table. */
export function frontQuarterOf(unit: UnitView, state: StateMessage): Polygon | null {
  if (unit.bases.length === 0) return null;
  let sx = 0;
  let sy = 0;
  for (const b of unit.bases) {
    const h = (b.headingDeg * Math.PI) / 180;
    sx += -Math.sin(h);
    sy += Math.cos(h);
  }
  const len = Math.hypot(sx, sy);
  if (len < 1e-9) return null;
  const box = facedBoxAround(unitPolygons(unit).flat(), { x: sx / len, y: sy / len });
  const q = clipToConvex(quarterPolygon(box, 'front'), tableRect(state));
  return q.length >= 3 ? q : null;
}

const toneOf = (answer: string): Tone => (answer === 'yes' ? 'yes' : answer === 'no' ? 'no' : 'borderline');

const fmtIn = (v: number, unit: string | undefined) =>
  `${Number.isInteger(v) ? v : v.toFixed(1)} ${unit ?? 'in'}`;

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
  if (a && toggles.quarter) {
    const q =
      answer?.subject?.id === a.id && answer.subject.frontQuarter
        ? answer.subject.frontQuarter
        : frontQuarterOf(a, state);
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
  if (a && toggles.proximity) {
    const zone = roundedOffset(unitPolygons(a).flat(), PROXIMITY_MM);
    shapes.push({
      kind: 'proximity',
      closed: true,
      points: zone,
      z: 0,
      tone: 'neutral',
      label: '12 in',
      labelAt: topMost(zone),
    });
  }

  const v = answer?.verdict;
  const subject = answer?.subject ?? null;
  if (answer && v && subject && subject.id === aId && (bId === undefined || answer.object?.id === bId)) {
    const tone = toneOf(v.answer);
    const unitMm = UNIT_MM[v.unit ?? 'in'] ?? MM_PER_IN;
    // Reach: the limit swept around the base the ruleset measured from (or the whole unit).
    // Not while the distance is withheld: a reach ring would let players measure by eye.
    if (
      toggles.reach &&
      !v.hiddenUntilDeclared &&
      v.limit !== undefined &&
      v.unit &&
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
        label: `${word} ${fmtIn(v.limit, v.unit)}`,
        labelAt: topMost(ring),
      });
    }
    // Line of sight: rays from the eye to the target's corners, each coloured by whether terrain hides it.
    if (toggles.los && (v.question === 'see' || v.question === 'shoot') && answer.object) {
      const eye = v.question === 'see' && v.between ? v.between[0] : subject.leader;
      const blockers = answer.blockers.map((b) => makeBlocker(b.id, b.label, b.polygon));
      const targets = answer.object.polygons.flat();
      for (const p of targets) {
        const clear = hasLineOfSight(eye, p, blockers);
        shapes.push({ kind: 'los', closed: false, points: [eye, p], z: 0, tone: clear ? 'yes' : 'no' });
      }
      const box = { minX: 0, minY: 0, maxX: state.table.widthMm, maxY: state.table.depthMm };
      for (const b of answer.blockers) {
        for (const piece of shadowPieces(eye, b.polygon, box))
          shapes.push({ kind: 'shadow', closed: true, points: piece, z: 0, tone: 'no' });
      }
    }
    if (v.between && !v.hiddenUntilDeclared) {
      const [p, q] = v.between;
      const label = verdictDistance(answer, selection, rulesetNames)?.text ?? v.answer;
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
  return shapes;
}

export function centroidOf(pts: readonly Vec2[]): Vec2 {
  const n = Math.max(1, pts.length);
  return { x: pts.reduce((s, p) => s + p.x, 0) / n, y: pts.reduce((s, p) => s + p.y, 0) / n };
}

function topMost(pts: readonly Vec2[]): Vec2 {
  return pts.reduce((best, p) => (p.y > best.y ? p : best), pts[0] ?? { x: 0, y: 0 });
}

/** Union of every base footprint of every unit, for the tactical view: table mm, closed. */
export function unitOutlines(state: StateMessage): Array<{ unit: UnitView; polygons: Polygon[] }> {
  return state.units.map((unit) => ({ unit, polygons: unitPolygons(unit) }));
}

export { facedBoxPolygon };
