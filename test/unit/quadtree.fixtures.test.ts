import { type NodeInfo, PointQuadtree } from 'point-quadtree';
import { checkInvariants, treeStats, visitNodes } from 'point-quadtree/debug';
import { INTERNALS } from 'point-quadtree/internal/PointQuadtree';
import { describe, expect, it } from 'vitest';
import { sorted } from '../helpers/oracle';

/** Every node as a plain object, in visit order (parent before children, NW NE SW SE). */
function nodes(tree: PointQuadtree): NodeInfo[] {
  const all: NodeInfo[] = [];
  visitNodes(tree, (n) => {
    all.push({ ...n });
  });
  return all;
}

/** The seed scene: a 10 x 10 world at (-5, -5), maxItems 2, minSize 3. */
function seedScene(): PointQuadtree {
  const tree = new PointQuadtree({
    bounds: { minX: -5, minY: -5, maxX: 5, maxY: 5 },
    maxItems: 2,
    minSize: 3,
  });
  tree.insert(0, 0, 0); // on both split lines: east and south -> SE
  tree.insert(1, -5, -5); // outer corner -> NW
  tree.insert(2, 5, 5); // far outer corner, kept (root is closed) -> SE
  tree.insert(3, 0, -2); // on the vertical split line -> NE
  tree.insert(4, -2, 0); // on the horizontal split line -> SW
  tree.insert(5, 5, -5); // far x edge -> NE
  tree.insert(6, -1, -1); // NW
  return tree;
}

