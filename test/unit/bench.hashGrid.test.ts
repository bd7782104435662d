// The hashed grid the bench races the tree against in an open world (bench/hashGrid.ts): its fused counts and
// sums must be brute force's (and so the tree's), or the bench would time a wrong answer. The cases of
// bench.grid.test.ts that concern the cells, and the hash's own: cells far past 2^31, buckets shared by
// many cells.
import { describe, expect, it } from 'vitest';
import { makePoints, OPEN_WORLD } from '../../bench/data';
import type { Coordinates } from '../../bench/grid';
import { HashGrid } from '../../bench/hashGrid';
import { mulberry32 } from '../../src/sim/random';
import { awkwardGridCases, cloud, type GridAnswer } from '../helpers/gridCases';
import { bruteSeparation } from '../helpers/separationOracle';

type Answer = GridAnswer;

function hashSeparation(xs: Coordinates, ys: Coordinates, r: number, grid = new HashGrid()): Answer {
  const n = xs.length;
  const counts = new Int32Array(n);
  const sumX = new Float64Array(n);
  const sumY = new Float64Array(n);
  const pairs = grid.separationInto(xs, ys, n, r, counts, sumX, sumY);
  return { pairs, counts, sumX, sumY };
}

/** Counts exactly brute force's; sums within 1e-9 of their scale (a sum of `count` pushes of length <= 1). */
function expectBrute(xs: Coordinates, ys: Coordinates, r: number, grid?: HashGrid): Answer {
  const want = bruteSeparation(xs, ys, r);
  const got = hashSeparation(xs, ys, r, grid);
  expect(got.pairs).toBe(want.pairs);
  expect(Array.from(got.counts)).toEqual(Array.from(want.counts));
  for (let id = 0; id < want.counts.length; id++) {
    const limit = 1e-9 * Math.max(1, want.counts[id]);
    expect(Math.abs(got.sumX[id] - want.sumX[id])).toBeLessThanOrEqual(limit);
    expect(Math.abs(got.sumY[id] - want.sumY[id])).toBeLessThanOrEqual(limit);
  }
  return got;
}

describe('HashGrid against brute force, seeded', () => {
  for (const kind of ['uniform', 'clustered', 'world'] as const) {
    for (const r of [0.5, 2, 10, 40]) {
      it(`bench data ${kind}, N = 2,000, r = ${r} (makePoints' seed)`, () => {
        const p = makePoints(kind, 2000);
        expectBrute(p.xs, p.ys, r);
      });
    }
  }
  for (const seed of [1, 7, 42, 1234]) {
    for (const kind of ['uniform', 'clustered'] as const) {
      it(`mulberry32 seed ${seed}: ${kind}, N = 800, radius from the seed, from a negative corner`, () => {
        const rnd = mulberry32(seed ^ 0x5bd1e995);
        const side = 1 + rnd() * 500;
        const { xs, ys } = cloud(kind, 800, side, seed, -side * rnd(), -side * rnd());
        expectBrute(xs, ys, side * (0.001 + rnd() * 0.2));
      });
    }
  }
  it('float32 coordinates, as the scene passes them (seed 99)', () => {
    const { xs, ys } = cloud('clustered', 1500, 200, 99);
    expectBrute(Float32Array.from(xs), Float32Array.from(ys), 1.5);
  });
  it("the open world's camps lie far apart, outside [0, 1000] (data.ts's 'world')", () => {
    const p = makePoints('world', 2000);
    let far = 0;
    for (let i = 0; i < p.n; i++) far = Math.max(far, p.xs[i], p.ys[i]);
    expect(far).toBeGreaterThan(OPEN_WORLD / 4);
    expect(far).toBeLessThan(OPEN_WORLD + 200);
  });
});

