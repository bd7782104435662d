/**
 * What both of the bench's grids (bench/grid.ts's dense one, bench/hashGrid.ts's hashed one) must answer like
 * brute force: the seeded clouds and the awkward cases their test files share (bench.grid.test.ts,
 * bench.hashGrid.test.ts). Each file passes its own check against brute force, which returns the answer.
 */
import { expect, it } from 'vitest';
import type { Coordinates } from '../../bench/grid';
import { gaussian, mulberry32 } from '../../src/sim/random';

export interface GridAnswer {
  pairs: number;
  counts: Int32Array;
  sumX: Float64Array;
  sumY: Float64Array;
}

export type GridCheck = (xs: Coordinates, ys: Coordinates, r: number) => GridAnswer;

/** n points, seeded: uniform in a side x side square from (x0, y0), or in four tight camps within it. */
export function cloud(kind: 'uniform' | 'clustered', n: number, side: number, seed: number, x0 = 0, y0 = 0) {
  const rnd = mulberry32(seed);
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  const camps = Array.from({ length: 4 }, () => [rnd() * side, rnd() * side]);
  for (let i = 0; i < n; i++) {
    if (kind === 'uniform') {
      xs[i] = x0 + rnd() * side;
      ys[i] = y0 + rnd() * side;
    } else {
      const [cx, cy] = camps[Math.floor(rnd() * camps.length)];
      xs[i] = x0 + cx + gaussian(rnd) * side * 0.02;
      ys[i] = y0 + cy + gaussian(rnd) * side * 0.02;
    }
  }
  return { xs, ys };
}

/** The awkward cases of the cells, each a test calling `check` (inside a describe of the caller's). */
export function awkwardGridCases(check: GridCheck): void {
  it('coincident points split along x by index, the lower to -x (exact)', () => {
    const got = check(new Float64Array([5, 5, 5, 9]), new Float64Array([5, 5, 5, 5]), 1);
    expect(got.pairs).toBe(3);
    expect(Array.from(got.counts)).toEqual([2, 2, 2, 0]);
    expect(Array.from(got.sumX)).toEqual([-2, 0, 2, 0]);
    expect(Array.from(got.sumY)).toEqual([0, 0, 0, 0]);
  });

  it('points exactly r apart are neighbours with a push of 0 (closed radius)', () => {
    // 3-4-5 triangles and axis-aligned pairs at exactly 5
    const got = check(new Float64Array([0, 3, 5, 0, 8]), new Float64Array([0, 4, 0, 5, 4]), 5);
    expect(got.pairs).toBe(7);
    expect(Array.from(got.counts)).toEqual([3, 4, 3, 2, 2]);
  });

  it.each([
    [0.49280893460288644, 0.9856178692057728, 1.4784268038086592],
    [0.17638451123982668, 0.7055380449593066, 0.8819225561991333],
  ])('a pair exactly r = %f apart whose quotients x / r round two cells apart', (r, a, b) => {
    // With a cell of exactly r, a (x / r just below 2 or 4) and b = a + r (rounded up to 3 or 5) would land
    // two cells apart and the pair would be missed; the few points at the origin fix a dense grid's minX at 0.
    const got = check(new Float64Array([a, b, 0, 0, 0, 0, 0, 0]), new Float64Array(8), r);
    expect(got.counts[0]).toBe(1);
  });

  it.each([
    [0, 30],
    [-15, 15],
  ])('a lattice spaced exactly r, radius 0.1, x from %i / 10 (rounding near the cell edges)', (from, to) => {
    const xs: number[] = [];
    const ys: number[] = [];
    for (let i = from; i < to; i++) {
      for (let j = 0; j < 30; j++) {
        xs.push(i * 0.1);
        ys.push(j * 0.1 + 0.3);
      }
    }
    check(Float64Array.from(xs), Float64Array.from(ys), 0.1);
  });

  it('one point, and no point', () => {
    const one = check(new Float64Array([3]), new Float64Array([-4]), 2);
    expect(one.pairs).toBe(0);
    expect(Array.from(one.counts)).toEqual([0]);
    expect(Array.from(one.sumX)).toEqual([0]);
    expect(check(new Float64Array(0), new Float64Array(0), 2).pairs).toBe(0);
  });

  it('radius 0 finds exactly the coincident points, also with every point at the origin', () => {
    check(new Float64Array([1, 1, 2, 1]), new Float64Array([0, 0, 0, 0.5]), 0);
    expect(check(new Float64Array(5), new Float64Array(5), 0).pairs).toBe(10);
  });

  it('a line of points (zero height) far wider than r', () => {
    const n = 500;
    const xs = Float64Array.from({ length: n }, (_, i) => i * 0.37);
    check(xs, new Float64Array(n).fill(7), 1);
  });
}
