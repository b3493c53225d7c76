/**
 * Which questions make sense for the two units picked, so that only those are offered: the
 * ruleset must answer it, and the pair must fit it (only a commander gives orders, and to his own
 * side; shooting and charging are at the enemy). Each question not offered says why.
 */

export const QUESTIONS = [
  { id: 'shoot', text: 'Can A shoot B?' },
  { id: 'charge', text: 'Can A charge B?' },
  { id: 'see', text: 'Does A see B?' },
  { id: 'command', text: 'Can A order B?' },
] as const;

export type OfferedQuestion = (typeof QUESTIONS)[number]['id'];

export interface PickedUnit {
  readonly name: string;
  readonly side: string;
  readonly type: string;
}

export interface Offer {
  readonly id: OfferedQuestion;
  readonly offered: boolean;
  /** Why it is not offered (null when it is). */
  readonly why: string | null;
}

export function offers(
  answers: readonly string[],
  rulesetName: string,
  a: PickedUnit | undefined,
  b: PickedUnit | undefined,
): Offer[] {
  return QUESTIONS.map(({ id }) => {
    const no = (why: string): Offer => ({ id, offered: false, why });
    if (!answers.includes(id)) return no(`${rulesetName} has no rule for this question`);
    if (!a || !b) return { id, offered: true, why: null };
    const aCommander = a.type === 'commander';
    const bCommander = b.type === 'commander';
    if (id === 'command') {
      if (!aCommander) return no(`${a.name} is not a commander`);
      if (bCommander) return no(`${b.name} is a commander, not a unit to order`);
      if (a.side !== b.side) return no(`${b.name} is on the other side`);
    }
    if (id === 'shoot' || id === 'charge') {
      if (aCommander) return no(`${a.name} is a commander`);
      if (a.side === b.side) return no(`${a.name} and ${b.name} are on the same side`);
    }
    return { id, offered: true, why: null };
  });
}
