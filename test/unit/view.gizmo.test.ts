/**
 * The scene's node gizmos. Their geometry (8 vertices per leaf, buffers, version-driven redraw, the visited
 * mode) is the library helper's and is tested with it (quadtree.three.helper.test.ts); here: that the
 * scene's helper draws the tree where the scene's world mapping (src/sim/world.ts) puts it, with the
 * scene's defaults.
 */

import { PointQuadtree } from 'point-quadtree';
import { visitCircle, visitNodes } from 'point-quadtree/debug';
import { QuadtreeHelper } from 'point-quadtree/three';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';
import { treeX, treeY, worldX, worldZ } from '../../src/sim/world';
import { QuadtreeNodesHelper } from '../../src/view/QuadtreeNodesHelper';

function tree(n: number, seed = 1): PointQuadtree {
  const t = new PointQuadtree({
    bounds: { minX: -100, minY: -100, maxX: 100, maxY: 100 },
    maxItems: 4,
    minSize: 1,
  });
  const r = mulberry32(seed);
  for (let i = 0; i < n; i++) t.insert(i, treeX(r() * 200 - 100), treeY(r() * 200 - 100));
  return t;
}

/** The ground rectangles a helper drew, as [minX, minZ, maxX, maxZ] (from its bottom and right edges), and its height. */
function drawn(h: QuadtreeHelper): { rects: number[][]; heights: Set<number> } {
  const p = h.geometry.getAttribute('position').array as Float32Array;
  const rects: number[][] = [];
  const heights = new Set<number>();
  for (let i = 0; i < h.rectCount; i++) {
    const o = i * 24;
    rects.push([p[o], p[o + 2], p[o + 3], p[o + 11]]);
    for (let k = 1; k < 24; k += 3) heights.add(p[o + k]);
  }
  return { rects: rects.sort((a, b) => a[0] - b[0] || a[1] - b[1]), heights };
}

/** The ground rectangles of the leaves `visit` reports, through the scene's tree-to-world mapping. */
function groundRects(
  visit: (
    cb: (n: { isLeaf: boolean; minX: number; minY: number; maxX: number; maxY: number }) => void,
  ) => void,
): number[][] {
  const rects: number[][] = [];
  visit((n) => {
    if (n.isLeaf) rects.push([worldX(n.minX), worldZ(n.minY), worldX(n.maxX), worldZ(n.maxY)]);
  });
  return rects.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

describe('QuadtreeNodesHelper (the scene gizmo, a QuadtreeHelper)', () => {
  it('draws every leaf on the ground at world (x, z), lifted 0.03 unless told, white unless told', () => {
    const t = tree(300);
    const h = new QuadtreeNodesHelper(t);
    expect(h).toBeInstanceOf(QuadtreeHelper);
    expect(h.name).toBe('quadtree-nodes');
    expect(h.plane).toBe('xz');
    expect(h.material.color.getHex()).toBe(0xffffff);
    const { rects, heights } = drawn(h);
    expect(rects).toEqual(groundRects((cb) => visitNodes(t, cb)));
    expect([...heights]).toEqual([Math.fround(0.03)]);
    const lifted = new QuadtreeNodesHelper(t, 'leaves', { height: 0.5, color: 0x123456, opacity: 0.8 });
    expect([...drawn(lifted).heights]).toEqual([0.5]);
    expect(lifted.material.color.getHex()).toBe(0x123456);
    expect(lifted.material.opacity).toBe(0.8);
  });

  it("the visited helper draws the leaves the player's circle visits, the circle given in tree units", () => {
    const t = tree(2000, 5);
    const h = new QuadtreeNodesHelper(t, 'visited');
    expect(h.name).toBe('quadtree-visited');
    const [playerX, playerZ, radius] = [10, -20, 15];
    h.setCircle(treeX(playerX), treeY(playerZ), radius);
    h.update();
    expect(h.rectCount).toBeGreaterThan(0);
    expect(drawn(h).rects).toEqual(
      groundRects((cb) => visitCircle(t, treeX(playerX), treeY(playerZ), radius, cb)),
    );
  });
});
