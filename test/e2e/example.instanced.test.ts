/**
 * The package's three.js example page (examples/instanced.html, the second page of the build): it starts
 * without an error, the mouse on the ground finds exactly the enemies a brute-force scan finds, they and
 * only they are recoloured, and both QuadtreeHelpers draw what the tree says. Read through the page's
 * small hook, `window.quadtreeExample`; waits are on its frame counter, never on the clock.
 */

import type { Page } from 'playwright-core';
import type { treeStats, visitCircle } from 'point-quadtree/debug';
import type { QuadtreeHelper } from 'point-quadtree/three';
import { Color, type InstancedMesh, type Scene, type Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { newScenePage, scanCircle, useBrowser, VIEWPORT } from './helpers';

interface ExampleHook {
  frames: number;
  scene: Scene;
  mouse: Vector3;
  radius: number;
  found(): number[];
  visitCircle: typeof visitCircle;
  treeStats: typeof treeStats;
}

declare global {
  interface Window {
    quadtreeExample?: ExampleHook;
  }
}

const { browser, baseUrl } = useBrowser();

/** Wait until the page has drawn `n` more frames than it had when called (at least `n` after 0). */
async function waitFrames(page: Page, n: number): Promise<void> {
  const start = await page.evaluate(() => window.quadtreeExample?.frames ?? 0);
  await page.waitForFunction((target) => (window.quadtreeExample?.frames ?? -1) >= target, start + n, {
    polling: 50,
  });
}

/** The example's two colours as its instance colour buffer holds them (three's linear working space, float32). */
const COLORS = { base: new Color(0x5a7a8c), hit: new Color(0xffcc33) };

/** Each instance's colour as 'base', 'hit' or 'other'. */
function colorsOf(rgb: number[]): string[] {
  const kinds: string[] = [];
  for (let i = 0; i < rgb.length; i += 3) {
    const is = (c: Color) =>
      rgb[i] === Math.fround(c.r) && rgb[i + 1] === Math.fround(c.g) && rgb[i + 2] === Math.fround(c.b);
    kinds.push(is(COLORS.hit) ? 'hit' : is(COLORS.base) ? 'base' : 'other');
  }
  return kinds;
}

/** One synchronous read of the page between two frames: everything below is from the same frame. */
function readFrame(page: Page) {
  return page.evaluate(() => {
    const hook = window.quadtreeExample!;
    const enemies = hook.scene.children.find((o) => (o as InstancedMesh).isInstancedMesh) as InstancedMesh;
    const helpers = hook.scene.children.filter((o) => o.type === 'QuadtreeHelper') as QuadtreeHelper[];
    const [leaves, visited] = helpers;
    const m = enemies.instanceMatrix.array;
    const colors = enemies.instanceColor!.array as Float32Array;
    const positions: number[] = [];
    for (let i = 0; i < enemies.count; i++) {
      // the mesh sits at the origin: an instance's world X/Z is its translation
      positions.push(m[16 * i + 12], m[16 * i + 14]);
    }
    const tree = leaves.tree;
    let visitedLeaves = 0;
    hook.visitCircle(tree, hook.mouse.x, hook.mouse.z, hook.radius, (node) => {
      if (node.isLeaf) visitedLeaves++;
    });
    return {
      frames: hook.frames,
      mouse: { x: hook.mouse.x, z: hook.mouse.z },
      radius: hook.radius,
      found: hook.found().sort((a, b) => a - b),
      positions,
      colors: Array.from(colors.subarray(0, 3 * enemies.count)),
      matrixWorld: enemies.matrixWorld.elements.slice(),
      helpers: helpers.length,
      treeLeaves: hook.treeStats(tree).leaves,
      leavesDrawn: leaves.rectCount,
      visitedShown: visited.visible,
      visitedDrawn: visited.rectCount,
      visitedLeaves,
    };
  });
}

describe('the point-quadtree/three example page', () => {
  it('finds exactly the enemies within the radius of the mouse, recolours them, and draws the helpers', async () => {
    const { page, errors } = await newScenePage(browser());
    await page.goto(new URL('examples/instanced.html', baseUrl).toString());
    await page.waitForFunction(() => (window.quadtreeExample?.frames ?? 0) >= 3, undefined, { polling: 50 });

    const before = await readFrame(page);
    expect(before.found).toEqual([]); // no mouse yet
    expect(before.visitedShown).toBe(false);
    expect(before.helpers).toBe(2);
    expect(before.positions.length / 2).toBeGreaterThanOrEqual(2000);

    const seen = new Set<number>();
    const spots: [number, number][] = [
      [VIEWPORT.width / 2, VIEWPORT.height / 2],
      [VIEWPORT.width * 0.3, VIEWPORT.height * 0.7],
      [VIEWPORT.width * 0.75, VIEWPORT.height * 0.35],
    ];
    for (const [sx, sy] of spots) {
      await page.mouse.move(sx, sy);
      await waitFrames(page, 3);
      const f = await readFrame(page);
      expect(f.matrixWorld).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
      const brute = scanCircle(f.positions, f.mouse.x, f.mouse.z, f.radius);
      expect(brute.length, `enemies near the mouse at (${sx}, ${sy})`).toBeGreaterThan(0);
      expect(f.found).toEqual(brute);
      // the found ones, and only they, are yellow
      const kinds = colorsOf(f.colors);
      expect(kinds.flatMap((k, i) => (k === 'hit' ? [i] : []))).toEqual(brute);
      expect(kinds.filter((k) => k !== 'hit').every((k) => k === 'base')).toBe(true);
      // the helpers draw every leaf, and the leaves this query visits
      expect(f.leavesDrawn).toBe(f.treeLeaves);
      expect(f.treeLeaves).toBeGreaterThan(16);
      expect(f.visitedShown).toBe(true);
      expect(f.visitedDrawn).toBe(f.visitedLeaves);
      expect(f.visitedDrawn).toBeGreaterThan(0);
      for (const id of f.found) seen.add(id);
      expect(f.frames).toBeGreaterThan(before.frames);
    }
    expect(seen.size).toBeGreaterThan(10);

    // the enemies move between frames
    const a = await readFrame(page);
    await waitFrames(page, 3);
    const b = await readFrame(page);
    expect(b.positions).not.toEqual(a.positions);
    expect(errors).toEqual([]);
  });
});
