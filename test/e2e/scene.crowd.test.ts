import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/sim/settings';
import { COLORS } from '../../src/view/colors';
import { clickCheckbox, getState, openScene, strictClock, useBrowser, waitFrames } from './helpers';

const { browser, baseUrl } = useBrowser();

/**
 * In one synchronous read in the page: the crowd state, a brute-force O(n²) count of the pairs within its
 * radius among enemyPositions(), and one enemy with a neighbour that is neither detected nor in the
 * rectangle, with its colour.
 */
function crowdCheck(page: Page) {
  return page.evaluate(() => {
    const demo = window.quadtreeDemo!;
    const state = demo.state();
    const p = demo.enemyPositions();
    const n = p.length / 2;
    const r2 = state.crowd.radius * state.crowd.radius;
    const hasNeighbour = new Uint8Array(n);
    let pairs = 0;
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        const dx = p[2 * j] - p[2 * i];
        const dz = p[2 * j + 1] - p[2 * i + 1];
        if (dx * dx + dz * dz <= r2) {
          pairs++;
          hasNeighbour[i] = 1;
          hasNeighbour[j] = 1;
        }
      }
    const found = new Set(state.found);
    const inRect = new Set(state.rectFound);
    let crowdedId = -1;
    let lonelyId = -1;
    for (let i = 0; i < n; i++) {
      if (found.has(i) || inRect.has(i)) continue;
      if (hasNeighbour[i] === 1 && crowdedId < 0) crowdedId = i;
      if (hasNeighbour[i] === 0 && lonelyId < 0) lonelyId = i;
    }
    return {
      state,
      pairs,
      crowdedId,
      crowdedColor: crowdedId < 0 ? '' : demo.enemyColor(crowdedId),
      lonelyColor: lonelyId < 0 ? '' : demo.enemyColor(lonelyId),
    };
  });
}

describe('crowd mode', () => {
  it('pairs equal a brute-force count from enemyPositions(), moving, and crowded enemies wear the crowd colour', async () => {
    const { page, errors } = await openScene(
      browser(),
      baseUrl,
      '?enemies=2000&distribution=clustered&seed=5&crowd=1&crowdRadius=2&moving=1',
      { beforeGoto: strictClock }, // crowd.ms below is then > 0 in every frame that found the pairs
    );
    await waitFrames(page, 3);
    for (let k = 0; k < 2; k++) {
      const c = await crowdCheck(page);
      expect(c.state.crowd.enabled).toBe(true);
      expect(c.state.crowd.radius).toBe(2);
      expect(c.state.crowd.pairs).toBe(c.pairs);
      expect(c.pairs).toBeGreaterThan(0);
      expect(c.state.crowd.ms).toBeGreaterThan(0);
      expect(c.state.colors.crowd).toBe(COLORS.crowd);
      expect(c.crowdedId).toBeGreaterThanOrEqual(0);
      expect(c.crowdedColor).toBe(COLORS.crowd);
      expect(c.lonelyColor).toBe(COLORS.enemy);
      await waitFrames(page, 2);
    }
    // The WebAssembly kernel ran, at the scene's default precision, the fast sums (the pairs stay exact:
    // crowdCheck compares them with brute force above).
    expect(DEFAULT_SETTINGS.crowdPrecision).toBe('f32');
    const last = await crowdCheck(page);
    expect([last.state.crowd.kernel, last.state.crowd.precision]).toEqual(['wasm-simd', 'f32']);
    expect(await page.locator('#hud tr[data-key="crowd"] td').textContent()).toMatch(
      /^[\d,]+ \(tree, wasm-simd f32\)$/,
    );
    // The wandering crowd moves in one moveAll a frame, whose pass over the ids ran in the kernel too.
    expect(last.state.moveAllPass).toBe('wasm');
    expect(await page.locator('#hud tr[data-key="update"] td').textContent()).toMatch(
      /^[\d.]+ ms\/frame \(moveAll, wasm\)$/,
    );
    expect(errors).toEqual([]);
  });

  it('?precision=f64: the exact sums, said on the HUD, the pairs the same', async () => {
    const { page, errors } = await openScene(
      browser(),
      baseUrl,
      '?enemies=2000&distribution=clustered&seed=5&crowd=1&crowdRadius=2&moving=1&precision=f64',
    );
    await waitFrames(page, 3);
    const c = await crowdCheck(page);
    expect(c.state.crowd.pairs).toBe(c.pairs);
    expect(c.pairs).toBeGreaterThan(0);
    expect([c.state.crowd.kernel, c.state.crowd.precision]).toEqual(['wasm-simd', 'f64']);
    expect(await page.locator('#hud tr[data-key="crowd"] td').textContent()).toMatch(
      /^[\d,]+ \(tree, wasm-simd f64\)$/,
    );
    expect(errors).toEqual([]);
  });

  it('toggling crowd off in the GUI clears the pairs and the crowd colour', async () => {
    const { page, errors } = await openScene(
      browser(),
      baseUrl,
      '?enemies=2000&distribution=clustered&seed=6&crowd=1',
    );
    const on = await crowdCheck(page);
    expect(on.state.crowd.pairs).toBe(on.pairs);
    expect(on.crowdedColor).toBe(COLORS.crowd);
    await clickCheckbox(page, 'crowd');
    await page.waitForFunction(() => !window.quadtreeDemo!.state().crowd.enabled, undefined, { polling: 50 });
    await waitFrames(page, 1);
    const off = await crowdCheck(page);
    expect(off.state.crowdMode).toBe(false);
    expect(off.state.crowd.pairs).toBe(0);
    expect(off.crowdedColor).toBe(COLORS.enemy);
    expect(errors).toEqual([]);
  });

  it('bad URL values: a message each, the defaults used', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, '?enemies=500&crowd=maybe&crowdRadius=42');
    const text = (await page.locator('#messages').textContent()) ?? '';
    expect(text).toContain('URL parameter crowd="maybe" ignored');
    expect(text).toContain('URL parameter crowdRadius="42" ignored: expected a number from 0.5 to 10');
    const state = await getState(page);
    expect(state.crowdMode).toBe(DEFAULT_SETTINGS.crowdMode);
    expect(state.crowd).toMatchObject({ enabled: false, radius: DEFAULT_SETTINGS.crowdRadius, pairs: 0 });
    expect(errors).toEqual([]);
  });
});
