import { type NodeInfo, PointQuadtree, type QuadtreeOptions } from 'point-quadtree';
import { checkInvariants, visitCircle, visitNodes } from 'point-quadtree/debug';
import { INTERNALS } from 'point-quadtree/internal/PointQuadtree';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';
import { BruteForce, type ShapeNode, strictShape } from '../helpers/oracle';

const bounds = { minX: 0, minY: 0, maxX: 100, maxY: 100 };
const key = (n: NodeInfo) => `${n.depth} ${n.minX} ${n.minY} ${n.maxX} ${n.maxY}`;

/** The nodes visitCircle calls back for, as keys. */
function visited(tree: PointQuadtree, x: number, y: number, r: number): string[] {
  const out: string[] = [];
  visitCircle(tree, x, y, r, (n) => {
    out.push(key(n));
  });
  return out;
}

/**
 * Every node as visitNodes reports it, with the items below each inner node summed from its leaves (NodeInfo
 * gives 0 for inner nodes).
 */
function walked(tree: PointQuadtree): Omit<ShapeNode, 'ids'>[] {
  const out: Omit<ShapeNode, 'ids'>[] = [];
  const path: Omit<ShapeNode, 'ids'>[] = [];
  visitNodes(tree, (n) => {
    const node = { ...n };
    path.length = n.depth;
    path.push(node);
    if (n.isLeaf) for (const above of path.slice(0, -1)) above.count += n.count;
    out.push(node);
  });
  return out;
}

/**
 * Every node read straight from the tree's arrays (the internal accessor), with its own walk: a check of
 * visitNodes that shares no code with it. Parent before children, NW NE SW SE.
 */
function fromArrays(tree: PointQuadtree): Omit<ShapeNode, 'ids'>[] {
  const t = tree[INTERNALS]();
  const out: Omit<ShapeNode, 'ids'>[] = [];
  const walk = (n: number, depth: number) => {
    const b = t.nodeBounds.subarray(n << 2, (n << 2) + 4);
    const c = t.nodeChild[n];
    out.push({ minX: b[0], minY: b[1], maxX: b[2], maxY: b[3], depth, isLeaf: c < 0, count: t.nodeCount[n] });
    if (c >= 0) for (let q = 0; q < 4; q++) walk(c + q, depth + 1);
  };
  walk(0, 0);
  return out;
}

/**
 * The pruning rule written out from the documentation, over a list of nodes (parent before children, with
 * subtree counts): a node is visited if it is the root or non-empty, and its rectangle grown by looseness
 * (clipped to the root) is within r of the centre, or its parent lies wholly inside the circle; never below
 * a node that was not visited.
 */
function byTheRule(
  nodes: readonly Omit<ShapeNode, 'ids'>[],
  looseness: number,
  x: number,
  y: number,
  r: number,
): string[] {
  if (nodes[0].count === 0) return [];
  const root = nodes[0];
  const l = looseness;
  const out: string[] = [];
  // inside[depth] = the visited ancestor at that depth lies wholly inside the circle
  const inside: boolean[] = [];
  let skipBelow = Number.POSITIVE_INFINITY; // skip the nodes deeper than this (a pruned subtree)
  for (const n of nodes) {
    if (n.depth > skipBelow) continue;
    skipBelow = Number.POSITIVE_INFINITY;
    const grown =
      n.depth === 0
        ? [n.minX, n.minY, n.maxX, n.maxY]
        : [
            Math.max(n.minX - l, root.minX),
            Math.max(n.minY - l, root.minY),
            Math.min(n.maxX + l, root.maxX),
            Math.min(n.maxY + l, root.maxY),
          ];
    const dx = Math.max(grown[0] - x, 0, x - grown[2]);
    const dy = Math.max(grown[1] - y, 0, y - grown[3]);
    const parentInside = n.depth > 0 && inside[n.depth - 1];
    if ((n.depth > 0 && n.count === 0) || (!parentInside && dx * dx + dy * dy > r * r)) {
      skipBelow = n.depth;
      continue;
    }
    const fx = Math.max(x - grown[0], grown[2] - x);
    const fy = Math.max(y - grown[1], grown[3] - y);
    // the root is never handed over whole: the query starts by visiting it
    inside[n.depth] = parentInside || (n.depth > 0 && fx * fx + fy * fy <= r * r);
    out.push(key(n));
  }
  return out;
}

