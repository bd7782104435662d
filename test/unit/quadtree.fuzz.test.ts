import { PointQuadtree, type QuadtreeOptions } from 'point-quadtree';
import { checkInvariants, treeStats, visitNodes } from 'point-quadtree/debug';
import { INTERNALS, type QuadtreeInternals } from 'point-quadtree/internal/PointQuadtree';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';
import { BruteForce, sorted } from '../helpers/oracle';

type Distribution = 'uniform' | 'clustered' | 'grid';

/** A point generator: uniform floats, Gaussian camps, or a coarse grid that lands on split lines. */
function pointSource(kind: Distribution, rnd: () => number, world: number): () => [number, number] {
  if (kind === 'uniform') return () => [rnd() * world, rnd() * world];
  if (kind === 'grid') {
    // Multiples of world/16 fall exactly on split lines and the outer edge; many points coincide.
    return () => [Math.round(rnd() * 16) * (world / 16), Math.round(rnd() * 16) * (world / 16)];
  }
  const camps = Array.from({ length: 5 }, () => [rnd() * world, rnd() * world]);
  return () => {
    const c = camps[Math.floor(rnd() * camps.length)];
    // Box-Muller; a tight sigma makes deep, crowded leaves.
    const u = Math.max(rnd(), 1e-12);
    const v = rnd();
    const g = Math.sqrt(-2 * Math.log(u));
    return [c[0] + g * Math.cos(2 * Math.PI * v) * 3, c[1] + g * Math.sin(2 * Math.PI * v) * 3];
  };
}

interface FuzzCase {
  seed: number;
  kind: Distribution;
  options: QuadtreeOptions;
  steps: number;
  idRange: number;
}

const WORLD = 100;
const cases: FuzzCase[] = [];
for (const kind of ['uniform', 'clustered', 'grid'] as const) {
  for (const [seed, maxItems, minSize] of [
    [1, 1, 0.5],
    [2, 4, 1],
    [3, 8, 3],
    [4, 16, 0.01],
  ] as const) {
    cases.push({
      seed: seed + (kind === 'uniform' ? 0 : kind === 'clustered' ? 100 : 200),
      kind,
      options: { bounds: { minX: 0, minY: 0, maxX: WORLD, maxY: WORLD }, maxItems, minSize },
      steps: 3000,
      idRange: 400,
    });
  }
  // Loose leaves: items stray up to `looseness` outside their leaf's rectangle before move() re-files them.
  for (const [seed, maxItems, minSize, looseness] of [
    [5, 4, 1, 0.75],
    [6, 8, 0.5, 5],
  ] as const) {
    cases.push({
      seed: seed + (kind === 'uniform' ? 0 : kind === 'clustered' ? 100 : 200),
      kind,
      options: { bounds: { minX: 0, minY: 0, maxX: WORLD, maxY: WORLD }, maxItems, minSize, looseness },
      steps: 3000,
      idRange: 400,
    });
  }
}

