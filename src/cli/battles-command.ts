import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { resolveDataDir, setRecordingDefaults } from '../record/live-recording.ts';
import { BattleStore, STORE_FILE } from '../record/store.ts';
import {
  battleJson,
  BATTLE_FILE_EXTENSION,
  exportBattleFile,
  importBattleFile,
  movesCsv,
  rulingsCsv,
} from '../record/transfer.ts';
import { startReplayServer } from '../server/battle-routes.ts';
import { formatDuration } from '../record/format.ts';
import { repairStore, type RepairReport } from '../record/repair.ts';

/**
 * `vedette battles`, `vedette replay <battle>`, `vedette export <battle>`, `vedette import <file>`:
 * the recorded battles in the data folder (`--data <dir>`, default `.vedette/`). `vedette serve`
 * records into the same folder (`--no-record` to not).
 */

/** The data folder chosen with the global --data option (or VEDETTE_DATA, or .vedette/). */
function dataDirOf(cmd: Command): string {
  const opts = cmd.optsWithGlobals<{ data?: string }>();
  return resolveDataDir(opts.data);
}

function openStore(cmd: Command, mustExist = true): BattleStore {
  const dir = dataDirOf(cmd);
  if (mustExist && !existsSync(resolve(dir, STORE_FILE)))
    throw new Error(
      `no battles recorded in ${dir} yet (record with \`vedette serve\`, or point --data at another folder)`,
    );
  return BattleStore.inDataDir(dir);
}

function printRepair(report: RepairReport, json: boolean): void {
  if (json) return void console.log(JSON.stringify(report, null, 2));
  if (report.healthy) return void console.log(`${report.file} is healthy: nothing to repair.`);
  const counts = Object.entries(report.kept)
    .map(([table, n]) => {
      const lost = report.lost[table];
      return `${n} ${table}${lost ? ` (${lost} lost)` : lost === null && report.readable ? ' (could not count what was lost)' : ''}`;
    })
    .join(', ');
  console.log(`${report.file} was damaged: ${report.problem}.`);
  console.log(`The damaged file is kept, unchanged, as ${report.movedTo}.`);
  console.log(
    report.readable
      ? `A new store holds what could be read: ${counts}.`
      : 'Nothing could be read from it; a new, empty store is in its place.',
  );
}

export function registerBattlesCommands(program: Command): void {
  program.option(
    '--data <dir>',
    'data folder for recorded battles (default .vedette/ here, or $VEDETTE_DATA)',
  );
  // `vedette serve` records every battle into the data folder unless told not to.
  const serve = program.commands.find((c) => c.name() === 'serve');
  if (serve) {
    serve.option('--no-record', 'do not record the battle');
    serve.hook('preAction', (_p, cmd) => {
      const o = cmd.optsWithGlobals<{ data?: string; record?: boolean }>();
      setRecordingDefaults(o.record === false ? false : { dataDir: resolveDataDir(o.data) });
    });
  }

  program
    .command('battles')
    .description('list the recorded battles')
    .option('--json', 'print as JSON')
    .option('--repair', 'repair a damaged store: move it aside and keep every battle that can still be read')
    .action((opts: { json?: boolean; repair?: boolean }, cmd: Command) => {
      if (opts.repair) return void printRepair(repairStore(dataDirOf(cmd)), opts.json === true);
      const store = openStore(cmd);
      try {
        const battles = store.listBattles();
        if (opts.json) return void console.log(JSON.stringify(battles, null, 2));
        if (battles.length === 0) return void console.log('No battles recorded yet.');
        for (const b of battles) {
          const when = new Date(b.startedAt).toISOString().slice(0, 16).replace('T', ' ');
          const state =
            b.endedAt === null ? ' (not stopped: the recorder ended abruptly, or is still recording)' : '';
          const imported = b.importedFrom ? ` [imported from ${b.importedFrom}]` : '';
          console.log(
            `#${b.id}  ${when}  ${formatDuration(b.lastEventAt - b.startedAt)}  ${b.name} — ${b.scenario}; ${b.moves} moves, ${b.turns} turns, ${b.rulings} rulings${imported}${state}`,
          );
        }
      } finally {
        store.close();
      }
    });

  program
    .command('replay')
    .description('open a recorded battle in the browser (serves the replay page)')
    .argument('<battle>', 'battle number, uid, name, or "last"')
    .option('--port <n>', 'HTTP port', '8081')
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .action(async (ref: string, opts: { port: string; host: string }, cmd: Command) => {
      const store = openStore(cmd);
      const battle = store.findBattle(ref);
      store.close();
      const server = await startReplayServer({
        dataDir: dataDirOf(cmd),
        port: Number(opts.port),
        host: opts.host,
      });
      console.log(
        `Replaying #${battle.id} "${battle.name}" — open ${server.url}/replay.html?battle=${battle.id}`,
      );
      const shutdown = () => void server.close().then(() => process.exit(0));
      process.once('SIGINT', shutdown);
      process.once('SIGTERM', shutdown);
    });

  program
    .command('export')
    .description(
      `write a battle to one portable file (${BATTLE_FILE_EXTENSION}), or its moves and rulings as JSON/CSV`,
    )
    .argument('<battle>', 'battle number, uid, name, or "last"')
    .option('--format <format>', 'battle | json | csv (moves and rulings, two files)', 'battle')
    .option('-o, --out <file>', 'output file (csv: the stem; default battle-<n>…)')
    .action((ref: string, opts: { format: string; out?: string }, cmd: Command) => {
      const store = openStore(cmd);
      try {
        const battle = store.findBattle(ref);
        const stem = `battle-${battle.id}`;
        switch (opts.format) {
          case 'battle': {
            const out = opts.out ?? `${stem}${BATTLE_FILE_EXTENSION}`;
            const { bytes } = exportBattleFile(store, battle.id, out);
            console.log(
              `wrote ${out} (${(bytes / 1024).toFixed(0)} KiB): battle #${battle.id} "${battle.name}"`,
            );
            break;
          }
          case 'json': {
            const out = opts.out ?? `${stem}.json`;
            if (existsSync(out)) throw new Error(`${out} already exists`);
            writeFileSync(out, JSON.stringify(battleJson(store, battle.id), null, 1));
            console.log(`wrote ${out}`);
            break;
          }
          case 'csv': {
            const base = (opts.out ?? stem).replace(/\.csv$/, '');
            const files: Array<[string, string]> = [
              [`${base}-moves.csv`, movesCsv(battle, store.moves(battle.id))],
              [`${base}-rulings.csv`, rulingsCsv(battle, store.rulings(battle.id))],
            ];
            for (const [f] of files) if (existsSync(f)) throw new Error(`${f} already exists`);
            for (const [f, text] of files) writeFileSync(f, text);
            console.log(`wrote ${files.map(([f]) => f).join(' and ')}`);
            break;
          }
          default:
            throw new Error(`unknown format "${opts.format}": battle, json or csv`);
        }
      } finally {
        store.close();
      }
    });

  program
    .command('import')
    .description(`add an exported battle file (${BATTLE_FILE_EXTENSION}) to the data folder`)
    .argument('<file>', 'the battle file')
    .option(
      '--unverified',
      'accept a file without a content hash (exported by Vedette 0.1); every other check still runs',
    )
    .action((file: string, opts: { unverified?: boolean }, cmd: Command) => {
      const store = openStore(cmd, false);
      try {
        const b = importBattleFile(store, file, { allowUnverified: opts.unverified === true });
        console.log(`imported as #${b.id} "${b.name}" (${b.moves} moves, ${b.rulings} rulings)`);
      } finally {
        store.close();
      }
    });
}
