import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { recordedPoses, recordedTurnStart } from '../record/recorded-table.ts';
import { resolveDataDir } from '../record/live-recording.ts';
import { BattleStore, STORE_FILE } from '../record/store.ts';
import { listRulesets, rulesetForScenario } from '../rules/index.ts';
import { parseQuestion } from '../rules/engine/question.ts';
import type { ThresholdPolicy } from '../rules/engine/threshold.ts';
import { formatVerdict, type OptionValue, type Verdict } from '../rules/engine/verdict.ts';
import { parseScenarioText, type Scenario } from '../table/scenario.ts';
import { buildTableState, type TableState } from '../table/table-state.ts';

interface RulesCommandOptions {
  ask: string[];
  ruleset?: string;
  option: string[];
  exact?: boolean;
  floor?: string;
  json?: boolean;
  listOptions?: boolean;
  declared?: boolean;
  battle?: string;
  at?: string;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/**
 * The table to ask about: the scenario file's poses, or, with --battle, the recorded battle's
 * settled poses at --at seconds into it (default: where the recording ends) with the table at the
 * start of the turn then (the last turn mark), so rules that look back to it read the record.
 */
function tableToAsk(scenario: Scenario, opts: RulesCommandOptions, dataDir: string): TableState {
  if (opts.battle === undefined) return buildTableState(scenario);
  if (!existsSync(resolve(dataDir, STORE_FILE)))
    throw new Error(`no battles recorded in ${dataDir} yet (record with \`vedette serve\`, or give --data)`);
  const store = BattleStore.inDataDir(dataDir);
  try {
    const battle = store.findBattle(opts.battle);
    let t = battle.lastEventAt;
    if (opts.at !== undefined) {
      const s = Number(opts.at);
      if (!Number.isFinite(s) || s < 0)
        throw new Error(`--at needs seconds into the battle, got "${opts.at}"`);
      t = battle.startedAt + s * 1000;
    }
    const turnStartPoses = recordedTurnStart(store, battle.id, t);
    return buildTableState(scenario, recordedPoses(store, battle.id, t), {
      fallBackToFilePoses: false,
      ...(turnStartPoses ? { turnStartPoses } : {}),
    });
  } finally {
    store.close();
  }
}

function printVerdict(v: Verdict, depth: number): void {
  console.log(formatVerdict(v));
  if (depth > 0) for (const c of v.checks) console.log(formatVerdict(c, '    '));
}

/**
 * `vedette rules <scenario> --ask "can 'Lee's' shoot 'Camerons'?"`: answers rules questions
 * from a scenario file's poses (no camera). Several --ask may be given; --option name=value sets
 * a ruleset option; --exact turns the borderline band off; --json prints the verdicts as JSON;
 * --declared lets Prestonpans measure charges ("'A' declares a charge on 'B'" does the same).
 * The ruleset is the scenario's `ruleset` unless --ruleset names another; a ruleset may bind to
 * the scenario (Montrose loads the board map it names) and may read its own phrasing first.
 * --battle asks about a recorded battle instead of the file's poses (see tableToAsk).
 */
export function registerRulesCommand(program: Command): Command {
  return program
    .command('rules')
    .description(
      'answer rules questions about a scenario file (poses from the file, or from a recorded --battle)',
    )
    .argument('<scenario>', 'scenario JSON file')
    .option(
      '-a, --ask <question>',
      "a question, e.g. \"can 'Lee's' shoot 'Camerons'?\" (repeatable)",
      collect,
      [],
    )
    .option('-r, --ruleset <id>', "ruleset id (default: the scenario's)")
    .option('-o, --option <name=value>', 'set a ruleset option (repeatable)', collect, [])
    .option('--floor <inches>', 'borderline band floor in the ruleset unit')
    .option('--exact', 'no borderline band: exact comparisons')
    .option('--json', 'print verdicts as JSON')
    .option('--list-options', "list the ruleset's options and their defaults")
    .option(
      '--declared',
      'charges are declared: rulesets that forbid measuring first (Prestonpans) then give the distance',
    )
    .option('--battle <battle>', 'ask about a recorded battle (number or name; see `vedette battles`)')
    .option('--at <seconds>', 'with --battle: the moment, seconds into the battle (default: its end)')
    .action((file: string, opts: RulesCommandOptions, cmd: Command) => {
      const scenario = parseScenarioText(readFileSync(file, 'utf8'), file);
      const ruleset = rulesetForScenario(opts.ruleset ?? scenario.ruleset, scenario);
      if (opts.listOptions) {
        for (const [name, spec] of Object.entries(ruleset.optionSpecs))
          console.log(
            `${name} = ${String(spec.default)}${spec.ambiguity ? ` [${spec.ambiguity}]` : ''}\n    ${spec.summary}`,
          );
        return;
      }
      const overrides: Record<string, OptionValue> = {};
      for (const o of opts.option) {
        const eq = o.indexOf('=');
        if (eq < 1) throw new Error(`--option needs name=value, got "${o}"`);
        overrides[o.slice(0, eq)] = o.slice(eq + 1);
      }
      let policy: ThresholdPolicy = ruleset.defaultPolicy;
      if (opts.exact) policy = { floor: 0, sigmas: 0 };
      if (opts.floor !== undefined) policy = { ...policy, floor: Number(opts.floor) };
      const state = tableToAsk(scenario, opts, resolveDataDir(cmd.optsWithGlobals<{ data?: string }>().data));
      for (const m of state.missing) console.error(`note: ${m.name} is not on the table (${m.reason})`);
      if (opts.ask.length === 0) {
        console.log(
          `${state.units.length} units, ${state.commanders.length} commanders, ${state.terrain.length} terrain pieces; ruleset ${ruleset.name}.`,
        );
        console.log(
          `Ask with --ask, e.g. --ask "can '${state.units[0]?.name ?? 'A'}' shoot '${state.units[1]?.name ?? 'B'}'?"`,
        );
        return;
      }
      const verdicts = opts.ask.map((text) => {
        const own = ruleset.askText?.(state, text, overrides, policy);
        if (own) return own;
        const q = parseQuestion(text);
        return ruleset.ask(
          state,
          opts.declared && q.kind === 'charge' ? { ...q, declared: true } : q,
          overrides,
          policy,
        );
      });
      if (opts.json) console.log(JSON.stringify(verdicts, null, 2));
      else for (const v of verdicts) printVerdict(v, 1);
    });
}

/** Ruleset ids, for help texts. */
export const rulesetIds = (): string[] => listRulesets().map((r) => r.id);