describe('PointQuadtree fuzz against brute force', () => {
  for (const c of cases) {
    const loose = c.options.looseness ? `, looseness ${c.options.looseness}` : '';
    it(`seed ${c.seed}: ${c.kind} data, maxItems ${c.options.maxItems}, minSize ${c.options.minSize}${loose}`, () => {
      const rnd = mulberry32(c.seed);
      const point = pointSource(c.kind, rnd, WORLD);
      const tree = new PointQuadtree(c.options);
      const oracle = new BruteForce();
      const out: number[] = [];
      for (let step = 0; step < c.steps; step++) {
        const id = Math.floor(rnd() * c.idRange);
        const op = rnd();
        const where = `step ${step}`;
        if (op < 0.3) {
          // Insert, sometimes a little outside the root so it grows.
          let [x, y] = point();
          if (rnd() < 0.02) [x, y] = [x * 1.5 - 20, y * 1.5 - 20];
          if (rnd() < 0.002) {
            // Now and then start over: clear() must leave a tree as good as new.
            tree.clear();
            oracle.points.clear();
            expect(tree.bounds).toEqual(c.options.bounds);
          }
          if (tree.has(id)) {
            expect(() => tree.insert(id, x, y), where).toThrow(Error);
          } else {
            tree.insert(id, x, y);
            oracle.insert(id, x, y);
          }
        } else if (op < 0.45) {
          expect(tree.remove(id), where).toBe(oracle.remove(id));
        } else if (op < 0.65) {
          if (!tree.has(id)) continue;
          // Small steps (mostly inside the leaf), long jumps, and now and then out past the root.
          const p = oracle.points.get(id)!;
          const a = rnd();
          const [x, y] =
            a < 0.7
              ? [p.x + (rnd() - 0.5) * 2, p.y + (rnd() - 0.5) * 2]
              : a < 0.98
                ? point()
                : [p.x * 2 + 30, p.y * -1.5 - 10];
          tree.move(id, x, y);
          oracle.move(id, x, y);
        } else if (op < 0.8) {
          const [x, y] = point();
          const r = rnd() < 0.1 ? 0 : rnd() < 0.1 ? 1e6 : rnd() * 30;
          out.length = 0;
          tree.queryCircle(x, y, r, out);
          const expected = oracle.circle(x, y, r);
          expect(sorted(out), `${where} circle (${x}, ${y}) r ${r}`).toEqual(expected);
          expect(new Set(out).size).toBe(out.length);
          expect(tree.lastQuery.found).toBe(expected.length);
          // The typed twin gives the same answer.
          const typed = new Int32Array(tree.size);
          const n = tree.queryCircleInto(x, y, r, typed);
          expect(sorted([...typed.subarray(0, n)]), `${where} circleInto`).toEqual(expected);
        } else if (op < 0.9) {
          const [x0, y0] = point();
          const [x1, y1] = point();
          const r = [Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)] as const;
          expect(sorted(tree.queryRect(...r)), `${where} rect ${r}`).toEqual(oracle.rect(...r));
          const typed = new Uint32Array(tree.size + 3);
          const n = tree.queryRectInto(...r, typed);
          expect(sorted([...typed.subarray(0, n)]), `${where} rectInto`).toEqual(oracle.rect(...r));
        } else {
          const [x, y] = point();
          const k = Math.floor(rnd() * 12);
          const maxD = rnd() < 0.5 ? Infinity : rnd() * 40;
          const got = tree.nearest(x, y, k, maxD);
          const expected = oracle.nearestDistances(x, y, k, maxD);
          expect(
            got.map((g) => oracle.distance2(g, x, y)),
            `${where} nearest (${x}, ${y}) k ${k} max ${maxD}`,
          ).toEqual(expected);
          expect(new Set(got).size).toBe(got.length);
        }
        expect(tree.size).toBe(oracle.points.size);
        checkInvariants(tree);
      }
      // Without looseness the shape depends only on the points and the root: a bulk build of the same
      // points matches. (With looseness an item may sit in a neighbour of its own leaf, so the shape also
      // depends on the order of the moves.)
      if (c.options.looseness) return;
      const ids = [...oracle.points.keys()];
      const bulk = PointQuadtree.from(
        { ...c.options, bounds: tree.bounds },
        ids,
        ids.map((i) => oracle.points.get(i)!.x),
        ids.map((i) => oracle.points.get(i)!.y),
      );
      checkInvariants(bulk);
      expect(treeStats(bulk)).toEqual(treeStats(tree));
    });
  }
});

/** Every id pair forEachPair reports within r, as 'a-b' with a < b, sorted. */
function treePairs(tree: PointQuadtree, r: number): string[] {
  const out: string[] = [];
  tree.forEachPair(r, (a, b) => {
    out.push(a < b ? `${a}-${b}` : `${b}-${a}`);
  });
  return out.sort();
}

