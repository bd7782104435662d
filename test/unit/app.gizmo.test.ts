import { describe, expect, it } from 'vitest';
import { QuadtreeNodesHelper } from '../../src/QuadtreeNodesHelper';
import { PointQuadtree } from '../../src/quadtree';
import { mulberry32 } from '../../src/random';

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

  it('visited mode draws the leaves a circle query reaches', () => {
    const t = tree(2000, 5);
    const h = new QuadtreeNodesHelper(t, 'visited');
    const [cx, cy, r] = [10, -20, 15];
    h.setCircle(cx, cy, r);
    h.update();
    const reaches = (b: number[]) => {
      const dx = Math.max(b[0] - cx, 0, cx - b[2]);
      const dy = Math.max(b[1] - cy, 0, cy - b[3]);
      return dx * dx + dy * dy <= r * r;
    };
    expect(drawnRects(h)).toEqual(leafRects(t, reaches));
    expect(h.rectCount).toBeGreaterThan(0);
    expect(h.rectCount).toBeLessThan(t.stats().leaves);
    t.queryCircle(cx, cy, r);
    expect(h.rectCount).toBeLessThanOrEqual(t.lastQuery.nodesVisited);
    // Always redraws: the circle moves.
    h.setCircle(-50, 50, 5);
    expect(h.update()).toBe(true);
  });

  it("visited mode follows a loose tree's pruning: node rectangles grown by looseness, clipped to the root", () => {
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
        t.move(i, xs[i], ys[i]);
      }
    }
    const root = t.bounds;
    const h = new QuadtreeNodesHelper(t, 'visited');
    let moreThanStrict = 0;
    for (const [cx, cy, radius] of [
      [10, -20, 15],
      [0, 0, 3],
      [-97, 99, 8], // at the root's corner: the clipping matters
      [130, 0, 35], // centre outside the root
    ]) {
      h.setCircle(cx, cy, radius);
      h.update();
      const r2 = radius * radius;
      const dist2 = (minX: number, minY: number, maxX: number, maxY: number) => {
        const dx = Math.max(minX - cx, 0, cx - maxX);
        const dy = Math.max(minY - cy, 0, cy - maxY);
        return dx * dx + dy * dy;
      };
      const expected: number[][] = [];
      let reached = 0;
      t.visitNodes((n) => {
        const grown = dist2(
          Math.max(n.minX - looseness, root.minX),
          Math.max(n.minY - looseness, root.minY),
          Math.min(n.maxX + looseness, root.maxX),
          Math.min(n.maxY + looseness, root.maxY),
        );
        if (grown > r2) return true;
        if (!n.isLeaf || n.count > 0) reached++; // the query skips empty leaves only
        if (n.isLeaf) expected.push([n.minX, n.minY, n.maxX, n.maxY]);
        return false;
      });
      expect(drawnRects(h)).toEqual(expected.sort((a, b) => a[0] - b[0] || a[1] - b[1]));
      // The same rule as the query's own: it visits exactly those nodes (less the empty leaves).
      t.queryCircle(cx, cy, radius);
      expect(reached).toBe(t.lastQuery.nodesVisited);
      const strict = leafRects(t, (b) => dist2(b[0], b[1], b[2], b[3]) <= r2).length;
      if (h.rectCount > strict) moreThanStrict++;
    }
    expect(moreThanStrict).toBeGreaterThan(0); // the unclipped, ungrown rule would draw too few
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
