import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { BOARD_DICTIONARIES, type BoardDictionaryName } from '../camera/calibration-board.ts';
import { loadBoardSpec } from '../camera/calibration-files.ts';
import { baseLabel, COMMON_BASES, parseBase } from '../print/base-sizes.ts';
import { parseIds } from '../print/layout.ts';
import { PAPER_NAMES, parsePaper } from '../print/paper.ts';
import { boardSheetPdf, markerSheetPdf, referenceSheetPdf } from '../print/sheets.ts';
import { DEFAULT_MARKER_DICTIONARY, MARKER_DICTIONARIES } from '../table/scenario.ts';

export const DEFAULT_BOARD_SPEC = 'calibration/boards/vedette-7x9.json';

function dictionary(name: string): BoardDictionaryName {
  if (!(MARKER_DICTIONARIES as readonly string[]).includes(name)) {
    throw new Error(`unknown marker dictionary "${name}"; use one of: ${MARKER_DICTIONARIES.join(', ')}`);
  }
  if (!(BOARD_DICTIONARIES as readonly string[]).includes(name))
    throw new Error(`dictionary "${name}" cannot be printed`);
  return name as BoardDictionaryName;
}

function positive(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} must be a positive number, got "${text}"`);
  return n;
}

async function save(out: string, pdf: Buffer, what: string): Promise<void> {
  await writeFile(out, pdf);
  console.log(`Wrote ${out}: ${what}.`);
  console.log(
    'Print at 100 % ("Actual size", no "Fit to page"), then measure the scale bar at the foot of each page.',
  );
}

/**
 * `vedette print markers|reference|board`: PDFs at exact physical scale for A4 or US Letter
 * (see docs/printing.md).
 */
export function registerPrintCommand(program: Command): void {
  const print = program
    .command('print')
    .description('Print markers, table reference markers or the calibration board as PDF at exact scale');

  print
    .command('markers')
    .description(
      `sheets of base markers, cut lines on each base outline (common bases: ${COMMON_BASES.join(', ')})`,
    )
    .requiredOption('--base <size>', 'base size in mm: WIDTHxDEPTH (40x20) or DIAMETERround (60round)')
    .requiredOption('--ids <list>', 'marker ids, e.g. 10-69 or 0-3,7,12-15')
    .option('--dictionary <name>', `marker dictionary (${MARKER_DICTIONARIES.join(', ')})`, DEFAULT_MARKER_DICTIONARY)
    .option(
      '--marker-size <mm>',
      'marker side, black edge to black edge (default: largest that keeps the white quiet zone)',
    )
    .option('--paper <name>', `paper: ${PAPER_NAMES.join(', ')}`, 'a4')
    .option('-o, --out <file.pdf>', 'output file (default vedette-markers-<base>-<ids>.pdf)')
    .action(
      async (f: {
        base: string;
        ids: string;
        dictionary: string;
        markerSize?: string;
        paper: string;
        out?: string;
      }) => {
        const base = parseBase(f.base);
        const ids = parseIds(f.ids);
        const r = await markerSheetPdf({
          dictionary: dictionary(f.dictionary),
          ids,
          base,
          paper: parsePaper(f.paper),
          ...(f.markerSize ? { markerMm: positive(f.markerSize, '--marker-size') } : {}),
        });
        const pages = new Set(r.placed.map((p) => p.page)).size;
        const out = f.out ?? `vedette-markers-${f.base}-${ids[0]}-${ids.at(-1)}.pdf`;
        await save(
          out,
          r.pdf,
          `${ids.length} ${f.dictionary} markers of ${r.markerMm} mm for ${baseLabel(base)} bases on ${pages} page(s)`,
        );
      },
    );

  print
    .command('reference')
    .description('table reference markers (the corners of the table), large, with a cut square round each')
    .option('--ids <list>', 'marker ids', '0-3')
    .option('--size <mm>', 'marker side, black edge to black edge', '80')
    .option('--per-page <n>', 'at most this many per page (default: as many as fit)')
    .option('--dictionary <name>', `marker dictionary (${MARKER_DICTIONARIES.join(', ')})`, DEFAULT_MARKER_DICTIONARY)
    .option('--paper <name>', `paper: ${PAPER_NAMES.join(', ')}`, 'a4')
    .option('-o, --out <file.pdf>', 'output file', 'vedette-reference-markers.pdf')
    .action(
      async (f: {
        ids: string;
        size: string;
        perPage?: string;
        dictionary: string;
        paper: string;
        out: string;
      }) => {
        const ids = parseIds(f.ids);
        const sizeMm = positive(f.size, '--size');
        const r = await referenceSheetPdf({
          dictionary: dictionary(f.dictionary),
          ids,
          sizeMm,
          paper: parsePaper(f.paper),
          ...(f.perPage ? { perPage: Math.floor(positive(f.perPage, '--per-page')) } : {}),
        });
        const pages = new Set(r.placed.map((p) => p.page)).size;
        await save(f.out, r.pdf, `${ids.length} reference markers of ${sizeMm} mm on ${pages} page(s)`);
      },
    );

  print
    .command('board')
    .description('the ChArUco calibration board for `vedette calibrate`')
    .option('--board <spec.json>', 'board spec', DEFAULT_BOARD_SPEC)
    .option('--paper <name>', `paper: ${PAPER_NAMES.join(', ')}`, 'a4')
    .option('-o, --out <file.pdf>', 'output file', 'vedette-charuco-board.pdf')
    .action(async (f: { board: string; paper: string; out: string }) => {
      const board = await loadBoardSpec(f.board);
      const r = await boardSheetPdf({ board, paper: parsePaper(f.paper) });
      await save(
        f.out,
        r.pdf,
        `ChArUco board ${board.name} (${board.squaresX}×${board.squaresY} squares of ${board.squareLengthMm} mm); calibrate with --board ${f.board}`,
      );
    });
}
