import { PointQuadtree } from 'point-quadtree';
import { treeStats, visitCircle, visitNodes } from 'point-quadtree/debug';
import { QuadtreeHelper, type QuadtreeHelperOptions } from 'point-quadtree/three';
import type { BufferAttribute } from 'three';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';
import { instrumented, leastBytesPerCall } from '../helpers/allocation';

/** Seeded points in -100..100, as the arrays moveAll takes. */
function points(n: number, seed: number): { xs: Float64Array; ys: Float64Array } {
  const r = mulberry32(seed);
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    xs[i] = r() * 200 - 100;
    ys[i] = r() * 200 - 100;
  }
  return { xs, ys };
}

function tree(n: number, seed = 1): PointQuadtree {
  const t = new PointQuadtree({
    bounds: { minX: -100, minY: -100, maxX: 100, maxY: 100 },
    maxItems: 4,
    minSize: 1,
  });
  const { xs, ys } = points(n, seed);
  for (let i = 0; i < n; i++) t.insert(i, xs[i], ys[i]);
  return t;
}

function positions(h: QuadtreeHelper): Float32Array {
  return h.geometry.getAttribute('position').array as Float32Array;
}

/**
 * The rectangles a helper drew, as [minX, minY, maxX, maxY] in tree units, read back from all 8 vertices of
 * each: the test fails unless they are the closed loop (min,min) (max,min) (max,max) (min,max) as 4 segments,
 * every vertex at `height` on the plane's normal.
 */
function drawnRects(h: QuadtreeHelper, plane: 'xz' | 'xy' = 'xz', height = 0): number[][] {
  const [a, b, up] = plane === 'xz' ? [0, 2, 1] : [0, 1, 2];
  const p = positions(h);
  const rects: number[][] = [];
  for (let i = 0; i < h.rectCount; i++) {
    const v = (k: number) => [p[i * 24 + k * 3 + a], p[i * 24 + k * 3 + b]];
    for (let k = 0; k < 8; k++) expect(p[i * 24 + k * 3 + up]).toBe(Math.fround(height));
    const [x0, y0] = v(0);
    const [x1, y1] = v(4);
    // bottom, right, top, left: each segment starts where the previous one ended
    expect([v(0), v(1), v(2), v(3), v(4), v(5), v(6), v(7)]).toEqual([
      [x0, y0],
      [x1, y0],
      [x1, y0],
      [x1, y1],
      [x1, y1],
      [x0, y1],
      [x0, y1],
      [x0, y0],
    ]);
    rects.push([x0, y0, x1, y1]);
  }
  return rects.sort((r, s) => r[0] - s[0] || r[1] - s[1]);
}

const byCorner = (r: number[], s: number[]) => r[0] - s[0] || r[1] - s[1];
const f = Math.fround;

function leafRects(t: PointQuadtree): number[][] {
  const rects: number[][] = [];
  visitNodes(t, (n) => {
    if (n.isLeaf) rects.push([f(n.minX), f(n.minY), f(n.maxX), f(n.maxY)]);
  });
  return rects.sort(byCorner);
}

/** The leaves the tree's own visitCircle reports for a circle, as rectangles. */
function visitedLeaves(t: PointQuadtree, x: number, y: number, r: number): number[][] {
  const rects: number[][] = [];
  let nodes = 0;
  visitCircle(t, x, y, r, (n) => {
    nodes++;
    if (n.isLeaf) rects.push([f(n.minX), f(n.minY), f(n.maxX), f(n.maxY)]);
  });
  // visitCircle reports exactly the nodes the query visits (the library's tests check the rule itself)
  t.queryCircle(x, y, r);
  expect(nodes).toBe(t.lastQuery.nodesVisited);
  return rects.sort(byCorner);
}