/** Circle, rectangle, nearest (with and without maxDistance) and pair queries, each against brute force. */
function expectAnswers(
  tree: PointQuadtree,
  oracle: BruteForce,
  rnd: () => number,
  point: () => [number, number],
  queries: number,
): void {
  for (let q = 0; q < queries; q++) {
    const [x, y] = point();
    const r = rnd() * 20;
    const where = `query ${q} at (${x}, ${y})`;
    expect(sorted(tree.queryCircle(x, y, r)), `${where}: circle r ${r}`).toEqual(oracle.circle(x, y, r));
    const [x1, y1] = point();
    const rect = [Math.min(x, x1), Math.min(y, y1), Math.max(x, x1), Math.max(y, y1)] as const;
    expect(sorted(tree.queryRect(...rect)), `${where}: rect ${rect}`).toEqual(oracle.rect(...rect));
    const k = 1 + Math.floor(rnd() * 10);
    const maxD = rnd() < 0.5 ? Infinity : rnd() * 10;
    const near = tree.nearest(x, y, k, maxD);
    expect(
      near.map((id) => oracle.distance2(id, x, y)),
      `${where}: nearest k ${k} max ${maxD}`,
    ).toEqual(oracle.nearestDistances(x, y, k, maxD));
    expect(new Set(near).size).toBe(near.length);
  }
  for (const r of [0, 0.5]) expect(treePairs(tree, r), `pairs within ${r}`).toEqual(oracle.pairs(r));
}

