import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { COLORS } from '../../src/view/colors';
import { openScene, useBrowser, waitFrames } from './helpers';

const { browser, baseUrl } = useBrowser();

/**
 * In one synchronous read in the page: whether it is cross-origin isolated, the crowd state, a brute-force
 * O(n²) count of the pairs within the crowd radius among enemyPositions(), and how many enemies wear the
 * wrong colour for their crowd flag (those neither detected nor in the rectangle: crowd colour exactly when
 * they have a neighbour).
 */
function threadsCheck(page: Page) {
  return page.evaluate(
    ({ crowdColor, enemyColor }) => {
      const demo = window.quadtreeDemo!;
      const state = demo.state();
      const p = demo.enemyPositions();
      const n = p.length / 2;
      const r2 = state.crowd.radius * state.crowd.radius;
      const has = new Uint8Array(n);
      let pairs = 0;
      for (let i = 0; i < n; i++) {
        const x = p[2 * i];
        const z = p[2 * i + 1];
        for (let j = i + 1; j < n; j++) {
          const dx = p[2 * j] - x;
          const dz = p[2 * j + 1] - z;
          if (dx * dx + dz * dz <= r2) {
            pairs++;
            has[i] = 1;
            has[j] = 1;
          }
        }
      }
      const found = new Set(state.found);
      let wrongColour = 0;
      for (let i = 0; i < n; i++) {
        if (found.has(i)) continue;
        if (demo.enemyColor(i) !== (has[i] === 1 ? crowdColor : enemyColor)) wrongColour++;
      }
      return {
        isolated: crossOriginIsolated,
        cores: navigator.hardwareConcurrency,
        state,
        pairs,
        wrongColour,
      };
    },
    { crowdColor: COLORS.crowd, enemyColor: COLORS.enemy },
  );
}

const hudThreads = (page: Page) => page.locator('#hud tr[data-key="threads"] td').textContent();

/** Crowd mode on a crowd large enough to share (thousands of leaf pairs), moving. */
const CROWD = '?enemies=12000&seed=3&crowd=1&crowdRadius=1.5&moving=1&nodes=0';

describe('crowd mode on worker threads', () => {
  it('the preview page is cross-origin isolated; the crowd runs on a worker too, pairs and colours equal brute force', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, CROWD);
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    if (cores < 2) {
      // A one-core runner: no workers, and the HUD says why (the rest of this test needs two cores).
      expect((await threadsCheck(page)).state.crowd).toMatchObject({ threads: 1, threadNote: 'one core' });
      return;
    }
    // The worker attaches within a few frames; a frame where it was late runs on the main thread alone.
    await page.waitForFunction(() => window.quadtreeDemo!.state().crowd.threads >= 2, undefined, {
      polling: 50,
      timeout: 60_000,
    });
    let shared = 0;
    for (let k = 0; k < 3; k++) {
      const c = await threadsCheck(page);
      expect(c.isolated).toBe(true);
      expect(c.state.crowd.pairs).toBe(c.pairs);
      expect(c.pairs).toBeGreaterThan(1000);
      expect(c.wrongColour).toBe(0);
      if (c.state.crowd.threads >= 2) shared++;
      await waitFrames(page, 2);
    }
    expect(shared).toBeGreaterThan(0);
    await page.waitForFunction(
      () =>
        /^\d threads \(main \+ \d workers?\)$/.test(
          document.querySelector('#hud tr[data-key="threads"] td')?.textContent ?? '',
        ),
      undefined,
      { polling: 50, timeout: 60_000 },
    );
    expect(errors).toEqual([]);
  });

  it('workers=0 forces one thread: the HUD says so, pairs equal brute force', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, `${CROWD}&workers=0`);
    await waitFrames(page, 2);
    const c = await threadsCheck(page);
    expect(c.isolated).toBe(true);
    expect(c.state.workers).toBe(false);
    expect(c.state.crowd).toMatchObject({ threads: 1, threadNote: 'workers off' });
    expect(c.state.crowd.pairs).toBe(c.pairs);
    expect(c.wrongColour).toBe(0);
    await page.waitForFunction(
      () =>
        document.querySelector('#hud tr[data-key="threads"] td')?.textContent === '1 thread (workers off)',
      undefined,
      { polling: 50 },
    );
    expect(errors).toEqual([]);
  });

  it('a page served without the isolation headers runs the crowd on one thread and says why', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, CROWD, {
      beforeGoto: async (p) => {
        // The same server, minus Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy.
        await p.route('**/*', async (route) => {
          const response = await route.fetch();
          const headers = { ...response.headers() };
          delete headers['cross-origin-opener-policy'];
          delete headers['cross-origin-embedder-policy'];
          await route.fulfill({ response, headers });
        });
      },
    });
    await waitFrames(page, 2);
    const c = await threadsCheck(page);
    expect(c.isolated).toBe(false);
    expect(c.state.crowd).toMatchObject({ threads: 1, threadNote: 'page not cross-origin isolated' });
    expect(c.state.crowd.pairs).toBe(c.pairs);
    expect(c.wrongColour).toBe(0);
    await page.waitForFunction(
      () =>
        document.querySelector('#hud tr[data-key="threads"] td')?.textContent ===
        '1 thread (page not cross-origin isolated)',
      undefined,
      { polling: 50 },
    );
    expect(await hudThreads(page)).toBe('1 thread (page not cross-origin isolated)');
    expect(errors).toEqual([]);
  });
});
