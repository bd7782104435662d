import { type NodeInfo, PointQuadtree, type QuadtreeOptions } from 'point-quadtree';
import { checkInvariants, visitCircle, visitNodes } from 'point-quadtree/debug';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';
import { BruteForce, sorted } from '../helpers/oracle';

/*
 * `lastQuery` states what each query did: the nodes it visited, the points it tested one by one, the ids it
 * found. These tests derive each figure from the tree's nodes (visitNodes) by the rules the documentation
 * gives, with no code shared with the queries, so a walk that counts wrong (or counts down) fails here even
 * when its answer is right.
 */

const bounds = { minX: 0, minY: 0, maxX: 100, maxY: 100 };

/** A node as visitNodes reports it, with the items below it (NodeInfo gives 0 for inner nodes). */
interface Node extends NodeInfo {
  below: number;
}

/** Every node, parent before children, with `below` summed from the leaves. */
function nodes(tree: PointQuadtree): Node[] {
  const out: Node[] = [];
  const path: Node[] = [];
  visitNodes(tree, (n) => {
    const node = { ...n, below: n.count };
    path.length = n.depth;
    for (const above of path) above.below += n.count;
    path.push(node);
    out.push(node);
  });
  return out;
}

/** Squared distance from (x, y) to the closed rectangle of `n`. */
function rectDist2(n: NodeInfo, x: number, y: number): number {
  const dx = Math.max(n.minX - x, 0, x - n.maxX);
  const dy = Math.max(n.minY - y, 0, y - n.maxY);
  return dx * dx + dy * dy;
}

/** Whether the closed rectangle of `n` lies wholly inside the closed circle. */
function insideCircle(n: NodeInfo, x: number, y: number, r: number): boolean {
  const dx = Math.max(Math.abs(n.minX - x), Math.abs(n.maxX - x));
  const dy = Math.max(Math.abs(n.minY - y), Math.abs(n.maxY - y));
  return dx * dx + dy * dy <= r * r;
}

/** A seeded tree of `n` points, uniform or in three tight clusters, and its brute-force twin. */
function seeded(seed: number, n: number, clustered: boolean, options: Partial<QuadtreeOptions> = {}) {
  const rand = mulberry32(seed);
  const tree = new PointQuadtree({ bounds, ...options });
  const oracle = new BruteForce();
  for (let id = 0; id < n; id++) {
    const c = Math.floor(rand() * 3);
    const x = clustered ? 20 + 30 * c + rand() * 4 : rand() * 100;
    const y = clustered ? 70 - 25 * c + rand() * 4 : rand() * 100;
    tree.insert(id, x, y);
    oracle.insert(id, x, y);
  }
  checkInvariants(tree);
  return { tree, oracle, rand };
}

/**
 * queryCircle and queryCircleInto at (x, y, r) answer as the oracle does, and report as lastQuery the nodes
 * visitCircle calls back for and the items of the visited leaves the circle does not cover.
 */
function expectCircleFigures(tree: PointQuadtree, oracle: BruteForce, x: number, y: number, r: number): void {
  let visited = 0;
  let tested = 0;
  visitCircle(tree, x, y, r, (n) => {
    visited++;
    // A leaf wholly inside the circle hands its items over untested, unless it is the root (the walk
    // starts by testing it).
    if (n.isLeaf && (n.depth === 0 || !insideCircle(n, x, y, r))) tested += n.count;
  });
  const found = tree.queryCircle(x, y, r);
  const at = `circle (${x}, ${y}) r ${r}`;
  expect(sorted(found), at).toEqual(oracle.circle(x, y, r));
  expect(tree.lastQuery, at).toEqual({ nodesVisited: visited, pointsTested: tested, found: found.length });
  // The allocation-free twin reports the same figures.
  const out = new Int32Array(tree.size);
  expect(tree.queryCircleInto(x, y, r, out), at).toBe(found.length);
  expect(tree.lastQuery, at).toEqual({ nodesVisited: visited, pointsTested: tested, found: found.length });
}

