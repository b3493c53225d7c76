import type { Verdict } from '../../../src/rules/engine/verdict.ts';

/** Every verdict in a tree (the answer and all its checks, depth first), keyed by its path. */
export function flatten(v: Verdict): Map<string, Verdict> {
  const out = new Map<string, Verdict>();
  const walk = (node: Verdict, path: string) => {
    let key = `${path}/${node.question}|${node.asked}`;
    // The same check asked twice under one parent (rare) is told apart by its order.
    for (let k = 2; out.has(key); k++) key = `${path}/${node.question}|${node.asked}#${k}`;
    out.set(key, node);
    for (const c of node.checks) walk(c, key);
  };
  walk(v, '');
  return out;
}

export interface Flip {
  readonly key: string;
  readonly before: Verdict;
  readonly after: Verdict;
}

/**
 * Verdicts of the first tree whose lean changed in the second (matched by path; a check present
 * in only one tree is skipped: its presence is decided by a parent, which is compared itself).
 */
export function flips(before: Verdict, after: Verdict): Flip[] {
  const a = flatten(before);
  const b = flatten(after);
  const out: Flip[] = [];
  for (const [key, v] of a) {
    const w = b.get(key);
    if (w && w.lean !== v.lean) out.push({ key, before: v, after: w });
  }
  return out;
}
