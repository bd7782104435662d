import type { QuadtreeOptions } from 'point-quadtree';
// The crowd's tree (point-quadtree/crowd), on which these tests ran as PointQuadtree before the crowd became a subpath.
import { CrowdQuadtree as PointQuadtree, separationKernel, setSeparationKernel } from 'point-quadtree/crowd';
import { checkInvariants, treeStats } from 'point-quadtree/debug';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';
import { churn, FUZZ, type Points } from '../helpers/pairFuzz';

/**
 * The O(n²) oracle of querySeparationInto, in float64: per id, neighbours within r (closed) and the sum of
 * (p - q) (1 / d - 1 / r); coincident pairs push the lower id by -1 along x, the higher by +1.
 */
function bruteSeparation(points: Points, r: number) {
  const list = [...points.entries()];
  const counts = new Map<number, number>();
  const sx = new Map<number, number>();
  const sy = new Map<number, number>();
  for (const [id] of list) {
    counts.set(id, 0);
    sx.set(id, 0);
    sy.set(id, 0);
  }
  let pairs = 0;
  for (let i = 0; i < list.length; i++) {
    const [a, [ax, ay]] = list[i];
    for (let j = i + 1; j < list.length; j++) {
      const [b, [bx, by]] = list[j];
      const dx = bx - ax;
      const dy = by - ay;
      if (dx * dx + dy * dy > r * r) continue;
      const d = Math.hypot(dx, dy);
      let ux: number;
      let uy: number;
      if (d > 0) {
        const w = 1 / d - 1 / r;
        ux = dx * w;
        uy = dy * w;
      } else {
        ux = a < b ? 1 : -1;
        uy = 0;
      }
      pairs++;
      counts.set(a, counts.get(a)! + 1);
      counts.set(b, counts.get(b)! + 1);
      sx.set(a, sx.get(a)! - ux);
      sy.set(a, sy.get(a)! - uy);
      sx.set(b, sx.get(b)! + ux);
      sy.set(b, sy.get(b)! + uy);
    }
  }
  return { pairs, counts, sx, sy };
}

/** |got - want| within 1e-9 of the largest term's size (sums of a few hundred terms in another order). */
function expectNear(got: number, want: number, scale: number): void {
  expect(Math.abs(got - want)).toBeLessThanOrEqual(1e-9 * Math.max(1, scale));
}

/**
 * The tree's answer equals the oracle's, id by id; ids not in the tree get 0 up to the largest id, and the
 * entry past it keeps its sentinel.
 */
function expectSeparation(tree: PointQuadtree, points: Points, r: number): void {
  const end = points.size === 0 ? 0 : Math.max(...points.keys()) + 1;
  const counts = new Int32Array(end + 1).fill(-7);
  const sumX = new Float64Array(end + 1).fill(-7);
  const sumY = new Float64Array(end + 1).fill(-7);
  const pairs = tree.querySeparationInto(r, counts, sumX, sumY);
  const want = bruteSeparation(points, r);
  expect(pairs).toBe(want.pairs);
  expect([counts[end], sumX[end], sumY[end]]).toEqual([-7, -7, -7]);
  for (let id = 0; id < end; id++) {
    if (!points.has(id)) {
      expect([counts[id], sumX[id], sumY[id]]).toEqual([0, 0, 0]);
      continue;
    }
    expect(counts[id]).toBe(want.counts.get(id));
    // Each push is at most 1 long: the count bounds every sum's terms.
    expectNear(sumX[id], want.sx.get(id)!, counts[id]);
    expectNear(sumY[id], want.sy.get(id)!, counts[id]);
  }
}

const BOUNDS = { minX: 0, minY: 0, maxX: 100, maxY: 100 };

function build(options: Omit<QuadtreeOptions, 'bounds'>, list: [number, number][]): [PointQuadtree, Points] {
  const tree = new PointQuadtree({ bounds: BOUNDS, ...options });
  const points: Points = new Map();
  list.forEach((p, id) => {
    tree.insert(id, p[0], p[1]);
    points.set(id, p);
  });
  return [tree, points];
}