/**
 * queryRect and queryRectInto answer as the oracle does, and report as lastQuery the non-empty nodes the
 * closed rectangle meets and the items of the leaves among them it does not cover (`all`: nodes(tree)).
 */
function expectRectFigures(
  tree: PointQuadtree,
  oracle: BruteForce,
  all: Node[],
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
): void {
  const meets = (n: Node) => n.minX <= maxX && n.minY <= maxY && n.maxX >= minX && n.maxY >= minY;
  const covers = (n: Node) => n.minX >= minX && n.minY >= minY && n.maxX <= maxX && n.maxY <= maxY;
  let visited = 0;
  let tested = 0;
  for (const n of all) {
    if (n.below === 0 || !meets(n)) continue;
    visited++;
    if (n.isLeaf && (n.depth === 0 || !covers(n))) tested += n.count;
  }
  const found = tree.queryRect(minX, minY, maxX, maxY);
  const at = `rect ${minX} ${minY} ${maxX} ${maxY}`;
  expect(sorted(found), at).toEqual(oracle.rect(minX, minY, maxX, maxY));
  expect(tree.lastQuery, at).toEqual({ nodesVisited: visited, pointsTested: tested, found: found.length });
  const out = new Uint32Array(tree.size);
  expect(tree.queryRectInto(minX, minY, maxX, maxY, out), at).toBe(found.length);
  expect(tree.lastQuery, at).toEqual({ nodesVisited: visited, pointsTested: tested, found: found.length });
}

const cases = [
  { seed: 11, n: 300, clustered: false, options: {} },
  { seed: 12, n: 300, clustered: true, options: { maxItems: 4 } },
  { seed: 13, n: 40, clustered: false, options: { maxItems: 4 } },
  { seed: 14, n: 5, clustered: false, options: {} }, // the root is a single leaf
] as const;

describe('lastQuery after queryCircle', () => {
  for (const c of cases) {
    it(`seed ${c.seed}: nodesVisited is visitCircle's count; pointsTested sums the visited leaves the circle does not cover (${c.n} points${c.clustered ? ', clustered' : ''})`, () => {
      const { tree, oracle, rand } = seeded(c.seed, c.n, c.clustered, c.options);
      for (let q = 0; q < 60; q++) {
        const x = rand() * 120 - 10;
        const y = rand() * 120 - 10;
        const r = q % 10 === 0 ? 0 : rand() * (q % 3 === 0 ? 60 : 12);
        expectCircleFigures(tree, oracle, x, y, r);
      }
    });
  }

  it('an empty tree: every figure 0', () => {
    const tree = new PointQuadtree({ bounds });
    tree.insert(1, 5, 5);
    tree.queryCircle(5, 5, 1);
    tree.remove(1);
    expect(tree.queryCircle(5, 5, 50)).toEqual([]);
    expect(tree.lastQuery).toEqual({ nodesVisited: 0, pointsTested: 0, found: 0 });
  });
});

describe('lastQuery after queryRect', () => {
  for (const c of cases) {
    it(`seed ${c.seed}: nodesVisited counts the non-empty nodes the rectangle meets; pointsTested sums the leaves it meets but does not cover (${c.n} points${c.clustered ? ', clustered' : ''})`, () => {
      const { tree, oracle, rand } = seeded(c.seed, c.n, c.clustered, c.options);
      const all = nodes(tree);
      for (let q = 0; q < 60; q++) {
        const x0 = rand() * 120 - 10;
        const y0 = rand() * 120 - 10;
        const w = q % 7 === 0 ? 0 : rand() * (q % 3 === 0 ? 80 : 15);
        const h = q % 7 === 0 ? 0 : rand() * (q % 3 === 0 ? 80 : 15);
        expectRectFigures(tree, oracle, all, x0, y0, x0 + w, y0 + h);
      }
    });
  }

  it('an empty tree: every figure 0', () => {
    const tree = new PointQuadtree({ bounds });
    tree.insert(1, 5, 5);
    tree.queryRect(0, 0, 10, 10);
    tree.remove(1);
    expect(tree.queryRect(0, 0, 100, 100)).toEqual([]);
    expect(tree.lastQuery).toEqual({ nodesVisited: 0, pointsTested: 0, found: 0 });
  });
});

