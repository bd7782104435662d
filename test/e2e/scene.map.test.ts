import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { DemoState, TreeNode } from '../../src/app/quadtreeDemo';
import { PLOT_SECONDS, TICK_SECONDS, TIME_AXIS } from '../../src/ui/plot';
import { countKinds, kindsByRule, ruleNodes } from '../helpers/insightRule';
import { clickCheckbox, getState, holdKeys, openScene, useBrowser, waitFrames } from './helpers';

const { browser, baseUrl } = useBrowser();

/** State and the tree's nodes, read in one page task (the same frame). */
function read(page: Page): Promise<{ state: DemoState; nodes: TreeNode[] }> {
  return page.evaluate(() => ({
    state: window.quadtreeDemo!.state(),
    nodes: window.quadtreeDemo!.treeNodes(),
  }));
}

/**
 * Runs in the page: the map as the browser shows it (its layers' canvases stacked over the ground colour)
 * drawn into one image, kept on `window.__map` for the next evaluate. Returns its width and height.
 */
function composeMap(): [number, number] {
  const view = document.querySelector<HTMLElement>('#map .map-view')!;
  const layers = [...view.querySelectorAll('canvas')];
  const c = document.createElement('canvas');
  c.width = layers[0].width;
  c.height = layers[0].height;
  const ctx = c.getContext('2d')!;
  ctx.fillStyle = getComputedStyle(view).backgroundColor;
  ctx.fillRect(0, 0, c.width, c.height);
  for (const layer of layers) ctx.drawImage(layer, 0, 0);
  (window as unknown as { __map: ImageData }).__map = ctx.getImageData(0, 0, c.width, c.height);
  return [c.width, c.height];
}

/** The node kinds by the written rule, computed here from the tree's nodes, for the player's circle. */
function byRule(state: DemoState, nodes: TreeNode[]) {
  const list = ruleNodes((cb) => {
    for (const n of nodes) cb(n);
  });
  const kinds = kindsByRule(list, state.looseness, state.player.x, state.player.z, state.radius);
  return countKinds(kinds);
}

