/** Every ruleset Vedette knows; importing this registers them all. */
import './black-powder/ruleset.ts';
import './prestonpans/ruleset.ts';
import './d3/ruleset.ts';
import './oer-the-sea/ruleset.ts';
import './montrose/ruleset.ts';

export { getRuleset, listRulesets, registerRuleset, rulesetForScenario } from './engine/registry.ts';
export { parseQuestion, type Question } from './engine/question.ts';
export type { Verdict } from './engine/verdict.ts';
export { formatVerdict } from './engine/verdict.ts';
