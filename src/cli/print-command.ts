import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { BOARD_DICTIONARIES, type BoardDictionaryName } from '../camera/calibration-board.ts';
import { loadBoardSpec } from '../camera/calibration-files.ts';
import { DEFAULT_BOARD_SPEC } from '../camera/default-board.ts';
import { baseLabel, COMMON_BASES, parseBase } from '../print/base-sizes.ts';
import { parseIds } from '../print/layout.ts';
import { PAPER_NAMES, parsePaper } from '../print/paper.ts';
import { boardSheetPdf, markerSheetPdf, referenceSheetPdf } from '../print/sheets.ts';
import { DEFAULT_FIELD_COLOUR, matSheetPdf } from '../print/mat-sheet.ts';
import { matScenarioSnippet, parseLengthMm, parseTableSize } from '../print/mat.ts';
import { CliError } from './failure.ts';
import { MARKER_DICTIONARIES, type MarkerDictionaryName } from '../table/scenario.ts';
import { chooseDictionary, DICTIONARY_HELP, SCENARIO_HELP } from './print-dictionary.ts';

function dictionary(name: string): BoardDictionaryName {
  if (!(MARKER_DICTIONARIES as readonly string[]).includes(name)) {
    throw new CliError(`unknown marker dictionary "${name}": use one of ${MARKER_DICTIONARIES.join(', ')}`);
  }
  if (!(BOARD_DICTIONARIES as readonly string[]).includes(name))
    throw new CliError(`dictionary "${name}" cannot be printed: use one of ${BOARD_DICTIONARIES.join(', ')}`);
  return name as BoardDictionaryName;
}

/** Below this a base marker is too small for a camera over a whole table to read (docs/markers.md). */
export const SMALLEST_READABLE_MARKER_MM = 15;
/** The reference markers' ids when printed with the defaults (`print reference`). */
export const DEFAULT_REFERENCE_IDS = [0, 1, 2, 3] as const;

/** Warnings a player should see before printing a sheet they cannot use. */
export function markerWarnings(ids: readonly number[], markerMm: number): string[] {
  const out: string[] = [];
  if (markerMm < SMALLEST_READABLE_MARKER_MM)
    out.push(
      `warning: ${markerMm} mm markers are too small for a camera over a whole table (at 1080p a 72 in table gives about 1 mm per pixel): use ${SMALLEST_READABLE_MARKER_MM} mm or more, see docs/markers.md`,
    );
  const reserved = ids.filter((id) => (DEFAULT_REFERENCE_IDS as readonly number[]).includes(id));
  if (reserved.length)
    out.push(
      `warning: id${reserved.length > 1 ? 's' : ''} ${reserved.join(', ')} ${reserved.length > 1 ? 'are' : 'is'} the reference markers' (vedette print reference): number base markers from ${DEFAULT_REFERENCE_IDS.length} up`,
    );
  return out;
}

/** A table size that says its unit: "6x4" alone would be read as millimetres. */
function tableSize(text: string): { widthMm: number; depthMm: number } {
  if (/^\s*\d+(?:\.\d+)?\s*[x×]\s*\d+(?:\.\d+)?\s*$/.test(text))
    throw new CliError(
      `--table ${text} has no unit: write ${text.trim()}ft, ${text.trim()}in or ${text.trim()}cm (or mm)`,
    );
  return parseTableSize(text);
}

/** A scenario marker dictionary that can also be printed (all four of them can). */
function scenarioDictionary(name: string): MarkerDictionaryName & BoardDictionaryName {
  const d = dictionary(name);
  return d as MarkerDictionaryName & BoardDictionaryName;
}

/** The family to print in (print-dictionary.ts), said on the console with where it came from. */
function familyFor(f: { dictionary?: string; scenario?: string }): string {
  const chosen = chooseDictionary(f);
  if (chosen.warning) console.warn(chosen.warning);
  console.log(`Marker family: ${chosen.name} (${chosen.from}).`);
  return chosen.name;
}

