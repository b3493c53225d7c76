// Importing the rules' index registers every ruleset (this module also runs in the rules worker).
import { rulesetForScenario } from '../rules/index.ts';
import { clipToConvex } from '../geometry/convex-clip.ts';
import { pointToPolygon } from '../geometry/distance.ts';
import { facedBoxPolygon } from '../geometry/faced-box.ts';
import type { Polygon } from '../geometry/polygon.ts';
import { quarterPolygon, type QuarterReading } from '../geometry/quarters.ts';
import type { Vec2 } from '../geometry/vec.ts';
import type { Question } from '../rules/engine/question.ts';
import type { ThresholdPolicy } from '../rules/engine/threshold.ts';
import type { Verdict } from '../rules/engine/verdict.ts';
import type { Scenario } from '../table/scenario.ts';
import { findByName, UnknownNameError, type BasePose, type TableState } from '../table/table-state.ts';
import { tableFromPoses } from './live-table-state.ts';
import type { AskRequest } from './referee-routes.ts';

/**
 * One referee question answered from plain data (the scenario, tracked poses, the request): the
 * ruleset's verdict and the two units' geometry a page needs to draw it. Runs in the rules worker
 * (rules-worker.ts); the route adds what only the live frame knows (referee-routes.ts).
 */

export interface UnitGeometry {
  readonly id: string;
  readonly name: string;
  readonly side: string;
  readonly kind: 'unit' | 'commander';
  /** Every base outline, table mm. */
  readonly polygons: readonly Polygon[];
  /** The unit's formed body as one faced box (commanders: their base). */
  readonly outline: Polygon;
  /** Centre of the front edge (where most rulesets measure from), and the facing direction. */
  readonly leader: Vec2;
  readonly facing: Vec2;
  /** The front quarter under the reading in force, clipped to the table. */
  readonly frontQuarter: Polygon | null;
  /** The base the measurement starts from (holds or is nearest `verdict.between[0]`). */
  readonly measuredFrom: Polygon | null;
}

export interface AskResponse {
  readonly verdict: Verdict;
  /** Why the answer may not hold for the table as it is now (null when it does). */
  readonly caution: string | null;
  readonly frame: number;
  readonly subject: UnitGeometry | null;
  readonly object: UnitGeometry | null;
  /** Terrain that blocks sight, for drawing shadows and naming blockers. */
  readonly blockers: ReadonlyArray<{
    readonly id: string;
    readonly label: string;
    readonly polygon: Polygon;
  }>;
}

/** A question about the table as tracked (structured-cloneable: it is posted to the rules worker). */
export interface QuestionJob {
  readonly scenario: Scenario;
  readonly poses: ReadonlyMap<number, BasePose>;
  readonly turnStartPoses?: ReadonlyMap<number, BasePose>;
  readonly request: AskRequest;
}

/** The answer without what the live frame adds (caution, frame number). */
export interface RefereeAnswer {
  readonly verdict: Verdict;
  /** The units (or commanders) asked about, as resolved. */
  readonly unitIds: readonly string[];
  readonly subject: UnitGeometry | null;
  readonly object: UnitGeometry | null;
  readonly blockers: AskResponse['blockers'];
}

/**
 * Answers a question, or throws what the route turns into a status: UnknownNameError (404),
 * UnknownRulesetError, OptionError, QuestionError (400), another rules error (422).
 */
export function answerQuestion(job: QuestionJob): RefereeAnswer {
  const { scenario, request: body } = job;
  const ruleset = rulesetForScenario(body.ruleset ?? scenario.ruleset, scenario);
  const state = tableFromPoses(scenario, job.poses, job.turnStartPoses);
  const missing = state.missing.map((m) => m.id);
  for (const ref of [body.a, body.b]) {
    if (ref === undefined) continue;
    const inScenario = scenario.units.find((u) => u.id === ref || u.name.toLowerCase() === ref.toLowerCase());
    if (inScenario && missing.includes(inScenario.id))
      throw new UnknownNameError(`${inScenario.name} is not on the table (no base located yet)`);
  }
  const a = resolveId(state, body.a);
  const b = body.b === undefined ? undefined : resolveId(state, body.b);
  const question: Question = {
    kind: body.question,
    subject: a,
    ...(b === undefined ? {} : { object: b }),
    text: `${body.question} ${body.a}${body.b ? ` ${body.b}` : ''}`,
    ...(body.declared ? { declared: true } : {}),
  };
  const policy: ThresholdPolicy = body.exact ? { floor: 0, sigmas: 0 } : ruleset.defaultPolicy;
  const verdict = ruleset.ask(state, question, body.options ?? {}, policy);
  const measuring = verdict.between !== undefined;
  return {
    verdict,
    unitIds: [a, ...(b ? [b] : [])],
    subject: geometryOf(state, a, verdict, measuring),
    object: b === undefined ? null : geometryOf(state, b, verdict, false),
    blockers: state.terrain
      .filter((t) => t.blocksSight && t.polygon)
      .map((t) => ({ id: t.id, label: t.label, polygon: t.polygon ?? [] })),
  };
}

function geometryOf(
  state: TableState,
  ref: string,
  verdict: Verdict,
  measuring: boolean,
): UnitGeometry | null {
  const tableRect: Polygon = [
    { x: 0, y: 0 },
    { x: state.table.widthMm, y: 0 },
    { x: state.table.widthMm, y: state.table.depthMm },
    { x: 0, y: state.table.depthMm },
  ];
  const from = measuring ? verdict.between?.[0] : undefined;
  const nearest = (polys: readonly Polygon[]): Polygon | null => {
    if (!from) return null;
    let best: Polygon | null = null;
    let bestD = Infinity;
    for (const p of polys) {
      const d = pointToPolygon(from, p).distance;
      if (d < bestD) [best, bestD] = [p, d];
    }
    return best;
  };
  const unit = state.units.find((u) => u.id === ref) ?? null;
  if (unit) {
    const reading = verdict.options['quarterReading'];
    const q: QuarterReading = reading === 'diagonal' ? 'diagonal' : 'bisector';
    const front = clipToConvex(quarterPolygon(unit.box, 'front', q), tableRect);
    return {
      id: unit.id,
      name: unit.name,
      side: unit.side,
      kind: 'unit',
      polygons: unit.allPolygons,
      outline: facedBoxPolygon(unit.box),
      leader: unit.leader,
      facing: unit.facing,
      frontQuarter: front.length >= 3 ? front : null,
      measuredFrom: nearest(unit.allPolygons),
    };
  }
  const commander = state.commanders.find((c) => c.id === ref);
  if (!commander) return null;
  const r = 15;
  const c = commander.head;
  const square: Polygon = [
    { x: c.x - r, y: c.y - r },
    { x: c.x + r, y: c.y - r },
    { x: c.x + r, y: c.y + r },
    { x: c.x - r, y: c.y + r },
  ];
  return {
    id: commander.id,
    name: commander.name,
    side: commander.side,
    kind: 'commander',
    polygons: [square],
    outline: square,
    leader: c,
    facing: { x: 0, y: 1 },
    frontQuarter: null,
    measuredFrom: null,
  };
}

/** Resolves a name against units and commanders (ids first), or throws UnknownNameError. */
function resolveId(state: TableState, ref: string): string {
  return findByName<{ id: string; name: string }>([...state.units, ...state.commanders], ref).id;
}
