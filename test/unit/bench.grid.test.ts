// The uniform grid the bench races the tree against (bench/grid.ts): its pair count and its fused counts and
// sums must be brute force's (and so the tree's), or the bench would time a wrong answer.
// The crowd's tree (point-quadtree/crowd), on which these tests ran as PointQuadtree before the crowd became a subpath.
import { CrowdQuadtree as PointQuadtree } from 'point-quadtree/crowd';
import { describe, expect, it } from 'vitest';
import { makePoints } from '../../bench/data';
import { CELLS_PER_POINT, type Coordinates, UniformGrid } from '../../bench/grid';
import { mulberry32 } from '../../src/sim/random';
import { awkwardGridCases, cloud, type GridAnswer } from '../helpers/gridCases';
import { bruteSeparation } from '../helpers/separationOracle';

type Answer = GridAnswer;

/** The grid's fused answer over all of xs, ys (a fresh grid unless one is given). */
function gridSeparation(xs: Coordinates, ys: Coordinates, r: number, grid = new UniformGrid()): Answer {
  const n = xs.length;
  const counts = new Int32Array(n);
  const sumX = new Float64Array(n);
  const sumY = new Float64Array(n);
  const pairs = grid.separationInto(xs, ys, n, r, counts, sumX, sumY);
  return { pairs, counts, sumX, sumY };
}

/** Counts exactly equal; sums within 1e-9 of their scale (a sum of `count` pushes, each at most 1 long). */
function expectSame(got: Answer, want: Answer): void {
  expect(got.pairs).toBe(want.pairs);
  expect(Array.from(got.counts)).toEqual(Array.from(want.counts));
  for (let id = 0; id < want.counts.length; id++) {
    const limit = 1e-9 * Math.max(1, want.counts[id]);
    expect(Math.abs(got.sumX[id] - want.sumX[id])).toBeLessThanOrEqual(limit);
    expect(Math.abs(got.sumY[id] - want.sumY[id])).toBeLessThanOrEqual(limit);
  }
}

/** The grid against the O(n²) oracle: the pair count and the fused call. */
function expectBrute(xs: Coordinates, ys: Coordinates, r: number): Answer {
  const want = bruteSeparation(xs, ys, r);
  expect(new UniformGrid().countPairs(xs, ys, xs.length, r)).toBe(want.pairs);
  const got = gridSeparation(xs, ys, r);
  expectSame(got, want);
  return got;
}

/** The tree's querySeparationInto over ids 0..n-1 at xs, ys. */
function treeSeparation(xs: Float64Array, ys: Float64Array, r: number): Answer {
  const n = xs.length;
  const ids = new Int32Array(n).map((_, i) => i);
  const tree = PointQuadtree.from({ bounds: { minX: 0, minY: 0, maxX: 1, maxY: 1 } }, ids, xs, ys);
  const counts = new Int32Array(n);
  const sumX = new Float64Array(n);
  const sumY = new Float64Array(n);
  const pairs = tree.querySeparationInto(r, counts, sumX, sumY);
  return { pairs, counts, sumX, sumY };
}

describe('UniformGrid against brute force, seeded', () => {
  for (const kind of ['uniform', 'clustered'] as const) {
    for (const r of [0.5, 2, 10, 40]) {
      it(`bench data ${kind}, N = 2,000, r = ${r} (makePoints' seed)`, () => {
        const p = makePoints(kind, 2000);
        expectBrute(p.xs, p.ys, r);
      });
    }
  }
  for (const seed of [1, 7, 42, 1234]) {
    for (const kind of ['uniform', 'clustered'] as const) {
      it(`mulberry32 seed ${seed}: ${kind}, N = 800, radius from the seed`, () => {
        const rnd = mulberry32(seed ^ 0x5bd1e995);
        const side = 1 + rnd() * 500;
        const { xs, ys } = cloud(kind, 800, side, seed);
        expectBrute(xs, ys, side * (0.001 + rnd() * 0.2));
      });
    }
  }
  it('float32 coordinates, as the scene passes them (seed 99)', () => {
    const { xs, ys } = cloud('clustered', 1500, 200, 99);
    expectBrute(Float32Array.from(xs), Float32Array.from(ys), 1.5);
  });
});

