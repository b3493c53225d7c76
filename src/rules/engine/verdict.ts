import type { Vec2 } from '../../geometry/vec.ts';
import { flatString, flatStrings } from './flat-string.ts';
import { measureLine } from './words.ts';

export type Answer = 'yes' | 'no' | 'borderline';

/** A value an option may take. */
export type OptionValue = string | number | boolean;

/**
 * The answer to one rules question. Lengths in `value`, `limit`, `margin`, `epsilon` are in the
 * ruleset's own unit (`unit`); `between` is in table millimetres so a UI can draw the line.
 */
export interface Verdict {
  readonly ruleset: string;
  /** Short name of the question, e.g. "shoot", "charge", "range". */
  readonly question: string;
  /** The question in words: "can Lee's shoot Camerons?". */
  readonly asked: string;
  readonly answer: Answer;
  /** What the bare numbers say, even when the answer is borderline. */
  readonly lean: 'yes' | 'no';
  readonly value?: number;
  readonly limit?: number;
  /** value − limit, signed so that its sign is the reason for the lean. */
  readonly margin?: number;
  /** The band around the limit inside which the answer is borderline (the quantity's unit). */
  readonly epsilon?: number;
  readonly unit?: string;
  /**
   * The margin as a distance on the table: how far a base would have to move to change the
   * answer, mm. Every threshold verdict has one, whatever its unit (inches, degrees, a share).
   */
  readonly moveMm?: number;
  /**
   * The pose uncertainty band, mm: the answer is borderline when `moveMm` is inside it (the
   * policy's floor, or its multiple of the one-sigma pose error of the bases involved).
   */
  readonly bandMm?: number;
  /**
   * Which side of its own limit the measurement falls, when the answer is decided by other checks
   * too ("can S shoot T?" shows the range, which may be 10 in to spare while the answer is no):
   * what "to spare" or "short" says. The lean when absent.
   */
  readonly marginLean?: 'yes' | 'no';
  /** The two points the measurement was taken between (table mm). */
  readonly between?: readonly [Vec2, Vec2];
  /** The two measuring points in words ("Lee's front-left corner", "Camerons' nearest edge"). */
  readonly measured?: { readonly from: string; readonly to: string };
  /**
   * `modifier`: a check that decides a modifier or a fact (close range, a clear target, a cover
   * save), not whether the answer is yes; composites leave it out of their answer.
   */
  readonly role?: 'modifier';
  /** Reasons a player will accept, in plain words, most important first. */
  readonly reasons: readonly string[];
  /** The options consulted and their values. */
  readonly options: Readonly<Record<string, OptionValue>>;
  /** Findings that are not yes/no: bands, fractions, modifiers, chosen quarter. */
  readonly facts: Readonly<Record<string, OptionValue>>;
  /** The sub-questions this answer was built from. */
  readonly checks: readonly Verdict[];
  /**
   * Set when the rules forbid players to know the measurement yet (Prestonpans: no measuring
   * before a charge is declared). Such a verdict carries no `value`, `margin` or `between`, and
   * its answer covers only what may be known before measuring; ask again with the charge
   * declared for the distance.
   */
  readonly hiddenUntilDeclared?: boolean;
}

export interface VerdictInit {
  readonly ruleset: string;
  readonly question: string;
  readonly asked: string;
  readonly answer: Answer;
  readonly lean?: 'yes' | 'no';
  readonly value?: number;
  readonly limit?: number;
  readonly margin?: number;
  readonly epsilon?: number;
  readonly unit?: string;
  readonly moveMm?: number;
  readonly bandMm?: number;
  readonly marginLean?: 'yes' | 'no';
  readonly between?: readonly [Vec2, Vec2];
  readonly measured?: { readonly from: string; readonly to: string };
  readonly role?: 'modifier';
  readonly reasons?: readonly string[];
  readonly options?: Readonly<Record<string, OptionValue>>;
  readonly facts?: Readonly<Record<string, OptionValue>>;
  readonly checks?: readonly Verdict[];
  readonly hiddenUntilDeclared?: boolean;
}

