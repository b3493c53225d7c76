import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/app.ts';
import { gapBetween, overlaps } from '../../web/src/core/label-layout.ts';
import { outlineContrast, strokeColours, TACTICAL_CLOTH } from '../../web/src/render/palette.ts';
import type {} from '../../web/src/live/test-hook.ts';
import type {} from '../../web/src/replay/test-hook.ts';
import {
  ARTIFACTS,
  launchChromium,
  prepareBrowserRun,
  ROOT,
  skipWithoutChromium,
  startWebServer,
  WAIT,
  waitForFrames,
  watchedPage,
} from './browser-harness.ts';
import { recordLongBattle, type LongBattle } from './long-battle.ts';

/**
 * Issue 16 at the table, in Chromium against one live server (the Black Powder sample on the
 * synthetic camera, recording into a folder that already holds a three-hour battle):
 * every page on phones (no sideways scroll at 360–430 px, 44 px touch targets, the answer card in
 * view), labels beside their units without overlap, axe-core on every page, the keyboard path
 * (ARIA tabs, the unit list), only applicable questions, the ruleset's own unit (cm for O'er the
 * Sea), options and settings in the rules' words, terrain edits with progress, and an answer that
 * goes stale when its units move. One file so that one synthetic camera serves all of it.
 */

const PHONES = [360, 390, 430].map((width) => ({ width, height: 800 }));
const phone = (viewport: { width: number; height: number }): BrowserContextOptions => ({
  viewport,
  deviceScaleFactor: 2,
  hasTouch: true,
  isMobile: true,
});
const DESKTOP: BrowserContextOptions = { viewport: { width: 1400, height: 860 } };
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Page paths with what to do once there, so that every page and every tab is looked at. */
const TABS = ['referee', 'roster', 'terrain', 'scenario', 'calibrate'] as const;

async function openTab(page: Page, tab: string): Promise<void> {
  await page.click(`[role="tab"][data-tab="${tab}"]`);
  await page.waitForFunction(
    (t) => document.querySelector(`[data-panel="${t}"]`)?.hasAttribute('hidden') === false,
    tab,
    WAIT,
  );
}

/** Whether the page scrolls sideways (its content is wider than the screen). */
function sideways(page: Page) {
  return page.evaluate(() => ({
    scrollWidth: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
    width: window.innerWidth,
  }));
}

/** Visible controls smaller than 44 × 44 CSS px (a checkbox counts by its label). */
function smallTargets(page: Page) {
  return page.evaluate(() => {
    const out: string[] = [];
    const all = document.querySelectorAll<HTMLElement>(
      'a[href], button, select, input, summary, [role="tab"]',
    );
    for (const el of all) {
      if (el.closest('[hidden]') || el.offsetParent === null) continue;
      const details = el.closest('details');
      if (details && !details.open && el.tagName !== 'SUMMARY') continue;
      const box =
        el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')
          ? (el.closest('label') ?? el)
          : el;
      const r = box.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.height < 44 - 0.5 || r.width < 44 - 0.5)
        out.push(
          `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.textContent ?? '').trim().slice(0, 24)}" ${r.width.toFixed(0)}×${r.height.toFixed(0)}`,
        );
    }
    return out;
  });
}

/**
 * Links of the page's top bar whose words overflow their own box or lie over a neighbour's (on a
 * phone the bar scrolls sideways; a link squeezed narrower than its words overlaps the next one).
 */
function crowdedNav(page: Page) {
  return page.evaluate(() => {
    const links = [...document.querySelectorAll<HTMLElement>('.site-nav a')].filter(
      (a) => a.offsetParent !== null,
    );
    const out: string[] = [];
    const boxes = links.map((a) => a.getBoundingClientRect());
    links.forEach((a, i) => {
      const name = (a.textContent ?? '').trim();
      if (a.scrollWidth > a.clientWidth + 1)
        out.push(`"${name}" is ${a.clientWidth} px for ${a.scrollWidth} px of words`);
      const next = boxes[i + 1];
      const box = boxes[i]!;
      if (next && next.top < box.bottom - 1 && next.left < box.right - 1)
        out.push(`"${name}" and "${(links[i + 1]!.textContent ?? '').trim()}" overlap`);
    });
    return out;
  });
}

