import {
  CrowdQuadtree,
  type SeparationPrecision,
  separationKernel,
  setSeparationKernel,
} from 'point-quadtree/crowd';
import { checkInvariants } from 'point-quadtree/debug';
import { SeparationTeam } from 'point-quadtree/parallel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeHelpers, startNodeHelpers, untilReady } from '../../bench/nodeHelpers';
import { gaussian, mulberry32 } from '../../src/sim/random';
import { instrumented, leastBytesPerCall } from '../helpers/allocation';
import { bruteSeparation } from '../helpers/separationOracle';
import { fingerprint } from '../helpers/trees';

/*
 * querySeparationInto's precision option: at 'f32' every count and the pair count equal brute force's
 * exactly (the test of the radius is the f64 rule), and each sum is within 1e-5 x its item's count (the
 * sum's magnitude scale: each push is at most 1 long) of the exact f64 kernel's; on both kernels and
 * through a team. docs/crowd.md#the-fast-precision has the bound.
 */

/** The stated bound of the fast precision, as a fraction of the item's count. */
const BOUND = 1e-5;

/**
 * A seeded crowd with the awkward cases: uniform points, coincident copies, near-coincident pairs (a few
 * ulps and 1e-12 apart), pairs at exactly the radius (a grid at spacing r, exact in binary), and pairs
 * within 2 ulps of the radius in random directions.
 */
function awkwardCrowd(seed: number, n: number, r: number, x0 = 0): { xs: Float64Array; ys: Float64Array } {
  const rnd = mulberry32(seed);
  const xs: number[] = [];
  const ys: number[] = [];
  const side = Math.sqrt(n) * r * 0.8;
  for (let k = 0; k < n; k++) {
    xs.push(x0 + rnd() * side);
    ys.push(rnd() * side);
  }
  for (let k = 0; k < n / 20; k++) {
    // Coincident, a few ulps apart, 1e-12 apart.
    const x = xs[k];
    const y = ys[k];
    const ulp = Math.max(Math.abs(x) * Number.EPSILON, Number.MIN_VALUE);
    xs.push(x, x + 3 * ulp, x + 1e-12);
    ys.push(y, y, y - 1e-12);
  }
  // A 10 x 10 grid at spacing r: neighbours at exactly the radius.
  for (let i = 0; i < 10; i++) {
    for (let j = 0; j < 10; j++) {
      xs.push(x0 + side + 2 * r + i * r);
      ys.push(j * r);
    }
  }
  // Pairs within 2 ulps of the radius.
  for (let k = 0; k < n / 10; k++) {
    const cx = x0 + rnd() * side;
    const cy = side + 3 * r + rnd() * side;
    const angle = rnd() * 2 * Math.PI;
    const qx = cx + r * Math.cos(angle);
    xs.push(cx, qx + Math.round(rnd() * 4 - 2) * Math.abs(qx) * Number.EPSILON);
    ys.push(cy, cy + r * Math.sin(angle));
  }
  return { xs: Float64Array.from(xs), ys: Float64Array.from(ys) };
}

function treeOf(xs: Float64Array, ys: Float64Array, maxItems = 8): CrowdQuadtree {
  const ids = Int32Array.from(xs, (_, i) => i);
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < xs.length; i++) {
    minX = Math.min(minX, xs[i]);
    maxX = Math.max(maxX, xs[i]);
    minY = Math.min(minY, ys[i]);
    maxY = Math.max(maxY, ys[i]);
  }
  return CrowdQuadtree.from({ bounds: { minX, minY, maxX, maxY }, maxItems, minSize: 0.25 }, ids, xs, ys);
}

interface Answer {
  pairs: number;
  counts: Int32Array;
  sumX: Float64Array;
  sumY: Float64Array;
}

