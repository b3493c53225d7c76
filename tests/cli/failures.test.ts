import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editDistance } from '../../src/cli/failure.ts';

/**
 * Issue 16, point 8: every way the command was seen to fail badly now fails with one line that
 * names the thing and what to do, a non-zero exit status and no stack trace (the stack only with
 * --debug). Each case runs the real `vedette` from a folder outside the repository, as a user
 * who installed it would.
 */

const BIN = resolve('bin/vedette.js');
const DEMO = resolve('scenarios/prestonpans-demo.json');
const here = mkdtempSync(join(tmpdir(), 'vedette-cli-failures-'));

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function vedette(...args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile('node', [BIN, ...args], { cwd: here, timeout: 150_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      done({ code, stdout, stderr: stderr.replace(/^npm warn.*\n/gm, '') });
    });
  });
}

/** One line on stderr, beginning "vedette: ", no stack. */
function oneLine(r: Run): string {
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(r.stderr).not.toMatch(/^\s+at /m);
  expect(lines[0]).toMatch(/^vedette: /);
  return lines[0]!;
}

describe('the command explains its failures', { timeout: 200_000 }, () => {
  let taken: Server;
  let port = 0;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    port = (taken.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => taken.close(() => r())));

  it('a port already in use', async () => {
    const r = await vedette('serve', '--port', String(port), '--scenario', DEMO);
    expect(r.code).toBe(1);
    expect(oneLine(r)).toBe(
      `vedette: port ${port} is already in use (another Vedette or another server?): stop it, or choose another with --port`,
    );
  });

  it('a port that is not a number', async () => {
    const r = await vedette('serve', '--port', 'abc');
    expect(r.code).toBe(2);
    expect(oneLine(r)).toBe('vedette: --port must be a whole number from 1 to 65535, not "abc"');
  });

  it('serve --images with a missing file does not retry for ever', async () => {
    const r = await vedette('serve', '--images', 'missing.png', '--scenario', DEMO);
    expect(r.code).toBe(2);
    expect(oneLine(r)).toMatch(/--images: image missing\.png not found/);
  });

  it('measure names the missing image, not a camera profile, outside the repository', async () => {
    const r = await vedette('measure', 'nope.png', '--scenario', DEMO);
    expect(r.code).toBe(2);
    expect(oneLine(r)).toMatch(/^vedette: image nope\.png not found/);
  });

  it('a missing scenario file is named, with the option it came from', async () => {
    const r = await vedette('serve', '--scenario', 'missing.json');
    expect(r.code).toBe(2);
    expect(oneLine(r)).toMatch(/--scenario: scenario file missing\.json not found/);
    const rules = await vedette('rules', 'missing.json', '--ask', "can 'a' shoot 'b'?");
    expect(rules.code).toBe(2);
    expect(oneLine(rules)).toMatch(/missing\.json not found/);
  });

  it('a misspelt command gets a "did you mean"', async () => {
    const r = await vedette('serv');
    expect(r.code).toBe(2);
    expect(oneLine(r)).toBe('vedette: unknown command "serv": did you mean "vedette serve"?');
    const t = await vedette('tabel');
    expect(oneLine(t)).toBe('vedette: unknown command "tabel": did you mean "vedette hub tables"?');
    expect(editDistance('tabel', 'table')).toBe(1);
  });

  it('a table size without a unit is refused, not read as millimetres', async () => {
    const r = await vedette('print', 'mat', '--table', '6x4', '-o', 'mat.pdf');
    expect(r.code).toBe(2);
    expect(oneLine(r)).toBe('vedette: --table 6x4 has no unit: write 6x4ft, 6x4in or 6x4cm (or mm)');
  });

  it('an unknown command with --help is an error, not a help page', async () => {
    const r = await vedette('nonsense', '--help');
    expect(r.code).toBe(2);
    expect(oneLine(r)).toMatch(/^vedette: unknown command "nonsense": the commands are: serve, measure/);
    expect(r.stdout).toBe('');
  });

  it('warns about markers too small to be read and ids the reference markers use', async () => {
    const r = await vedette(
      'print',
      'markers',
      '--base',
      '25x25',
      '--ids',
      '0-5',
      '--marker-size',
      '10',
      '-o',
      'm.pdf',
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: 10 mm markers are too small/);
    expect(r.stderr).toMatch(/warning: ids 0, 1, 2, 3 are the reference markers'/);
    const fine = await vedette('print', 'markers', '--base', '25x25', '--ids', '10-12', '-o', 'ok.pdf');
    expect(fine.stderr).toBe('');
  });

  it('"table pose not found" says how many reference markers were seen and what to do', async () => {
    const blank = join(here, 'blank.png');
    await sharp({ create: { width: 1920, height: 1080, channels: 3, background: '#3a612f' } })
      .png()
      .toFile(blank);
    const r = await vedette('measure', blank, '--scenario', DEMO);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toMatch(
      /Table pose not found: 0 of 4 reference markers seen, not 0, 1, 2, 3, and three that agree are needed\. Nothing was measured: bring the table corners into the picture/,
    );
    expect(oneLine(r)).toMatch(/the table pose was not found in the image/);
  });

  it('--debug adds the stack trace', async () => {
    const r = await vedette('--debug', 'serve', '--port', 'abc');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^vedette: --port must be a whole number/);
    expect(r.stderr).toMatch(/^\s+at /m);
  });
});
