import { toLocal, toTable, frameFromFront, type Frame } from '../../geometry/frame.ts';
import type { TableState } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { failingReasons } from '../engine/composite.ts';
import { pick } from '../engine/options.ts';
import { allOf, type Verdict } from '../engine/verdict.ts';
import { d3Verdict, inches, lengthVerdict, mmOf, troopOf, type D3Context } from './context.ts';
import { FIRST_LINE_DEPTH, SECOND_LINE_DEPTH, SULKY_HITS } from './tables.ts';

/** A side's own base edge: south is y = 0, north y = table depth, west x = 0, east x = table width. */
export type BaseEdge = 'south' | 'north' | 'west' | 'east';

/** Frame on the base edge: +y points toward the enemy, +x to the right as seen facing the enemy. */
export function edgeFrame(state: TableState, edge: BaseEdge): Frame {
  const { widthMm: w, depthMm: d } = state.table;
  switch (edge) {
    case 'south':
      return frameFromFront({ x: 0, y: 0 }, { x: 0, y: 1 });
    case 'north':
      return frameFromFront({ x: w, y: d }, { x: 0, y: -1 });
    case 'west':
      return frameFromFront({ x: 0, y: d }, { x: 1, y: 0 });
    case 'east':
      return frameFromFront({ x: w, y: 0 }, { x: -1, y: 0 });
  }
}

export interface DeployedUnit {
  readonly unit: TableUnit;
  /** Depth from the base edge, inches, of the part measured (option deployMeasure). */
  readonly depthIn: number;
  /** Lateral position (centre), inches, rightward as seen facing the enemy. */
  readonly lateralIn: number;
  readonly line: 1 | 2;
}

/**
 * Units of a side with their depth from the base edge and line. Lines are given, or found by
 * splitting the units at the largest step in depth (at least lineGapIn); with no such step all
 * stand in the first line.
 */
export function deployedUnits(
  ctx: D3Context,
  side: string,
  edge: BaseEdge,
  lines?: Readonly<Record<string, 1 | 2>>,
): DeployedUnit[] {
  const frame = edgeFrame(ctx.state, edge);
  const raw = ctx.state.units
    .filter((u) => u.side === side)
    .map((unit) => {
      const ys = unit.allPolygons.flat().map((p) => toLocal(frame, p).y);
      const xs = unit.allPolygons.flat().map((p) => toLocal(frame, p).x);
      const depthIn = inches(ctx.options.deployMeasure === 'frontEdge' ? Math.max(...ys) : Math.min(...ys));
      return { unit, depthIn, lateralIn: inches((Math.min(...xs) + Math.max(...xs)) / 2) };
    });
  let split = -Infinity;
  if (!lines) {
    const sorted = [...raw].sort((a, b) => a.depthIn - b.depthIn);
    let bestGap = 0;
    for (let i = 0; i + 1 < sorted.length; i++) {
      const gap =
        (sorted[i + 1] as (typeof sorted)[number]).depthIn - (sorted[i] as (typeof sorted)[number]).depthIn;
      if (gap >= ctx.options.lineGapIn && gap > bestGap) {
        bestGap = gap;
        split =
          ((sorted[i] as (typeof sorted)[number]).depthIn +
            (sorted[i + 1] as (typeof sorted)[number]).depthIn) /
          2;
      }
    }
  }
  return raw.map((r) => ({ ...r, line: lines?.[r.unit.id] ?? (r.depthIn < split ? 2 : 1) }));
}

/** Cavalry must stand at the ends of a line: every unit between a cavalry unit and one end is cavalry. */
function cavalryAtEnds(line: readonly DeployedUnit[]): string[] {
  const order = [...line].sort((a, b) => a.lateralIn - b.lateralIn);
  const isCav = order.map((d) => troopOf(d.unit) === 'cavalry');
  const bad: string[] = [];
  order.forEach((d, i) => {
    if (!isCav[i]) return;
    const leftClear = isCav.slice(0, i).every(Boolean);
    const rightClear = isCav.slice(i + 1).every(Boolean);
    if (!leftClear && !rightClear) bad.push(d.unit.name);
  });
  return bad;
}

/** Highlanders take the right of the first line: no other foot stands to the right of a Highlander (cavalry on the end excepted). */
function highlandersOnRight(line: readonly DeployedUnit[]): string[] {
  const order = [...line]
    .filter((d) => troopOf(d.unit) !== 'cavalry')
    .sort((a, b) => b.lateralIn - a.lateralIn);
  const bad: string[] = [];
  let seenOther = false;
  for (const d of order) {
    if (troopOf(d.unit) === 'highlander') {
      if (seenOther) bad.push(d.unit.name);
    } else seenOther = true;
  }
  return bad;
}

