import { describe, expect, it } from 'vitest';
import { getState, openScene, useBrowser, waitFrames } from './helpers';

const { browser, baseUrl } = useBrowser();

/**
 * Small, and without the node gizmos (a display setting the URL may set over a level): SwiftShader draws
 * 100,000 boxes on the CPU, several seconds a frame on a busy machine, and only the simulation matters here.
 */
const SMALL = { width: 320, height: 240 };
/** A 100,000-enemy page takes minutes on a busy 2-core machine. */
const SLOW = 300_000;

describe('the level presets start as the README and docs/scene.md say', () => {
  it.each([
    ['crowd', 30_000],
    ['swarm', 100_000],
  ])(
    '?level=%s starts in crowd mode with everyone moving',
    async (name, enemies) => {
      const { page, errors } = await openScene(browser(), baseUrl, `?level=${name}&nodes=0`, {
        viewport: SMALL,
      });
      const first = await page.evaluate(() => ({
        state: window.quadtreeDemo!.state(),
        positions: Array.from(window.quadtreeDemo!.enemyPositions().subarray(0, 200)),
      }));
      expect(first.state.level.name).toBe(name);
      expect(first.state.enemyCount).toBe(enemies);
      expect(first.state.crowdMode).toBe(true);
      expect(first.state.moving).toBe(true);
      expect(first.state.crowd.enabled).toBe(true);
      expect(first.state.crowd.pairs).toBeGreaterThan(0);
      await waitFrames(page, 1);
      const later = await page.evaluate(() =>
        Array.from(window.quadtreeDemo!.enemyPositions().subarray(0, 200)),
      );
      // Every one of the first 100 enemies has stepped (a random walk at 3-4 units a second).
      for (let i = 0; i < 100; i++) {
        const moved = Math.hypot(
          later[2 * i] - first.positions[2 * i],
          later[2 * i + 1] - first.positions[2 * i + 1],
        );
        expect(moved, `enemy ${i}`).toBeGreaterThan(0);
      }
      // The HUD wrote its text on the first frame, and rewrites it a few times a second.
      expect(await page.locator('#hud tr[data-key="crowd"] td').textContent()).toMatch(/^[\d,]+ \(tree/);
      expect((await getState(page)).messages).toEqual([]);
      expect(errors).toEqual([]);
    },
    SLOW,
  );
});
