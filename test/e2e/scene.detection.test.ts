import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  clickCheckbox,
  controller,
  expectFoundIsBruteForce,
  getState,
  holdKeys,
  openScene,
  strictClock,
  typeNumber,
  useBrowser,
  waitFrames,
} from './helpers';

const { browser, baseUrl } = useBrowser();

/** found == brute force over enemyPositions(), and exactly the found enemies wear the detected colour. */
async function expectConsistent(page: Page) {
  const { state, positions, colors } = await expectFoundIsBruteForce(page);
  const found = new Set(state.found);
  const inRect = new Set(state.rectFound);
  const detected = colors.flatMap((c, i) => (c === state.colors.detected ? [i] : []));
  expect(detected).toEqual(state.found);
  for (let i = 0; i < colors.length; i++) {
    if (!found.has(i))
      expect(colors[i], `enemy ${i}`).toBe(inRect.has(i) ? state.colors.rect : state.colors.enemy);
  }
  return { state, positions, colors };
}

describe('detection', () => {
  it('moves the player with W and D (and both), and the found set follows it', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, '?enemies=2000&seed=3');
    const s0 = await expectConsistent(page);

    await holdKeys(page, ['KeyW']);
    const s1 = await expectConsistent(page);
    // The camera looks along -Z at the start: W walks towards -Z.
    expect(s1.state.player.z).toBeLessThan(s0.state.player.z - 2);
    expect(Math.abs(s1.state.player.x - s0.state.player.x)).toBeLessThan(1e-6);
    expect(s1.state.found).not.toEqual(s0.state.found);

    await holdKeys(page, ['KeyD']);
    const s2 = await expectConsistent(page);
    expect(s2.state.player.x).toBeGreaterThan(s1.state.player.x + 2);
    expect(s2.state.found).not.toEqual(s1.state.found);

    await holdKeys(page, ['KeyW', 'KeyD']);
    const s3 = await expectConsistent(page);
    expect(s3.state.player.x).toBeGreaterThan(s2.state.player.x + 1);
    expect(s3.state.player.z).toBeLessThan(s2.state.player.z - 1);

    // Arrow keys and Shift: running covers more ground per frame than walking.
    const before = await getState(page);
    await holdKeys(page, ['ShiftLeft', 'ArrowDown']);
    const after = await expectConsistent(page);
    expect(after.state.player.z).toBeGreaterThan(before.player.z + 5);
    expect(errors).toEqual([]);
  });

  it('keeps the player inside the level', async () => {
    // A small level (served in place of camps.json) so the edge is a short run away.
    const { page, errors } = await openScene(browser(), baseUrl, '?level=camps&enemies=300', {
      beforeGoto: async (p) => {
        await p.route('**/levels/camps.json', (route) =>
          route.fulfill({
            contentType: 'application/json',
            body: JSON.stringify({ size: { width: 40, depth: 30 } }),
          }),
        );
      },
    });
    const edgeZ = -15 + 0.6; // half depth minus the player's margin
    const edgeX = 20 - 0.6;
    for (let i = 0; i < 8 && (await getState(page)).player.z > edgeZ + 1e-9; i++) {
      await holdKeys(page, ['ShiftLeft', 'KeyW']);
    }
    expect((await getState(page)).player.z).toBeCloseTo(edgeZ, 9);
    for (let i = 0; i < 8 && (await getState(page)).player.x < edgeX - 1e-9; i++) {
      await holdKeys(page, ['ShiftLeft', 'KeyD']);
    }
    await holdKeys(page, ['ShiftLeft', 'KeyW', 'KeyD']);
    const end = await expectConsistent(page);
    expect(end.state.player.z).toBeCloseTo(edgeZ, 9);
    expect(end.state.player.x).toBeCloseTo(edgeX, 9);
    expect(Math.max(...end.positions.map(Math.abs))).toBeLessThanOrEqual(20);
    expect(errors).toEqual([]);
  });

  it('gives the same found set in brute-force mode, testing every enemy', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, '?enemies=2000&seed=11&radius=25');
    const tree = await expectConsistent(page);
    expect(tree.state.bruteForce).toBe(false);
    expect(tree.state.lastQuery.pointsTested).toBeLessThan(2000);
    expect(tree.state.lastQuery.nodesVisited).toBeGreaterThan(0);

    await clickCheckbox(page, 'brute force');
    await waitFrames(page, 2);
    const brute = await expectConsistent(page);
    expect(brute.state.bruteForce).toBe(true);
    expect(brute.state.found).toEqual(tree.state.found);
    expect(brute.state.lastQuery.pointsTested).toBe(2000);
    expect(brute.state.lastQuery.nodesVisited).toBe(0);

    // The checkbox keeps the focus after the click: WASD must still move the player.
    await holdKeys(page, ['KeyA']);
    const moved = await expectConsistent(page);
    expect(moved.state.player.x).toBeLessThan(brute.state.player.x - 2);
    expect(moved.state.found).not.toEqual(brute.state.found);
    await clickCheckbox(page, 'brute force');
    await waitFrames(page, 2);
    const back = await expectConsistent(page);
    expect(back.state.bruteForce).toBe(false);
    expect(back.state.found).toEqual(moved.state.found);
    expect(errors).toEqual([]);
  });

  it('keeps the tree and the found set right while enemies wander', async () => {
    // A strictly increasing clock: the timings below are > 0 in every frame that did the work.
    const { page, errors } = await openScene(browser(), baseUrl, '?enemies=2000&seed=5&moving=1&speed=12', {
      beforeGoto: strictClock,
    });
    const a = await expectConsistent(page);
    expect(a.state.moving).toBe(true);
    await waitFrames(page, 5);
    const b = await expectConsistent(page);
    expect(b.positions).not.toEqual(a.positions);
    expect(b.state.tree.size).toBe(2000);
    // Nobody leaves the 200 x 200 level.
    expect(Math.max(...b.positions.map(Math.abs))).toBeLessThanOrEqual(100);
    await waitFrames(page, 5);
    await expectConsistent(page);
    // The HUD keeps the tree's own work apart from the random walk, and the hook exposes both times.
    await page.waitForFunction(
      () => /ms\/frame$/.test(document.querySelector('#hud tr[data-key="wander"] td')?.textContent ?? ''),
      undefined,
      { polling: 50 },
    );
    expect(await page.locator('#hud tr[data-key="update"] th').textContent()).toBe('tree update');
    const { timings } = await getState(page);
    expect(timings.wanderMs).toBeGreaterThan(0);
    expect(timings.treeUpdateMs).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });

  it('builds a loose tree from ?looseness= and keeps the found set exact while enemies wander', async () => {
    const { page, errors } = await openScene(
      browser(),
      baseUrl,
      '?enemies=2000&seed=5&moving=1&speed=12&looseness=2.5',
    );
    const a = await expectConsistent(page);
    expect(a.state.looseness).toBe(2.5);
    expect(a.state.messages).toEqual([]);
    await waitFrames(page, 5);
    const b = await expectConsistent(page);
    expect(b.positions).not.toEqual(a.positions);
    expect(b.state.tree.size).toBe(2000);
    expect(errors).toEqual([]);
  });

  it('adds 100 enemies around a clicked point', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, '?enemies=1000&seed=2');
    const canvas = await page.locator('canvas#scene').boundingBox();
    await page.mouse.click(canvas!.x + canvas!.width * 0.35, canvas!.y + canvas!.height * 0.6);
    await waitFrames(page, 2);
    const { state, positions } = await expectConsistent(page);
    expect(state.enemyCount).toBe(1100);
    expect(state.tree.size).toBe(1100);
    const xs = positions.filter((_, i) => i >= 2000 && i % 2 === 0);
    const zs = positions.filter((_, i) => i >= 2000 && i % 2 === 1);
    const spread = (v: number[]) => Math.max(...v) - Math.min(...v);
    expect(xs).toHaveLength(100);
    expect(spread(xs)).toBeLessThan(30); // a batch around one point, not scattered over the level
    expect(spread(zs)).toBeLessThan(30);
    expect(await controller(page, 'enemies').locator('input').inputValue()).toBe('1100');
    expect(errors).toEqual([]);
  });

  it('runs a rectangle query on Shift+drag and right-drag, in a third colour; Escape clears it', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, '?enemies=2000&seed=8');
    const box = (await page.locator('canvas#scene').boundingBox())!;
    const drag = async (
      from: [number, number],
      to: [number, number],
      button: 'left' | 'right',
      shift: boolean,
    ) => {
      if (shift) await page.keyboard.down('Shift');
      await page.mouse.move(box.x + box.width * from[0], box.y + box.height * from[1]);
      await page.mouse.down({ button });
      await page.mouse.move(box.x + box.width * to[0], box.y + box.height * to[1], { steps: 6 });
      await page.mouse.up({ button });
      if (shift) await page.keyboard.up('Shift');
      await waitFrames(page, 2);
    };

    await drag([0.3, 0.35], [0.6, 0.75], 'left', true);
    const a = await expectConsistent(page);
    const rect = a.state.rect!;
    expect(rect).not.toBeNull();
    expect(rect.maxX - rect.minX).toBeGreaterThan(5);
    const inside = a.positions.flatMap((_, i) => {
      if (i % 2 === 1) return [];
      const x = a.positions[i];
      const z = a.positions[i + 1];
      return x >= rect.minX && x <= rect.maxX && z >= rect.minZ && z <= rect.maxZ ? [i / 2] : [];
    });
    expect(a.state.rectFound).toEqual(inside);
    expect(inside.length).toBeGreaterThan(10);
    expect(a.colors.filter((c) => c === a.state.colors.rect).length).toBeGreaterThan(0);

    await drag([0.6, 0.4], [0.8, 0.6], 'right', false);
    const b = await expectConsistent(page);
    expect(b.state.rect).not.toEqual(rect);
    expect(b.state.rectFound.length).toBeGreaterThan(0);

    await page.keyboard.press('Escape');
    await waitFrames(page, 2);
    const c = await expectConsistent(page);
    expect(c.state.rect).toBeNull();
    expect(c.state.rectFound).toEqual([]);
    expect(c.colors.filter((x) => x === c.state.colors.rect)).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('memory', () => {
  it('keeps GPU objects and the JS heap flat while settings churn and enemies wander', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, '?enemies=2000&seed=9&moving=1&visited=1');
    const cdp = await page.context().newCDPSession(page);
    const heap = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      return (await cdp.send('Runtime.getHeapUsage')).usedSize;
    };
    // One round of every change that replaces something: ring (radius), tree + helpers (minSize,
    // maxItems), enemies added and removed, a rectangle, a regenerate.
    const churn = async (round: number) => {
      await page.evaluate(() => undefined);
      await clickCheckbox(page, 'brute force');
      await typeNumber(page, 'detect radius', 10 + (round % 5) * 7);
      await typeNumber(page, 'minSize', round % 2 === 0 ? 0.5 : 8);
      await typeNumber(page, 'maxItems', round % 2 === 0 ? 2 : 12);
      await typeNumber(page, 'enemies', round % 2 === 0 ? 4000 : 1500);
      await controller(page, 'regenerate').locator('button').click();
      await holdKeys(page, ['KeyW'], 200, 3);
    };
    await churn(0);
    await churn(1);
    await waitFrames(page, 5);
    const before = await getState(page);
    const heapBefore = await heap();
    for (let round = 2; round < 4; round++) await churn(round);
    await waitFrames(page, 5);
    const after = await getState(page);
    const heapAfter = await heap();
    expect(after.frame).toBeGreaterThan(before.frame + 10);
    expect(after.memory).toEqual(before.memory);
    // Same scene state as before the rounds (an even number of rounds), so the heap should match closely.
    expect(heapAfter - heapBefore).toBeLessThan(1_000_000);
    expect(errors).toEqual([]);
  });
});