function separation(tree: CrowdQuadtree, n: number, r: number, precision?: SeparationPrecision): Answer {
  const counts = new Int32Array(n);
  const sumX = new Float64Array(n);
  const sumY = new Float64Array(n);
  const options = precision === undefined ? undefined : { precision };
  const pairs = tree.querySeparationInto(r, counts, sumX, sumY, options);
  return { pairs, counts, sumX, sumY };
}

/**
 * `got` has brute force's pair count and counts exactly, and sums within `bound` x the count (at least 1)
 * of `exact`'s; returns the largest difference seen, as a fraction of the count.
 */
function expectWithin(got: Answer, exact: Answer, want: ReturnType<typeof bruteSeparation>, bound: number) {
  expect(got.pairs).toBe(want.pairs);
  expect(Array.from(got.counts)).toEqual(Array.from(want.counts));
  let worst = 0;
  let wrong = -1;
  for (let id = 0; id < got.counts.length; id++) {
    const scale = Math.max(1, want.counts[id]);
    const d = Math.max(Math.abs(got.sumX[id] - exact.sumX[id]), Math.abs(got.sumY[id] - exact.sumY[id]));
    worst = Math.max(worst, d / scale);
    if (d > bound * scale && wrong < 0) wrong = id;
  }
  expect(wrong, `first id whose sums are off by more than ${bound} x its count`).toBe(-1);
  return worst;
}