describe('the seed scene (10 x 10 at (-5, -5), maxItems 2, minSize 3)', () => {
  it('splits the root once; 5 x 5 quadrants are too small to split again', () => {
    const tree = seedScene();
    checkInvariants(tree);
    expect(tree.size).toBe(7);
    expect(nodes(tree)).toEqual([
      { minX: -5, minY: -5, maxX: 5, maxY: 5, depth: 0, isLeaf: false, count: 0 },
      { minX: -5, minY: -5, maxX: 0, maxY: 0, depth: 1, isLeaf: true, count: 2 },
      { minX: 0, minY: -5, maxX: 5, maxY: 0, depth: 1, isLeaf: true, count: 2 },
      { minX: -5, minY: 0, maxX: 0, maxY: 5, depth: 1, isLeaf: true, count: 1 },
      { minX: 0, minY: 0, maxX: 5, maxY: 5, depth: 1, isLeaf: true, count: 2 },
    ]);
    expect(treeStats(tree)).toEqual({ size: 7, nodes: 5, leaves: 4, depth: 1 });
  });

  it('a leaf that cannot split just holds more items', () => {
    const tree = seedScene();
    for (let i = 10; i < 40; i++) tree.insert(i, 2.5, 2.5);
    checkInvariants(tree);
    const se = nodes(tree).find((n) => n.minX === 0 && n.minY === 0);
    expect(se).toMatchObject({ isLeaf: true, count: 32 });
  });

  it('answers circle queries exactly, inclusive of the boundary', () => {
    const tree = seedScene();
    expect(sorted(tree.queryCircle(0, 0, 0))).toEqual([0]);
    expect(sorted(tree.queryCircle(0, 0, 2))).toEqual([0, 3, 4, 6]); // (0,-2) and (-2,0) at exactly r
    expect(sorted(tree.queryCircle(0, 0, 1.999))).toEqual([0, 6]);
    expect(sorted(tree.queryCircle(-1, -1, 1))).toEqual([6]);
    expect(sorted(tree.queryCircle(-3.5, 1.5, Math.hypot(1.5, 1.5)))).toEqual([4]); // across the split line
    expect(sorted(tree.queryCircle(5, 5, 0))).toEqual([2]);
    expect(sorted(tree.queryCircle(0, 0, 1e9))).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(tree.queryCircle(100, 100, 5)).toEqual([]);
  });

  it('answers rectangle queries exactly, closed on all sides', () => {
    const tree = seedScene();
    expect(sorted(tree.queryRect(0, -5, 5, 0))).toEqual([0, 3, 5]);
    expect(sorted(tree.queryRect(-5, -5, -5, -5))).toEqual([1]);
    expect(sorted(tree.queryRect(-2, -2, 0, 0))).toEqual([0, 3, 4, 6]);
    expect(sorted(tree.queryRect(-100, -100, 100, 100))).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(tree.queryRect(-4, 1, -3, 4)).toEqual([]);
  });

  it('finds the nearest, nearest first, within maxDistance', () => {
    const tree = seedScene();
    expect(tree.nearest(-0.9, -0.9)).toEqual([6]);
    expect(tree.nearest(-0.9, -0.9, 2)).toEqual([6, 0]);
    expect(tree.nearest(4, 4, 3)).toEqual([2, 0, 6]);
    expect(tree.nearest(4, 4, 3, 2)).toEqual([2]);
    expect(tree.nearest(4, 4, 0)).toEqual([]);
    expect(tree.nearest(0, 0, 100)).toHaveLength(7);
  });

  it('maxDistance is closed: a point exactly maxDistance away is found, one a hair farther is not', () => {
    const below = (d: number) => d * (1 - 2 ** -52); // the largest double below d (for these d)
    const tree = new PointQuadtree({
      bounds: { minX: 0, minY: 0, maxX: 10, maxY: 10 },
      maxItems: 1,
      minSize: 1,
    });
    tree.insert(0, 5, 0); // on the vertical split line: in the NE leaf, whose rectangle starts 5 from (0, 0)
    tree.insert(1, 1, 9);
    tree.insert(2, 9, 9);
    tree.insert(3, 3, 4);
    expect(below(5)).toBeLessThan(5);
    // From inside the root: the NE leaf lies exactly 5 away, and so does point 0; point 3 is 5 away too.
    expect(sorted(tree.nearest(0, 0, 5, 5))).toEqual([0, 3]);
    expect(tree.nearest(0, 0, 5, below(5))).toEqual([]);
    // From outside the root: the root itself lies exactly maxDistance away.
    expect(tree.nearest(-4, 0, 5, 4)).toEqual([]);
    expect(tree.nearest(-5, 0, 5, 9)).toEqual([3]);
    expect(tree.nearest(-5, 0, 5, 10)).toEqual([3, 0]);
    tree.insert(4, 0, 0);
    expect(tree.nearest(-5, 0, 5, 5)).toEqual([4]);
    expect(tree.nearest(-5, 0, 5, below(5))).toEqual([]);
    // maxDistance 0 finds exactly the points at the centre.
    expect(tree.nearest(3, 4, 5, 0)).toEqual([3]);
    expect(tree.nearest(3, 4.000000000000001, 5, 0)).toEqual([]);
    // Past 2^500 (the scaled path), with distances that are exact in doubles: 5 * 2^600 from the centre.
    const big = new PointQuadtree({ bounds: { minX: 0, minY: 0, maxX: 10, maxY: 10 }, maxItems: 1 });
    const u = 2 ** 600;
    big.insert(0, 3 * u, 4 * u);
    big.insert(1, 0, 5 * u);
    big.insert(2, 8 * u, 8 * u);
    big.insert(3, 0, 0);
    expect(sorted(big.nearest(0, 0, 5, 5 * u))).toEqual([0, 1, 3]);
    expect(big.nearest(0, 0, 5, below(5 * u))).toEqual([3]);
    expect(big.nearest(-5 * u, 0, 5, 5 * u)).toEqual([3]);
    expect(big.nearest(-5 * u, 0, 5, below(5 * u))).toEqual([]);
  });

  it('appends to a given out array and returns it', () => {
    const tree = seedScene();
    const out = [99];
    expect(tree.queryCircle(0, 0, 0, out)).toBe(out);
    expect(out).toEqual([99, 0]);
    expect(tree.queryRect(5, 5, 5, 5, out)).toBe(out);
    expect(out).toEqual([99, 0, 2]);
    expect(tree.nearest(-5, -5, 1, Infinity, out)).toEqual([99, 0, 2, 1]);
  });
});