/**
 * The empty options, facts and checks a verdict gets when its init has none: one frozen object
 * each, shared by every such verdict. A table's all-pairs answers are kept, with tens of
 * thousands of empty ones among their checks, and every kept object is copied by the young
 * collector. Frozen, so a verdict's parts stay as read-only as their types say.
 */
export const NO_OPTIONS: Readonly<Record<string, OptionValue>> = Object.freeze({});
export const NO_FACTS: Readonly<Record<string, OptionValue>> = Object.freeze({});
export const NO_CHECKS: readonly Verdict[] = Object.freeze([]);

export function verdict(init: VerdictInit): Verdict {
  return verdictOf(init, init.ruleset);
}

/**
 * verdict({ ...init, ruleset }) with one copy of `init` instead of two (the same keys in the same
 * order, the same values): every check of every pair is built through it.
 */
export function verdictOf(init: Omit<VerdictInit, 'ruleset'>, ruleset: string): Verdict {
  const v = copyOf(init);
  v.ruleset = ruleset;
  v.lean = init.lean ?? (init.answer === 'no' ? 'no' : 'yes');
  flatString(init.asked);
  v.reasons = flatStrings(init.reasons ?? []);
  v.options = init.options ?? NO_OPTIONS;
  v.facts = init.facts ?? NO_FACTS;
  v.checks = init.checks ?? NO_CHECKS;
  return v as unknown as Verdict;
}

/**
 * `{ ...o }` for the plain objects verdicts are built from (own string keys, none named
 * `__proto__`, no accessors): the same keys in the same order with the same values, and keys set
 * on the copy afterwards land where `{ ...o, key }` puts them (in place when o has the key, else
 * after). A spread of objects of many shapes followed by more keys went through V8's slow paths:
 * building verdicts was about a tenth of an all-pairs run (docs/rules-engine.md, eighth round).
 */
export function copyOf(o: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const from = o as Record<string, unknown>;
  for (const k in from) out[k] = from[k];
  return out;
}

/**
 * All of the checks must hold: any `no` makes no, else any `borderline` makes borderline.
 * The lean is yes only when every check leans yes. Modifier checks do not count.
 */
export function allOf(all: readonly Verdict[]): { answer: Answer; lean: 'yes' | 'no' } {
  const checks = all.filter((c) => c.role !== 'modifier');
  const lean = checks.every((c) => c.lean === 'yes') ? 'yes' : 'no';
  if (checks.some((c) => c.answer === 'no')) return { answer: 'no', lean: 'no' };
  if (checks.some((c) => c.answer === 'borderline')) return { answer: 'borderline', lean };
  return { answer: 'yes', lean: 'yes' };
}

/** Negation: yes ↔ no, borderline stays borderline. */
export const negate = (a: Answer): Answer => (a === 'yes' ? 'no' : a === 'no' ? 'yes' : 'borderline');

/** One line per verdict, in the words the referee panel and replays use, then its reasons and facts. */
export function formatVerdict(v: Verdict, indent = ''): string {
  const word = v.answer === 'borderline' ? `TOO CLOSE TO CALL (leans ${v.lean})` : v.answer.toUpperCase();
  const num = measureLine(v);
  const lines = [
    `${indent}${v.asked}: ${word}${num ? ` — ${num}` : ''}${v.hiddenUntilDeclared ? ' (distance withheld until the charge is declared)' : ''}`,
  ];
  for (const r of v.reasons) lines.push(`${indent}  • ${r}`);
  const facts = Object.entries(v.facts);
  if (facts.length > 0)
    lines.push(
      `${indent}  facts: ${facts.map(([k, x]) => `${k}=${typeof x === 'number' ? fmt(x) : String(x)}`).join(', ')}`,
    );
  return lines.join('\n');
}

export const fmt = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(2));
