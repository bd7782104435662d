import { PointQuadtree, type QuadtreeOptions } from 'point-quadtree';
import { treeStats, visitNodes } from 'point-quadtree/debug';
import { describe, expect, it } from 'vitest';
import { COVERED, PRUNED, QueryInsight, UNTOUCHED, VISITED } from '../../src/sim/insight';
import { mulberry32 } from '../../src/sim/random';
import { countKinds, type Kind, kindsByRule, ruleNodes } from '../helpers/insightRule';

const bounds = { minX: -100, minY: -100, maxX: 100, maxY: 100 };
const NAMES: Record<number, Kind> = {
  [UNTOUCHED]: 'untouched',
  [VISITED]: 'visited',
  [PRUNED]: 'pruned',
  [COVERED]: 'covered',
};

function seededTree(seed: number, n: number, options: Partial<QuadtreeOptions> = {}): PointQuadtree {
  const random = mulberry32(seed);
  const tree = new PointQuadtree({ bounds, maxItems: 4, ...options });
  for (let i = 0; i < n; i++) {
    // Half in a cluster, half spread: deep and shallow parts, and empty quadrants.
    const cluster = i % 2 === 0;
    const x = cluster ? 30 + (random() - 0.5) * 20 : (random() - 0.5) * 200;
    const y = cluster ? -40 + (random() - 0.5) * 20 : (random() - 0.5) * 200;
    tree.insert(i, x, y);
  }
  return tree;
}

/** A marked node: its kind and rectangle, in walk order. */
type Marked = [Kind, number, number, number, number, number];

/** The insight's marked nodes (visited, pruned, covered) as names and rectangles, in walk order. */
function markedOf(insight: QueryInsight): Marked[] {
  const m = insight.marked;
  const out: Marked[] = [];
  for (let i = 0; i < m.count; i++) {
    const b = m.bounds.subarray(4 * i, 4 * i + 4);
    out.push([NAMES[m.kind[i]], m.depth[i], b[0], b[1], b[2], b[3]]);
  }
  return out;
}

/** Checks one analysed query against the rule and against the library's own figures for the query. */
function checkQuery(
  tree: PointQuadtree,
  insight: QueryInsight,
  x: number,
  y: number,
  r: number,
  looseness: number,
) {
  insight.analyse(tree, x, y, r, looseness, true);
  const nodes = ruleNodes((cb) => visitNodes(tree, cb));
  const rule = kindsByRule(nodes, looseness, x, y, r);
  // Every node the rule marks, and only those, in the same order with the same kind.
  const expected: Marked[] = [];
  rule.forEach((k, i) => {
    const n = nodes[i];
    if (k === 'visited' || k === 'pruned' || k === 'covered')
      expected.push([k, n.depth, n.minX, n.minY, n.maxX, n.maxY]);
  });
  expect(markedOf(insight)).toEqual(expected);
  const counts = countKinds(rule);
  expect({ visited: insight.visited, pruned: insight.pruned, covered: insight.covered }).toEqual({
    visited: counts.visited,
    pruned: counts.pruned,
    covered: counts.covered,
  });
  // The library's own figures for the same query: the reached nodes, and the points of the tested leaves.
  tree.queryCircle(x, y, r);
  expect(insight.visited + insight.covered + counts.below).toBe(tree.lastQuery.nodesVisited);
  let tested = 0;
  const m = insight.marked;
  for (let i = 0; i < m.count; i++) if (m.kind[i] === VISITED && m.items[i] >= 0) tested += m.items[i];
  expect(tested).toBe(tree.lastQuery.pointsTested);
  return counts;
}