describe('UniformGrid on awkward data', () => {
  awkwardGridCases(expectBrute);

  it('points exactly on the cell edges, and far from the origin (offset 1e9, radius 1e-3)', () => {
    const grid = new UniformGrid();
    const seedXs = new Float64Array([1e9, 1e9 + 0.05]);
    grid.build(seedXs, new Float64Array([1e9, 1e9 + 0.05]), 2, 1e-3);
    const cell = grid.cell;
    expect(cell).toBeGreaterThanOrEqual(1e-3);
    const rnd = mulberry32(5);
    const n = 600;
    const xs = new Float64Array(n);
    const ys = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      // on a cell edge, or just inside one, in x, y or both
      xs[i] = 1e9 + Math.floor(rnd() * 12) * cell + (rnd() < 0.5 ? 0 : 1e-3 * rnd());
      ys[i] = 1e9 + Math.floor(rnd() * 12) * cell + (rnd() < 0.5 ? 0 : 1e-3 * rnd());
    }
    expectBrute(xs, ys, 1e-3);
  });

  it('a bounding box huge relative to r: two camps 1e9 apart, the cells grow (seed 3)', () => {
    const rnd = mulberry32(3);
    const n = 1000;
    const xs = new Float64Array(n);
    const ys = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const far = i % 2 === 0 ? 0 : 1e9;
      xs[i] = far + rnd() * 20;
      ys[i] = -far + rnd() * 20;
    }
    expectBrute(xs, ys, 1);
    const grid = new UniformGrid();
    grid.build(xs, ys, n, 1);
    expect(grid.cell).toBeGreaterThan(1e6);
    expect(grid.cols * grid.rows).toBeLessThanOrEqual(
      CELLS_PER_POINT * n + 2 * Math.sqrt(CELLS_PER_POINT * n) + 1,
    );
  });
});

describe('UniformGrid against the tree (querySeparationInto)', () => {
  for (const kind of ['uniform', 'clustered'] as const) {
    for (const r of [2, 10]) {
      it(`bench data ${kind}, N = 5,000, r = ${r}`, () => {
        const p = makePoints(kind, 5000);
        const grid = new UniformGrid();
        expect(grid.countPairs(p.xs, p.ys, p.n, r)).toBe(treeSeparation(p.xs, p.ys, r).pairs);
        expectSame(gridSeparation(p.xs, p.ys, r, grid), treeSeparation(p.xs, p.ys, r));
      });
    }
  }
  it('coincident and exactly-r points, seed 11', () => {
    const rnd = mulberry32(11);
    const xs = Float64Array.from({ length: 400 }, () => Math.floor(rnd() * 10) * 0.5);
    const ys = Float64Array.from({ length: 400 }, () => Math.floor(rnd() * 10) * 0.5);
    expectSame(gridSeparation(xs, ys, 0.5), treeSeparation(xs, ys, 0.5));
  });
});

