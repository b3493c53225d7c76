import type { LengthUnit } from '../../table/length-unit.ts';
import type { Comparison } from './threshold.ts';

/** The kinds of question the command line and the UI can ask any ruleset. */
export const QUESTION_KINDS = [
  'shoot',
  'charge',
  'see',
  'distance',
  'quarter',
  'support',
  'command',
  'initiative',
  'leftTable',
  'ahead',
] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

export interface Question {
  readonly kind: QuestionKind;
  /** Who acts (shooter, charger, the one who sees, the one whose position is asked about). */
  readonly subject: string;
  /** The other party, when there is one (target, the unit whose quarter is asked). */
  readonly object?: string;
  readonly text: string;
  /**
   * Charges: the player has declared the charge, so the distance may now be measured (rulesets
   * that forbid measuring first, such as Prestonpans, withhold it otherwise).
   */
  readonly declared?: boolean;
  /**
   * Distance questions may carry their threshold ("is 'A' within 12 in of 'B'?"): the limit, its
   * unit as written (else the ruleset's), and how it compares.
   */
  readonly limit?: { readonly value: number; readonly unit?: LengthUnit; readonly comparison: Comparison };
}

export class QuestionError extends Error {
  override name = 'QuestionError';
}

const NAME = String.raw`(?:'((?:[^']|'(?=[a-z]))+)'|"([^"]+)"|‘([^’]+)’|“([^”]+)”)`;

const LIMIT = String.raw`(\d+(?:\.\d+)?)\s*(in(?:ch(?:es)?)?\b|"|”|cm\b|mm\b)?`;
const COMPARISONS: ReadonlyArray<{ words: string; comparison: Comparison }> = [
  { words: 'within', comparison: 'atMost' },
  { words: 'more\\s+than', comparison: 'moreThan' },
  { words: 'less\\s+than', comparison: 'lessThan' },
  { words: 'at\\s+least', comparison: 'atLeast' },
];

/** "is 'A' within 12 in of 'B'?", "is 'A' more than 8" from 'B'?" */
function distanceWithLimit(t: string): Question | undefined {
  for (const { words, comparison } of COMPARISONS) {
    const re = new RegExp(
      String.raw`^is\s+${NAME}\s+${words}\s+${LIMIT}\s+(?:of|from)\s+${NAME}\s*\??$`,
      'i',
    );
    const m = re.exec(t);
    if (!m) continue;
    const groups = m.slice(1);
    const names = [...groups.slice(0, 4), ...groups.slice(6)].filter((g): g is string => g !== undefined);
    const value = Number(groups[4]);
    const u = (groups[5] ?? '').toLowerCase();
    const unit: LengthUnit | undefined = u === 'cm' ? 'cm' : u === 'mm' ? 'mm' : u ? 'in' : undefined;
    const [subject, object] = names;
    if (!subject || !object || !Number.isFinite(value)) continue;
    return {
      kind: 'distance',
      subject,
      object,
      text: t,
      limit: { value, comparison, ...(unit ? { unit } : {}) },
    };
  }
  return undefined;
}

