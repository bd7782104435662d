import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/sim/settings';
import {
  expectFoundIsBruteForce,
  getState,
  holdKeys,
  newScenePage,
  openScene,
  useBrowser,
  VIEWPORT,
  waitForScene,
  waitFrames,
} from './helpers';

const { browser, baseUrl } = useBrowser();

async function messageText(page: Page): Promise<string> {
  const box = page.locator('#messages');
  expect(await box.isVisible()).toBe(true);
  return (await box.textContent()) ?? '';
}

/** The scene still runs: frames advance, the player moves, found is right. */
async function expectRunning(page: Page) {
  const s0 = await getState(page);
  await holdKeys(page, ['KeyW']);
  const { state } = await expectFoundIsBruteForce(page);
  expect(state.frame).toBeGreaterThan(s0.frame);
  expect(state.player.z).toBeLessThan(s0.player.z);
}

/** Serve `body` instead of the real levels/camps.json. */
function serveCamps(body: string) {
  return async (page: Page) => {
    await page.route('**/levels/camps.json', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body }),
    );
  };
}

describe('bad input shows a message and the scene keeps running', () => {
  it('bad URL parameters: readable message, defaults used', async () => {
    const { page, errors } = await openScene(
      browser(),
      baseUrl,
      '?enemies=lots&radius=-5&minSize=0&maxItems=2.5&distribution=spiral&moving=maybe&seed=7&frobnicate=1',
    );
    const text = await messageText(page);
    for (const part of [
      'enemies="lots"',
      'radius="-5"',
      'minSize="0"',
      'maxItems="2.5"',
      'distribution="spiral"',
    ]) {
      expect(text).toContain(part);
    }
    expect(text).toContain('moving="maybe"');
    expect(text).toContain('frobnicate');
    const s = await getState(page);
    expect(s).toMatchObject({
      enemyCount: DEFAULT_SETTINGS.enemies,
      radius: DEFAULT_SETTINGS.radius,
      minSize: DEFAULT_SETTINGS.minSize,
      maxItems: DEFAULT_SETTINGS.maxItems,
      distribution: DEFAULT_SETTINGS.distribution,
      moving: false,
      seed: 7, // the good parameter is kept
    });
    expect(s.messages.length).toBe(7);
    await expectRunning(page);
    expect(errors).toEqual([]);
  });

  it('malformed level file: message, default level', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, '?level=camps&enemies=1500', {
      beforeGoto: serveCamps('{ "size": { "width": 300, '),
    });
    const text = await messageText(page);
    expect(text).toContain('levels/camps.json is not valid JSON');
    const s = await getState(page);
    expect(s.level).toMatchObject({ name: 'default', width: 200, depth: 200 });
    expect(s.enemyCount).toBe(1500); // the URL still applies
    await expectRunning(page);
    expect(errors).toEqual([]);
  });

  it('level file with bad fields: message per field, the good fields kept', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, '?level=camps', {
      beforeGoto: serveCamps(
        JSON.stringify({
          size: { width: 300, depth: 'big' },
          enemies: -3,
          distribution: 'uniform',
          radius: 9,
        }),
      ),
    });
    const text = await messageText(page);
    expect(text).toContain('size.depth');
    expect(text).toContain('enemies');
    const s = await getState(page);
    expect(s.level).toMatchObject({ name: 'camps', width: 300, depth: 200 });
    expect(s.enemyCount).toBe(DEFAULT_SETTINGS.enemies);
    expect(s.radius).toBe(9);
    await expectRunning(page);
    expect(errors).toEqual([]);
  });

  it('unknown level: message listing the levels, no failed request', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, '?level=atlantis&enemies=1000');
    const text = await messageText(page);
    expect(text).toContain('Level "atlantis" not found');
    expect(text).toContain('camps');
    expect((await getState(page)).level.name).toBe('default');
    await expectRunning(page);
    expect(errors).toEqual([]);
  });

  it('a level preset loads, and URL parameters override it', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, '?level=camps&enemies=1200');
    expect(await page.locator('#messages').isHidden()).toBe(true);
    const s = await getState(page);
    expect(s.level).toMatchObject({ name: 'camps', title: 'Camps', width: 260, depth: 220 });
    expect(s.distribution).toBe('clustered');
    expect(s.radius).toBe(20);
    expect(s.enemyCount).toBe(1200);
    expect(s.player).toEqual({ x: 0, z: 10 });
    await waitFrames(page, 2);
    expect(errors).toEqual([]);
  });

  it('a level file that is slow to answer: the page says it is loading, then the level starts', async () => {
    let answer: (route: Route) => void = () => {};
    const requested = new Promise<Route>((resolve) => {
      answer = resolve;
    });
    const { page, errors } = await newScenePage(browser(), {
      // Held until the test has seen the loading notice.
      beforeGoto: async (p) => {
        await p.route('**/levels/camps.json', (route) => answer(route));
      },
    });
    await page.goto(new URL('?level=camps&enemies=800', baseUrl).toString());
    const route = await requested;
    const loading = page.locator('#loading');
    await loading.waitFor({ state: 'visible' });
    expect(await loading.textContent()).toBe('Loading level "camps"…');
    expect(await page.evaluate(() => window.quadtreeDemo)).toBeUndefined();
    await route.continue();
    await waitForScene(page);
    expect(await loading.isHidden()).toBe(true);
    expect((await getState(page)).level.name).toBe('camps');
    expect(errors).toEqual([]);
  });

  it('a level file that never answers: after the timeout, the default level and a message naming both', async () => {
    const { page, errors } = await newScenePage(browser(), {
      beforeGoto: async (p) => {
        await p.route('**/levels/camps.json', () => {}); // never answered
      },
    });
    // levelTimeout shortens the 10 s wait for the test.
    await page.goto(new URL('?level=camps&enemies=800&levelTimeout=0.5', baseUrl).toString());
    await waitForScene(page);
    expect(await page.locator('#loading').isHidden()).toBe(true);
    const text = await messageText(page);
    expect(text).toContain('Level "camps" did not load within 0.5 s');
    const s = await getState(page);
    expect(s.level.name).toBe('default');
    expect(s.enemyCount).toBe(800); // the URL still applies
    await expectRunning(page);
    expect(errors).toEqual([]);
  });

  it('200 unknown URL parameters: a few messages and a count of the rest, at most half the view', async () => {
    const query = `?${Array.from({ length: 200 }, (_, i) => `junk${i}=1`).join('&')}&enemies=500`;
    const { page, errors } = await openScene(browser(), baseUrl, query);
    const box = page.locator('#messages');
    expect(await box.isVisible()).toBe(true);
    expect(await box.locator('li').count()).toBe(8);
    expect(await box.textContent()).toContain('and 192 more');
    const rect = await box.boundingBox();
    expect(rect!.height).toBeLessThanOrEqual(VIEWPORT.height / 2);
    expect((await getState(page)).messages).toHaveLength(200);
    await expectRunning(page);
    expect(errors).toEqual([]);
  });
});