describe('QuadtreeHelper geometry', () => {
  it('is a LineSegments of 8 vertices per leaf on the XZ plane at its height, drawn at construction', () => {
    const t = tree(300);
    const h = new QuadtreeHelper(t, { height: 0.5 });
    expect(h.isLineSegments).toBe(true);
    expect(h.type).toBe('QuadtreeHelper');
    expect(h.rectCount).toBe(treeStats(t).leaves);
    expect(h.rectCount).toBeGreaterThan(50);
    expect(h.geometry.drawRange).toEqual({ start: 0, count: h.rectCount * 8 });
    expect(drawnRects(h, 'xz', 0.5)).toEqual(leafRects(t));
    // a small buffer is uploaded whole (no range object for three's renderer to drop)
    const attribute = h.geometry.getAttribute('position') as BufferAttribute;
    expect(attribute.updateRanges).toEqual([]);
    expect(attribute.version).toBe(1);
    expect(h.update()).toBe(false);
  });

  it("on the 'xy' plane: tree x is X, tree y is Y, the height is Z", () => {
    const t = tree(200, 2);
    const h = new QuadtreeHelper(t, { plane: 'xy', height: -2 });
    expect(h.plane).toBe('xy');
    expect(drawnRects(h, 'xy', -2)).toEqual(leafRects(t));
  });

  it('an empty tree draws its root leaf; a tree grown outside its bounds draws the grown root', () => {
    const t = new PointQuadtree({ bounds: { minX: 0, minY: 0, maxX: 10, maxY: 10 } });
    const h = new QuadtreeHelper(t);
    expect(drawnRects(h)).toEqual([[0, 0, 10, 10]]);
    t.insert(0, 35, -4);
    expect(h.update()).toBe(true);
    expect(drawnRects(h)).toEqual(leafRects(t));
    expect(leafRects(t)[0][2]).toBeGreaterThanOrEqual(35);
  });
});

describe('QuadtreeHelper redraws on version changes only', () => {
  it('skips update() while the version stands (moves inside leaves), redraws after a split, a new tree or a mode change', () => {
    const t = tree(200);
    const h = new QuadtreeHelper(t);
    const attribute = h.geometry.getAttribute('position') as BufferAttribute;
    const uploads = attribute.version;
    expect(h.update()).toBe(false);
    // every point nudged: the leaves and the version stay, so nothing is redrawn or uploaded
    const v = t.version;
    const { xs, ys } = points(200, 1);
    for (let i = 0; i < xs.length; i++) xs[i] += 1e-9;
    t.moveAll(xs, ys);
    expect(t.version).toBe(v);
    expect(h.update()).toBe(false);
    expect(attribute.version).toBe(uploads);

    for (let i = 1000; i < 1100; i++) t.insert(i, 50 + (i % 10) * 0.1, 50 + (i % 7) * 0.1);
    expect(t.version).not.toBe(v);
    expect(h.update()).toBe(true);
    expect(attribute.version).toBe(uploads + 1);
    expect(drawnRects(h)).toEqual(leafRects(t));

    h.tree = tree(50, 2);
    expect(h.update()).toBe(true);
    expect(drawnRects(h)).toEqual(leafRects(h.tree));
    expect(h.update()).toBe(false);

    h.mode = 'visited';
    expect(h.update()).toBe(true);
    expect(h.rectCount).toBe(0); // no circle yet
    h.mode = 'leaves';
    expect(h.update()).toBe(true);
    expect(drawnRects(h)).toEqual(leafRects(h.tree));
  });

  it('reuses its buffer, grows it by doubling, and disposes the geometry it replaces', () => {
    const h = new QuadtreeHelper(tree(10), { capacity: 16 });
    const first = h.geometry;
    const buffer = positions(h);
    h.tree = tree(20, 3);
    h.update();
    expect(h.geometry).toBe(first);
    expect(positions(h)).toBe(buffer);

    let disposed = 0;
    first.addEventListener('dispose', () => disposed++);
    const big = tree(3000, 4);
    h.tree = big;
    h.update();
    const leaves = treeStats(big).leaves;
    expect(h.rectCount).toBe(leaves);
    expect(disposed).toBe(1);
    expect(h.geometry).not.toBe(first);
    const capacity = h.capacityRects;
    expect(Math.log2(capacity / 16) % 1).toBe(0); // 16 doubled
    expect(capacity).toBeGreaterThanOrEqual(leaves);
    expect(capacity).toBeLessThan(leaves * 2);
    expect(drawnRects(h)).toEqual(leafRects(big));
    expect((h.geometry.getAttribute('position') as BufferAttribute).updateRanges).toEqual([]);
    // back to a small tree: the grown buffer stays, and only the drawn part of it is uploaded
    const grown = positions(h);
    h.tree = tree(10, 5);
    h.update();
    expect(positions(h)).toBe(grown);
    expect(drawnRects(h)).toEqual(leafRects(h.tree));
    const ranges = (h.geometry.getAttribute('position') as BufferAttribute).updateRanges;
    expect(ranges).toEqual([{ start: 0, count: h.rectCount * 24 }]);
    const range = ranges[0];
    h.tree = tree(30, 6);
    h.update();
    expect(ranges).toEqual([{ start: 0, count: h.rectCount * 24 }]);
    expect(ranges[0]).toBe(range); // the same object, rewritten
  });
});