/**
 * The deployment conventions: first line within 15" of the base edge, second within 9"; more units
 * in the first line; all artillery in the first; cavalry at the ends of a line; Highlanders in the
 * first line, on the right (a Highlander in the second line is sulky: 2 hits).
 */
export function deploymentVerdict(
  ctx: D3Context,
  side: string,
  edge: BaseEdge,
  lines?: Readonly<Record<string, 1 | 2>>,
): Verdict {
  const units = deployedUnits(ctx, side, edge, lines);
  const first = units.filter((d) => d.line === 1);
  const second = units.filter((d) => d.line === 2);
  const checks: Verdict[] = [];
  const frame = edgeFrame(ctx.state, edge);
  const depthCheck = (d: DeployedUnit) => {
    const limit = d.line === 1 ? FIRST_LINE_DEPTH : SECOND_LINE_DEPTH;
    // The point measured (the unit's farthest or nearest point from the edge) and its foot on the edge.
    const pts = d.unit.allPolygons.flat();
    const ys = pts.map((p) => toLocal(frame, p).y);
    const at =
      pts[ys.indexOf(ctx.options.deployMeasure === 'frontEdge' ? Math.max(...ys) : Math.min(...ys))] ??
      d.unit.leader;
    const foot = toTable(frame, { x: toLocal(frame, at).x, y: 0 });
    checks.push(
      lengthVerdict(
        ctx,
        {
          question: 'lineDepth',
          asked: `is ${d.unit.name} within ${limit}" of the base edge?`,
          reasons: [
            `${d.unit.name} (line ${d.line}) reaches ${d.depthIn.toFixed(1)} in from the base edge; line ${d.line} may reach ${limit}"`,
          ],
          options: pick(ctx.options, 'deployMeasure'),
        },
        { mm: mmOf(d.depthIn), sigmaMm: d.unit.sigmaMm, from: foot, to: at },
        'atMost',
        limit,
      ),
    );
  };
  units.forEach(depthCheck);
  const more = second.length === 0 || first.length > second.length;
  checks.push(
    d3Verdict({
      question: 'lineSizes',
      asked: 'does the first line hold more units?',
      answer: more ? 'yes' : 'no',
      reasons: [`first line ${first.length} units, second line ${second.length}`],
    }),
  );
  const guns = second.filter((d) => d.unit.type === 'artillery');
  checks.push(
    d3Verdict({
      question: 'artilleryFirst',
      asked: 'is all artillery in the first line?',
      answer: guns.length ? 'no' : 'yes',
      reasons: [
        guns.length
          ? `${guns.map((d) => d.unit.name).join(', ')} in the second line`
          : 'all artillery in the first line',
      ],
    }),
  );
  const cav = [...cavalryAtEnds(first), ...cavalryAtEnds(second)];
  checks.push(
    d3Verdict({
      question: 'cavalryEnds',
      asked: 'is the cavalry at the ends of its line?',
      answer: cav.length ? 'no' : 'yes',
      reasons: [cav.length ? `${cav.join(', ')} stand inside a line, not at an end` : 'cavalry on the ends'],
    }),
  );
  const sulky = second.filter((d) => troopOf(d.unit) === 'highlander');
  const notRight = highlandersOnRight(first);
  checks.push(
    d3Verdict({
      question: 'highlanders',
      asked: 'are the Highlanders in the first line, on the right?',
      answer: sulky.length || notRight.length ? 'no' : 'yes',
      reasons: [
        ...(sulky.length
          ? [`${sulky.map((d) => d.unit.name).join(', ')} in the second line: sulky, ${SULKY_HITS} hits each`]
          : []),
        ...(notRight.length
          ? [`${notRight.join(', ')} stand left of other foot: Highlanders take the right first`]
          : []),
        ...(sulky.length || notRight.length ? [] : ['Highlanders hold the right of the first line']),
      ],
      facts: { sulky: sulky.map((d) => d.unit.name).join(', ') },
    }),
  );
  const { answer, lean } = allOf(checks);
  return d3Verdict({
    question: 'deployment',
    asked: `does ${side} follow the deployment conventions?`,
    answer,
    lean,
    reasons: answer === 'yes' ? ['every deployment convention is met'] : failingReasons(checks),
    options: pick(ctx.options, 'deployMeasure', 'lineGapIn'),
    facts: {
      firstLine: first.map((d) => d.unit.name).join(', '),
      secondLine: second.map((d) => d.unit.name).join(', '),
    },
    checks,
  });
}
