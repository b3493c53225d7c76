import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplayServer, type RunningReplayServer } from '../../src/server/battle-routes.ts';
import type {} from '../../web/src/replay/test-hook.ts';
import {
  ARTIFACTS,
  launchChromium,
  prepareBrowserRun,
  ROOT,
  skipWithoutChromium,
  watchedPage,
} from './browser-harness.ts';
import { BATTLE_MS, recordLongBattle, type LongBattle } from './long-battle.ts';

/**
 * Issue 16, point 1: the replay reaches every moment of a long battle. A three-hour battle is
 * recorded with known poses (long-battle.ts); the timeline slider is moved the way a player moves
 * it (keyboard, click, and its value) to 10 %, 50 % and 100 %, and the clock and every base drawn
 * are checked against the record's truth. At 0:00:00 the table is not empty; rulings read in unit
 * names, and the list filters by unit and by kind.
 */

const WAIT = { timeout: 60_000, polling: 50 } as const;

/** "1:02:03" for ms, as the page writes it. */
function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

describe.skipIf(skipWithoutChromium('the long-replay browser test'))(
  'replay of a three-hour battle',
  { timeout: 180_000 },
  () => {
    let browser: Browser | undefined;
    let server: RunningReplayServer | undefined;
    let page: Page;
    let battle: LongBattle;
    const errors: string[] = [];
    const dataDir = mkdtempSync(join(tmpdir(), 'vedette-long-replay-'));

    beforeAll(async () => {
      prepareBrowserRun();
      battle = await recordLongBattle(dataDir);
      server = await startReplayServer({
        dataDir,
        port: 0,
        host: '127.0.0.1',
        webRoot: join(ROOT, 'web/dist'),
      });
      browser = await launchChromium();
      page = await watchedPage(browser, errors, { viewport: { width: 1400, height: 860 } }, false);
      await page.goto(`${server.url}/replay.html?battle=${battle.battleId}`);
      await page.waitForFunction(() => window.__vedetteReplay?.ready === true, undefined, WAIT);
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      rmSync(dataDir, { recursive: true, force: true });
    }, 60_000);

    /** The moment drawn, the clock and every unit's bases as drawn now. */
    async function drawn() {
      return page.evaluate(
        (ids) => {
          const hook = window.__vedetteReplay!;
          return {
            at: hook.drawnAt!,
            clock: hook.clock,
            units: Object.fromEntries(ids.map((id) => [id, hook.basesOf(id)])),
          };
        },
        battle.scenario.units.map((u) => u.id),
      );
    }

    /** Worst distance between a drawn base and the truth at t (mm); every base must be drawn. */
    function worst(
      units: Record<string, ReadonlyArray<{ markerId: number; x: number; y: number }> | null>,
      t: number,
    ): number {
      const truth = battle.truthAt(t);
      let worstMm = 0;
      let count = 0;
      for (const u of battle.scenario.units) {
        const bases = units[u.id];
        expect(bases, `${u.id} drawn`).not.toBeNull();
        for (const b of bases!) {
          const p = truth.get(b.markerId)!;
          worstMm = Math.max(worstMm, Math.hypot(b.x - p.x, b.y - p.y));
          count++;
        }
      }
      expect(count).toBe(truth.size);
      return worstMm;
    }

    it('scrubs to 10 %, 50 % and 100 % and shows the clock and the poses of those moments', async () => {
      const slider = page.locator('#scrub');
      const max = Number(await slider.getAttribute('max'));
      for (const f of [0.1, 0.5, 1]) {
        await slider.fill(String(Math.round(f * max)));
        const want = battle.startedAt + f * BATTLE_MS;
        await page.waitForFunction(
          (t) => Math.abs((window.__vedetteReplay?.drawnAt ?? 0) - t) < 2000,
          want,
          WAIT,
        );
        const d = await drawn();
        const err = worst(d.units, d.at);
        console.log(
          `slider at ${f * 100} %: ${d.clock}, drawn at +${((d.at - battle.startedAt) / 1000).toFixed(1)} s, bases within ${err.toFixed(2)} mm of the record`,
        );
        expect(d.clock).toBe(`${clock(d.at - battle.startedAt)} / ${clock(BATTLE_MS)}`);
        expect(Math.abs(d.at - want)).toBeLessThanOrEqual(BATTLE_MS / max);
        expect(err).toBeLessThanOrEqual(1);
        if (f === 0.5) await page.screenshot({ path: join(ARTIFACTS, 'replay-long-half.png') });
      }
      // The keyboard reaches both ends; a click in the middle of the track lands in the middle.
      await slider.focus();
      await page.keyboard.press('Home');
      await page.waitForFunction((t) => window.__vedetteReplay?.drawnAt === t, battle.startedAt, WAIT);
      await page.keyboard.press('End');
      await page.waitForFunction(
        (t) => window.__vedetteReplay?.drawnAt === t,
        battle.startedAt + BATTLE_MS,
        WAIT,
      );
      const box = (await slider.boundingBox())!;
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      const middle = { t: battle.startedAt + BATTLE_MS / 2, slack: BATTLE_MS * 0.03 };
      await page.waitForFunction(
        (m) => Math.abs((window.__vedetteReplay?.drawnAt ?? 0) - m.t) < m.slack,
        middle,
        WAIT,
      );
      expect(errors).toEqual([]);
    });

    it('shows every unit at 0:00:00, where the battle began', async () => {
      await page.evaluate((t) => window.__vedetteReplay!.seek(t), battle.startedAt);
      await page.waitForFunction((t) => window.__vedetteReplay?.drawnAt === t, battle.startedAt, WAIT);
      const d = await drawn();
      expect(d.clock.startsWith('0:00:00')).toBe(true);
      expect(worst(d.units, battle.startedAt)).toBeLessThanOrEqual(1);
      await page.screenshot({ path: join(ARTIFACTS, 'replay-long-start.png') });
    });

    it('lists rulings in unit names and filters them by unit and by kind', async () => {
      const text = await page.locator('#rulings').innerText();
      console.log(`rulings:\n${text}`);
      expect(text).toMatch(/distance from Lee's to Murray's/);
      expect(text).toMatch(/distance from Camerons to Gardiner's Dragoons/);
      expect(text).not.toMatch(/\b(lees|murrays|gardiners)\b/);
      const listed = () => page.evaluate(() => window.__vedetteReplay!.listedRulings.length);
      expect(await listed()).toBe(battle.rulings.length);
      await page.selectOption('#ruling-unit', 'camerons');
      expect(await listed()).toBe(battle.rulings.filter((r) => r.units.includes('camerons')).length);
      await page.selectOption('#ruling-kind', 'distance');
      expect(await listed()).toBe(
        battle.rulings.filter((r) => r.units.includes('camerons') && r.kind === 'distance').length,
      );
      await page.selectOption('#ruling-unit', '');
      expect(await listed()).toBe(battle.rulings.filter((r) => r.kind === 'distance').length);
      await page.selectOption('#ruling-kind', '');
      // A ruling's button takes the replay to its moment.
      await page.locator('#rulings button').first().click();
      await page.waitForFunction(
        (t) => window.__vedetteReplay?.drawnAt === t,
        battle.startedAt + 30 * 60_000,
        WAIT,
      );
      expect(errors).toEqual([]);
    });
  },
);