describe('PointQuadtree.from against brute force', () => {
  for (const seed of [11, 12, 13]) {
    it(`seed ${seed}: bulk load of 5,000 clustered points answers like insert-by-insert`, () => {
      const rnd = mulberry32(seed);
      const point = pointSource(seed === 13 ? 'grid' : 'clustered', rnd, WORLD);
      const n = 5000;
      const ids = new Int32Array(n);
      const xs = new Float64Array(n);
      const ys = new Float64Array(n);
      const oracle = new BruteForce();
      const options = { bounds: { minX: 0, minY: 0, maxX: WORLD, maxY: WORLD }, maxItems: 8, minSize: 0.5 };
      const one = new PointQuadtree(options);
      for (let i = 0; i < n; i++) {
        ids[i] = n - 1 - i;
        [xs[i], ys[i]] = point();
        oracle.insert(ids[i], xs[i], ys[i]);
        one.insert(ids[i], xs[i], ys[i]);
      }
      const bulk = PointQuadtree.from(options, ids, xs, ys);
      checkInvariants(bulk);
      expect(bulk.size).toBe(n);
      expect(bulk.bounds).toEqual(one.bounds);
      expect(treeStats(bulk)).toEqual(treeStats(one));
      expectAnswers(bulk, oracle, rnd, point, 300);
      // A bulk-built tree keeps working dynamically: moves, removes and inserts.
      for (let i = 0; i < 2000; i++) {
        const id = ids[Math.floor(rnd() * n)];
        const [x, y] = point();
        if (!bulk.has(id)) {
          bulk.insert(id, x, y);
          oracle.insert(id, x, y);
        } else if (rnd() < 0.3) {
          expect(bulk.remove(id)).toBe(oracle.remove(id));
        } else {
          bulk.move(id, x, y);
          oracle.move(id, x, y);
        }
        if (i % 100 === 0) checkInvariants(bulk);
      }
      checkInvariants(bulk);
      expectAnswers(bulk, oracle, rnd, point, 300);
    }, 20_000); // heavy: seconds on a busy machine
  }

  for (const [seed, looseness] of [
    [14, 0.75],
    [15, 5],
  ] as const) {
    it(`seed ${seed}: with looseness ${looseness}, the same tree as inserting, loose rectangles included, and items stray in their leaves`, () => {
      const rnd = mulberry32(seed);
      const point = pointSource('clustered', rnd, WORLD);
      const n = 2000;
      const ids = new Int32Array(n);
      const xs = new Float64Array(n);
      const ys = new Float64Array(n);
      const oracle = new BruteForce();
      const options = {
        bounds: { minX: 0, minY: 0, maxX: WORLD, maxY: WORLD },
        maxItems: 8,
        minSize: 0.5,
        looseness,
      };
      const one = new PointQuadtree(options);
      for (let i = 0; i < n; i++) {
        ids[i] = (i * 7919) % n; // every id once, in a scrambled order
        [xs[i], ys[i]] = point();
        oracle.insert(ids[i], xs[i], ys[i]);
        one.insert(ids[i], xs[i], ys[i]);
      }
      const bulk = PointQuadtree.from(options, ids, xs, ys);
      checkInvariants(bulk);
      expect(bulk.looseness).toBe(looseness);
      expect(bulk.bounds).toEqual(one.bounds);
      // Inserts never stray, so inserting builds the same nodes, and the same loose rectangles.
      const a = bulk[INTERNALS]();
      const b = one[INTERNALS]();
      expect(nodeList(bulk)).toEqual(nodeList(one));
      expect(looseOf(a)).toEqual(looseOf(b));
      expectAnswers(bulk, oracle, rnd, point, 150);
      // Steps shorter than the looseness, kept inside the root: no item leaves its leaf's loose rectangle,
      // so no item is re-filed and no node changes (the version stays).
      const version = bulk.version;
      const root = bulk.bounds;
      const clampX = (v: number) => Math.min(root.maxX, Math.max(root.minX, v));
      const clampY = (v: number) => Math.min(root.maxY, Math.max(root.minY, v));
      for (let round = 0; round < 3; round++) {
        for (const id of ids) {
          const p = oracle.points.get(id)!;
          const [x, y] = [
            clampX(p.x + (rnd() - 0.5) * looseness * 0.6),
            clampY(p.y + (rnd() - 0.5) * looseness * 0.6),
          ];
          if (round === 0) {
            bulk.move(id, x, y);
            oracle.move(id, x, y);
          } else {
            oracle.move(id, x, y);
          }
        }
        if (round > 0) {
          const mx = new Float64Array(n);
          const my = new Float64Array(n);
          for (const [id, p] of oracle.points) [mx[id], my[id]] = [p.x, p.y];
          bulk.moveAll(mx, my);
        }
        checkInvariants(bulk);
      }
      expect(bulk.version).toBe(version);
      expect(bulk[INTERNALS]().idLeaf.subarray(0, n)).toEqual(a.idLeaf.subarray(0, n));
      expectAnswers(bulk, oracle, rnd, point, 150);
      // Long jumps re-file items; the tree still answers like brute force.
      for (let i = 0; i < 1000; i++) {
        const id = ids[Math.floor(rnd() * n)];
        const [x, y] = point();
        bulk.move(id, x, y);
        oracle.move(id, x, y);
      }
      checkInvariants(bulk);
      expectAnswers(bulk, oracle, rnd, point, 150);
    }, 20_000); // heavy: seconds on a busy machine
  }
});

/** Every node's rectangle, depth, leaf flag and count, in visit order. */
function nodeList(tree: PointQuadtree): string[] {
  const out: string[] = [];
  visitNodes(tree, (nd) => {
    out.push(`${nd.depth} ${nd.minX} ${nd.minY} ${nd.maxX} ${nd.maxY} ${nd.isLeaf} ${nd.count}`);
  });
  return out;
}

/** The loose rectangle of every node in the tree, walking the arrays from the root. */
function looseOf(t: QuadtreeInternals): number[][] {
  const out: number[][] = [];
  const walk = (nd: number) => {
    out.push([...t.nodeLoose.subarray(nd << 2, (nd << 2) + 4)]);
    const c = t.nodeChild[nd];
    if (c >= 0) for (let q = 0; q < 4; q++) walk(c + q);
  };
  walk(0);
  return out;
}