const PATTERNS: ReadonlyArray<{ kind: QuestionKind; re: RegExp; swap?: boolean; declared?: true }> = [
  // "'A' declares a charge on 'B'" — the charge is committed, so the distance may be measured.
  {
    kind: 'charge',
    re: new RegExp(
      String.raw`^${NAME}\s+declares?\s+(?:a\s+)?charge\s+(?:on|at|against)\s+${NAME}\s*[.!?]?$`,
      'i',
    ),
    declared: true,
  },
  {
    kind: 'shoot',
    re: new RegExp(
      String.raw`^(?:can|may|could)\s+${NAME}\s+(?:shoot|fire)(?:\s+(?:at|on))?\s+${NAME}\s*\??$`,
      'i',
    ),
  },
  { kind: 'charge', re: new RegExp(String.raw`^(?:can|may|could)\s+${NAME}\s+charge\s+${NAME}\s*\??$`, 'i') },
  { kind: 'see', re: new RegExp(String.raw`^(?:does|can)\s+${NAME}\s+see\s+${NAME}\s*\??$`, 'i') },
  {
    kind: 'distance',
    re: new RegExp(
      String.raw`^(?:distance|range|how far)(?:\s+(?:between|from|is))?\s+${NAME}\s+(?:and\s+|to\s+|from\s+)?${NAME}\s*\??$`,
      'i',
    ),
  },
  // "which quarter of 'B' is 'A' in?" → subject A, object B
  {
    kind: 'quarter',
    re: new RegExp(String.raw`^(?:which|what)\s+quarter\s+of\s+${NAME}\s+is\s+${NAME}\s+in\s*\??$`, 'i'),
    swap: true,
  },
  {
    kind: 'quarter',
    re: new RegExp(
      String.raw`^(?:which|what)\s+quarter\s+of\s+${NAME}\s+(?:holds|contains)\s+${NAME}\s*\??$`,
      'i',
    ),
    swap: true,
  },
  { kind: 'support', re: new RegExp(String.raw`^(?:does|can)\s+${NAME}\s+support\s+${NAME}\s*\??$`, 'i') },
  {
    kind: 'command',
    re: new RegExp(String.raw`^(?:can|may)\s+${NAME}\s+(?:order|command)\s+${NAME}\s*\??$`, 'i'),
  },
  {
    kind: 'leftTable',
    re: new RegExp(String.raw`^(?:has|did)\s+${NAME}\s+(?:left|leave)\s+the\s+table\s*\??$`, 'i'),
  },
  // "is 'B' directly ahead of 'A'?" → subject A (the one looking ahead), object B
  {
    kind: 'ahead',
    re: new RegExp(String.raw`^is\s+${NAME}\s+(?:directly\s+|straight\s+)?ahead\s+of\s+${NAME}\s*\??$`, 'i'),
    swap: true,
  },
  {
    kind: 'initiative',
    re: new RegExp(
      String.raw`^(?:does|can)\s+${NAME}\s+(?:have|take|use)\s+(?:the\s+)?initiative\s*\??$`,
      'i',
    ),
  },
];

/**
 * Parses a question in a few everyday phrasings; names go in single or double quotes
 * (an apostrophe inside a name, as in 'Lee's', is fine):
 * "can 'A' shoot 'B'?", "can 'A' charge 'B'?", "does 'A' see 'B'?", "distance 'A' 'B'",
 * "which quarter of 'B' is 'A' in?", "does 'A' support 'B'?", "can 'General' order 'A'?",
 * "does 'A' have the initiative?", "'A' declares a charge on 'B'" (a charge question with `declared`),
 * "is 'A' within 12 in of 'B'?" (a distance with its limit; also "more than", "less than", "at
 * least"; the unit as written, else the ruleset's), "has 'A' left the table?", "is 'B' directly
 * ahead of 'A'?".
 */
export function parseQuestion(text: string): Question {
  const t = text.trim();
  const limited = distanceWithLimit(t);
  if (limited) return limited;
  for (const { kind, re, swap, declared } of PATTERNS) {
    const m = re.exec(t);
    if (!m) continue;
    const names = m.slice(1).filter((g): g is string => g !== undefined);
    const [first, second] = names;
    if (!first) continue;
    if (swap && second) return { kind, subject: second, object: first, text: t };
    return {
      kind,
      subject: first,
      ...(second ? { object: second } : {}),
      text: t,
      ...(declared ? { declared } : {}),
    };
  }
  throw new QuestionError(
    `cannot read the question "${t}". Try: "can 'A' shoot 'B'?", "can 'A' charge 'B'?", "does 'A' see 'B'?", "distance 'A' 'B'", "is 'A' within 12 in of 'B'?", "which quarter of 'B' is 'A' in?"`,
  );
}