/** axe-core's serious and critical violations on the page as it is now. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            ctx: Document,
            o: object,
          ): Promise<{
            violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[] }> }>;
          }>;
        };
      }
    ).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.impact} ${v.id}: ${v.nodes
            .map((n) => JSON.stringify(n.target))
            .slice(0, 3)
            .join(', ')}`,
      );
  });
}

async function pick(page: Page, ...ids: string[]): Promise<void> {
  await page.keyboard.press('Escape');
  for (const id of ids) await page.click(`#unit-list [data-unit="${id}"]`);
  await page.waitForFunction((want) => window.__vedette?.selection.join() === want.join(), ids, WAIT);
}

async function ask(page: Page, question: string): Promise<void> {
  const before = await page.evaluate(() => window.__vedette?.answer ?? null);
  await page.click(`button.ask[data-question="${question}"]`);
  await page.waitForFunction(
    (prev) => {
      const a = window.__vedette?.answer;
      return !!a && a !== prev && document.querySelector('#verdict')?.getAttribute('aria-busy') !== 'true';
    },
    before,
    WAIT,
  );
}

const skip = skipWithoutChromium('the table-side browser tests');

describe.skipIf(skip)('the table-side experience', { timeout: 600_000 }, () => {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let desk: Page;
  let battle: LongBattle;
  const errors: string[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'vedette-table-side-'));
  const scenariosDir = mkdtempSync(join(tmpdir(), 'vedette-table-side-scenarios-'));

  beforeAll(async () => {
    prepareBrowserRun();
    battle = await recordLongBattle(dataDir);
    browser = await launchChromium();
    desk = await watchedPage(browser, errors, DESKTOP);
    server = await startWebServer({
      scenarioPath: join(ROOT, 'scenarios/black-powder-sample.json'),
      scenariosDir,
      record: { dataDir },
    });
    await desk.goto(server.url);
    await waitForFrames(desk, WAIT);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(scenariosDir, { recursive: true, force: true });
  }, 60_000);

  const pages = () => [
    { name: 'live', path: '/' },
    { name: 'replay-list', path: '/replay.html' },
    { name: 'replay', path: `/replay.html?battle=${battle.battleId}` },
    { name: 'overlay', path: '/overlay.html' },
    { name: 'print', path: '/print.html' },
  ];

  async function ready(page: Page, name: string): Promise<void> {
    if (name === 'live') await waitForFrames(page, WAIT);
    else if (name === 'replay')
      await page.waitForFunction(() => window.__vedetteReplay?.ready === true, undefined, WAIT);
    else if (name === 'print') await page.waitForSelector('.sheet', WAIT);
    else if (name === 'replay-list') await page.waitForSelector('.battles li', WAIT);
    else await page.waitForTimeout(500);
  }

  it("no page is wider than a phone (360–430 px), every control is a 44 px target, the top bar's links side by side", async () => {
    const report: string[] = [];
    for (const viewport of PHONES) {
      const page = await watchedPage(browser!, errors, phone(viewport));
      for (const p of pages()) {
        await page.goto(`${server!.url}${p.path}`);
        await ready(page, p.name);
        const views = p.name === 'live' ? TABS : ([''] as const);
        for (const tab of views) {
          if (tab) await openTab(page, tab);
          const w = await sideways(page);
          const small = await smallTargets(page);
          report.push(
            `${viewport.width} px ${p.name}${tab ? `/${tab}` : ''}: scrollWidth ${w.scrollWidth}, small targets ${small.length}`,
          );
          // Against the phone's own width: a mobile browser widens its layout viewport (and
          // innerWidth) to fit content that overflows, so innerWidth alone would hide it.
          expect(w.scrollWidth, `${p.name} ${tab} at ${viewport.width} px`).toBeLessThanOrEqual(
            viewport.width,
          );
          expect(w.width, `${p.name} ${tab} at ${viewport.width} px`).toBe(viewport.width);
          expect(small, `${p.name} ${tab} at ${viewport.width} px`).toEqual([]);
          expect(await crowdedNav(page), `${p.name} ${tab} at ${viewport.width} px`).toEqual([]);
          if (viewport.width === 390)
            await page.screenshot({
              path: join(ARTIFACTS, `phone-390-${p.name}${tab ? `-${tab}` : ''}.png`),
              fullPage: true,
            });
        }
      }
      await page.context().close();
    }
    console.log(report.join('\n'));
    for (const p of pages()) {
      await desk.goto(`${server!.url}${p.path}`);
      await ready(desk, p.name);
      await desk.screenshot({ path: join(ARTIFACTS, `desktop-${p.name}.png`) });
    }
  });

  it('on a phone the answer card is in view, not under anything, after asking', async () => {
    const page = await watchedPage(browser!, errors, phone({ width: 390, height: 844 }));
    await page.goto(server!.url);
    await waitForFrames(page, WAIT);
    for (const id of ['lees', 'camerons']) await page.tap(`#unit-list [data-unit="${id}"]`);
    await page.waitForFunction(() => window.__vedette?.selection.length === 2, undefined, WAIT);
    await page.tap('button.ask[data-question="shoot"]');
    await page.waitForFunction(() => window.__vedette?.answer?.verdict.question === 'shoot', undefined, WAIT);
    await page.waitForTimeout(400); // the scroll into view
    const seen = await page.evaluate(() => {
      const card = document.querySelector<HTMLElement>('#verdict')!;
      const head = card.querySelector('h2')!.getBoundingClientRect();
      const r = card.getBoundingClientRect();
      const hit = document.elementFromPoint(head.left + head.width / 2, head.top + head.height / 2);
      return {
        top: r.top,
        headBottom: head.bottom,
        height: window.innerHeight,
        onTop: !!hit && card.contains(hit),
      };
    });
    await page.screenshot({ path: join(ARTIFACTS, 'phone-answer-card.png') });
    console.log(`phone answer card: ${JSON.stringify(seen)}`);
    expect(seen.top).toBeGreaterThanOrEqual(0);
    expect(seen.headBottom).toBeLessThanOrEqual(seen.height);
    expect(seen.onTop).toBe(true);
    await page.context().close();
  });

  it('unit names sit next to their units and never on top of each other (desktop and phone)', async () => {
    for (const [name, ctx] of [
      ['desktop', DESKTOP],
      ['phone', phone({ width: 390, height: 844 })],
    ] as const) {
      const page = await watchedPage(browser!, errors, ctx);
      await page.goto(server!.url);
      await waitForFrames(page, WAIT);
      for (const layout of ['live', 'tactical'] as const) {
        await page.click(`.layout-switch [data-layout="${layout}"]`);
        await page.waitForTimeout(400);
        const labels = await page.evaluate(() => window.__vedette!.unitLabels);
        const placed = labels.filter((l) => l.rect !== null);
        for (const [i, a] of placed.entries()) {
          expect(gapBetween(a.rect!, a.around), `${a.id} ${name} ${layout}`).toBeLessThanOrEqual(
            1.5 * a.rect!.h + 0.5,
          );
          for (const b of placed.slice(i + 1))
            expect(overlaps(a.rect!, b.rect!), `${a.id} / ${b.id}`).toBe(false);
        }
        console.log(
          `${name} ${layout}: ${placed.length} of ${labels.length} units labelled (${labels
            .filter((l) => l.text && l.rect && !labels.some(() => false))
            .map((l) => l.text)
            .join(', ')})`,
        );
        expect(placed.length).toBeGreaterThanOrEqual(
          Math.ceil(labels.length * (name === 'desktop' ? 1 : 0.75)),
        );
        await page.screenshot({ path: join(ARTIFACTS, `labels-${name}-${layout}.png`) });
      }
      await page.context().close();
    }
  });

  it('overlay outlines stand out 3:1 on the cloth the camera sees and on the tactical cloth', async () => {
    // The cloth as it comes out of the camera: the median colour of the middle of the picture.
    await desk.goto(server!.url);
    await waitForFrames(desk, WAIT);
    const cloth = await desk.evaluate(() => {
      const c = document.querySelector<HTMLCanvasElement>('#view')!;
      const d = c
        .getContext('2d')!
        .getImageData(c.width * 0.3, c.height * 0.4, c.width * 0.4, c.height * 0.2).data;
      const ch = (k: number) => {
        const v: number[] = [];
        for (let i = k; i < d.length; i += 4 * 7) v.push(d[i]!);
        return v.sort((a, b) => a - b)[v.length >> 1]!;
      };
      return `#${[0, 1, 2].map((k) => ch(k).toString(16).padStart(2, '0')).join('')}`;
    });
    for (const bg of [cloth, TACTICAL_CLOTH]) {
      for (const s of strokeColours()) {
        const c = outlineContrast(s.colour, bg);
        expect(c.onCloth, `${s.what} on ${bg}`).toBeGreaterThanOrEqual(3);
        expect(c.onHalo, `${s.what} on its halo`).toBeGreaterThanOrEqual(3);
      }
    }
    console.log(`cloth seen by the camera ${cloth}; every stroke ≥ 3:1 with its halo`);
  });

  it('axe-core finds no serious or critical problem on any page', async () => {
    const found: string[] = [];
    for (const p of pages()) {
      await desk.goto(`${server!.url}${p.path}`);
      await ready(desk, p.name);
      if (p.name === 'live') {
        for (const tab of TABS) {
          await openTab(desk, tab);
          found.push(...(await axeViolations(desk)).map((v) => `live/${tab}: ${v}`));
        }
        await openTab(desk, 'referee');
        await pick(desk, 'lees', 'camerons');
        await ask(desk, 'shoot');
        await desk.click('#verdict-settings summary').catch(() => undefined);
        await desk.click('.options summary');
        found.push(...(await axeViolations(desk)).map((v) => `live with an answer: ${v}`));
        await desk.click('.options summary');
      } else found.push(...(await axeViolations(desk)).map((v) => `${p.name}: ${v}`));
    }
    console.log(found.length ? found.join('\n') : 'axe: 0 serious or critical violations on every page');
    expect(found).toEqual([]);
  });

  it('works from the keyboard: arrow keys move between tabs, the unit list picks A and B', async () => {
    await desk.goto(server!.url);
    await waitForFrames(desk, WAIT);
    await desk.focus('[role="tab"][data-tab="referee"]');
    await desk.keyboard.press('ArrowRight');
    const state = () =>
      desk.evaluate(() => ({
        focused: (document.activeElement as HTMLElement | null)?.dataset['tab'] ?? null,
        selected: document.querySelector('[role="tab"][aria-selected="true"]')?.getAttribute('data-tab'),
        panel: document.querySelector('[role="tabpanel"]:not([hidden])')?.getAttribute('aria-labelledby'),
      }));
    expect(await state()).toEqual({ focused: 'roster', selected: 'roster', panel: 'tab-roster' });
    await desk.keyboard.press('End');
    expect((await state()).selected).toBe('calibrate');
    await desk.keyboard.press('Home');
    expect(await state()).toEqual({ focused: 'referee', selected: 'referee', panel: 'tab-referee' });
    // Pick by keyboard: focus a unit's button, Enter; another, Space; ask with Enter.
    await desk.focus('#unit-list [data-unit="lees"]');
    await desk.keyboard.press('Enter');
    await desk.focus('#unit-list [data-unit="camerons"]');
    await desk.keyboard.press('Space');
    await desk.waitForFunction(() => window.__vedette?.selection.join() === 'lees,camerons', undefined, WAIT);
    expect(await desk.textContent('#unit-list [data-unit="lees"]')).toMatch(/picked as A/);
    await desk.focus('button.ask[data-question="see"]');
    await desk.keyboard.press('Enter');
    await desk.waitForFunction(() => window.__vedette?.answer?.verdict.question === 'see', undefined, WAIT);
  });

  it('offers only the questions that fit the pair, and says why the others are not', async () => {
    await desk.selectOption('#ruleset', 'black-powder');
    const offered = () =>
      desk.evaluate(() =>
        [...document.querySelectorAll<HTMLButtonElement>('button.ask')]
          .filter((b) => !b.hidden)
          .map((b) => b.dataset['question']),
      );
    await pick(desk, 'cope', 'lees');
    expect(await offered()).toEqual(['see', 'command']);
    expect(await desk.textContent('#not-offered')).toMatch(/Cope is a commander/);
    await pick(desk, 'lees', 'camerons');
    expect(await offered()).toEqual(['shoot', 'charge', 'see']);
    expect(await desk.textContent('#not-offered')).toMatch(/Lee's is not a commander/);
    await pick(desk, 'lees', 'murrays');
    expect(await offered()).toEqual(['see']);
    await desk.selectOption('#ruleset', 'oer-the-sea');
    await pick(desk, 'cope', 'lees');
    expect(await offered()).toEqual(['see']); // O'er the Sea has no rule for orders
  });

  it("speaks the ruleset's own unit everywhere: centimetres for O'er the Sea, zones included", async () => {
    await desk.selectOption('#ruleset', 'oer-the-sea');
    await pick(desk, 'lees', 'camerons');
    await desk.waitForFunction(
      () => document.querySelector('#measurement')?.getAttribute('data-valid') === 'true',
      undefined,
      WAIT,
    );
    expect(await desk.textContent('#measurement')).toMatch(
      /^edge to edge, nearest bases \d+\.\d\d cm ± \d\.\d\d$/,
    );
    expect(await desk.textContent('#zone-toggle-text')).toBe('30 cm zone (initiative)');
    await desk.check('[data-toggle="proximity"]');
    await ask(desk, 'shoot');
    const card = await desk.evaluate(() =>
      [...document.querySelectorAll('#verdict [data-number]')].map((n) => n.textContent ?? ''),
    );
    console.log(`O'er the Sea shoot card numbers: ${card.join(' | ')}`);
    for (const n of card) if (/\d/.test(n) && !/%|°/.test(n)) expect(n).toMatch(/ cm$/);
    expect(await desk.evaluate(() => window.__vedette!.overlayKinds)).toContain('proximity');
    await desk.screenshot({ path: join(ARTIFACTS, 'oer-the-sea-cm.png') });
    await desk.uncheck('[data-toggle="proximity"]');
  });

  it("labels options and names the settings an answer used in the rules' words, not identifiers", async () => {
    await desk.selectOption('#ruleset', 'black-powder');
    await desk.click('.options summary');
    const labels = await desk.evaluate(() =>
      [...document.querySelectorAll('#ruleset-options label > span, #ruleset-options option')].map(
        (e) => e.textContent ?? '',
      ),
    );
    const identifiers = labels.filter((l) => /\b[a-z]+[A-Z][A-Za-z]*\b/.test(l));
    expect(labels.length).toBeGreaterThan(20);
    expect(identifiers).toEqual([]);
    expect(labels).toContain('Where shooting and charge distances start.');
    await desk.click('.options summary');
    await pick(desk, 'lees', 'camerons');
    await ask(desk, 'shoot');
    const settings = await desk.textContent('#verdict-settings');
    expect(settings).toMatch(/Where shooting and charge distances start\./);
    expect(settings).not.toMatch(/rangeFrom|leaderBase/);
    const card = (await desk.textContent('#verdict')) ?? '';
    expect(card).not.toMatch(/frame \d+|value \d|as the rules measure it/);
    // D3: whatever the sight question says, the card says what blocks sight under the chosen setting.
    await desk.selectOption('#ruleset', 'd3');
    await ask(desk, 'see');
    expect(await desk.textContent('#verdict-settings')).toMatch(/What blocks a line of sight.*buildings/);
  });

  it('adds a wood at once with progress, and an answer meanwhile says the wood is not counted yet', async () => {
    await openTab(desk, 'terrain');
    await desk.selectOption('#terrain-kind', 'wood');
    await desk.fill('#terrain-name', 'Tranent Wood');
    await desk.click('#terrain-draw');
    await desk.waitForFunction(() => window.__vedette?.layout === 'split', undefined, WAIT);
    for (const [x, y] of [
      [450, 400],
      [780, 400],
      [780, 520],
      [450, 520],
    ] as const) {
      const p = await desk.evaluate(([px, py]) => window.__vedette!.tacticalScreenPoint(px, py), [
        x,
        y,
      ] as const);
      await desk.mouse.click(p.x, p.y);
    }
    // A question while the wood is being drawn is answered with the terrain on the table, and says so.
    await openTab(desk, 'referee');
    await desk.selectOption('#ruleset', 'black-powder');
    await pick(desk, 'lees', 'camerons');
    await ask(desk, 'see');
    expect(await desk.textContent('#verdict-terrain-note')).toMatch(
      /Tranent Wood is not counted until it is added/,
    );
    await openTab(desk, 'terrain');
    await desk.click('#terrain-finish');
    await desk.waitForFunction(
      () =>
        /Added Tranent Wood \(\d+\.\d s\)/.test(
          document.querySelector('#terrain-message')?.textContent ?? '',
        ),
      undefined,
      WAIT,
    );
    console.log(`terrain: ${await desk.textContent('#terrain-message')}`);
    const battles = (await (await fetch(`${server!.url}/api/battles`)).json()) as {
      battles: Array<{ id: number }>;
    };
    const live = battles.battles.at(-1)!;
    const replay = (await (await fetch(`${server!.url}/api/battles/${live.id}/replay`)).json()) as {
      annotations: Array<{ text: string }>;
    };
    expect(replay.annotations.map((a) => a.text)).toContain('Terrain added: Tranent Wood (wood)');
    expect(battles.battles).toHaveLength(2); // the long battle and the one being recorded: no new battle
  });

  it('an answer whose units move says so, stops drawing, and asks again on request', async () => {
    await openTab(desk, 'referee');
    await desk.click('.layout-switch [data-layout="live"]');
    // The Camerons start to advance and fall back (the moving synthetic table).
    const r = await fetch(`${server!.url}/api/source`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ source: 'synthetic' }),
    });
    expect(r.status).toBe(200);
    await waitForFrames(desk, WAIT);
    await desk.selectOption('#ruleset', 'black-powder');
    await pick(desk, 'camerons', 'lees');
    await ask(desk, 'shoot');
    const firstFrame = await desk.evaluate(() => window.__vedette!.answer!.frame);
    await desk.waitForFunction(() => window.__vedette?.answerStale === true, undefined, WAIT);
    const stale = await desk.evaluate(() => ({
      card: document.querySelector('#verdict')?.getAttribute('data-stale'),
      note: document.querySelector('#verdict .stale-note')?.textContent ?? '',
      kinds: window.__vedette!.overlayKinds,
      ruled: (document.querySelector('#ruled-distance') as HTMLElement).hidden,
    }));
    await desk.screenshot({ path: join(ARTIFACTS, 'answer-stale.png') });
    console.log(`stale: ${JSON.stringify(stale)}`);
    expect(stale.card).toBe('true');
    expect(stale.note).toMatch(/Camerons has moved since this answer/);
    expect(stale.kinds).not.toContain('measure');
    expect(stale.kinds).not.toContain('range');
    expect(stale.ruled).toBe(true);
    await desk.click('#ask-again');
    await desk.waitForFunction((f) => (window.__vedette?.answer?.frame ?? 0) > f, firstFrame, WAIT);
    expect(errors).toEqual([]);
  });
});
