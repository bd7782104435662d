import { PointQuadtree } from 'point-quadtree';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';
import { QuadtreeNodesHelper } from '../../src/view/QuadtreeNodesHelper';

function tree(n: number, seed = 1): PointQuadtree {
  const t = new PointQuadtree({
    bounds: { minX: -100, minY: -100, maxX: 100, maxY: 100 },
    maxItems: 4,
    minSize: 1,
  });
  const r = mulberry32(seed);
  for (let i = 0; i < n; i++) t.insert(i, r() * 200 - 100, r() * 200 - 100);
  return t;
}

/** The rectangles a helper drew, as [minX, minZ, maxX, maxZ] (from its bottom edge and right edge). */
function drawnRects(h: QuadtreeNodesHelper): number[][] {
  const p = h.geometry.getAttribute('position').array as Float32Array;
  const rects: number[][] = [];
  for (let i = 0; i < h.rectCount; i++) {
    const o = i * 24;
    rects.push([p[o], p[o + 2], p[o + 3], p[o + 11]]);
  }
  return rects.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

function leafRects(t: PointQuadtree, filter = (_r: number[]) => true): number[][] {
  const rects: number[][] = [];
  t.visitNodes((n) => {
    if (n.isLeaf) rects.push([n.minX, n.minY, n.maxX, n.maxY]);
  });
  return rects.filter(filter).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

describe('QuadtreeNodesHelper', () => {
  it('is a LineSegments drawing 4 segments per leaf, on the ground plane', () => {
    const t = tree(300);
    const h = new QuadtreeNodesHelper(t, 'leaves', { height: 0.5 });
    expect(h.isLineSegments).toBe(true);
    expect(h.update()).toBe(true);
    expect(h.rectCount).toBe(t.stats().leaves);
    expect(h.geometry.drawRange.count).toBe(h.rectCount * 8);
    expect(drawnRects(h)).toEqual(leafRects(t));
    const p = h.geometry.getAttribute('position').array as Float32Array;
    for (let i = 1; i < h.rectCount * 24; i += 3) expect(p[i]).toBe(0.5);
  });

  it('redraws only when the tree version changed (or the tree was replaced)', () => {
    const t = tree(200);
    const h = new QuadtreeNodesHelper(t);
    expect(h.update()).toBe(true);
    expect(h.update()).toBe(false);
    const v = t.version;
    for (let i = 1000; i < 1100; i++) t.insert(i, 50 + (i % 10) * 0.1, 50 + (i % 7) * 0.1);
    expect(t.version).not.toBe(v);
    expect(h.update()).toBe(true);
    expect(drawnRects(h)).toEqual(leafRects(t));
    h.tree = tree(50, 2);
    expect(h.update()).toBe(true);
    expect(drawnRects(h)).toEqual(leafRects(h.tree));
  });

  it('reuses its buffer, grows it by doubling, and disposes the geometry it replaces', () => {
    const small = tree(10);
    const h = new QuadtreeNodesHelper(small, 'leaves', { capacity: 16 });
    h.update();
    const first = h.geometry;
    const buffer = first.getAttribute('position').array;
    h.tree = tree(20, 3);
    h.update();
    expect(h.geometry).toBe(first);
    expect(h.geometry.getAttribute('position').array).toBe(buffer);

    let disposed = 0;
    first.addEventListener('dispose', () => disposed++);
    const big = tree(3000, 4);
    h.tree = big;
    h.update();
    const leaves = big.stats().leaves;
    expect(h.rectCount).toBe(leaves);
    expect(disposed).toBe(1);
    expect(h.geometry).not.toBe(first);
    const capacity = h.capacityRects;
    expect(Math.log2(capacity / 16) % 1).toBe(0); // 16 doubled
    expect(capacity).toBeGreaterThanOrEqual(leaves);
    expect(capacity).toBeLessThan(leaves * 2);
    expect(drawnRects(h)).toEqual(leafRects(big));
  });

  /** The leaves the tree's own visitCircle reports for a circle, as rectangles. */
  function visitedLeaves(t: PointQuadtree, x: number, y: number, r: number): number[][] {
    const rects: number[][] = [];
    let nodes = 0;
    t.visitCircle(x, y, r, (n) => {
      nodes++;
      if (n.isLeaf) rects.push([n.minX, n.minY, n.maxX, n.maxY]);
    });
    // visitCircle reports exactly the nodes the query visits (the library's tests check the rule itself)
    t.queryCircle(x, y, r);
    expect(nodes).toBe(t.lastQuery.nodesVisited);
    return rects.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  }

  it("visited mode draws the leaves a circle query visits (the tree's visitCircle)", () => {
    const t = tree(2000, 5);
    const h = new QuadtreeNodesHelper(t, 'visited');
    const [cx, cy, r] = [10, -20, 15];
    h.setCircle(cx, cy, r);
    h.update();
    expect(drawnRects(h)).toEqual(visitedLeaves(t, cx, cy, r));
    expect(h.rectCount).toBeGreaterThan(0);
    expect(h.rectCount).toBeLessThan(t.stats().leaves);
    // Every enemy found lies in a drawn leaf.
    const rects = drawnRects(h);
    const rnd = mulberry32(5);
    const pos: number[][] = [];
    for (let i = 0; i < 2000; i++) pos.push([rnd() * 200 - 100, rnd() * 200 - 100]);
    for (const id of t.queryCircle(cx, cy, r)) {
      const [x, y] = pos[id];
      expect(
        rects.some((b) => x >= b[0] && x <= b[2] && y >= b[1] && y <= b[3]),
        `id ${id}`,
      ).toBe(true);
    }
    // Always redraws: the circle moves.
    h.setCircle(-50, 50, 5);
    expect(h.update()).toBe(true);
    expect(drawnRects(h)).toEqual(visitedLeaves(t, -50, 50, 5));
  });

  it("visited mode follows a loose tree's query: it reaches leaves a strict rectangle test would miss", () => {
    const looseness = 6;
    const t = new PointQuadtree({
      bounds: { minX: -100, minY: -100, maxX: 100, maxY: 100 },
      maxItems: 4,
      minSize: 1,
      looseness,
    });
    const r = mulberry32(7);
    const xs = new Float64Array(2000);
    const ys = new Float64Array(2000);
    for (let i = 0; i < xs.length; i++) {
      xs[i] = r() * 200 - 100;
      ys[i] = r() * 200 - 100;
      t.insert(i, xs[i], ys[i]);
    }
    // Small steps: many items stray outside their leaves without being re-filed.
    for (let step = 0; step < 10; step++) {
      for (let i = 0; i < xs.length; i++) {
        xs[i] = Math.max(-100, Math.min(100, xs[i] + (r() - 0.5) * 3));
        ys[i] = Math.max(-100, Math.min(100, ys[i] + (r() - 0.5) * 3));
      }
      t.moveAll(xs, ys);
    }
    const h = new QuadtreeNodesHelper(t, 'visited');
    let moreThanStrict = 0;
    for (const [cx, cy, radius] of [
      [10, -20, 15],
      [0, 0, 3],
      [-97, 99, 8], // at the root's corner
      [130, 0, 35], // centre outside the root
    ]) {
      h.setCircle(cx, cy, radius);
      h.update();
      expect(drawnRects(h)).toEqual(visitedLeaves(t, cx, cy, radius));
      // Every enemy found (some outside their leaf's own rectangle) lies within looseness of a drawn leaf.
      const rects = drawnRects(h);
      for (const id of t.queryCircle(cx, cy, radius)) {
        const near = rects.some(
          (b) =>
            xs[id] >= b[0] - looseness &&
            xs[id] <= b[2] + looseness &&
            ys[id] >= b[1] - looseness &&
            ys[id] <= b[3] + looseness,
        );
        expect(near, `id ${id}`).toBe(true);
      }
      // A drawn leaf whose own rectangle lies beyond the radius: reached only through looseness.
      const beyond = rects.filter((b) => {
        const dx = Math.max(b[0] - cx, 0, cx - b[2]);
        const dy = Math.max(b[1] - cy, 0, cy - b[3]);
        return dx * dx + dy * dy > radius * radius;
      });
      if (beyond.length > 0) moreThanStrict++;
    }
    expect(moreThanStrict).toBeGreaterThan(0);
  });

  it('dispose frees geometry and material', () => {
    const h = new QuadtreeNodesHelper(tree(10));
    let events = 0;
    h.geometry.addEventListener('dispose', () => events++);
    h.material.addEventListener('dispose', () => events++);
    h.dispose();
    expect(events).toBe(2);
  });
});