describe('QueryInsight (the map node kinds)', () => {
  for (const [seed, looseness] of [
    [1, 0],
    [2, 0],
    [3, 2.5],
  ] as const) {
    it(`agrees with the rule and the library's figures on random circles (seed ${seed}, looseness ${looseness})`, () => {
      const tree = seededTree(seed, 600, { looseness });
      const insight = new QueryInsight();
      const random = mulberry32(seed + 100);
      let sawAll = { visited: false, pruned: false, covered: false };
      for (let q = 0; q < 60; q++) {
        const x = (random() - 0.5) * 260;
        const y = (random() - 0.5) * 260;
        const r = random() < 0.2 ? 0 : random() * 80;
        const c = checkQuery(tree, insight, x, y, r, looseness);
        sawAll = {
          visited: sawAll.visited || c.visited > 0,
          pruned: sawAll.pruned || c.pruned > 0,
          covered: sawAll.covered || c.covered > 0,
        };
      }
      expect(sawAll).toEqual({ visited: true, pruned: true, covered: true });
    });
  }

  it('awkward circles: on split lines, exactly touching a node edge, at a corner, radius 0', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 1 });
    const pts = [
      [0, 0],
      [50, 50],
      [-50, 50],
      [50, -50],
      [-50, -50],
      [25, 25],
      [100, 100],
    ];
    pts.forEach(([x, y], id) => {
      tree.insert(id, x, y);
    });
    const insight = new QueryInsight();
    for (const [x, y, r] of [
      [0, 0, 0],
      [0, 0, 50],
      [-100, -100, 0],
      [100, 100, 0],
      [150, 0, 50], // exactly reaches the root's east edge
      [75, 75, 25 * Math.SQRT2],
    ]) {
      checkQuery(tree, insight, x, y, r, 0);
    }
  });

  it('a radius that holds the whole level: nothing pruned, the root visited and its non-empty children covered (only they)', () => {
    const tree = seededTree(4, 500);
    const insight = new QueryInsight();
    const c = checkQuery(tree, insight, 0, 0, 1000, 0);
    expect(c.pruned).toBe(0);
    const m = insight.marked;
    expect([m.kind[0], m.depth[0]]).toEqual([VISITED, 0]);
    expect(c.visited).toBe(1); // the root only: everything below is handed over whole
    for (let i = 1; i < m.count; i++) expect([m.kind[i], m.depth[i]]).toEqual([COVERED, 1]);
    expect(c.covered).toBeGreaterThan(0);
    expect(c.covered).toBeLessThanOrEqual(4);
    expect(c.covered + c.below + 1).toBe(tree.lastQuery.nodesVisited);
  });

  it('a tiny radius far from every point: few nodes visited, most of the tree untouched', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 4 });
    const random = mulberry32(9);
    // Every point in the east half; the circle sits in the west.
    for (let i = 0; i < 800; i++) tree.insert(i, 5 + random() * 95, (random() - 0.5) * 200);
    const insight = new QueryInsight();
    const c = checkQuery(tree, insight, -80, -80, 0.5, 0);
    expect(c.covered).toBe(0);
    expect(c.visited).toBeLessThanOrEqual(2);
    expect(c.untouched).toBeGreaterThan(treeStats(tree).nodes * 0.9);
    expect(c.visited + c.pruned + c.covered + c.below + c.untouched).toBe(treeStats(tree).nodes);
  });

  it('an empty tree, and a circle out of reach of the root: every node untouched', () => {
    const insight = new QueryInsight();
    const empty = new PointQuadtree({ bounds });
    checkQuery(empty, insight, 0, 0, 10, 0);
    expect(insight.marked.count).toBe(0);
    const tree = seededTree(5, 100);
    const c = checkQuery(tree, insight, 500, 500, 10, 0);
    expect(c.untouched).toBe(treeStats(tree).nodes);
  });

  it('recounts only when asked, the tree or its version changed, or the circle moved', () => {
    const tree = seededTree(6, 300);
    const insight = new QueryInsight();
    expect(insight.analyse(tree, 0, 0, 20, 0, false)).toBe(true);
    const revision = insight.revision;
    expect(insight.analyse(tree, 0, 0, 20, 0, false)).toBe(false);
    expect(insight.revision).toBe(revision);
    expect(insight.analyse(tree, 1, 0, 20, 0, false)).toBe(true);
    // A forced recount that finds the same marked nodes keeps the revision (a map redraws nothing).
    const moved = insight.revision;
    expect(insight.analyse(tree, 1, 0, 20, 0, true)).toBe(true);
    expect(insight.revision).toBe(moved);
    expect(insight.analyse(tree, 60, 0, 20, 0, false)).toBe(true);
    expect(insight.revision).toBe(moved + 1);
    tree.insert(1000, 1, 1);
    tree.insert(1001, 1.5, 1);
    tree.insert(1002, 1, 1.5);
    tree.insert(1003, 1.5, 1.5);
    tree.insert(1004, 1.2, 1.2); // splits a leaf: a new version
    expect(insight.analyse(tree, 1, 0, 20, 0, false)).toBe(true);
    checkQuery(tree, insight, 1, 0, 20, 0);
    // Moving points inside their leaves keeps the version; a forced recount follows them.
    const version = tree.version;
    tree.move(0, 30.01, -40.01);
    if (tree.version === version) checkQuery(tree, insight, 30, -40, 5, 0);
  });

  it('follows a tree that grows its root', () => {
    const tree = seededTree(7, 200);
    const insight = new QueryInsight();
    checkQuery(tree, insight, 0, 0, 30, 0);
    tree.insert(5000, 350, -270); // outside: the root doubles
    checkQuery(tree, insight, 0, 0, 30, 0);
    checkQuery(tree, insight, 300, -250, 80, 0);
  });
});
