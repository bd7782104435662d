import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/sim/settings';
import { expectFoundIsBruteForce, getState, holdKeys, openScene, useBrowser, waitFrames } from './helpers';

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
});