function positive(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new CliError(`${flag} must be a positive number, not "${text}"`);
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
 * `vedette print markers|reference|mat|board`: PDFs at exact physical scale for A4 or US Letter
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
    .option('--dictionary <name>', DICTIONARY_HELP)
    .option('--scenario <file>', SCENARIO_HELP)
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
        dictionary?: string;
        scenario?: string;
        markerSize?: string;
        paper: string;
        out?: string;
      }) => {
        const base = parseBase(f.base);
        const ids = parseIds(f.ids);
        const family = familyFor(f);
        const r = await markerSheetPdf({
          dictionary: dictionary(family),
          ids,
          base,
          paper: parsePaper(f.paper),
          ...(f.markerSize ? { markerMm: positive(f.markerSize, '--marker-size') } : {}),
        });
        for (const w of markerWarnings(ids, r.markerMm)) console.warn(w);
        const pages = new Set(r.placed.map((p) => p.page)).size;
        const out = f.out ?? `vedette-markers-${f.base}-${ids[0]}-${ids.at(-1)}.pdf`;
        await save(
          out,
          r.pdf,
          `${ids.length} ${family} markers of ${r.markerMm} mm for ${baseLabel(base)} bases on ${pages} page(s)`,
        );
      },
    );

  print
    .command('reference')
    .description('table reference markers (the corners of the table), large, with a cut square round each')
    .option('--ids <list>', 'marker ids', '0-3')
    .option('--size <mm>', 'marker side, black edge to black edge', '80')
    .option('--per-page <n>', 'at most this many per page (default: as many as fit)')
    .option('--dictionary <name>', DICTIONARY_HELP)
    .option('--scenario <file>', SCENARIO_HELP)
    .option('--paper <name>', `paper: ${PAPER_NAMES.join(', ')}`, 'a4')
    .option('-o, --out <file.pdf>', 'output file', 'vedette-reference-markers.pdf')
    .action(
      async (f: {
        ids: string;
        size: string;
        perPage?: string;
        dictionary?: string;
        scenario?: string;
        paper: string;
        out: string;
      }) => {
        const ids = parseIds(f.ids);
        const sizeMm = positive(f.size, '--size');
        const family = familyFor(f);
        const r = await referenceSheetPdf({
          dictionary: dictionary(family),
          ids,
          sizeMm,
          paper: parsePaper(f.paper),
          ...(f.perPage ? { perPage: Math.floor(positive(f.perPage, '--per-page')) } : {}),
        });
        const pages = new Set(r.placed.map((p) => p.page)).size;
        await save(
          f.out,
          r.pdf,
          `${ids.length} ${family} reference markers of ${sizeMm} mm on ${pages} page(s)`,
        );
      },
    );

  print
    .command('mat')
    .description(
      'a full-size gaming mat (one page the size of the table, for a print shop) with reference markers round its border',
    )
    .requiredOption('--table <size>', 'table size, width x depth with a unit: 72x48in, 6x4ft, 180x120cm')
    .option(
      '--marker-size <length>',
      'marker side, black edge to black edge (mm unless a unit is given)',
      '60',
    )
    .option('--spacing <length>', 'largest gap between neighbouring border markers, centre to centre', '12in')
    .option(
      '--interior <length>',
      'also a sparse grid of markers inside the border at this spacing (default none)',
    )
    .option('--dictionary <name>', DICTIONARY_HELP)
    .option('--scenario <file>', SCENARIO_HELP)
    .option(
      '--first-id <n>',
      'id of the first mat marker (the origin corner); the rest count up from it',
      '0',
    )
    .option('--field <colour>', 'colour of the field, e.g. #9aa57f or white', DEFAULT_FIELD_COLOUR)
    .option('-o, --out <file.pdf>', 'output file', 'vedette-mat.pdf')
    .option(
      '--scenario-snippet <file.json>',
      'write the matching scenario fields (table, referenceMarkers, mm) here instead of printing them',
    )
    .action(
      async (f: {
        table: string;
        markerSize: string;
        spacing: string;
        interior?: string;
        dictionary?: string;
        scenario?: string;
        firstId: string;
        field: string;
        out: string;
        scenarioSnippet?: string;
      }) => {
        const firstId = Number(f.firstId);
        if (!Number.isInteger(firstId) || firstId < 0)
          throw new CliError(`--first-id must be a whole number ≥ 0, not "${f.firstId}"`);
        const dict = scenarioDictionary(familyFor(f));
        const r = await matSheetPdf({
          table: tableSize(f.table),
          markerMm: parseLengthMm(f.markerSize, '--marker-size'),
          spacingMm: parseLengthMm(f.spacing, '--spacing'),
          ...(f.interior ? { interiorSpacingMm: parseLengthMm(f.interior, '--interior') } : {}),
          dictionary: dict,
          firstId,
          fieldColour: f.field,
        });
        const ids = r.layout.markers.map((m) => m.id);
        const { widthMm: W, depthMm: D } = r.layout.table;
        await writeFile(f.out, r.pdf);
        console.log(
          `Wrote ${f.out}: one ${W.toFixed(1)} × ${D.toFixed(1)} mm page, ${ids.length} ${dict} reference markers ` +
            `of ${r.layout.markerMm} mm, ids ${ids[0]}–${ids.at(-1)}.`,
        );
        console.log(
          `Base markers must not use ids ${ids[0]}–${ids.at(-1)}: number your bases from ${ids.at(-1)! + 1} up.`,
        );
        console.log(
          'Have it printed at 100 % (no "fit to media"), then measure the scale bar in the near-left corner.',
        );
        const snippet = `${JSON.stringify(matScenarioSnippet(r.layout, dict), null, 2)}\n`;
        if (f.scenarioSnippet) {
          await writeFile(f.scenarioSnippet, snippet);
          console.log(
            `Wrote ${f.scenarioSnippet}: put its lengthUnit, markerDictionary, table and referenceMarkers in your scenario.`,
          );
        } else {
          console.log('Scenario fields for this mat (millimetres):');
          process.stdout.write(snippet);
        }
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
