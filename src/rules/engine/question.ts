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
}

export class QuestionError extends Error {
  override name = 'QuestionError';
}

const NAME = String.raw`(?:'((?:[^']|'(?=[a-z]))+)'|"([^"]+)"|‘([^’]+)’|“([^”]+)”)`;

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
 * "does 'A' have the initiative?", "'A' declares a charge on 'B'" (a charge question with `declared`).
 */
export function parseQuestion(text: string): Question {
  const t = text.trim();
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
    `cannot read the question "${t}". Try: "can 'A' shoot 'B'?", "can 'A' charge 'B'?", "does 'A' see 'B'?", "distance 'A' 'B'", "which quarter of 'B' is 'A' in?"`,
  );
}