describe("querySeparationInto's precision: counts exact, sums within 1e-5 x the count", () => {
  afterAll(() => setSeparationKernel('auto'));

  it('runs the WebAssembly kernel here', () => {
    expect(separationKernel()).toBe('wasm-simd');
  });

  it.each([
    [61, 1.5, 0],
    [62, 1.5, 1e9],
    [63, 0.75, -3e4],
    [64, 3, 0],
  ])('seed %i: awkward crowd at r = %d, x0 %d: both kernels, both precisions', (seed, r, x0) => {
    const { xs, ys } = awkwardCrowd(seed, 1500, r, x0);
    const n = xs.length;
    const tree = treeOf(xs, ys);
    const want = bruteSeparation(xs, ys, r);
    setSeparationKernel('auto');
    const exact = separation(tree, n, r);
    expect(separation(tree, n, r, 'f64')).toEqual(exact);
    expectWithin(exact, exact, want, 0);
    // The exact kernel against brute force's f64 sums (another order of additions).
    expectWithin(exact, { ...want, pairs: want.pairs }, want, 1e-9);
    expect(tree.lastSeparation).toEqual({ kernel: 'wasm-simd', precision: 'f64' });
    const fast = separation(tree, n, r, 'f32');
    // The tree says what ran: the fast precision, on the WebAssembly kernel.
    expect(tree.lastSeparation).toEqual({ kernel: 'wasm-simd', precision: 'f32' });
    const worst = expectWithin(fast, exact, want, BOUND);
    // The fast pass ran: its sums are not the exact ones (but far inside the bound).
    expect(worst).toBeGreaterThan(0);
    expect(worst).toBeLessThan(BOUND / 10);
    setSeparationKernel('js');
    const js = separation(tree, n, r, 'f32');
    // Asked for f32, computed in f64 on the JavaScript kernel: the tree says so.
    expect(tree.lastSeparation).toEqual({ kernel: 'js', precision: 'f64' });
    // The JavaScript kernel computes in f64 at either precision: its f32 answer is its f64 answer.
    expect(js).toEqual(separation(tree, n, r, 'f64'));
    expectWithin(js, exact, want, 1e-9);
    setSeparationKernel('auto');
    checkInvariants(tree);
  });

  it('seed 65: the scene crowd (8,000 moving points at r = 1.5), frame after frame', () => {
    const rnd = mulberry32(65);
    const n = 8000;
    const xs = new Float64Array(n);
    const ys = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      xs[i] = 30 + gaussian(rnd) * 12;
      ys[i] = 30 + gaussian(rnd) * 12;
    }
    const tree = treeOf(xs, ys);
    for (let frame = 0; frame < 4; frame++) {
      for (let i = 0; i < n; i++) {
        xs[i] += (rnd() - 0.5) * 0.4;
        ys[i] += (rnd() - 0.5) * 0.4;
      }
      tree.moveAll(xs, ys);
      const want = bruteSeparation(xs, ys, 1.5);
      const exact = separation(tree, n, 1.5);
      expectWithin(separation(tree, n, 1.5, 'f32'), exact, want, BOUND);
    }
  });

  it('radii where the fast pass does not apply (0, 1e-20, 1e100) are exact at f32', () => {
    const { xs, ys } = awkwardCrowd(66, 400, 1.5);
    const n = xs.length;
    for (const r of [0, 1e-20, 1e100]) {
      const s = r === 0 ? 1 : r / 1.5;
      const tree = treeOf(
        xs.map((x) => x * s),
        ys.map((y) => y * s),
      );
      const fast = separation(tree, n, r, 'f32');
      // Asked for f32, the exact pass ran: the tree says so.
      expect(tree.lastSeparation).toEqual({ kernel: 'wasm-simd', precision: 'f64' });
      expect(fast).toEqual(separation(tree, n, r));
    }
  });

  it.skipIf(instrumented)(
    'allocates no more per call at f32 than at f64 (one options object, kept and passed again)',
    () => {
      const { xs, ys } = awkwardCrowd(70, 1000, 1.5);
      const n = xs.length;
      const tree = treeOf(xs, ys);
      const c = new Int32Array(n);
      const sx = new Float32Array(n);
      const sy = new Float32Array(n);
      const F32 = { precision: 'f32' } as const;
      const F64 = { precision: 'f64' } as const;
      const calls = (options: typeof F32 | typeof F64) => (count: number) => {
        let pairs = 0;
        for (let i = 0; i < count; i++) pairs += tree.querySeparationInto(1.5, c, sx, sy, options);
        return pairs;
      };
      // Warm (the first rounds measured also count the compiler's output), then each precision.
      leastBytesPerCall(calls(F64), 100, 4);
      leastBytesPerCall(calls(F32), 100, 4);
      const exact = leastBytesPerCall(calls(F64), 100);
      const fast = leastBytesPerCall(calls(F32), 100);
      expect(fast, `f32 ${fast} bytes per call, f64 ${exact}`).toBeLessThan(exact + 16);
    },
  );

  it('float32 outputs (the scene) get the same counts and sums within the bound', () => {
    const { xs, ys } = awkwardCrowd(67, 1000, 1.5);
    const n = xs.length;
    const tree = treeOf(xs, ys);
    const exact = separation(tree, n, 1.5);
    const counts = new Int32Array(n);
    const sumX = new Float32Array(n);
    const sumY = new Float32Array(n);
    tree.querySeparationInto(1.5, counts, sumX, sumY, { precision: 'f32' });
    expect(Array.from(counts)).toEqual(Array.from(exact.counts));
    for (let id = 0; id < n; id++) {
      const scale = Math.max(1, exact.counts[id]);
      expect(Math.abs(sumX[id] - exact.sumX[id])).toBeLessThanOrEqual(BOUND * scale);
      expect(Math.abs(sumY[id] - exact.sumY[id])).toBeLessThanOrEqual(BOUND * scale);
    }
  });
});