describe("lastQuery for shapes on the nodes' own edges", () => {
  // Random shapes all but never touch a node's edge. With bounds 0..100 every node's edge and split line
  // is a dyadic number, so these shapes touch them exactly: a node that a closed shape meets only along an
  // edge or at a corner is met (visited, its items tested), and a node whose edges lie on the shape's is
  // covered (handed over untested).
  for (const c of [cases[1], cases[2]]) {
    it(`seed ${c.seed}: a node's own rectangle, its neighbours' that share an edge or a corner, and its edges as lines`, () => {
      const { tree, oracle } = seeded(c.seed, c.n, c.clustered, c.options);
      const all = nodes(tree);
      for (const n of all) {
        const w = n.maxX - n.minX;
        const h = n.maxY - n.minY;
        for (const [dx, dy] of [
          [0, 0],
          [-1, 0],
          [1, 0],
          [0, -1],
          [0, 1],
          [1, 1],
          [-1, -1],
        ]) {
          expectRectFigures(
            tree,
            oracle,
            all,
            n.minX + dx * w,
            n.minY + dy * h,
            n.maxX + dx * w,
            n.maxY + dy * h,
          );
        }
        expectRectFigures(tree, oracle, all, n.minX, n.minY, n.minX, n.maxY);
        expectRectFigures(tree, oracle, all, n.maxX, n.minY, n.maxX, n.maxY);
        expectRectFigures(tree, oracle, all, n.minX, n.minY, n.maxX, n.minY);
        expectRectFigures(tree, oracle, all, n.minX, n.maxY, n.maxX, n.maxY);
      }
    });

    it(`seed ${c.seed}: circles that touch an inner node's split lines, one or both`, () => {
      const { tree, oracle } = seeded(c.seed, c.n, c.clustered, c.options);
      for (const n of nodes(tree)) {
        if (n.isLeaf) continue;
        const mx = (n.minX + n.maxX) / 2;
        const my = (n.minY + n.maxY) / 2;
        for (const r of [(n.maxX - n.minX) / 64, (n.maxX - n.minX) / 8, (n.maxX - n.minX) / 4]) {
          for (const [sx, sy] of [
            [-1, -1],
            [1, -1],
            [-1, 1],
            [1, 1],
          ]) {
            expectCircleFigures(tree, oracle, mx + sx * r, my + sy * r, r);
            expectCircleFigures(tree, oracle, mx + sx * r, my + sy * 2 * r, r);
            expectCircleFigures(tree, oracle, mx + sx * 2 * r, my + sy * r, r);
          }
        }
      }
    });
  }
});

