// The crowd's tree (point-quadtree/crowd), on which these tests ran as PointQuadtree before the crowd became a subpath.
import { CrowdQuadtree as PointQuadtree, separationKernel, setSeparationKernel } from 'point-quadtree/crowd';
import { distanceScale } from 'point-quadtree/internal/core/distance';
import { afterAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';

/*
 * The WebAssembly kernel's row join lists candidates with a test in f32 lanes, made wider than the radius
 * by more than the f32 rounding can reach, and then applies the exact f64 rule to the listed ones. These
 * cases put many pairs within a rounding error of the radius (where a test without that margin, or an
 * f32 test alone, gets some wrong), at huge coordinates, at tiny and huge radii, and compare the pairs
 * and counts with the O(n²) oracle exactly, and every output type with the JavaScript kernel.
 */

type Point = [number, number];

/**
 * Pairs and per-id counts by the O(n²) rule of querySeparationInto: closed, float64 differences, all
 * times the power of two distanceScale(r) where r² would overflow or underflow (docs/api.md).
 */
function bruteCounts(points: Point[], r: number): { pairs: number; counts: number[] } {
  const counts = new Array<number>(points.length).fill(0);
  const s = distanceScale(r);
  let pairs = 0;
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const dx = (points[j][0] - points[i][0]) * s;
      const dy = (points[j][1] - points[i][1]) * s;
      if (dx * dx + dy * dy > r * s * (r * s)) continue;
      pairs++;
      counts[i]++;
      counts[j]++;
    }
  }
  return { pairs, counts };
}

/**
 * Pairs of points at the radius from each other, to within a few units in the last place: for each, a
 * centre and a partner at distance r in a random direction, then moved by -2..2 ulps along x, so that
 * about half the pairs are just inside and half just outside. The centres are 1.2 radii apart, dense
 * enough for leaves a few radii wide (the row join's case, not the wide pairs').
 */
function boundaryPairs(seed: number, count: number, x0: number, y0: number, r: number): Point[] {
  const rnd = mulberry32(seed);
  const points: Point[] = [];
  const side = Math.ceil(Math.sqrt(count));
  for (let k = 0; k < count; k++) {
    const cx = x0 + (k % side) * 1.2 * r + rnd() * 0.2 * r;
    const cy = y0 + Math.floor(k / side) * 1.2 * r + rnd() * 0.2 * r;
    const angle = rnd() * 2 * Math.PI;
    let qx = cx + r * Math.cos(angle);
    const qy = cy + r * Math.sin(angle);
    const ulp = Math.abs(qx) * Number.EPSILON || Number.MIN_VALUE;
    qx += Math.round(rnd() * 4 - 2) * ulp;
    points.push([cx, cy], [qx, qy]);
  }
  return points;
}

function treeOf(points: Point[], options: { maxItems?: number; minSize?: number; looseness?: number }) {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [x, y] of points) {
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
  }
  const tree = new PointQuadtree({ bounds: { minX, minY, maxX, maxY }, ...options });
  points.forEach(([x, y], id) => {
    tree.insert(id, x, y);
  });
  return tree;
}

/**
 * The tree's pairs and counts equal the oracle's, with both kernels at both precisions; the pushes agree
 * with the WebAssembly kernel's exact ones: within 1e-9 of the item's count at 'f64', within the fast
 * precision's stated bound, 1e-5 of the count, at 'f32' (docs/crowd.md).
 */
