import type { BattleRoster, RulingRecord } from '../../../src/record/types.ts';

/**
 * Rulings in players' words: older recordings wrote unit ids into the question ("distance from
 * lees to murrays"); every id of the roster is put back as the unit's name. And which units a
 * ruling is about, for the filter.
 */

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function withNames(text: string, roster: BattleRoster): string {
  let out = text;
  for (const u of [...roster.units].sort((a, b) => b.id.length - a.id.length)) {
    if (u.id === u.name) continue;
    out = out.replace(new RegExp(`(?<![\\w'’-])${escapeRe(u.id)}(?![\\w'’-])`, 'g'), u.name);
  }
  return out;
}

/** The roster units a ruling concerns (named in its question or its inputs). */
export function unitsOf(r: RulingRecord, roster: BattleRoster): string[] {
  const words = new Set(r.inputs.question.split(/\s+/));
  const asked = r.verdict.asked.toLowerCase();
  return roster.units.filter((u) => words.has(u.id) || asked.includes(u.name.toLowerCase())).map((u) => u.id);
}

const KIND_WORDS: Readonly<Record<string, string>> = {
  distance: 'distance',
  shoot: 'shooting',
  charge: 'charge',
  see: 'line of sight',
  command: 'orders',
  quarter: 'quarter',
  support: 'support',
  initiative: 'initiative',
};

export const kindWord = (question: string): string => KIND_WORDS[question] ?? question;