const configs: [number, QuadtreeOptions][] = [
  [1, { bounds, maxItems: 1, minSize: 0.5 }],
  [2, { bounds, maxItems: 4 }],
  [3, { bounds }],
  [4, { bounds, maxItems: 2, minSize: 1, looseness: 3 }],
];

describe('PointQuadtree.visitCircle', () => {
  for (const [seed, options] of configs) {
    const loose = options.looseness ? `, looseness ${options.looseness}` : '';
    it(`seed ${seed}: visits exactly the nodes of the circle query (nodesVisited, the pruning rule), maxItems ${options.maxItems ?? 'default'}${loose}`, () => {
      const rnd = mulberry32(seed);
      const tree = new PointQuadtree(options);
      const oracle = new BruteForce();
      const camps = [
        [20, 30],
        [75, 75],
      ];
      // Clusters, points on split lines and the far edge, coincident points, and a few that grow the root.
      for (let id = 0; id < 600; id++) {
        const a = rnd();
        const c = camps[id & 1];
        const [x, y] =
          a < 0.5
            ? [c[0] + (rnd() - 0.5) * 6, c[1] + (rnd() - 0.5) * 6]
            : a < 0.7
              ? [Math.round(rnd() * 4) * 25, Math.round(rnd() * 4) * 25]
              : a < 0.995
                ? [rnd() * 100, rnd() * 100]
                : [-30 - rnd() * 50, 120 + rnd() * 10];
        tree.insert(id, x, y);
        oracle.insert(id, x, y);
      }
      // Let some items stray (loose trees keep them in their leaves).
      for (let id = 0; id < 600; id += 3) {
        const p = oracle.points.get(id)!;
        const [x, y] = [p.x + (rnd() - 0.5) * 4, p.y + (rnd() - 0.5) * 4];
        tree.move(id, x, y);
        oracle.move(id, x, y);
      }
      checkInvariants(tree);
      // The nodes the rule runs over. visitNodes must report the tree's arrays as they are; without
      // looseness, those must be the shape worked out from the points alone, and the rule runs over that.
      const nodes = walked(tree);
      expect(nodes).toEqual(fromArrays(tree));
      const l = options.looseness ?? 0;
      const shape = strictShape(oracle.points, tree.bounds, options.maxItems ?? 64, options.minSize ?? 1);
      if (l === 0) expect(nodes).toEqual(shape.map(({ ids: _, ...n }) => n));
      const ruleNodes = l === 0 ? shape : nodes;
      for (let q = 0; q < 400; q++) {
        let x = rnd() * 220 - 90;
        let y = rnd() * 220 - 60;
        const r = q % 20 === 0 ? 0 : q % 20 === 1 ? 1e6 : q % 20 === 2 ? 300 : rnd() * 40;
        // Centres on split lines (multiples of 100 / 2^k), or exactly r from one or both of them.
        const line = (): number => Math.round(rnd() * 16) * 6.25;
        if (q % 4 === 1) x = line();
        if (q % 4 === 2) [x, y] = [line() + r, line() - r];
        if (q % 8 === 3) y = line() + (rnd() < 0.5 ? r : -r);
        const got = visited(tree, x, y, r);
        tree.queryCircleInto(x, y, r, new Int32Array(tree.size));
        expect(got.length, `circle (${x}, ${y}) r ${r}`).toBe(tree.lastQuery.nodesVisited);
        expect(new Set(got).size).toBe(got.length);
        expect(got.sort(), `circle (${x}, ${y}) r ${r}`).toEqual(byTheRule(ruleNodes, l, x, y, r).sort());
      }
    });
  }

  it('gives each node its own rectangle, depth, leaf flag and count; the leaves hold every point found', () => {
    const rnd = mulberry32(5);
    const tree = new PointQuadtree({ bounds, maxItems: 3, minSize: 1 });
    const oracle = new BruteForce();
    const xs: number[] = [];
    const ys: number[] = [];
    for (let id = 0; id < 300; id++) {
      xs.push(rnd() * 100);
      ys.push(rnd() * 100);
      tree.insert(id, xs[id], ys[id]);
      oracle.insert(id, xs[id], ys[id]);
    }
    const leaves: NodeInfo[] = [];
    let items = 0;
    visitCircle(tree, 40, 60, 18, (n) => {
      expect(n.minX < n.maxX && n.minY < n.maxY).toBe(true);
      if (n.isLeaf) {
        leaves.push({ ...n });
        items += n.count;
        expect(n.count).toBeGreaterThan(0);
      } else {
        expect(n.count).toBe(0);
      }
    });
    // The leaves visited are exactly the non-empty leaves within 18 of the centre, worked out from the
    // points alone; together they hold every point found, and the points they hold are all they count.
    const want = strictShape(oracle.points, bounds, 3, 1).filter((n) => {
      const dx = Math.max(n.minX - 40, 0, 40 - n.maxX);
      const dy = Math.max(n.minY - 60, 0, 60 - n.maxY);
      return n.isLeaf && n.count > 0 && dx * dx + dy * dy <= 18 * 18;
    });
    expect(leaves.map(key).sort()).toEqual(want.map(key).sort());
    expect(items).toBe(want.reduce((sum, n) => sum + n.count, 0));
    expect(items).toBeGreaterThan(tree.queryCircle(40, 60, 18).length); // some leaves reach past the circle
    for (const id of tree.queryCircle(40, 60, 18)) {
      const inLeaf = leaves.some(
        (l) => xs[id] >= l.minX && xs[id] <= l.maxX && ys[id] >= l.minY && ys[id] <= l.maxY,
      );
      expect(inLeaf, `id ${id}`).toBe(true);
    }
  });

  it('an empty tree visits nothing; a circle that misses the root visits nothing; radius 0 at a point', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 1 });
    expect(visited(tree, 50, 50, 1000)).toEqual([]);
    tree.insert(0, 10, 10);
    tree.insert(1, 90, 90);
    expect(visited(tree, 300, 300, 10)).toEqual([]);
    // radius 0 exactly at a point: the root and the leaf that holds it
    expect(visited(tree, 10, 10, 0)).toEqual(['0 0 0 100 100', '1 0 0 50 50']);
    tree.queryCircle(10, 10, 0);
    expect(tree.lastQuery.nodesVisited).toBe(2);
  });

  it('returning true skips the children of that node', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 1 });
    for (let id = 0; id < 50; id++) tree.insert(id, (id * 37) % 100, (id * 61) % 100);
    const depths: number[] = [];
    visitCircle(tree, 50, 50, 30, (n) => {
      depths.push(n.depth);
      return n.depth === 1;
    });
    expect(Math.max(...depths)).toBe(1);
  });

  it('throws on a bad centre or radius, and when the tree changes shape during the walk', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 1 });
    tree.insert(0, 10, 10);
    tree.insert(1, 90, 90);
    const noop = () => undefined;
    expect(() => visitCircle(tree, Number.NaN, 0, 1, noop)).toThrow(
      /PointQuadtree: x must be a finite number, got NaN/,
    );
    expect(() => visitCircle(tree, 0, 0, -3, noop)).toThrow(RangeError);
    expect(() => visitCircle(tree, 0, 0, -3, noop)).toThrow(/radius must be a finite number >= 0, got -3/);
    expect(() => visitCircle(tree, 0, 0, Number.POSITIVE_INFINITY, noop)).toThrow(RangeError);
    expect(() =>
      visitCircle(tree, 50, 50, 100, () => {
        if (tree.has(1)) tree.remove(1);
      }),
    ).toThrow(/changed during visitCircle/);
    checkInvariants(tree);
  });
});