describe('the top-down map', () => {
  it('map=1 shows it; its counts follow the rule, add up with the nodes it drew, and appear on the HUD and legend', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, '?map=1&enemies=3000&seed=4&radius=25');
    await waitFrames(page, 3);
    const { state, nodes } = await read(page);
    const i = state.insight;
    expect(i.map).toBe(true);
    expect(await page.locator('#map').isVisible()).toBe(true);
    expect(i.nodes).toBe(state.tree.nodes);
    expect(nodes).toHaveLength(state.tree.nodes);
    const rule = byRule(state, nodes);
    expect({ visited: i.visited, pruned: i.pruned, covered: i.covered }).toEqual({
      visited: rule.visited,
      pruned: rule.pruned,
      covered: rule.covered,
    });
    expect(i.visited).toBeGreaterThan(0);
    expect(i.pruned).toBeGreaterThan(0);
    expect(i.covered).toBeGreaterThan(0);
    expect(i.drawn).toEqual({ visited: i.visited, pruned: i.pruned, covered: i.covered });
    expect(i.visited + i.pruned + i.covered + rule.below + rule.untouched).toBe(state.tree.nodes);
    // The nodes the library's query reached: visited, covered, and the non-empty ones below covered nodes.
    expect(i.visited + i.covered + rule.below).toBe(state.lastQuery.nodesVisited);
    await waitFrames(page, 20); // the HUD and legend rewrite their text a few times per second
    const hud = await page.locator('#hud tr[data-key="kinds"] td').textContent();
    expect(hud).toBe(`${i.visited} / ${i.pruned} / ${i.covered}`);
    const legend = await page.locator('#map .legend b').allTextContents();
    expect(legend).toEqual([String(i.visited), String(i.pruned), String(i.covered)]);
    // The map has the kinds' colours and the detected enemies on it.
    await page.evaluate(composeMap);
    const colours = await page.evaluate(() => {
      const { data } = (window as unknown as { __map: ImageData }).__map;
      const seen = new Set<string>();
      for (let p = 0; p < data.length; p += 4)
        seen.add(`${data[p] >> 4},${data[p + 1] >> 4},${data[p + 2] >> 4}`);
      return seen.size;
    });
    expect(colours).toBeGreaterThan(20);
    expect(errors).toEqual([]);
  });

  it('the cost plot has a time axis: a tick every 2 s of the last 10, under the plotting area', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, '?map=1&enemies=500&seed=3');
    await waitFrames(page, 10);
    // Brightness along the row just under the axis line, in the ticks' strip where no series is drawn.
    const row = await page.evaluate((strip) => {
      const canvas = document.querySelector<HTMLCanvasElement>('#map .plot-canvas')!;
      const y = canvas.height - strip + 1;
      const { data } = canvas.getContext('2d')!.getImageData(0, y, canvas.width, 1);
      const out: number[] = [];
      for (let p = 0; p < data.length; p += 4) out.push(data[p] + data[p + 1] + data[p + 2]);
      return out;
    }, TIME_AXIS);
    const width = row.length;
    const ticks: number[] = [];
    for (let t = TICK_SECONDS; t < PLOT_SECONDS; t += TICK_SECONDS)
      ticks.push(Math.round(width - (t / PLOT_SECONDS) * width));
    expect(ticks).toHaveLength(4);
    const background = row[Math.round(width * 0.55)];
    for (const x of ticks) expect(row[x], `tick at column ${x}`).toBeGreaterThan(background + 10);
    // Only there: every other column of the strip (away from the ticks' edges) is background.
    const lit = row.map((v, x) => (v > background + 10 ? x : -1)).filter((x) => x >= 0);
    expect(lit).toEqual([...ticks].sort((a, b) => a - b));
    expect(errors).toEqual([]);
  });

  it('a tiny radius: few nodes visited, nothing covered (no leaf fits in it), most of the tree untouched, by the rule', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, '?map=1&enemies=2000&seed=2&radius=0.5');
    const { state, nodes } = await read(page);
    const rule = byRule(state, nodes);
    expect(state.insight).toMatchObject({
      visited: rule.visited,
      pruned: rule.pruned,
      covered: rule.covered,
    });
    // The player stands on the root's split lines: the circle meets up to four nodes per level.
    expect(state.insight.visited).toBeLessThanOrEqual(4 * (state.tree.depth + 1));
    expect(state.insight.covered).toBe(0);
    expect(rule.untouched).toBeGreaterThan(state.tree.nodes * 0.8);
    // Walked off the split lines (W and D held), the counts still follow the rule at the new place.
    await holdKeys(page, ['KeyW', 'KeyD'], 600, 10);
    const moved = await read(page);
    expect(moved.state.player.x).not.toBe(0);
    expect(moved.state.player.z).not.toBe(0);
    const there = byRule(moved.state, moved.nodes);
    expect(moved.state.insight).toMatchObject({
      visited: there.visited,
      pruned: there.pruned,
      covered: there.covered,
    });
    expect(moved.state.insight.visited).toBeGreaterThan(0);
    expect(moved.state.insight.visited).toBeLessThanOrEqual(4 * (moved.state.tree.depth + 1));
    expect(moved.state.insight.covered).toBe(0);
    expect(there.untouched).toBeGreaterThan(moved.state.tree.nodes * 0.8);
    expect(errors).toEqual([]);
  });

  it('the largest radius covers most of the level; the panel toggle hides the map', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, '?map=1&enemies=4000&seed=7&radius=100');
    let { state, nodes } = await read(page);
    let rule = byRule(state, nodes);
    expect(state.insight).toMatchObject({
      visited: rule.visited,
      pruned: rule.pruned,
      covered: rule.covered,
    });
    expect(state.insight.covered).toBeGreaterThan(0);
    expect(rule.below).toBeGreaterThan(state.insight.visited); // most reached nodes are handed over whole
    await clickCheckbox(page, 'top-down map');
    await waitFrames(page, 2);
    ({ state, nodes } = await read(page));
    expect(state.map).toBe(false);
    expect(state.insight.map).toBe(false);
    expect(await page.locator('#map').isHidden()).toBe(true);
    // Hidden, the counts are still those of the player's query (analysed when read).
    rule = byRule(state, nodes);
    expect(state.insight).toMatchObject({
      visited: rule.visited,
      pruned: rule.pruned,
      covered: rule.covered,
    });
    expect((await getState(page)).insight.map).toBe(false);
    expect(errors).toEqual([]);
  });

  it('a radius that holds the whole level (the small arena level): nothing pruned, the root visited, its children covered, by the rule', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, '?level=arena&map=1&radius=100');
    await waitFrames(page, 2);
    const { state, nodes } = await read(page);
    expect(state.level.name).toBe('arena');
    // The circle holds the whole tree: its farthest root corner is within the radius.
    const root = nodes[0];
    const far = Math.hypot(
      Math.max(state.player.x - root.minX, root.maxX - state.player.x),
      Math.max(state.player.z - root.minY, root.maxY - state.player.z),
    );
    expect(far).toBeLessThanOrEqual(state.radius);
    expect(state.tree.depth).toBeGreaterThan(1); // a real tree below the root's children
    const rule = byRule(state, nodes);
    const i = state.insight;
    expect({ visited: i.visited, pruned: i.pruned, covered: i.covered }).toEqual({
      visited: rule.visited,
      pruned: rule.pruned,
      covered: rule.covered,
    });
    expect(i.pruned).toBe(0);
    expect(i.visited).toBe(1); // the root: it tests its children's rectangles, then hands each over whole
    expect(i.covered).toBeGreaterThan(0);
    expect(i.covered).toBeLessThanOrEqual(4);
    expect(i.drawn).toEqual({ visited: 1, pruned: 0, covered: i.covered });
    expect(i.visited + i.covered + rule.below).toBe(state.lastQuery.nodesVisited);
    expect(state.lastQuery.pointsTested).toBe(0); // every point handed over without a test
    expect(state.found).toHaveLength(state.enemyCount);
    expect(errors).toEqual([]);
  });

  it('shows the rectangle query: its outline where the rectangle lies on the map, shaped like the level', async () => {
    // Camps is 260 x 220: the map is as wide as ever and less deep, with no empty strip.
    const { page, errors } = await openScene(
      browser(),
      baseUrl,
      '?level=camps&map=1&enemies=500&radius=5&nodes=0',
    );
    expect(await page.evaluate(composeMap)).toEqual([240, Math.round((220 / 260) * 240)]);
    const box = (await page.locator('canvas#scene').boundingBox())!;
    expect((await getState(page)).rect).toBeNull();
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.35);
    await page.mouse.down({ button: 'right' });
    await page.mouse.move(box.x + box.width * 0.65, box.y + box.height * 0.75, { steps: 6 });
    await page.mouse.up({ button: 'right' });
    await waitFrames(page, 3);
    const state = await getState(page);
    expect(state.rect).not.toBeNull();
    await page.evaluate(composeMap);
    const edges = await page.evaluate(
      ({ rect, level, colour }) => {
        const c = (window as unknown as { __map: ImageData }).__map;
        const data = c.data;
        const want = [1, 3, 5].map((k) => Number.parseInt(colour.slice(k, k + 2), 16));
        const scale = Math.max(c.width, c.height) / Math.max(level.width, level.depth);
        const px = (x: number) => (x + level.width / 2) * scale;
        const py = (z: number) => (z + level.depth / 2) * scale;
        // Is there a pixel of the rectangle's colour within a pixel of (x, y)?
        const near = (x: number, y: number) => {
          for (let dy = -1; dy <= 1; dy++)
            for (let dx = -1; dx <= 1; dx++) {
              const p = (Math.round(y + dy) * c.width + Math.round(x + dx)) * 4;
              if (want.every((v, k) => Math.abs(data[p + k] - v) < 24)) return true;
            }
          return false;
        };
        const midX = px((rect.minX + rect.maxX) / 2);
        const midZ = py((rect.minZ + rect.maxZ) / 2);
        return {
          top: near(midX, py(rect.minZ)),
          bottom: near(midX, py(rect.maxZ)),
          left: near(px(rect.minX), midZ),
          right: near(px(rect.maxX), midZ),
          // Off the outline, a little inside it: no outline there.
          inside: near(px(rect.minX) + 6, py(rect.minZ) + 6) && near(px(rect.maxX) - 6, py(rect.maxZ) - 6),
        };
      },
      { rect: state.rect!, level: state.level, colour: state.colors.rect },
    );
    expect(edges).toEqual({ top: true, bottom: true, left: true, right: true, inside: false });
    expect(errors).toEqual([]);
  });
});
