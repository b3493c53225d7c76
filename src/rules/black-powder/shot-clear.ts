import type { TableUnit } from '../../table/table-unit.ts';
import type { Verdict } from '../engine/verdict.ts';
import { inStr, isDeployedArtillery, isSkirmish, poss, type BpContext } from './context.ts';
import { enfiladeVerdict } from './enfilade.ts';
import type { Weapon } from './tables.ts';

/** The clear-target tests among a shot's checks, each worded so that "yes" is the good side but these. */
const CLEAR_TESTS: ReadonlySet<string> = new Set([
  'frontHalf',
  'arcHalf',
  'visibleHalf',
  'gapFrontage',
  'inBuilding',
  'coverHalf',
]);
const BAD_IF_YES: ReadonlySet<string> = new Set(['inBuilding', 'coverHalf']);

/**
 * Why the target is not a clear target (−1), from the shot's modifier checks and the target
 * itself, and whether any test that decides it is too close to call.
 */
export function clearTarget(
  checks: readonly Verdict[],
  shooter: TableUnit,
  target: TableUnit,
): { notClear: string[]; clearBorderline: boolean } {
  const T = target.name;
  const notClear: string[] = [];
  if (isDeployedArtillery(target)) notClear.push(`${T} is deployed artillery`);
  if (isSkirmish(target)) notClear.push(`${T} is in skirmish order`);
  let clearBorderline = false;
  for (const c of checks) {
    if (c.role !== 'modifier' || !CLEAR_TESTS.has(c.question)) continue;
    if ((c.lean === 'yes') === BAD_IF_YES.has(c.question))
      notClear.push(notClearWords(c, T, shooter.name, shooter.frontage));
    if (c.answer === 'borderline') clearBorderline = true;
  }
  return { notClear, clearBorderline };
}

/** Why a clear-target test makes the target not clear, in words. */
function notClearWords(c: Verdict, T: string, S: string, frontage: number): string {
  const v =
    c.value === undefined
      ? ''
      : ` (${c.value.toFixed(c.unit === '%' ? 0 : 1)}${c.unit === '%' ? '%' : ` ${c.unit}`})`;
  switch (c.question) {
    case 'frontHalf':
      return `less than half of ${T} is in the front quarter${v}`;
    case 'arcHalf':
      return `less than half of ${T} is inside the arc of fire${v}`;
    case 'visibleHalf':
      return `less than half of ${T} can be seen${v}`;
    case 'gapFrontage':
      return `seen through a ${(c.value ?? 0).toFixed(1)} in gap, narrower than ${poss(S)} ${inStr(frontage)} frontage`;
    case 'inBuilding':
      return `${T} is in ${String(c.facts.building ?? 'a building')}`;
    case 'coverHalf':
      return `${(c.value ?? 0).toFixed(0)}% of ${T} is in cover`;
    default:
      return c.reasons[0] ?? c.question;
  }
}

/** A shot in range, as the modifiers need it. */
export interface ModifiedShot {
  readonly shooter: TableUnit;
  readonly target: TableUnit;
  readonly weapon: Weapon;
  readonly gun: boolean;
  readonly overhead: boolean;
  readonly clear: boolean;
  readonly clearBorderline: boolean;
}

/**
 * The shooting modifiers, in words (each marked when the check behind it is too close to call),
 * and the enfilade check, which doubles the dice.
 */
export function shotModifiers(
  ctx: BpContext,
  checks: readonly Verdict[],
  shot: ModifiedShot,
): { modifiers: string[]; enfilade: Verdict } {
  const { shooter, target, weapon, gun, overhead, clear, clearBorderline } = shot;
  const modifiers: string[] = [];
  const lean = (q: string) => checks.find((c) => c.question === q)?.lean === 'yes';
  const maybe = (q: string) => checks.find((c) => c.question === q)?.answer === 'borderline';
  const mod = (q: string, words: string) => {
    if (lean(q)) modifiers.push(maybe(q) ? `${words} (too close to call)` : words);
  };
  mod('closeRange', '+1 close range');
  mod('shortRange', '+1 close range (canister)');
  mod('longRange', '−1 long range');
  mod('beyondHalfRange', '−1 beyond half range');
  if (gun && ['attackColumn', 'marchColumn', 'square'].includes(target.formationInUse))
    modifiers.push('+1 target is a column or square');
  if (overhead) modifiers.push('−1 firing overhead');
  if (!clear)
    modifiers.push(clearBorderline ? '−1 not a clear target (too close to call)' : '−1 not a clear target');
  const enfilade = enfiladeVerdict(ctx, shooter, target, weapon, overhead);
  if (enfilade.lean === 'yes' || enfilade.answer === 'borderline')
    modifiers.push(
      enfilade.answer === 'yes'
        ? 'double dice (enfilade)'
        : 'perhaps double dice (enfilade too close to call)',
    );
  return { modifiers, enfilade };
}
