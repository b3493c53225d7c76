/**
 * What the live page shows in a real browser: frames drawn per second by headless Chromium
 * (Debian's `chromium`) on the table `npm start` watches (the synthetic demo, its unit walking),
 * per window size. Each window size is run twice, alternately, in the same process against a fresh
 * server each time: the picture at the page's size (as shipped: the page's `view` message) and at
 * the camera's full size (that message kept in the page). The page talks to the server directly
 * either way.
 *
 *   npm run bench -- page [--seconds 10] [--warmup 6] [--rounds 2] [--sizes 1366x820,1920x1080,390x844@3]
 *
 * Prints, per run: frames the page drew per second (what its status line shows), the server's
 * processed fps over the same window (/api/status), the picture's size and the canvas's width.
 * It never fails on a figure.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, measurePage, parseSizes, type Run } from './page-measure.ts';

const ROOT = join(import.meta.dirname, '..');

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '6' },
      rounds: { type: 'string', default: '2' },
      sizes: { type: 'string', default: '1366x820,1920x1080,390x844@3' },
    },
  });
  if (!existsSync(CHROMIUM)) {
    console.error(
      `*** ${CHROMIUM} is missing (apt-get install chromium): the page benchmark cannot run. ***`,
    );
    process.exit(1);
  }
  if (!existsSync(join(ROOT, 'web/dist/index.html'))) {
    console.error('web/dist is not built: run `npm run build:web` first.');
    process.exit(1);
  }
  const o = { seconds: Number(values.seconds), warmup: Number(values.warmup) };
  const sizes = parseSizes(values.sizes);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
  });
  const runs: Run[] = [];
  try {
    for (let round = 0; round < Number(values.rounds); round++) {
      for (const size of sizes) {
        // Alternate which goes first, so neither always meets a warmer machine.
        const order: Array<Run['picture']> = round % 2 === 0 ? ['page size', 'full'] : ['full', 'page size'];
        for (const picture of order) {
          const run = await measurePage(browser, size, picture, o);
          runs.push(run);
          console.log(
            `${size.label.padEnd(12)} ${picture.padEnd(9)} page ${run.pageFps.toFixed(1)} fps, server ${run.serverFps.toFixed(1)} fps, picture ${run.pictureWidth}×${run.pictureHeight}, canvas ${run.canvasWidth} px`,
          );
        }
      }
    }
  } finally {
    await browser.close();
  }
  console.log('\n| window | picture | page fps (status line) | server processed fps | picture | canvas px |');
  console.log('|---|---|---|---|---|---|');
  for (const r of runs)
    console.log(
      `| ${r.size.label} | ${r.picture} | ${r.pageFps.toFixed(1)} | ${r.serverFps.toFixed(1)} | ${r.pictureWidth}×${r.pictureHeight} | ${r.canvasWidth} |`,
    );
}

await main();
