import { Command } from 'commander';
import { ScenarioError } from '../table/scenario.ts';
import { registerCalibrateCommand } from './calibrate-command.ts';
import { registerDetectCommand } from './detect-command.ts';
import { registerMeasureCommand } from './measure-command.ts';
import { registerPrintCommand } from './print-command.ts';
import { registerRulesCommand } from './rules-command.ts';
import { registerServeCommand } from './serve-command.ts';
import { registerSourcesCommand } from './sources-command.ts';
import { registerBattlesCommands } from './battles-command.ts';
import { registerHubCommand } from './hub-command.ts';

const program = new Command();
program.name('vedette').description('Watches a miniature-wargames table and answers rules questions');
registerServeCommand(program);
registerMeasureCommand(program);
registerDetectCommand(program);
registerRulesCommand(program);
registerCalibrateCommand(program);
registerPrintCommand(program);
registerSourcesCommand(program);
registerBattlesCommands(program); // after serve: adds --data and serve's recording (issue #7)
registerHubCommand(program); // the club or tournament hub (issue #17)

try {
  await program.parseAsync(process.argv);
} catch (err) {
  // Bad input is the user's to fix: say what is wrong, without a stack trace.
  console.error(err instanceof ScenarioError || err instanceof Error ? err.message : String(err));
  process.exitCode = 2;
}