describe("querySeparationInto's options: errors name the value, nothing is written, the tree unchanged", () => {
  const { xs, ys } = awkwardCrowd(68, 200, 1.5);
  const n = xs.length;

  it.each([
    [null, TypeError, 'options must be an object, got null'],
    [5, TypeError, 'options must be an object, got 5'],
    ['f32', TypeError, 'options must be an object, got "f32"'],
    [{ precision: 32 }, TypeError, "precision must be 'f64' or 'f32', got 32"],
    [{ precision: null }, TypeError, "precision must be 'f64' or 'f32', got null"],
    [{ precision: 'f16' }, RangeError, `precision must be 'f64' or 'f32', got "f16"`],
    [{ precision: 'F32' }, RangeError, `precision must be 'f64' or 'f32', got "F32"`],
  ])('options %j: %o', (options, type, message) => {
    const tree = treeOf(xs, ys);
    const before = fingerprint(tree);
    const c = new Int32Array(n).fill(-7);
    const sx = new Float64Array(n).fill(-7);
    const sy = new Float64Array(n).fill(-7);
    const call = () => tree.querySeparationInto(1.5, c, sx, sy, options as never);
    expect(call).toThrow(type);
    expect(call).toThrow(`PointQuadtree: ${message}`);
    expect([c.every((v) => v === -7), sx.every((v) => v === -7), sy.every((v) => v === -7)]).toEqual([
      true,
      true,
      true,
    ]);
    expect(fingerprint(tree)).toEqual(before);
    const team = new SeparationTeam([]);
    expect(() => team.querySeparationInto(tree, 1.5, c, sx, sy, options as never)).toThrow(message);
    expect(c.every((v) => v === -7)).toBe(true);
  });

  it('reads the option once (a getter is called once, its one answer used)', () => {
    const tree = treeOf(xs, ys);
    let reads = 0;
    const options = {
      get precision() {
        reads++;
        return reads === 1 ? 'f32' : 'bad';
      },
    };
    const c = new Int32Array(n);
    tree.querySeparationInto(1.5, c, new Float64Array(n), new Float64Array(n), options as never);
    expect(reads).toBe(1);
  });
});

describe('a SeparationTeam at f32: two worker_threads helpers, the same bound', () => {
  let helpers: NodeHelpers;
  let team: SeparationTeam;
  beforeAll(() => {
    helpers = startNodeHelpers(2);
    team = new SeparationTeam(helpers.ports, { claimWaitMs: 10_000, minPairs: 0, spin: true });
  });
  afterAll(async () => {
    team.dispose();
    await helpers.terminate();
  });

  it('seed 69: awkward crowd, counts equal brute force, sums within 1e-5 x the count of the exact call', async () => {
    const { xs, ys } = awkwardCrowd(69, 3000, 1.5);
    const n = xs.length;
    const tree = treeOf(xs, ys, 4);
    const F32 = { precision: 'f32' } as const;
    const got = { pairs: 0, counts: new Int32Array(n), sumX: new Float64Array(n), sumY: new Float64Array(n) };
    await untilReady(
      () => team.last.ready,
      2,
      () => team.querySeparationInto(tree, 1.5, got.counts, got.sumX, got.sumY, F32),
    );
    got.pairs = team.querySeparationInto(tree, 1.5, got.counts, got.sumX, got.sumY, F32);
    expect(team.last.threads).toBe(3);
    // What ran, in the team's figures and in the tree's record (a team's call is a call on the tree).
    expect(team.last).toMatchObject({ kernel: 'wasm-simd', precision: 'f32' });
    expect(tree.lastSeparation).toEqual({ kernel: 'wasm-simd', precision: 'f32' });
    const want = bruteSeparation(xs, ys, 1.5);
    const exact = separation(tree, n, 1.5);
    const worst = expectWithin(got, exact, want, BOUND);
    // The helpers ran the fast pass too: the team's f32 sums equal the tree's own f32 call's up to the
    // order of additions, and differ from the exact ones.
    expect(worst).toBeGreaterThan(0);
    const own = separation(tree, n, 1.5, 'f32');
    for (let id = 0; id < n; id++) {
      expect(Math.abs(got.sumX[id] - own.sumX[id])).toBeLessThanOrEqual(1e-9 * Math.max(1, own.counts[id]));
    }
    // At f64 the team is exact again.
    const back = {
      pairs: 0,
      counts: new Int32Array(n),
      sumX: new Float64Array(n),
      sumY: new Float64Array(n),
    };
    back.pairs = team.querySeparationInto(tree, 1.5, back.counts, back.sumX, back.sumY);
    expectWithin(back, exact, want, 1e-9);
  });
});