describe('HashGrid on awkward data', () => {
  awkwardGridCases(expectBrute);

  it('points on the cell edges far from the origin (offset 1e9, radius 1e-3)', () => {
    const grid = new HashGrid();
    grid.build(new Float64Array([1e9]), new Float64Array([1e9]), 1, 1e-3);
    const cell = grid.cell;
    expect(cell).toBeGreaterThanOrEqual(1e-3);
    const rnd = mulberry32(5);
    const n = 600;
    const xs = new Float64Array(n);
    const ys = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      xs[i] = 1e9 + Math.floor(rnd() * 12) * cell + (rnd() < 0.5 ? 0 : 1e-3 * rnd());
      ys[i] = 1e9 + Math.floor(rnd() * 12) * cell + (rnd() < 0.5 ? 0 : 1e-3 * rnd());
    }
    expectBrute(xs, ys, 1e-3);
  });

  it('cells numbered past 2^32 (offsets +-1e12, radius 1): cells whose low 32 bits agree are told apart', () => {
    // Two camps 2^32 cells apart in x share every bucket; their points must not pair.
    const rnd = mulberry32(8);
    const n = 800;
    const xs = new Float64Array(n);
    const ys = new Float64Array(n);
    const grid = new HashGrid();
    grid.build(new Float64Array([1e12]), new Float64Array([0]), 1, 1);
    const apart = 2 ** 32 * grid.cell;
    for (let i = 0; i < n; i++) {
      xs[i] = (i % 2 === 0 ? 1e12 : 1e12 + apart) + rnd() * 6;
      ys[i] = -1e12 + rnd() * 6;
    }
    const got = expectBrute(xs, ys, 1);
    expect(got.pairs).toBeGreaterThan(0);
  });

  it('diagonal neighbours that share a bucket: each pair once (the cells told apart by their coordinates)', () => {
    // Six points, so 16 buckets. A cell's east and north neighbours never share its bucket (the hash moves
    // them by 0.62 and 0.52 of the table), its diagonal ones may: find such pairs of cells, put points
    // within r across their shared corner and within each cell.
    const grid = new HashGrid();
    grid.build(new Float64Array(6), new Float64Array(6), 6, 1);
    expect(grid.bits).toBe(4);
    const bucket = (x: number, y: number): number =>
      (grid as unknown as { bucket(x: number, y: number): number }).bucket(x, y);
    const cell = grid.cell;
    for (const ex of [1, -1]) {
      let found = false;
      for (let y = 0; y < 64 && !found; y++) {
        for (let x = 0; x < 4096 && !found; x++) {
          if (bucket(x, y) !== bucket(x + ex, y + 1)) continue;
          found = true;
          // The corner the two cells share; three points below it in (x, y), three above in (x + ex, y + 1).
          const cx = (x + Math.max(ex, 0)) * cell;
          const cy = (y + 1) * cell;
          const d = [0.1, 0.2, 0.15];
          const xs = new Float64Array([...d.map((v) => cx - ex * v), ...d.map((v) => cx + ex * v)]);
          const ys = new Float64Array([...d.map((v) => cy - v), ...d.map((v) => cy + v)]);
          expect(expectBrute(xs, ys, 1).pairs).toBe(15);
        }
      }
      expect(found, `no diagonal neighbours (${ex}, 1) sharing a bucket`).toBe(true);
    }
  });

  it('many cells per bucket (a sparse cloud of 3,000 points over 10^6 cells)', () => {
    const { xs, ys } = cloud('uniform', 3000, 1000, 17);
    const grid = new HashGrid();
    expectBrute(xs, ys, 1, grid);
    expect(1 << grid.bits).toBeLessThan(10_000);
  });
});

describe('HashGrid buffers and errors', () => {
  it('a second frame of the same size allocates no new buffers, and answers right', () => {
    const grid = new HashGrid();
    const a = cloud('clustered', 1000, 300, 3);
    expectBrute(a.xs, a.ys, 4, grid);
    const ids = grid.ids;
    const start = grid.bucketStart;
    const b = cloud('uniform', 1000, 300, 4);
    expectBrute(b.xs, b.ys, 4, grid);
    expect(grid.ids).toBe(ids);
    expect(grid.bucketStart).toBe(start);
  });

  it.each([
    ['a negative radius', 1, -1, 'radius must be a finite number >= 0, got -1'],
    ['a NaN radius', 1, Number.NaN, 'radius must be a finite number >= 0, got NaN'],
    ['an infinite radius', 1, Number.POSITIVE_INFINITY, 'radius must be a finite number >= 0, got Infinity'],
    ['n past the coordinates', 3, 1, "n must be an integer from 0 to the coordinates' length (2), got 3"],
  ])('%s is a RangeError naming the value', (_, n, r, message) => {
    const out = () => new Float64Array(4);
    expect(() =>
      new HashGrid().separationInto(new Float64Array(2), new Float64Array(2), n, r, out(), out(), out()),
    ).toThrow(new RangeError(`HashGrid: ${message}`));
  });

  it('outputs too short, and coordinates that are not finite, are RangeErrors', () => {
    const xs = new Float64Array([0, Number.POSITIVE_INFINITY]);
    expect(() =>
      new HashGrid().separationInto(xs, new Float64Array(2), 2, 1, new Int32Array(1), xs, xs),
    ).toThrow(/HashGrid: outputs of lengths 1, 2, 2 are too short for n = 2/);
    expect(() =>
      new HashGrid().separationInto(
        xs,
        new Float64Array(2),
        2,
        1,
        new Int32Array(2),
        new Float64Array(2),
        new Float64Array(2),
      ),
    ).toThrow(/HashGrid: coordinates must be finite/);
  });
});
