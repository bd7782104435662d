import { describe, expect, it } from 'vitest';
import { SETTING_ROWS, SETTINGS } from '../../src/sim/settings';
import {
  canvasPixels,
  clickCheckbox,
  clickSlider,
  controller,
  expectFoundIsBruteForce,
  getState,
  openScene,
  scanCircle,
  snapshot,
  typeNumber,
  useBrowser,
  waitFrames,
} from './helpers';

const { browser, baseUrl } = useBrowser();

describe('the lil-gui panel', () => {
  it('has one controller per settings row, with its label, in its folder, showing the value in force', async () => {
    const { page, errors } = await openScene(
      browser(),
      baseUrl,
      '?enemies=1500&seed=3&radius=20&nodes=0&brute=1',
    );
    const panel = await page.evaluate(() =>
      Array.from(document.querySelectorAll('#gui .lil-controller'), (c) => ({
        folder: c.closest('.lil-gui')?.querySelector('.lil-title')?.textContent ?? '',
        name: c.querySelector('.lil-name')?.textContent ?? '',
      })),
    );
    const state = await getState(page);
    for (const row of SETTING_ROWS) {
      expect(
        panel.filter((c) => c.name === row.label),
        row.key,
      ).toEqual([{ folder: row.folder, name: row.label }]);
      const input = controller(page, row.label).locator('input, select').first();
      if (row.kind === 'flag') expect(await input.isChecked(), row.key).toBe(state[row.key]);
      else if (row.kind === 'number') expect(Number(await input.inputValue()), row.key).toBe(state[row.key]);
      else expect(await input.inputValue(), row.key).toBe(state[row.key]);
    }
    expect(state).toMatchObject({ enemies: 1500, seed: 3, radius: 20, showNodes: false, bruteForce: true });
    expect(errors).toEqual([]);
  });

  it('detect radius slider: a bigger radius finds a superset, a smaller one a subset', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, '?enemies=2000&seed=3');
    const s0 = (await expectFoundIsBruteForce(page)).state;
    expect(s0.radius).toBe(15);
    const { min, max } = SETTINGS.radius;

    await clickSlider(page, 'detect radius', 30, min, max);
    await waitFrames(page, 2);
    const big = (await expectFoundIsBruteForce(page)).state;
    expect(big.radius).toBeGreaterThan(28);
    expect(big.radius).toBeLessThan(32);
    expect(big.found.length).toBeGreaterThan(s0.found.length);
    expect(s0.found.every((id) => big.found.includes(id))).toBe(true);
    expect(Number(await controller(page, 'detect radius').locator('input').inputValue())).toBe(big.radius);

    await clickSlider(page, 'detect radius', 6, min, max);
    await waitFrames(page, 2);
    const small = (await expectFoundIsBruteForce(page)).state;
    expect(small.radius).toBeLessThan(8);
    expect(small.found.length).toBeLessThan(s0.found.length);
    expect(small.found.every((id) => s0.found.includes(id))).toBe(true);
    expect(errors).toEqual([]);
  });

  it('minSize and maxItems sliders rebuild the tree: smaller minSize, more nodes; same answer', async () => {
    const { page, errors } = await openScene(
      browser(),
      baseUrl,
      '?enemies=2000&seed=4&distribution=clustered',
    );
    const s0 = (await expectFoundIsBruteForce(page)).state;
    const { min, max } = SETTINGS.minSize;

    await clickSlider(page, 'minSize', 40, min, max);
    await waitFrames(page, 2);
    const coarse = (await expectFoundIsBruteForce(page)).state;
    expect(coarse.minSize).toBeGreaterThan(35);
    expect(coarse.found).toEqual(s0.found);

    await clickSlider(page, 'minSize', 3, min, max);
    await waitFrames(page, 2);
    const fine = (await expectFoundIsBruteForce(page)).state;
    expect(fine.minSize).toBeLessThan(5);
    expect(fine.tree.nodes).toBeGreaterThan(coarse.tree.nodes);
    expect(fine.found).toEqual(s0.found);

    const m = SETTINGS.maxItems;
    await clickSlider(page, 'maxItems', 60, m.min, m.max);
    await waitFrames(page, 2);
    const roomy = (await expectFoundIsBruteForce(page)).state;
    expect(roomy.maxItems).toBeGreaterThan(50);
    expect(roomy.tree.nodes).toBeLessThan(fine.tree.nodes);
    expect(roomy.found).toEqual(s0.found);
    expect(errors).toEqual([]);
  });

  it('show nodes toggles the leaf gizmo; show visited draws the leaves the query reached', async () => {
    // maxItems 8: a dense gizmo, whose lines are most of the near-white pixels (at the default 16 they are
    // under half of them, 2,068 of 4,663, so hiding them cannot halve the count).
    const { page, errors } = await openScene(browser(), baseUrl, '?enemies=2000&seed=6&maxItems=8');
    const s0 = await getState(page);
    expect(s0.gizmo.nodesVisible).toBe(true);
    expect(s0.gizmo.nodesDrawn).toBe(s0.tree.leaves);
    // Node lines are near-white on the grey ground.
    const withNodes = await canvasPixels(page, { line: '#dfe4ea' }, 22);

    await clickCheckbox(page, 'show nodes');
    await waitFrames(page, 2);
    const s1 = await getState(page);
    expect(s1.gizmo.nodesVisible).toBe(false);
    const without = await canvasPixels(page, { line: '#dfe4ea' }, 22);
    expect(without.near.line).toBeLessThan(withNodes.near.line * 0.5);

    await clickCheckbox(page, 'show nodes');
    await waitFrames(page, 2);
    expect((await getState(page)).gizmo.nodesVisible).toBe(true);

    expect(s1.gizmo.visitedVisible).toBe(false);
    await clickCheckbox(page, 'show visited');
    await waitFrames(page, 2);
    const s2 = await getState(page);
    expect(s2.showVisited).toBe(true);
    expect(s2.gizmo.visitedVisible).toBe(true);
    expect(s2.gizmo.visitedDrawn).toBeGreaterThan(0);
    expect(s2.gizmo.visitedDrawn).toBeLessThan(s2.tree.leaves);
    expect(s2.gizmo.visitedDrawn).toBeLessThanOrEqual(s2.lastQuery.nodesVisited);
    const visited = await canvasPixels(page, { orange: '#ff7a1a' }, 40);
    expect(visited.near.orange).toBeGreaterThan(50);
    expect(errors).toEqual([]);
  });

  it('enemies box adds and removes enemies without a reload; distribution and seed regenerate', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, '?enemies=1000&seed=7');
    const s0 = await snapshot(page);
    const marker = await page.evaluate(() => {
      (window as unknown as { marker: number }).marker = 42;
      return 42;
    });

    await typeNumber(page, 'enemies', 2500);
    await waitFrames(page, 2);
    const more = await snapshot(page);
    expect(more.state.enemyCount).toBe(2500);
    expect(more.state.tree.size).toBe(2500);
    expect(more.positions.slice(0, 2000)).toEqual(s0.positions); // the first 1000 stay where they were
    expect(more.state.found).toEqual(
      scanCircle(more.positions, more.state.player.x, more.state.player.z, more.state.radius),
    );

    await typeNumber(page, 'enemies', 300);
    await waitFrames(page, 2);
    const fewer = (await expectFoundIsBruteForce(page)).state;
    expect(fewer.enemyCount).toBe(300);
    expect(fewer.found.every((id) => id < 300)).toBe(true);
    // Same page: no reload happened.
    expect(await page.evaluate(() => (window as unknown as { marker: number }).marker)).toBe(marker);

    await controller(page, 'distribution').locator('select').selectOption('clustered');
    await waitFrames(page, 2);
    const clustered = await snapshot(page);
    expect(clustered.state.distribution).toBe('clustered');
    expect(clustered.positions).not.toEqual(more.positions.slice(0, 600));
    expect(clustered.state.found).toEqual(
      scanCircle(
        clustered.positions,
        clustered.state.player.x,
        clustered.state.player.z,
        clustered.state.radius,
      ),
    );

    await typeNumber(page, 'seed', 99);
    await waitFrames(page, 2);
    const reseeded = await snapshot(page);
    expect(reseeded.state.seed).toBe(99);
    expect(reseeded.positions).not.toEqual(clustered.positions);
    expect(errors).toEqual([]);
  });

  it('regenerate puts wandering enemies back where the same URL spawns them', async () => {
    const fresh = await openScene(browser(), baseUrl, '?enemies=800&seed=12');
    const spawn = (await snapshot(fresh.page)).positions;
    await fresh.page.close();

    const { page, errors } = await openScene(browser(), baseUrl, '?enemies=800&seed=12&moving=1&speed=15');
    await waitFrames(page, 4);
    await clickCheckbox(page, 'moving');
    await waitFrames(page, 1);
    const wandered = await snapshot(page);
    expect(wandered.state.moving).toBe(false);
    expect(wandered.positions).not.toEqual(spawn);
    await controller(page, 'regenerate').locator('button').click();
    await waitFrames(page, 2);
    const back = await snapshot(page);
    expect(back.positions).toEqual(spawn);
    expect(back.state.found).toEqual(
      scanCircle(back.positions, back.state.player.x, back.state.player.z, back.state.radius),
    );
    expect(errors).toEqual([]);
  });
});