describe('lastQuery after nearest', () => {
  for (const c of cases) {
    it(`seed ${c.seed}: the search opens exactly the non-empty nodes within the final bound, and tests their leaves' points (${c.n} points${c.clustered ? ', clustered' : ''})`, () => {
      const { tree, oracle, rand } = seeded(c.seed, c.n, c.clustered, c.options);
      const all = nodes(tree);
      for (let q = 0; q < 60; q++) {
        const x = rand() * 120 - 10;
        const y = rand() * 120 - 10;
        const k = 1 + Math.floor(rand() * 12);
        const maxDistance = q % 4 === 0 ? 5 + rand() * 20 : Number.POSITIVE_INFINITY;
        const d = oracle.nearestDistances(x, y, k, maxDistance);
        // Best first: every node nearer than the k-th best is opened before the k-th best is known, and
        // none farther (nodes come out nearest first). With fewer than k within reach, the bound stays
        // maxDistance.
        const bound = d.length === k ? d[k - 1] : maxDistance * maxDistance;
        let visited = 0;
        let tested = 0;
        for (const n of all) {
          if (n.below === 0 || rectDist2(n, x, y) > bound) continue;
          visited++;
          if (n.isLeaf) tested += n.count;
        }
        const found = tree.nearest(x, y, k, maxDistance);
        const at = `nearest (${x}, ${y}) k ${k} within ${maxDistance}`;
        expect(
          found.map((id) => oracle.distance2(id, x, y)),
          at,
        ).toEqual(d);
        expect(tree.lastQuery, at).toEqual({ nodesVisited: visited, pointsTested: tested, found: d.length });
      }
    });
  }

  // A query that can find nothing opens nothing: no node is within the bound of a search for no ids, and an
  // empty tree has no non-empty node. The figures before it are non-zero, so stale ones would show.
  it('k = 0: [] and every figure 0, on a tree with points', () => {
    const { tree } = seeded(13, 40, false, { maxItems: 4 });
    for (const [x, y] of [
      [50, 50],
      [-20, 130],
    ]) {
      tree.nearest(x, y, 3);
      expect(tree.lastQuery.nodesVisited).toBeGreaterThan(0);
      expect(tree.nearest(x, y, 0)).toEqual([]);
      expect(tree.lastQuery, `(${x}, ${y})`).toEqual({ nodesVisited: 0, pointsTested: 0, found: 0 });
    }
  });

  it('an empty tree: [] and every figure 0', () => {
    const tree = new PointQuadtree({ bounds });
    tree.insert(1, 5, 5);
    tree.nearest(5, 5, 1);
    expect(tree.lastQuery).toEqual({ nodesVisited: 1, pointsTested: 1, found: 1 });
    tree.remove(1);
    expect(tree.nearest(5, 5, 4)).toEqual([]);
    expect(tree.lastQuery).toEqual({ nodesVisited: 0, pointsTested: 0, found: 0 });
  });
});

describe('an Into query with too little room throws, whichever leaf loop it takes', () => {
  // Forty points, four to a leaf: a circle of radius 30 at the centre finds 11 of them, some in leaves
  // smaller than the circle (the branch-free loop that writes every id) and some not.
  const tree = new PointQuadtree({ bounds, maxItems: 4 });
  for (let i = 0; i < 40; i++) tree.insert(i, (i * 37) % 100, (i * 53) % 100);
  const hits = tree.queryCircle(50, 50, 30).length;

  it('a circle query', () => {
    expect(hits).toBeGreaterThan(4);
    for (let room = 0; room < hits; room++) {
      expect(() => tree.queryCircleInto(50, 50, 30, new Int32Array(room)), `room ${room}`).toThrow(
        RangeError,
      );
    }
    expect(tree.queryCircleInto(50, 50, 30, new Int32Array(hits))).toBe(hits);
  });

  it('a rectangle query', () => {
    const inRect = tree.queryRect(20, 20, 80, 80).length;
    expect(inRect).toBeGreaterThan(4);
    for (let room = 0; room < inRect; room++) {
      expect(() => tree.queryRectInto(20, 20, 80, 80, new Int32Array(room)), `room ${room}`).toThrow(
        RangeError,
      );
    }
    expect(tree.queryRectInto(20, 20, 80, 80, new Int32Array(inRect))).toBe(inRect);
  });

  it('one hit in a leaf of several points, with room for one', () => {
    // The leaf holds more points than the output has room for, but only one is a hit: no throw.
    const small = new PointQuadtree({ bounds, maxItems: 8 });
    for (let i = 0; i < 6; i++) small.insert(i, 10 + i * 10, 10);
    const out = new Int32Array(1);
    expect(small.queryCircleInto(30, 10, 1, out)).toBe(1);
    expect(out[0]).toBe(2);
    expect(small.queryRectInto(29, 9, 31, 11, out)).toBe(1);
    expect(out[0]).toBe(2);
  });

  it('one hit in a column of points, with room for one: each side of the rectangle is tested', () => {
    // The same in y: the loop that tests each point must reject the points above and below the rectangle.
    const small = new PointQuadtree({ bounds, maxItems: 8 });
    for (let i = 0; i < 6; i++) small.insert(i, 10, 10 + i * 10);
    const out = new Int32Array(1);
    expect(small.queryRectInto(9, 29, 11, 31, out)).toBe(1);
    expect(out[0]).toBe(2);
    expect(small.queryCircleInto(10, 30, 1, out)).toBe(1);
    expect(out[0]).toBe(2);
  });
});
