import type { Vec2 } from '../../../src/geometry/vec.ts';
import type { Verdict } from '../../../src/rules/engine/verdict.ts';
import type { AskResponse } from '../../../src/server/referee-routes.ts';
import { formatLength } from './lengths.ts';

/**
 * What a referee's answer is about and how its distance was taken, decided without the DOM.
 * The page's plain measurement is always edge to edge between the nearest bases; a ruleset may
 * measure otherwise, so the two numbers always carry different names.
 */

/**
 * Where the verdict's distance was measured from, in words: read from the option the ruleset
 * consulted (Black Powder's rangeFrom, Prestonpans' measureFrom, D3's artilleryFrom), else from
 * where the measured line starts on the unit (its front centre, or the nearest part of it).
 */
export function measuredFromPhrase(
  v: Pick<Verdict, 'options' | 'question' | 'between'>,
  subject?: { readonly leader: Vec2 } | null,
): string {
  const from = v.options['rangeFrom'] ?? v.options['measureFrom'] ?? v.options['artilleryFrom'];
  if (from === 'leaderBase') return "from the leader's base";
  if (from === 'leaderPoint') return 'from the centre of the front edge';
  if (from === 'frontCentre') return 'from the front centre';
  if (from === 'footprint') return 'edge to edge, whole unit';
  if (v.question === 'command') return 'from the commander';
  const start = v.between?.[0];
  if (start && subject && Math.hypot(start.x - subject.leader.x, start.y - subject.leader.y) < 1)
    return 'from the front centre';
  return 'edge to edge, whole unit';
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
  if (v.unit !== 'in' && v.unit !== 'cm' && v.unit !== 'mm') return null;
  const name = rulesetNames[v.ruleset] ?? v.ruleset;
  return {
    value: v.value,
    unit: v.unit,
    text: `${formatLength(v.value, v.unit)} ${measuredFromPhrase(v, answer.subject)} (${name})`,
  };
}