function expectExact(tree: PointQuadtree, points: Point[], r: number): void {
  const want = bruteCounts(points, r);
  const n = points.length;
  const runs: { sx: Float64Array; sy: Float64Array; bound: number }[] = [];
  for (const kernel of ['auto', 'js'] as const) {
    setSeparationKernel(kernel);
    for (const precision of ['f64', 'f32'] as const) {
      const counts = new Int32Array(n);
      const sx = new Float64Array(n);
      const sy = new Float64Array(n);
      const what = `${separationKernel()} ${precision}`;
      expect(tree.querySeparationInto(r, counts, sx, sy, { precision }), `${what} pairs at r = ${r}`).toBe(
        want.pairs,
      );
      expect(Array.from(counts), `${what} counts at r = ${r}`).toEqual(want.counts);
      runs.push({ sx, sy, bound: precision === 'f64' ? 1e-9 : 1e-5 });
    }
  }
  setSeparationKernel('auto');
  const exact = runs[0];
  for (const run of runs) {
    for (let id = 0; id < n; id++) {
      const scale = Math.max(1, want.counts[id]);
      expect(Math.abs(run.sx[id] - exact.sx[id])).toBeLessThanOrEqual(run.bound * scale);
      expect(Math.abs(run.sy[id] - exact.sy[id])).toBeLessThanOrEqual(run.bound * scale);
    }
  }
}

describe('querySeparationInto: pairs at the radius to the last bit (the f32 candidate test and its margin)', () => {
  afterAll(() => setSeparationKernel('auto'));

  it('runs the WebAssembly kernel here', () => {
    expect(separationKernel()).toBe('wasm-simd');
  });

  it('seed 41: 600 pairs within 2 ulps of r = 1.5, inside and outside, near the origin', () => {
    const points = boundaryPairs(41, 600, 0, 0, 1.5);
    const tree = treeOf(points, { maxItems: 8, minSize: 0.5 });
    // The fixture is what it claims: of the 600 pairs made at the radius, some just inside, some outside.
    let inside = 0;
    for (let k = 0; k < 600; k++) {
      const [[ax, ay], [bx, by]] = [points[2 * k], points[2 * k + 1]];
      if ((bx - ax) ** 2 + (by - ay) ** 2 <= 1.5 * 1.5) inside++;
    }
    expect(inside).toBeGreaterThan(200);
    expect(inside).toBeLessThan(400);
    expectExact(tree, points, 1.5);
  });

  it('seed 42: the same at coordinates near 1e9 (offsets of the rows, not the coordinates, go to f32)', () => {
    const points = boundaryPairs(42, 400, 1e9, -1e9, 1.5);
    expectExact(treeOf(points, { maxItems: 8, minSize: 0.5 }), points, 1.5);
  });

  it('seed 43: tiny radii (1e-9, 1e-200) and a loose tree', () => {
    const a = boundaryPairs(43, 300, 0.25, 0.5, 1e-9);
    expectExact(treeOf(a, { maxItems: 6, minSize: 1e-10, looseness: 1e-10 }), a, 1e-9);
    const b = boundaryPairs(44, 200, 1e-190, 0, 1e-200);
    expectExact(treeOf(b, { maxItems: 6, minSize: 1e-201 }), b, 1e-200);
  });

  it('seed 45: radii 2^k exactly and between (the scale of the f32 offsets changes at powers of two)', () => {
    for (const r of [1, 2, 0.5, 1.999999999, 1024, 3]) {
      const points = boundaryPairs(45, 150, 10, 20, r);
      expectExact(treeOf(points, { maxItems: 8, minSize: r / 4 }), points, r);
    }
  });

  it('seed 49: the same in two crowds 20,000 radii apart (the rows convert for themselves, not once for all)', () => {
    const points = [...boundaryPairs(49, 300, 0, 0, 1.5), ...boundaryPairs(50, 300, 30_000, 5, 1.5)];
    expectExact(treeOf(points, { maxItems: 8, minSize: 0.5 }), points, 1.5);
  });

  it('seed 46: a radius so large no scale brings it to [1, 2) (every candidate listed), and 1e300', () => {
    const rnd = mulberry32(46);
    const points: Point[] = [];
    for (let k = 0; k < 120; k++) points.push([rnd() * 1e307, rnd() * 1e307]);
    const tree = treeOf(points, { maxItems: 4, minSize: 1e300 });
    for (const r of [1e308, 8e307, 1e300]) expectExact(tree, points, r);
  });

  it('seed 47: dense uniform crowd with coincident pairs and pairs at exactly the radius on a grid', () => {
    const rnd = mulberry32(47);
    const points: Point[] = [];
    for (let k = 0; k < 2000; k++) points.push([rnd() * 40, rnd() * 40]);
    for (let k = 0; k < 100; k++) points.push([...points[k]] as Point);
    // A grid at spacing 1.5: neighbours at exactly r = 1.5 (exact in binary), diagonals at 1.5 sqrt(2).
    for (let i = 0; i < 10; i++) for (let j = 0; j < 10; j++) points.push([50 + i * 1.5, 50 + j * 1.5]);
    const tree = treeOf(points, { maxItems: 8, minSize: 1 });
    for (const r of [1.5, 1.5 * Math.SQRT2, 0.75]) expectExact(tree, points, r);
  });

  it('seed 51: crowds within one radius (each item reaches all: its row lists more than the row holds)', () => {
    const rnd = mulberry32(51);
    // 300 items in a unit square at r = 2: every row holds every item and lists all of them for each of
    // its own, so the lists of a row's items are taken a few items at a time.
    const square: Point[] = [];
    for (let k = 0; k < 300; k++) square.push([rnd(), rnd()]);
    expectExact(treeOf(square, { maxItems: 4, minSize: 0.01 }), square, 2);
    // One leaf at minSize holding 200 items (120 of them at one point): one row, lists of up to 199.
    const heap: Point[] = [];
    for (let k = 0; k < 80; k++) heap.push([5 + rnd() * 0.1, 5 + rnd() * 0.1]);
    for (let k = 0; k < 120; k++) heap.push([5.05, 5.05]);
    heap.push([0, 0], [10, 10]);
    expectExact(treeOf(heap, { maxItems: 4, minSize: 1 }), heap, 1);
  });
});

