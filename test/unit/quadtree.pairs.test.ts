import { PointQuadtree } from 'point-quadtree';
import { CrowdQuadtree, separationKernel, setSeparationKernel } from 'point-quadtree/crowd';
import { checkInvariants, treeStats } from 'point-quadtree/debug';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';
import { churn, FUZZ } from '../helpers/pairFuzz';

/** Every unordered pair {a, b} (a < b) of distinct ids within r, closed: the O(n²) oracle. */
function brutePairs(points: Map<number, [number, number]>, r: number): string[] {
  const list = [...points.entries()];
  const out: string[] = [];
  for (let i = 0; i < list.length; i++) {
    const [a, [ax, ay]] = list[i];
    for (let j = i + 1; j < list.length; j++) {
      const [b, [bx, by]] = list[j];
      const dx = bx - ax;
      const dy = by - ay;
      if (dx * dx + dy * dy <= r * r) out.push(a < b ? `${a}-${b}` : `${b}-${a}`);
    }
  }
  return out.sort();
}

/** The tree's pairs through queryPairsInto, normalised like the oracle (duplicates kept, so they show). */
function treePairs(tree: PointQuadtree, r: number): string[] {
  const room = Math.max(1, (tree.size * (tree.size - 1)) / 2);
  const outA = new Int32Array(room);
  const outB = new Uint32Array(room);
  const n = tree.queryPairsInto(r, outA, outB);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const a = outA[i];
    const b = outB[i];
    expect(a).not.toBe(b);
    out.push(a < b ? `${a}-${b}` : `${b}-${a}`);
  }
  return out.sort();
}

function callbackPairs(tree: PointQuadtree, r: number): string[] {
  const out: string[] = [];
  tree.forEachPair(r, (a, b) => {
    out.push(a < b ? `${a}-${b}` : `${b}-${a}`);
  });
  return out.sort();
}

function expectPairs(tree: PointQuadtree, points: Map<number, [number, number]>, r: number): void {
  const expected = brutePairs(points, r);
  expect(treePairs(tree, r)).toEqual(expected);
  expect(callbackPairs(tree, r)).toEqual(expected);
}

const BOUNDS = { minX: 0, minY: 0, maxX: 100, maxY: 100 };

/*
 * Every test below runs on the three joins: PointQuadtree's (the JavaScript join, query/pairs.ts), and a
 * CrowdQuadtree's under each kernel: the WebAssembly join (crowd/kernels/pairs.ts, what 'auto' picks where
 * it compiles, as in Node) and the JavaScript reference it falls back to.
 */