/** Makes every WebGL draw call throw, so the next frame fails in the renderer. */
async function breakDrawing(page: Page): Promise<void> {
  await page.evaluate(() => {
    const gl = WebGL2RenderingContext.prototype as unknown as Record<string, unknown>;
    for (const name of ['drawArrays', 'drawElements', 'drawArraysInstanced', 'drawElementsInstanced']) {
      gl[name] = () => {
        throw new Error('drawing broken on purpose');
      };
    }
  });
}

describe('an error shown on the page fails the test whose page showed it', () => {
  it('a frame that throws stops the scene with a message, which the scene fixture records as an error', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, '?enemies=300');
    expect(errors).toEqual([]);
    await breakDrawing(page);
    await expect.poll(() => errors.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(errors).toEqual(['page message: The scene stopped: drawing broken on purpose']);
    expect(await messageText(page)).toContain('The scene stopped: drawing broken on purpose');
    // Expected here: without emptying the list, the fixture would fail this test when it ends.
    errors.length = 0;
  });

  it('…also when the box lists only the first messages and the error is counted among the rest', async () => {
    const query = `?${Array.from({ length: 12 }, (_, i) => `junk${i}=1`).join('&')}&enemies=300`;
    const { page, errors } = await openScene(browser(), baseUrl, query);
    await breakDrawing(page);
    await expect.poll(() => errors.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(errors).toEqual(['page message: The scene stopped: drawing broken on purpose']);
    expect(await page.locator('#messages li').count()).toBe(8);
    expect(await messageText(page)).not.toContain('The scene stopped');
    expect((await getState(page)).messages.at(-1)).toBe('The scene stopped: drawing broken on purpose');
    errors.length = 0;
  });
});