// Every test runs on both kernels: WebAssembly SIMD (what 'auto' picks in Node) and the JavaScript reference.
describe.each([
  ['auto', 'wasm-simd'],
  ['js', 'js'],
] as const)('kernel %s', (asked, runs) => {
  beforeAll(() => setSeparationKernel(asked));
  afterAll(() => setSeparationKernel('auto'));

  it(`runs ${runs}`, () => {
    expect(separationKernel()).toBe(runs);
  });

  describe('querySeparationInto: fixtures', () => {
    it('counts and pushes of a hand-made line, closed at exactly the radius', () => {
      const [tree] = build({ maxItems: 1, minSize: 0.5 }, [
        [10, 10],
        [11, 10], // 1 from id 0
        [13, 10], // 2 from id 1, 3 from id 0
      ]);
      const counts = new Int32Array(3);
      const sumX = new Float64Array(3);
      const sumY = new Float32Array(3);
      expect(tree.querySeparationInto(2, counts, sumX, sumY)).toBe(2);
      expect(Array.from(counts)).toEqual([1, 2, 1]);
      // id 0 and 1 at d = 1, r = 2: a push of (2 - 1) / 2 = 0.5 each way; 1 and 2 at d = 2: nothing.
      expect(Array.from(sumX)).toEqual([-0.5, 0.5, 0]);
      expect(Array.from(sumY)).toEqual([0, 0, 0]);
    });

    it('radius 0 pairs only coincident items, which split along x by id (three at one point)', () => {
      const [tree, points] = build({ maxItems: 1, minSize: 1 }, [
        [50, 50],
        [50, 50],
        [20, 20],
        [50, 50],
        [50, 50 + 1e-9],
      ]);
      const counts = new Float64Array(5);
      const sumX = new Float32Array(5);
      const sumY = new Float32Array(5);
      expect(tree.querySeparationInto(0, counts, sumX, sumY)).toBe(3);
      expect(Array.from(counts)).toEqual([2, 2, 0, 2, 0]);
      expect(Array.from(sumX)).toEqual([-2, 0, 0, 2, 0]);
      expect(Array.from(sumY)).toEqual([0, 0, 0, 0, 0]);
      expectSeparation(tree, points, 0);
      expectSeparation(tree, points, 1e-9);
    });

    it('points on split lines and the outer edge, at radii reaching exactly across them', () => {
      const list: [number, number][] = [];
      for (const x of [0, 25, 50, 75, 100]) for (const y of [0, 50, 100]) list.push([x, y]);
      list.push([50, 50], [49.999999, 50], [50, 25]);
      const [tree, points] = build({ maxItems: 1, minSize: 1 }, list);
      for (const r of [0, 25, 50, 25 * Math.SQRT2, 1e-6]) expectSeparation(tree, points, r);
    });

    it('a radius far beyond the world (every pair) and a huge one (1e200); 0 and 1 items; id 0', () => {
      const empty = new PointQuadtree({ bounds: BOUNDS });
      const c = new Int32Array(1);
      expect(empty.querySeparationInto(5, c, new Float32Array(1), new Float32Array(1))).toBe(0);
      const rnd = mulberry32(5);
      const list: [number, number][] = [];
      for (let id = 0; id < 80; id++) list.push([rnd() * 100, rnd() * 100]);
      const [one] = build({}, list.slice(0, 1));
      const counts = new Int32Array(1).fill(9);
      const sumX = new Float64Array(1).fill(9);
      const sumY = new Float64Array(1).fill(9);
      expect(one.querySeparationInto(1000, counts, sumX, sumY)).toBe(0);
      expect([counts[0], sumX[0], sumY[0]]).toEqual([0, 0, 0]);
      const [tree, points] = build({ maxItems: 2, minSize: 1 }, list);
      for (const r of [1000, 1e200]) expectSeparation(tree, points, r);
    });

    it('items moving between leaves without a structure change, then a split, between queries', () => {
      // minSize 10: 100 x 100 splits to 10 x 10 leaves at most, then leaves only fill up.
      const rnd = mulberry32(19);
      const list: [number, number][] = [];
      for (let id = 0; id < 400; id++) list.push([rnd() * 100, rnd() * 100]);
      const [tree, points] = build({ maxItems: 2, minSize: 10 }, list);
      for (let round = 0; round < 4; round++) {
        const version = tree.version;
        for (const r of [3, 7, 3]) expectSeparation(tree, points, r);
        for (let id = 0; id < 400; id++) {
          const [x, y] = points.get(id)!;
          const p: [number, number] = [
            Math.min(99, Math.max(1, x + (rnd() - 0.5) * 8)),
            Math.min(99, Math.max(1, y + (rnd() - 0.5) * 8)),
          ];
          tree.move(id, p[0], p[1]);
          points.set(id, p);
        }
        expect(tree.version).toBe(version); // the same leaves: the kept list of leaf pairs is used
        expectSeparation(tree, points, 3);
      }
      tree.insert(400, 150, 150); // the root grows: a new structure
      points.set(400, [150, 150]);
      tree.insert(401, 150.5, 150);
      points.set(401, [150.5, 150]);
      expectSeparation(tree, points, 3);
    });

    it('a grown root: points far outside the constructor bounds', () => {
      const [tree, points] = build({ maxItems: 2, minSize: 0.5 }, [
        [10, 10],
        [10.5, 10],
        [-5000, 300],
        [-4999, 300.5],
        [1e7, -1e7],
        [1e7 + 0.25, -1e7],
      ]);
      for (const r of [0.5, 1, 2, 1e6, 2e7]) expectSeparation(tree, points, r);
    });
  });

  describe('querySeparationInto against brute force, through inserts, moves and removals', () => {
    for (const c of FUZZ) {
      const loose = c.options.looseness ? `, looseness ${c.options.looseness}` : '';
      it(`seed ${c.seed}: ${c.kind} data, maxItems ${c.options.maxItems ?? 'default'}${loose}`, () => {
        const rnd = mulberry32(c.seed);
        const tree = new PointQuadtree({ bounds: BOUNDS, ...c.options });
        const points: Points = new Map();
        for (let round = 0; round < 5; round++) {
          churn(tree, points, c.kind, rnd, 80);
          checkInvariants(tree);
          for (const r of c.radii) expectSeparation(tree, points, r);
        }
      });
    }

    it('seed 18: 4,000 uniform points built in bulk, r = 1 and r = 3; pairs equal queryPairsInto', () => {
      const rnd = mulberry32(18);
      const n = 4000;
      const ids = new Int32Array(n);
      const xs = new Float64Array(n);
      const ys = new Float64Array(n);
      const points: Points = new Map();
      for (let id = 0; id < n; id++) {
        ids[id] = id;
        xs[id] = rnd() * 100;
        ys[id] = rnd() * 100;
        points.set(id, [xs[id], ys[id]]);
      }
      const tree = PointQuadtree.from({ bounds: BOUNDS }, ids, xs, ys);
      const room = new Int32Array(200_000);
      for (const r of [1, 3]) {
        expectSeparation(tree, points, r);
        const c = new Int32Array(n);
        const sumX = new Float32Array(n);
        const sumY = new Float32Array(n);
        expect(tree.querySeparationInto(r, c, sumX, sumY)).toBe(tree.queryPairsInto(r, room, room.slice()));
      }
    });
  });

  describe('querySeparationInto errors', () => {
    function sample(): PointQuadtree {
      const tree = new PointQuadtree({ bounds: BOUNDS, maxItems: 2, minSize: 1 });
      for (let id = 0; id < 20; id++) tree.insert(id, (id * 7) % 100, (id * 13) % 100);
      return tree;
    }
    const shape = (t: PointQuadtree) => ({ size: t.size, version: t.version, stats: treeStats(t) });
    const ok = () => ({ c: new Int32Array(20), x: new Float32Array(20), y: new Float64Array(20) });

    it.each([
      [Number.NaN, RangeError, 'PointQuadtree: radius must be a finite number >= 0, got NaN'],
      [
        Number.POSITIVE_INFINITY,
        RangeError,
        'PointQuadtree: radius must be a finite number >= 0, got Infinity',
      ],
      [-1, RangeError, 'PointQuadtree: radius must be a finite number >= 0, got -1'],
      ['2' as unknown as number, TypeError, 'PointQuadtree: radius must be a number'],
    ])('rejects radius %s, writes nothing and changes nothing', (radius, type, message) => {
      const tree = sample();
      const before = shape(tree);
      const { c, x, y } = ok();
      expect(() => tree.querySeparationInto(radius, c, x, y)).toThrow(type);
      expect(() => tree.querySeparationInto(radius, c, x, y)).toThrow(message);
      expect([...c, ...x, ...y].every((v) => v === 0)).toBe(true);
      expect(shape(tree)).toEqual(before);
    });

    it('rejects outputs of the wrong type or too short, naming them, before writing anything', () => {
      const tree = sample();
      const before = shape(tree);
      const { c, x, y } = ok();
      expect(() => tree.querySeparationInto(5, [] as unknown as Int32Array, x, y)).toThrow(
        'PointQuadtree: counts must be an Int32Array, Uint32Array, Float32Array or Float64Array, got an object (Array)',
      );
      expect(() => tree.querySeparationInto(5, c, new Int32Array(20) as unknown as Float32Array, y)).toThrow(
        'PointQuadtree: sumX must be a Float32Array or Float64Array, got an object (Int32Array)',
      );
      expect(() => tree.querySeparationInto(5, c, x, null as unknown as Float32Array)).toThrow(TypeError);
      expect(() => tree.querySeparationInto(5, new Int32Array(19), x, y)).toThrow(
        'PointQuadtree: counts (length 19) is too short for id 19; give it length >= 20',
      );
      expect(() => tree.querySeparationInto(5, c, x, new Float64Array(3))).toThrow(RangeError);
      expect([...c, ...x, ...y].every((v) => v === 0)).toBe(true);
      expect(shape(tree)).toEqual(before);
      // After removing the largest ids, shorter outputs are enough.
      for (let id = 10; id < 20; id++) tree.remove(id);
      expect(
        tree.querySeparationInto(5, new Int32Array(10), new Float32Array(10), new Float32Array(10)),
      ).toBe(tree.queryPairsInto(5, new Int32Array(100), new Int32Array(100)));
    });
  });
});

describe('setSeparationKernel', () => {
  it('rejects anything but auto and js', () => {
    expect(() => setSeparationKernel('wasm' as 'auto')).toThrow(
      "PointQuadtree: the separation kernel must be 'auto' or 'js', got \"wasm\"",
    );
    expect(separationKernel()).toBe('wasm-simd');
  });
});