describe('structural rules', () => {
  const bounds = { minX: 0, minY: 0, maxX: 16, maxY: 16 };

  it('splits a leaf holding more than maxItems into four equal quadrants', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 3, minSize: 1 });
    tree.insert(0, 1, 1);
    tree.insert(1, 9, 1);
    tree.insert(2, 1, 9);
    expect(treeStats(tree)).toMatchObject({ nodes: 1, leaves: 1 });
    const v = tree.version;
    tree.insert(3, 9, 9);
    expect(tree.version).toBeGreaterThan(v);
    expect(nodes(tree).map((n) => [n.minX, n.minY, n.maxX, n.maxY, n.count])).toEqual([
      [0, 0, 16, 16, 0],
      [0, 0, 8, 8, 1],
      [8, 0, 16, 8, 1],
      [0, 8, 8, 16, 1],
      [8, 8, 16, 16, 1],
    ]);
  });

  it('coincident points never split past minSize (no endless splitting)', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 1, minSize: 1 });
    for (let i = 0; i < 1000; i++) tree.insert(i, 3, 3);
    checkInvariants(tree);
    const s = treeStats(tree);
    expect(s.depth).toBe(4); // 16 -> 8 -> 4 -> 2 -> 1, and 1 cannot halve to 0.5
    expect(tree.queryCircle(3, 3, 0)).toHaveLength(1000);
    const leaf = nodes(tree).find((n) => n.count === 1000);
    expect(leaf).toMatchObject({ minX: 3, minY: 3, maxX: 4, maxY: 4 });
  });

  it('minSize is measured as stored: a quadrant one rounding narrower than minSize, on any side, stops the split', () => {
    // Bounds whose midpoint rounds, so the two halves of one axis differ by an ulp: with minSize the wider
    // half, the narrower one is too small and the root stays a leaf; with minSize the narrower, it splits.
    const halves = (lo: number, hi: number) => {
      const mid = lo + (hi - lo) * 0.5;
      return { lower: mid - lo, upper: hi - mid };
    };
    const cases = [
      { axis: 'x', lo: 99.1, hi: 105.3 }, // the lower half is the narrower
      { axis: 'y', lo: 99.1, hi: 105.3 },
      { axis: 'y', lo: 0.1, hi: 0.2 }, // the upper half is the narrower
    ];
    for (const { axis, lo, hi } of cases) {
      const { lower, upper } = halves(lo, hi);
      expect(lower).not.toBe(upper);
      const wide = { lo: -1000, hi: 1000 };
      const x = axis === 'x' ? { lo, hi } : wide;
      const y = axis === 'y' ? { lo, hi } : wide;
      const treeWith = (minSize: number) => {
        const tree = new PointQuadtree({
          bounds: { minX: x.lo, minY: y.lo, maxX: x.hi, maxY: y.hi },
          maxItems: 1,
          minSize,
        });
        tree.insert(0, x.lo, y.lo);
        tree.insert(1, x.hi, y.hi);
        checkInvariants(tree);
        return treeStats(tree).leaves;
      };
      expect(treeWith(Math.max(lower, upper)), `${axis} ${lo}..${hi}, minSize the wider half`).toBe(1);
      expect(treeWith(Math.min(lower, upper)), `${axis} ${lo}..${hi}, minSize the narrower half`).toBe(4);
    }
  });

  it('tiny minSize with coincident points still terminates (float precision stops the splitting)', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 1, minSize: Number.MIN_VALUE });
    for (let i = 0; i < 50; i++) tree.insert(i, 1 / 3, 1 / 3);
    checkInvariants(tree);
    expect(tree.queryCircle(1 / 3, 1 / 3, 0)).toHaveLength(50);
    for (let i = 0; i < 50; i++) tree.remove(i);
    checkInvariants(tree);
    expect(treeStats(tree)).toEqual({ size: 0, nodes: 1, leaves: 1, depth: 0 });
  });

  it('merges an inner node back into a leaf once its subtree holds maxItems or fewer', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 3, minSize: 1 });
    [
      [1, 1],
      [9, 1],
      [1, 9],
      [9, 9],
    ].forEach(([x, y], i) => {
      tree.insert(i, x, y);
    });
    expect(treeStats(tree).leaves).toBe(4);
    const v = tree.version;
    expect(tree.remove(3)).toBe(true);
    checkInvariants(tree);
    expect(treeStats(tree)).toEqual({ size: 3, nodes: 1, leaves: 1, depth: 0 });
    expect(tree.version).toBeGreaterThan(v); // a merge changes the structure: the version increments
    // Moving away from a crowded quadrant also merges it.
    for (let i = 10; i < 14; i++) tree.insert(i, 1 + (i - 10) * 0.1, 1);
    const deep = treeStats(tree).depth;
    expect(deep).toBeGreaterThan(1);
    tree.move(10, 15, 15);
    tree.move(11, 15, 14);
    checkInvariants(tree);
    expect(treeStats(tree).depth).toBeLessThan(deep);
  });

  it('root growth increments the version: once per insert, however many doublings, for an inner root and a root leaf', () => {
    // Growth changes the structure (PointQuadtree.version). Here nothing else does: the far item lands in an
    // empty quadrant that no split follows, and no item sits on the old root's far edges (no rebuild).
    const inner = new PointQuadtree({ bounds, maxItems: 2, minSize: 1 });
    for (let i = 0; i < 8; i++) inner.insert(i, 2 + i, 3 + i);
    expect(treeStats(inner).leaves).toBeGreaterThan(1);
    for (const [id, x, y] of [
      [20, 25, 5],
      [21, 5, 1000],
      [22, 1e6, 1e6],
    ]) {
      const v = inner.version;
      const before = inner.bounds;
      inner.insert(id, x, y);
      checkInvariants(inner);
      expect(inner.bounds, `id ${id}`).not.toEqual(before);
      expect(inner.version, `id ${id}`).toBe(v + 1);
    }
    const leaf = new PointQuadtree({ bounds, maxItems: 4, minSize: 1 });
    leaf.insert(0, 3, 3);
    const v = leaf.version;
    leaf.insert(1, 1e5, 3);
    checkInvariants(leaf);
    expect(treeStats(leaf).nodes).toBe(1);
    expect(leaf.version).toBe(v + 1);
  });

  it('grows the root by doubling when a point lands outside, keeping the old root as a quadrant', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 1, minSize: 1 });
    tree.insert(0, 1, 1);
    tree.insert(1, 15, 15);
    tree.insert(2, -3, 20);
    checkInvariants(tree);
    expect(tree.bounds).toEqual({ minX: -16, minY: 0, maxX: 16, maxY: 32 });
    tree.move(0, 100, -1);
    checkInvariants(tree);
    expect(tree.bounds.maxX).toBeGreaterThanOrEqual(100);
    expect(tree.bounds.minY).toBeLessThanOrEqual(-1);
    expect(sorted(tree.queryCircle(100, -1, 0))).toEqual([0]);
  });

  it('grows as far as finite numbers allow', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 1, minSize: 1 });
    tree.insert(0, 1, 1);
    tree.insert(1, 5e307, -5e307);
    checkInvariants(tree);
    expect(tree.nearest(5e307, -5e307)).toEqual([1]);
    expect(sorted(tree.queryCircle(0, 0, 10))).toEqual([0]);
  });

  it('re-files points on the old far edge when the root grows past it', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 1, minSize: 1 });
    tree.insert(0, 16, 16); // on the far corner: inside the closed root
    tree.insert(1, 16, 3);
    tree.insert(2, 2, 16);
    tree.insert(3, 20, 20); // grows east and south: x = 16 and y = 16 are now split lines
    checkInvariants(tree);
    expect(sorted(tree.queryRect(16, 16, 16, 16))).toEqual([0]);
    expect(sorted(tree.queryCircle(16, 16, 6))).toEqual([0, 3]);
  });

  it('a move inside the leaf rewrites coordinates only', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 1, minSize: 1 });
    tree.insert(0, 1, 1);
    tree.insert(1, 12, 12);
    const internals = tree[INTERNALS]();
    const v = tree.version;
    const slot = internals.idSlot[0];
    const leaf = internals.idLeaf[0];
    tree.move(0, 2, 2);
    tree.move(0, 7.999, 0);
    expect(tree.version).toBe(v);
    // Same slot and leaf: nothing was unlinked or relinked.
    expect(internals.idSlot[0]).toBe(slot);
    expect(internals.idLeaf[0]).toBe(leaf);
    expect(tree.queryCircle(7.999, 0, 0)).toEqual([0]);
    tree.move(0, 8, 0); // onto the split line: a different leaf
    expect(tree.version).toBe(v);
    checkInvariants(tree);
    expect(tree.queryRect(8, 0, 8, 0)).toEqual([0]);
  });

  it('with looseness, a point may stray that far out of its leaf before move() re-files it', () => {
    // Root 0..16 split once (maxItems 1): leaves are 8 x 8, the split lines are x = 8 and y = 8.
    const tree = new PointQuadtree({ bounds, maxItems: 1, minSize: 1, looseness: 2 });
    tree.insert(0, 1, 1); // NW
    tree.insert(1, 12, 12); // SE
    const internals = tree[INTERNALS]();
    checkInvariants(tree);
    const v = tree.version;
    const leafOf0 = internals.idLeaf[0];
    tree.move(0, 9.5, 1); // 1.5 into NE's rectangle: stays in NW
    expect(internals.idLeaf[0]).toBe(leafOf0);
    expect(tree.version).toBe(v);
    expect(nodes(tree).map((n) => n.count)).toEqual([0, 1, 0, 0, 1]);
    checkInvariants(tree);
    // Queries still find it where it is, also from the NE side, and not where it was.
    expect(tree.queryCircle(10, 1, 0.5)).toEqual([0]);
    expect(tree.queryCircle(1, 1, 1)).toEqual([]);
    expect(tree.queryRect(9, 0, 16, 2)).toEqual([0]);
    expect(tree.queryRect(8.5, 0.5, 9.5, 1)).toEqual([0]);
    expect(tree.queryRect(0, 0, 9.4, 16)).toEqual([]);
    expect(tree.nearest(15, 0, 1)).toEqual([0]);
    // The same move into the SE leaf's rectangle, the other way, and the root's edge: clipped to the root.
    tree.move(1, 7, 16);
    expect(internals.idLeaf[1]).not.toBe(leafOf0);
    expect(tree.queryCircle(7, 16, 0)).toEqual([1]);
    checkInvariants(tree);
    // Past the loose edge (8 + 2 = 10): re-filed into NE.
    tree.move(0, 10, 1);
    expect(internals.idLeaf[0]).not.toBe(leafOf0);
    expect(nodes(tree).map((n) => n.count)).toEqual([0, 0, 1, 0, 1]);
    checkInvariants(tree);
    // remove finds a strayed item through its leaf, not its position.
    tree.move(0, 7, 1); // 1 into NW's rectangle: stays in NE
    expect(nodes(tree).map((n) => n.count)).toEqual([0, 0, 1, 0, 1]);
    expect(tree.remove(0)).toBe(true);
    checkInvariants(tree);
    expect(tree.size).toBe(1);
    expect(tree.queryRect(0, 0, 16, 16)).toEqual([1]);
    // Out past the root it still grows the root; loose rectangles follow the new root.
    tree.insert(2, 2, 2);
    tree.move(2, -3, 2);
    expect(tree.bounds.minX).toBeLessThan(-3);
    checkInvariants(tree);
    expect(sorted(tree.queryRect(-100, -100, 100, 100))).toEqual([1, 2]);
  });

  it('keeps its memory bounded under churn: the item pool is compacted instead of growing for ever', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 4, minSize: 1 });
    for (let round = 0; round < 40; round++) {
      // 1000 points in a round-dependent number of clumps: leaves (and item blocks) of ever other sizes.
      const clumps = 1 + ((round * 7) % 23);
      for (let i = 0; i < 1000; i++) {
        const c = i % clumps;
        tree.insert(i, (c % 5) * 3 + 0.5, Math.floor(c / 5) * 3 + 0.5);
      }
      checkInvariants(tree);
      expect(tree.queryRect(0, 0, 16, 16)).toHaveLength(1000);
      for (let i = 0; i < 1000; i += 2) tree.remove(i);
      for (let i = 1; i < 1000; i += 2) tree.remove(i);
    }
    checkInvariants(tree);
    expect(tree[INTERNALS]().pool.capacity).toBeLessThan(4 * 1000);
  });

  it('the typed query twins throw only when the answer itself does not fit', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 8, minSize: 1 });
    for (let i = 0; i < 5; i++) tree.insert(i, i, i); // one leaf of 5
    const one = new Int32Array(1);
    expect(tree.queryCircleInto(0, 0, 0.5, one)).toBe(1);
    expect(one[0]).toBe(0);
    expect(tree.queryRectInto(0, 0, 0, 0, one)).toBe(1);
    expect(() => tree.queryCircleInto(0, 0, 1.5, one)).toThrow(/too small/);
    const two = new Uint32Array(2);
    expect(tree.queryRectInto(0, 0, 1, 1, two)).toBe(2);
    expect(() => tree.queryRectInto(0, 0, 16, 16, two)).toThrow(RangeError);
  });

  it('growing the root leaves lastQuery as the last query set it', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 1, minSize: 1 });
    tree.insert(0, 16, 5); // on the far edge
    tree.insert(1, 2, 2);
    tree.insert(2, 3, 12);
    tree.queryCircle(2, 2, 0);
    const before = { ...tree.lastQuery };
    tree.insert(3, 50, 50); // grows past the far edge, probing it for items to re-file
    checkInvariants(tree);
    expect(tree.lastQuery).toEqual(before);
    expect(tree.queryRect(16, 5, 16, 5)).toEqual([0]);
  });

  it('works on id 0 and reports has / size', () => {
    const tree = new PointQuadtree({ bounds });
    expect(tree.has(0)).toBe(false);
    tree.insert(0, 5, 5);
    expect(tree.has(0)).toBe(true);
    expect(tree.size).toBe(1);
    expect(tree.remove(0)).toBe(true);
    expect(tree.remove(0)).toBe(false);
    expect(tree.size).toBe(0);
  });

  it('an empty tree answers every query with nothing', () => {
    const tree = new PointQuadtree({ bounds });
    expect(tree.queryCircle(5, 5, 100)).toEqual([]);
    expect(tree.queryRect(0, 0, 16, 16)).toEqual([]);
    expect(tree.nearest(5, 5, 3)).toEqual([]);
    expect(treeStats(tree)).toEqual({ size: 0, nodes: 1, leaves: 1, depth: 0 });
  });

  it('from() with no items is the tree the constructor makes; with one item, a root leaf holding it', () => {
    const none = PointQuadtree.from({ bounds, maxItems: 1 }, [], new Float64Array(0), []);
    checkInvariants(none);
    const fresh = new PointQuadtree({ bounds, maxItems: 1 });
    expect([none.size, none.bounds, none.version, treeStats(none)]).toEqual([
      0,
      fresh.bounds,
      fresh.version,
      treeStats(fresh),
    ]);
    expect(none.has(0)).toBe(false);
    none.insert(0, 2, 3);
    expect(none.queryCircle(2, 3, 0)).toEqual([0]);
    const one = PointQuadtree.from({ bounds, maxItems: 1 }, [0], [3], [4]);
    checkInvariants(one);
    expect([one.size, one.bounds, treeStats(one)]).toEqual([
      1,
      bounds,
      { size: 1, nodes: 1, leaves: 1, depth: 0 },
    ]);
    expect(one.queryRect(0, 0, 16, 16)).toEqual([0]);
    // Building the node structure is a change of it: the version moved on from the constructor's.
    expect(one.version).toBeGreaterThan(fresh.version);
    // The largest id is 0: moveAll takes arrays of one entry.
    one.moveAll([5], [6]);
    expect(one.queryCircle(5, 6, 0)).toEqual([0]);
  });

  it('from() grows the root by doubling to cover all its points at once', () => {
    const ids = [0, 1, 2, 3];
    const xs = [20, 1, 5, 9];
    const ys = [1, -3, 5, 9];
    const bulk = PointQuadtree.from({ bounds, maxItems: 1 }, ids, xs, ys);
    checkInvariants(bulk);
    // One doubling holds both strays (x 20, y -3): 32 wide, toward +x and -y. A root fitted to the points
    // instead would be 0..20 by -3..16. (Inserting them one by one doubles twice: x 20 first takes the
    // root toward +y.)
    expect(bulk.bounds).toEqual({ minX: 0, minY: -16, maxX: 32, maxY: 16 });
    expect(sorted(bulk.queryRect(-100, -100, 100, 100))).toEqual(ids);
  });

  it('clear empties the tree and restores the original bounds', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 1 });
    for (let i = 0; i < 100; i++) tree.insert(i, i, -i);
    tree.clear();
    checkInvariants(tree);
    expect(tree.size).toBe(0);
    expect(tree.bounds).toEqual(bounds);
    expect(tree.has(5)).toBe(false);
    tree.insert(5, 1, 1);
    expect(tree.queryCircle(1, 1, 0)).toEqual([5]);
  });

  it('visitNodes skips children when the callback returns true, and reports lastQuery figures', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 1, minSize: 1 });
    for (let i = 0; i < 64; i++) tree.insert(i, (i % 8) * 2 + 0.5, Math.floor(i / 8) * 2 + 0.5);
    let seen = 0;
    visitNodes(tree, (n) => {
      seen++;
      return n.depth === 1;
    });
    expect(seen).toBe(5);
    tree.queryCircle(0.5, 0.5, 0);
    expect(tree.lastQuery.found).toBe(1);
    expect(tree.lastQuery.pointsTested).toBeLessThan(64);
    expect(tree.lastQuery.nodesVisited).toBeGreaterThan(1);
    tree.queryCircle(8, 8, 1e3);
    expect(tree.lastQuery).toMatchObject({ found: 64, pointsTested: 0 }); // whole root inside: no tests
  });

  it('visitNodes throws if the callback changes the structure, and allows nested walks', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 1, minSize: 1 });
    tree.insert(0, 1, 1);
    tree.insert(1, 9, 9);
    let inner = 0;
    visitNodes(tree, () => {
      visitNodes(tree, () => {
        inner++;
      });
    });
    expect(inner).toBe(25);
    expect(() =>
      visitNodes(tree, () => {
        if (!tree.has(2)) tree.insert(2, 1.5, 1.5);
      }),
    ).toThrow(/structure changed/);
  });

  it("after a walk that threw because its callback changed the tree, the callback's change stays (docs/api.md)", () => {
    const tree = new PointQuadtree({ bounds, maxItems: 1, minSize: 1 });
    tree.insert(0, 1, 1);
    tree.insert(1, 9, 9);
    expect(() =>
      visitNodes(tree, () => {
        if (!tree.has(2)) tree.insert(2, 1.5, 1.5);
      }),
    ).toThrow(Error);
    expect(tree.has(2)).toBe(true);
    expect(tree.size).toBe(3);
    expect(tree.queryCircle(1.5, 1.5, 0)).toEqual([2]);
    checkInvariants(tree);
  });
});