describe("QuadtreeHelper 'visited' mode", () => {
  it("draws the leaves a circle query visits, exactly the tree's visitCircle, and redraws every update", () => {
    const t = tree(2000, 5);
    const h = new QuadtreeHelper(t, { mode: 'visited' });
    expect(h.rectCount).toBe(0); // nothing until a circle is set
    const [cx, cy, r] = [10, -20, 15];
    h.setCircle(cx, cy, r);
    expect(h.update()).toBe(true);
    expect(drawnRects(h)).toEqual(visitedLeaves(t, cx, cy, r));
    expect(h.rectCount).toBeGreaterThan(0);
    expect(h.rectCount).toBeLessThan(treeStats(t).leaves);
    // every point found lies in a drawn leaf
    const rects = drawnRects(h);
    const { xs, ys } = points(2000, 5);
    for (const id of t.queryCircle(cx, cy, r)) {
      const [x, y] = [f(xs[id]), f(ys[id])];
      expect(
        rects.some((b) => x >= b[0] && x <= b[2] && y >= b[1] && y <= b[3]),
        `id ${id}`,
      ).toBe(true);
    }
    h.setCircle(-50, 50, 5);
    expect(h.update()).toBe(true);
    expect(drawnRects(h)).toEqual(visitedLeaves(t, -50, 50, 5));
    // radius 0 and a circle beyond the root
    for (const [x, y, radius] of [
      [3, 3, 0],
      [500, 500, 10],
      [0, 0, 1000],
    ]) {
      h.setCircle(x, y, radius);
      h.update();
      expect(drawnRects(h)).toEqual(visitedLeaves(t, x, y, radius));
    }
  });

  it("follows a loose tree's query: it reaches leaves a strict rectangle test would miss", () => {
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
    // small steps: many items stray outside their leaves without being re-filed
    for (let step = 0; step < 10; step++) {
      for (let i = 0; i < xs.length; i++) {
        xs[i] = Math.max(-100, Math.min(100, xs[i] + (r() - 0.5) * 3));
        ys[i] = Math.max(-100, Math.min(100, ys[i] + (r() - 0.5) * 3));
      }
      t.moveAll(xs, ys);
    }
    const h = new QuadtreeHelper(t, { mode: 'visited' });
    let moreThanStrict = 0;
    for (const [cx, cy, radius] of [
      [10, -20, 15],
      [0, 0, 3],
      [-97, 99, 8], // at the root's corner
      [130, 0, 35], // centre outside the root
    ]) {
      h.setCircle(cx, cy, radius);
      h.update();
      const rects = drawnRects(h);
      expect(rects).toEqual(visitedLeaves(t, cx, cy, radius));
      // a drawn leaf whose own rectangle lies beyond the radius: reached only through looseness
      const beyond = rects.filter((b) => {
        const dx = Math.max(b[0] - cx, 0, cx - b[2]);
        const dy = Math.max(b[1] - cy, 0, cy - b[3]);
        return dx * dx + dy * dy > radius * radius;
      });
      if (beyond.length > 0) moreThanStrict++;
    }
    expect(moreThanStrict).toBeGreaterThan(0);
  });

  it.skipIf(instrumented)(
    'allocates nothing per update once its buffer has grown (a circle that moves every frame)',
    () => {
      const t = tree(5000, 8);
      const h = new QuadtreeHelper(t, { mode: 'visited' });
      const frames = (count: number) => {
        let drawn = 0;
        for (let k = 0; k < count; k++) {
          h.setCircle(((k * 37) % 180) - 90, ((k * 53) % 180) - 90, 5 + (k % 20));
          h.update();
          drawn += h.rectCount;
        }
        return drawn;
      };
      frames(5000);
      // a small object per update (an update range, a closure) is 20 bytes or more
      const least = leastBytesPerCall(frames, 5000, 5);
      expect(least, `${least} bytes per update`).toBeLessThan(16);
    },
  );
});

