import { Command } from 'commander';
import { registerCalibrateCommand } from './calibrate-command.ts';
import { registerDetectCommand } from './detect-command.ts';
import { CliError, describeFailure, suggestFor } from './failure.ts';
import { registerMeasureCommand } from './measure-command.ts';
import { registerPrintCommand } from './print-command.ts';
import { registerRulesCommand } from './rules-command.ts';
import { registerServeCommand } from './serve-command.ts';
import { registerSourcesCommand } from './sources-command.ts';
import { registerBattlesCommands } from './battles-command.ts';
import { registerHubCommand } from './hub-command.ts';

const program = new Command();
program
  .name('vedette')
  .description('Watches a miniature-wargames table and answers rules questions')
  .option('--debug', 'when something fails, print the stack trace too');
registerServeCommand(program);
registerMeasureCommand(program);
registerDetectCommand(program);
registerRulesCommand(program);
registerCalibrateCommand(program);
registerPrintCommand(program);
registerSourcesCommand(program);
registerBattlesCommands(program); // after serve: adds --data and serve's recording (issue #7)
registerHubCommand(program); // the club or tournament hub (issue #17)

const debug = process.argv.includes('--debug');

/** Every failure ends here: one line, a non-zero status, the stack only with --debug. */
function fail(err: unknown): void {
  const { message, exitCode } = describeFailure(err);
  console.error(`vedette: ${message}`);
  if (debug && err instanceof Error && err.stack) console.error(err.stack);
  process.exitCode = exitCode;
}

// A failure outside a command's own flow (a server's socket, a camera process) ends the run too.
process.on('uncaughtException', (err) => {
  fail(err);
  process.exit(process.exitCode ?? 1);
});
process.on('unhandledRejection', (err) => {
  fail(err);
  process.exit(process.exitCode ?? 1);
});

/**
 * An unknown command is refused before commander sees it: commander would show the help and exit
 * 0 for `vedette nonsense --help`, and suggests nothing for a word it cannot match.
 */
function checkCommand(argv: readonly string[]): void {
  // Options that take a value (`hub --database <url>`): their value is not a command name.
  const valueOptions = (c: Command) =>
    new Set(
      [program, c].flatMap((x) => x.options.filter((o) => o.required || o.optional).map((o) => o.long)),
    );
  let cmd: Command = program;
  const path: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('-')) {
      if (!a.includes('=') && valueOptions(cmd).has(a)) i++;
      continue;
    }
    if (cmd.commands.length === 0) return;
    if (a === 'help') return;
    const next = cmd.commands.find((c) => c.name() === a || c.aliases().includes(a));
    if (!next) {
      const where = path.length
        ? `"vedette ${path.join(' ')}" has no command "${a}"`
        : `unknown command "${a}"`;
      throw new CliError(`${where}: ${suggestFor(program, a, path)}`);
    }
    cmd = next;
    path.push(a);
  }
}

try {
  checkCommand(process.argv.slice(2));
  await program.parseAsync(process.argv);
} catch (err) {
  fail(err);
}