describe.each([
  ['PointQuadtree', PointQuadtree, 'auto'],
  ['CrowdQuadtree, auto', CrowdQuadtree, 'auto'],
  ['CrowdQuadtree, js', CrowdQuadtree, 'js'],
] as const)('%s kernel', (_, Tree, kernel) => {
  beforeAll(() => setSeparationKernel(kernel));
  afterAll(() => setSeparationKernel('auto'));

  it('runs the kernel asked for', () => {
    expect(separationKernel()).toBe(kernel === 'auto' ? 'wasm-simd' : 'js');
  });

  describe('queryPairsInto / forEachPair: fixtures', () => {
    it('finds each pair within the radius once, closed at exactly the radius', () => {
      const tree = new Tree({ bounds: BOUNDS, maxItems: 1, minSize: 0.5 });
      tree.insert(0, 10, 10);
      tree.insert(1, 11, 10); // 1 from id 0
      tree.insert(2, 13, 10); // 2 from id 1
      tree.insert(3, 11, 11); // 1 from id 1, sqrt(2) from id 0
      expect(treePairs(tree, 1)).toEqual(['0-1', '1-3']);
      expect(treePairs(tree, 1.5)).toEqual(['0-1', '0-3', '1-3']);
      expect(callbackPairs(tree, 2)).toEqual(['0-1', '0-3', '1-2', '1-3']);
    });

    it('answers 0 for an empty tree and a tree of one item; radius 0 pairs only coincident points', () => {
      const tree = new Tree({ bounds: BOUNDS });
      const outA = new Int32Array(4);
      const outB = new Int32Array(4);
      expect(tree.queryPairsInto(10, outA, outB)).toBe(0);
      tree.insert(0, 5, 5);
      expect(tree.queryPairsInto(1000, outA, outB)).toBe(0);
      tree.insert(1, 5, 5);
      tree.insert(2, 5, 5 + 1e-9);
      expect(treePairs(tree, 0)).toEqual(['0-1']);
    });

    it('a tree of exactly two items: their one pair within reach, none beyond', () => {
      // The smallest tree with a pair: the join must not take two items for too few.
      const tree = new Tree({ bounds: BOUNDS });
      tree.insert(0, 10, 10);
      tree.insert(1, 13, 14); // 5 from id 0
      expect(treePairs(tree, 5)).toEqual(['0-1']);
      expect(callbackPairs(tree, 6)).toEqual(['0-1']);
      expect(treePairs(tree, 4.99)).toEqual([]);
    });

    it('bounds below and across 0: the same pairs as brute force', () => {
      // With bounds 0..100 every coordinate is positive, so a sum of two edges can stand in for a width.
      const placed = [
        { minX: -150, minY: -120, maxX: -50, maxY: -20 },
        { minX: -60, minY: -40, maxX: 40, maxY: 60 },
      ];
      for (const [k, bounds] of placed.entries()) {
        const rnd = mulberry32(40 + k);
        const tree = new Tree({ bounds, maxItems: 2 });
        const points = new Map<number, [number, number]>();
        for (let id = 0; id < 80; id++) {
          const p: [number, number] = [bounds.minX + rnd() * 100, bounds.minY + rnd() * 100];
          points.set(id, p);
          tree.insert(id, p[0], p[1]);
        }
        for (const r of [0.5, 3, 10, 30]) expectPairs(tree, points, r);
      }
    });

    it('radius 0 pairs coincident points that sit in two loose leaves', () => {
      // Item 1 moves 2 past the split lines and stays in its leaf (looseness 5); item 3 is filed at the same
      // place in the neighbouring quadrant. The leaves' loose rectangles overlap: their gap, 0, is within 0.
      const tree = new Tree({ bounds: BOUNDS, maxItems: 1, looseness: 5 });
      tree.insert(1, 40, 40);
      tree.insert(2, 90, 90);
      tree.move(1, 52, 52);
      tree.insert(3, 52, 52);
      checkInvariants(tree);
      expect(treePairs(tree, 0)).toEqual(['1-3']);
      expect(callbackPairs(tree, 0)).toEqual(['1-3']);
    });

    it('forEachPair inside a forEachPair callback (and a queryPairsInto too short there): each call its own pairs', () => {
      const tree = new Tree({ bounds: BOUNDS, maxItems: 2 });
      const points = new Map<number, [number, number]>();
      const rnd = mulberry32(44);
      for (let id = 0; id < 50; id++) {
        const p: [number, number] = [rnd() * 100, rnd() * 100];
        points.set(id, p);
        tree.insert(id, p[0], p[1]);
      }
      const outer: string[] = [];
      let inner: string[] = [];
      let short = '';
      tree.forEachPair(40, (a, b) => {
        if (outer.length === 0) {
          inner = callbackPairs(tree, 10);
          try {
            tree.queryPairsInto(10, new Int32Array(1), new Int32Array(1));
          } catch (e) {
            short = (e as Error).message;
          }
        }
        outer.push(a < b ? `${a}-${b}` : `${b}-${a}`);
      });
      expect(outer.sort()).toEqual(brutePairs(points, 40));
      expect(inner).toEqual(brutePairs(points, 10));
      expect(short).toContain(`too small for the ${brutePairs(points, 10).length} pairs`);
      // And the next call at the top level finds its pairs as before.
      expect(callbackPairs(tree, 40)).toEqual(brutePairs(points, 40));
    });

    it('finds every pair when the radius is larger than the world (id 0 included)', () => {
      const tree = new Tree({ bounds: BOUNDS, maxItems: 2, minSize: 1 });
      const points = new Map<number, [number, number]>();
      const rnd = mulberry32(3);
      for (let id = 0; id < 60; id++) {
        const p: [number, number] = [rnd() * 100, rnd() * 100];
        points.set(id, p);
        tree.insert(id, p[0], p[1]);
      }
      expect(treePairs(tree, 1000)).toHaveLength((60 * 59) / 2);
      expectPairs(tree, points, 1000);
    });
  });

  describe('queryPairsInto / forEachPair against brute force, through inserts, moves and removals', () => {
    for (const c of FUZZ) {
      const loose = c.options.looseness ? `, looseness ${c.options.looseness}` : '';
      it(`seed ${c.seed}: ${c.kind} data, maxItems ${c.options.maxItems ?? 'default'}${loose}`, () => {
        const rnd = mulberry32(c.seed);
        const tree = new Tree({ bounds: BOUNDS, ...c.options });
        const points = new Map<number, [number, number]>();
        for (let round = 0; round < 6; round++) {
          churn(tree, points, c.kind, rnd, 60);
          checkInvariants(tree);
          for (const r of c.radii) expectPairs(tree, points, r);
        }
      });
    }

    it('seed 18: 5,000 uniform points at the default options, r = 1 and r = 3', () => {
      const rnd = mulberry32(18);
      const tree = new Tree({ bounds: BOUNDS });
      const points = new Map<number, [number, number]>();
      for (let id = 0; id < 5000; id++) {
        const p: [number, number] = [rnd() * 100, rnd() * 100];
        points.set(id, p);
        tree.insert(id, p[0], p[1]);
      }
      for (const r of [1, 3]) expectPairs(tree, points, r);
    });
  });

  describe('queryPairsInto / forEachPair errors', () => {
    function sample(): PointQuadtree {
      const tree = new Tree({ bounds: BOUNDS, maxItems: 2, minSize: 1 });
      for (let id = 0; id < 20; id++) tree.insert(id, (id * 7) % 100, (id * 13) % 100);
      return tree;
    }
    const shape = (t: PointQuadtree) => ({
      size: t.size,
      version: t.version,
      stats: treeStats(t),
      all: t.queryRect(0, 0, 100, 100).sort((a, b) => a - b),
    });

    it.each([
      [Number.NaN, RangeError, /radius must be a finite number >= 0, got NaN/],
      [Number.POSITIVE_INFINITY, RangeError, /radius must be a finite number >= 0, got Infinity/],
      [-1, RangeError, /radius must be a finite number >= 0, got -1/],
    ])('rejects radius %s and changes nothing', (radius, type, pattern) => {
      const tree = sample();
      const before = shape(tree);
      const outA = new Int32Array(400);
      const outB = new Int32Array(400);
      expect(() => tree.queryPairsInto(radius, outA, outB)).toThrow(type);
      expect(() => tree.queryPairsInto(radius, outA, outB)).toThrow(pattern);
      expect(() => tree.forEachPair(radius, () => {})).toThrow(pattern);
      expect(shape(tree)).toEqual(before);
    });

    it('throws a RangeError when the pairs do not fit, and the tree is unchanged', () => {
      const tree = sample();
      const before = shape(tree);
      const all = tree.queryPairsInto(1000, new Int32Array(190), new Int32Array(190));
      expect(all).toBe(190);
      expect(() => tree.queryPairsInto(1000, new Int32Array(189), new Int32Array(190))).toThrow(RangeError);
      expect(() => tree.queryPairsInto(1000, new Int32Array(190), new Int32Array(10))).toThrow(
        'PointQuadtree: outA and outB (length 10) are too small for the 190 pairs within radius 1000; give them length >= 190',
      );
      expect(shape(tree)).toEqual(before);
    });

    it('rejects output arrays that cannot hold every id', () => {
      const tree = sample();
      const bad = new Int8Array(400) as unknown as Int32Array;
      expect(() => tree.queryPairsInto(5, bad, new Int32Array(400))).toThrow(TypeError);
      expect(() => tree.queryPairsInto(5, new Int32Array(400), [] as unknown as Int32Array)).toThrow(
        TypeError,
      );
    });

    it('throws when a callback changes the structure of the tree', () => {
      const tree = sample();
      expect(() =>
        tree.forEachPair(1000, () => {
          tree.clear();
        }),
      ).toThrow(/PointQuadtree: the tree's structure changed during forEachPair/);
    });
  });
});