describe('querySeparationInto: every output type gets the same answer from both kernels', () => {
  afterAll(() => setSeparationKernel('auto'));

  it('seed 48: Int32Array, Uint32Array, Float32Array and Float64Array counts with Float32/64 sums', () => {
    const rnd = mulberry32(48);
    const points: Point[] = [];
    for (let k = 0; k < 3000; k++) points.push([rnd() * 60, rnd() * 60]);
    const tree = treeOf(points, {});
    tree.remove(7); // an absent id below the largest: its outputs are 0
    const n = points.length;
    const kinds = [Int32Array, Uint32Array, Float32Array, Float64Array] as const;
    for (const Counts of kinds) {
      for (const [SumX, SumY] of [
        [Float32Array, Float32Array],
        [Float64Array, Float32Array],
        [Float32Array, Float64Array],
        [Float64Array, Float64Array],
      ] as const) {
        const out: { c: ArrayLike<number>; x: ArrayLike<number>; y: ArrayLike<number> }[] = [];
        for (const kernel of ['auto', 'js'] as const) {
          setSeparationKernel(kernel);
          const c = new Counts(n).fill(9);
          const x = new SumX(n).fill(9);
          const y = new SumY(n).fill(9);
          tree.querySeparationInto(2, c, x, y);
          out.push({ c, x, y });
        }
        const label = `${Counts.name} ${SumX.name} ${SumY.name}`;
        expect(Array.from(out[0].c), label).toEqual(Array.from(out[1].c));
        expect([out[0].c[7], out[0].x[7], out[0].y[7]], label).toEqual([0, 0, 0]);
        for (let id = 0; id < n; id++) {
          // Float32 outputs round the same float64 sums (in another order: a few units of f32 rounding).
          const tol =
            (SumX === Float32Array || SumY === Float32Array ? 1e-6 : 1e-9) * Math.max(1, out[1].c[id]);
          expect(Math.abs(out[0].x[id] - out[1].x[id]), label).toBeLessThanOrEqual(tol);
          expect(Math.abs(out[0].y[id] - out[1].y[id]), label).toBeLessThanOrEqual(tol);
        }
      }
    }
  });
});