describe('UniformGrid buffers', () => {
  it('a second frame of the same size allocates no new buffers; a smaller one neither', () => {
    const p = makePoints('clustered', 3000);
    const grid = new UniformGrid();
    const out = { counts: new Int32Array(p.n), sumX: new Float64Array(p.n), sumY: new Float64Array(p.n) };
    grid.separationInto(p.xs, p.ys, p.n, 10, out.counts, out.sumX, out.sumY);
    const buffers = [
      grid.cellStart,
      grid.cellOf,
      grid.ids,
      grid.xs,
      grid.ys,
      grid.count,
      grid.sumX,
      grid.sumY,
    ];
    const step = mulberry32(8);
    for (let i = 0; i < p.n; i++) p.xs[i] = Math.min(1000, Math.max(0, p.xs[i] + step() - 0.5));
    grid.separationInto(p.xs, p.ys, p.n, 10, out.counts, out.sumX, out.sumY);
    grid.countPairs(p.xs, p.ys, p.n, 10);
    grid.separationInto(p.xs, p.ys, 1000, 10, out.counts, out.sumX, out.sumY);
    const after = [grid.cellStart, grid.cellOf, grid.ids, grid.xs, grid.ys, grid.count, grid.sumX, grid.sumY];
    after.forEach((b, k) => {
      expect(b).toBe(buffers[k]);
    });
    expect(grid.n).toBe(1000);
  });

  it('grows for more points, and answers right after growing', () => {
    const grid = new UniformGrid();
    const small = makePoints('uniform', 100);
    gridSeparation(small.xs, small.ys, 10, grid);
    const ids = grid.ids;
    const big = makePoints('uniform', 2000);
    expectSame(gridSeparation(big.xs, big.ys, 10, grid), bruteSeparation(big.xs, big.ys, 10));
    expect(grid.ids).not.toBe(ids);
  });
});

describe('UniformGrid errors', () => {
  const xs = new Float64Array([0, 1, 2]);
  const ys = new Float64Array([0, 1, 2]);
  const out = () => [new Int32Array(3), new Float64Array(3), new Float64Array(3)] as const;
  it.each([
    ['a negative radius', () => new UniformGrid().countPairs(xs, ys, 3, -1), /radius .* got -1/],
    ['a NaN radius', () => new UniformGrid().countPairs(xs, ys, 3, Number.NaN), /radius .* got NaN/],
    ['an infinite radius', () => new UniformGrid().countPairs(xs, ys, 3, Infinity), /radius .* got Infinity/],
    ['n past the arrays', () => new UniformGrid().countPairs(xs, ys, 4, 1), /n must be .* got 4/],
    ['a fractional n', () => new UniformGrid().countPairs(xs, ys, 1.5, 1), /n must be .* got 1.5/],
    [
      'a NaN coordinate',
      () => new UniformGrid().countPairs(new Float64Array([0, Number.NaN]), ys, 2, 1),
      /coordinates must be finite/,
    ],
    [
      'an infinite coordinate',
      () => new UniformGrid().countPairs(xs, new Float64Array([0, -Infinity, 1]), 3, 1),
      /coordinates must be finite/,
    ],
    [
      'a span past the largest double',
      () => new UniformGrid().countPairs(new Float64Array([-1e308, 1e308]), ys, 2, 1),
      /finite span/,
    ],
    [
      'an output shorter than n',
      () =>
        new UniformGrid().separationInto(
          xs,
          ys,
          3,
          1,
          new Int32Array(2),
          new Float64Array(3),
          new Float64Array(3),
        ),
      /too short for n = 3/,
    ],
  ] as const)('throws a RangeError naming UniformGrid for %s', (_, call, message) => {
    expect(call).toThrow(RangeError);
    expect(call).toThrow(/^UniformGrid: /);
    expect(call).toThrow(message);
  });

  it('a throw leaves the last build as it was', () => {
    const grid = new UniformGrid();
    const [c, sx, sy] = out();
    grid.separationInto(xs, ys, 3, 1.5, c, sx, sy);
    const before = {
      cell: grid.cell,
      n: grid.n,
      radius: grid.radius,
      ids: Array.from(grid.ids.subarray(0, 3)),
    };
    expect(() => grid.separationInto(new Float64Array([0, Number.NaN, 0]), ys, 3, 5, c, sx, sy)).toThrow(
      RangeError,
    );
    expect({
      cell: grid.cell,
      n: grid.n,
      radius: grid.radius,
      ids: Array.from(grid.ids.subarray(0, 3)),
    }).toEqual(before);
  });
});