describe('QuadtreeHelper input and disposal', () => {
  it.each<[string, QuadtreeHelperOptions, RegExp]>([
    ['plane', { plane: 'yz' as 'xz' }, /^QuadtreeHelper: plane must be 'xz' or 'xy', got 'yz'$/],
    [
      'plane from the prototype',
      { plane: 'toString' as 'xz' },
      /plane must be 'xz' or 'xy', got 'toString'$/,
    ],
    ['mode', { mode: 'all' as 'leaves' }, /^QuadtreeHelper: mode must be 'leaves' or 'visited', got 'all'$/],
    ['height', { height: Number.NaN }, /^QuadtreeHelper: height must be a finite number, got NaN$/],
    ['opacity', { opacity: 1.5 }, /^QuadtreeHelper: opacity must be a number from 0 to 1, got 1.5$/],
    ['capacity', { capacity: 0 }, /^QuadtreeHelper: capacity must be an integer >= 1, got 0$/],
    ['capacity fraction', { capacity: 2.5 }, /capacity must be an integer >= 1, got 2.5$/],
  ])('a bad %s option is a RangeError naming it', (_name, options, message) => {
    expect(() => new QuadtreeHelper(tree(5), options)).toThrow(RangeError);
    expect(() => new QuadtreeHelper(tree(5), options)).toThrow(message);
  });

  it.each<[string, unknown, RegExp]>([
    ['height', { height: '1' }, /^QuadtreeHelper: height must be a number, got '1'$/],
    ['opacity', { opacity: null }, /^QuadtreeHelper: opacity must be a number, got null$/],
    ['capacity', { capacity: 10n }, /^QuadtreeHelper: capacity must be a number, got 10$/],
    ['options', 5, /^QuadtreeHelper: options must be an object, got 5$/],
    ['options', null, /^QuadtreeHelper: options must be an object, got null$/],
  ])(
    'a %s that is not a number (or an object) is a TypeError, never converted',
    (_name, options, message) => {
      const make = () => new QuadtreeHelper(tree(5), options as QuadtreeHelperOptions);
      expect(make).toThrow(TypeError);
      expect(make).toThrow(message);
    },
  );

  it('a tree that is not a PointQuadtree is a TypeError', () => {
    expect(() => new QuadtreeHelper(null as unknown as PointQuadtree)).toThrow(
      /^QuadtreeHelper: tree must be a PointQuadtree, got null$/,
    );
    expect(() => new QuadtreeHelper({} as PointQuadtree)).toThrow(TypeError);
  });

  it('a bad circle is a RangeError and keeps the circle drawn before', () => {
    const t = tree(500, 9);
    const h = new QuadtreeHelper(t, { mode: 'visited' });
    h.setCircle(5, 5, 10);
    h.update();
    const before = drawnRects(h);
    expect(() => h.setCircle(Number.NaN, 0, 1)).toThrow(/^QuadtreeHelper: x must be finite, got NaN$/);
    expect(() => h.setCircle(0, '1' as unknown as number, 1)).toThrow(TypeError);
    expect(() => h.setCircle(0, Number.POSITIVE_INFINITY, 1)).toThrow(RangeError);
    expect(() => h.setCircle(0, 0, -3)).toThrow(
      /^QuadtreeHelper: radius must be a finite number >= 0, got -3$/,
    );
    expect(() => h.setCircle(0, 0, Number.POSITIVE_INFINITY)).toThrow(RangeError);
    h.update();
    expect(drawnRects(h)).toEqual(before);
  });

  it('takes the defaults from QuadtreeHelper.DEFAULTS, and the colour and opacity given', () => {
    expect(Object.isFrozen(QuadtreeHelper.DEFAULTS)).toBe(true);
    const plain = new QuadtreeHelper(tree(5));
    expect(plain.plane).toBe(QuadtreeHelper.DEFAULTS.plane);
    expect(plain.height).toBe(QuadtreeHelper.DEFAULTS.height);
    expect(plain.mode).toBe(QuadtreeHelper.DEFAULTS.mode);
    expect(plain.capacityRects).toBe(QuadtreeHelper.DEFAULTS.capacity);
    expect(plain.material.color.getHex()).toBe(QuadtreeHelper.DEFAULTS.color);
    expect(plain.material.transparent).toBe(false);
    const faint = new QuadtreeHelper(tree(5), { color: '#ff0000', opacity: 0.4 });
    expect(faint.material.color.getHex()).toBe(0xff0000);
    expect(faint.material).toMatchObject({ transparent: true, opacity: 0.4, depthWrite: false });
  });

  it('dispose frees geometry and material', () => {
    const h = new QuadtreeHelper(tree(10));
    let events = 0;
    h.geometry.addEventListener('dispose', () => events++);
    h.material.addEventListener('dispose', () => events++);
    h.dispose();
    expect(events).toBe(2);
  });
});
