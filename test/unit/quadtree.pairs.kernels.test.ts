// The crowd's tree (point-quadtree/crowd), on which these tests ran as PointQuadtree before the crowd became a subpath.

import { CrowdQuadtree as PointQuadtree, separationKernel, setSeparationKernel } from 'point-quadtree/crowd';
import { treeStats } from 'point-quadtree/debug';
import { distanceScale } from 'point-quadtree/internal/core/distance';
import { separationWasm } from 'point-quadtree/internal/crowd/wasm';
import { setKernelMemoryCap } from 'point-quadtree/internal/crowd/wasmLayout';
import { afterEach, describe, expect, it } from 'vitest';
import { gaussian, mulberry32 } from '../../src/sim/random';
import { instrumented, leastBytesPerCall } from '../helpers/allocation';

/*
 * The WebAssembly pair join (kernels/pairs.ts) against brute force and against the JavaScript join
 * (pairs.ts's PairJoin) on the same trees: larger and more awkward data than quadtree.pairs.test.ts (which
 * runs on both kernels too), chosen for the kernel's own rules: rows of a leaf and its partners, wide pairs
 * as rows of their own with the items of a out of reach of b's box skipped, the output in chunks of the
 * module's memory that the join resumes after, and the copies out.
 */

interface Points {
  xs: Float64Array;
  ys: Float64Array;
}

/** The pairs {i < j} within r by the library's rule (differences times distanceScale(r)), as sorted keys. */
function brute(p: Points, r: number): Float64Array {
  const s = distanceScale(r);
  const r2 = r * s * (r * s);
  const keys: number[] = [];
  const n = p.xs.length;
  for (let i = 0; i < n; i++) {
    const x = p.xs[i];
    const y = p.ys[i];
    for (let j = i + 1; j < n; j++) {
      const dx = (p.xs[j] - x) * s;
      const dy = (p.ys[j] - y) * s;
      if (dx * dx + dy * dy <= r2) keys.push(i * n + j);
    }
  }
  return Float64Array.from(keys).sort();
}

/** The pairs of queryPairsInto as sorted keys i * n + j (i < j); duplicates kept, so they show. */
function keysOf(outA: Int32Array | Uint32Array, outB: Int32Array | Uint32Array, count: number, n: number) {
  const keys = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    const a = outA[k];
    const b = outB[k];
    keys[k] = Math.min(a, b) * n + Math.max(a, b);
  }
  return keys.sort();
}

function build(p: Points, options: { maxItems?: number; minSize?: number } = {}): PointQuadtree {
  const n = p.xs.length;
  const ids = Int32Array.from({ length: n }, (_, i) => i);
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    minX = Math.min(minX, p.xs[i]);
    maxX = Math.max(maxX, p.xs[i]);
    minY = Math.min(minY, p.ys[i]);
    maxY = Math.max(maxY, p.ys[i]);
  }
  return PointQuadtree.from({ bounds: { minX, minY, maxX, maxY }, ...options }, ids, p.xs, p.ys);
}

/** Both kernels' pairs on one tree (room for `room` pairs), each as sorted keys. */
function bothKernels(tree: PointQuadtree, r: number, n: number, room: number) {
  const outA = new Int32Array(room);
  const outB = new Uint32Array(room);
  setSeparationKernel('auto');
  expect(separationKernel()).toBe('wasm-simd');
  const wasm = keysOf(outA, outB, tree.queryPairsInto(r, outA, outB), n);
  setSeparationKernel('js');
  const js = keysOf(outA, outB, tree.queryPairsInto(r, outA, outB), n);
  setSeparationKernel('auto');
  return { wasm, js };
}

function expectSame(p: Points, r: number, tree: PointQuadtree, room: number): number {
  const n = p.xs.length;
  const expected = brute(p, r);
  const { wasm, js } = bothKernels(tree, r, n, room);
  // Compared as arrays of numbers: one mismatch would print every key, so the first one is named.
  const firstDiff = (got: Float64Array) => {
    if (got.length !== expected.length) return `count ${got.length}, brute force ${expected.length}`;
    for (let k = 0; k < got.length; k++)
      if (got[k] !== expected[k]) return `pair ${k}: ${got[k]} against ${expected[k]}`;
    return 'same';
  };
  expect(firstDiff(wasm), 'WebAssembly against brute force').toBe('same');
  expect(firstDiff(js), 'JavaScript against brute force').toBe('same');
  return expected.length;
}

/** W6's clustered kind: 20 Gaussian camps (sigma 15) in a 1,000 x 1,000 world. */
function clustered(seed: number, n: number): Points {
  const rnd = mulberry32(seed);
  const cx = Float64Array.from({ length: 20 }, () => 45 + rnd() * 910);
  const cy = Float64Array.from({ length: 20 }, () => 45 + rnd() * 910);
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const c = Math.floor(rnd() * 20);
    xs[i] = Math.min(1000, Math.max(0, cx[c] + gaussian(rnd) * 15));
    ys[i] = Math.min(1000, Math.max(0, cy[c] + gaussian(rnd) * 15));
  }
  return { xs, ys };
}

function uniform(seed: number, n: number, side: number): Points {
  const rnd = mulberry32(seed);
  return {
    xs: Float64Array.from({ length: n }, () => rnd() * side),
    ys: Float64Array.from({ length: n }, () => rnd() * side),
  };
}

afterEach(() => setSeparationKernel('auto'));

describe('the WebAssembly pair join against brute force and the JavaScript join', () => {
  it('seed 31: clustered 6,000 at r = 2, 10 and 30 (rows of a leaf and its partners, and wide pairs)', () => {
    const p = clustered(31, 6000);
    const tree = build(p);
    for (const r of [2, 10, 30]) expectSame(p, r, tree, 1 << 21);
  });

  it('seed 32: uniform 6,000 at r = 0.5, 3 and 12 (leaves of 64 items, 2 to 50 radii wide)', () => {
    const p = uniform(32, 6000, 1000);
    const tree = build(p);
    for (const r of [0.5, 3, 12]) expectSame(p, r, tree, 1 << 20);
  });

  it('a grid 1 apart at r = 1: pairs exactly at the radius across the edges of wide leaves', () => {
    // Leaves of 64 items are 8 wide (8 radii: wide pairs); every neighbour is exactly at the radius,
    // including those across leaf edges, whose gap to the other leaf's box is exactly the radius.
    const xs: number[] = [];
    const ys: number[] = [];
    for (let i = 0; i < 64; i++) {
      for (let j = 0; j < 64; j++) {
        xs.push(i);
        ys.push(j);
      }
    }
    const p = { xs: Float64Array.from(xs), ys: Float64Array.from(ys) };
    const tree = build(p, { minSize: 0.5 });
    for (const r of [1, Math.SQRT2, 0.999999999]) expectSame(p, r, tree, 1 << 16);
    // The same shifted by 2^30 (rows not prepared: offsets too large for f32; every candidate listed).
    const far = { xs: p.xs.map((x) => x + 2 ** 30), ys: p.ys.map((y) => y - 2 ** 30) };
    expectSame(far, 1, build(far, { minSize: 0.5 }), 1 << 16);
  });

  it('points on the split lines, on the outer edge and coincident; radius 0 and a radius past the world', () => {
    const rnd = mulberry32(33);
    const xs: number[] = [];
    const ys: number[] = [];
    for (let i = 0; i < 1500; i++) {
      const pick = rnd();
      if (pick < 0.3) {
        xs.push(Math.round(rnd() * 8) * 12.5); // split lines of a 100-wide root, and its edges
        ys.push(Math.round(rnd() * 8) * 12.5);
      } else if (pick < 0.4) {
        xs.push(50);
        ys.push(50); // coincident
      } else {
        xs.push(rnd() * 100);
        ys.push(rnd() * 100);
      }
    }
    const p = { xs: Float64Array.from(xs), ys: Float64Array.from(ys) };
    for (const options of [{}, { maxItems: 4, minSize: 0.5 }]) {
      const tree = build(p, options);
      for (const r of [0, 12.5, 3, 1000]) expectSame(p, r, tree, 1500 * 750);
    }
  });

  it('tiny and huge radii (differences scaled so the squares neither underflow nor overflow)', () => {
    for (const scale of [1e-200, 1e200]) {
      const u = uniform(34, 2000, 100);
      const p = { xs: u.xs.map((x) => x * scale), ys: u.ys.map((y) => y * scale) };
      const tree = build(p, { minSize: scale / 64 });
      for (const r of [0.5 * scale, 4 * scale]) expectSame(p, r, tree, 1 << 18);
    }
  });

  it('more pairs than one chunk of the module (resumed mid-row): outputs with room, exactly full, one short', () => {
    // 420 coincident points (87,990 pairs among them: one leaf at minSize, whose row fills chunks of
    // 32,768 pairs) and 3,000 around them.
    const rnd = mulberry32(35);
    const n = 3420;
    const xs = new Float64Array(n);
    const ys = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const here = i < 420;
      xs[i] = here ? 5 : 5 + (rnd() - 0.5) * 6;
      ys[i] = here ? 5 : 5 + (rnd() - 0.5) * 6;
    }
    const p = { xs, ys };
    const tree = build(p, { maxItems: 16, minSize: 0.25 });
    const count = expectSame(p, 1, tree, 1 << 21);
    expect(count).toBeGreaterThan(3 * 32768);
    // Exactly full: the last chunk is copied pair by pair (no room for a whole chunk past it).
    const full = expectSame(p, 1, tree, count);
    expect(full).toBe(count);
    for (const kernel of ['auto', 'js'] as const) {
      setSeparationKernel(kernel);
      const a = new Int32Array(count);
      const b = new Int32Array(count + 5);
      expect(tree.queryPairsInto(1, a, b)).toBe(count);
      expect(() => tree.queryPairsInto(1, new Uint32Array(count - 1), new Uint32Array(count))).toThrow(
        `PointQuadtree: outA and outB (length ${count - 1}) are too small for the ${count} pairs within radius 1; give them length >= ${count}`,
      );
      // Short by a whole chunk and more: found out in an earlier chunk.
      expect(() => tree.queryPairsInto(1, new Int32Array(40000), new Int32Array(40000))).toThrow(
        `too small for the ${count} pairs`,
      );
      let calls = 0;
      const seen = new Set<number>();
      tree.forEachPair(1, (a, b) => {
        calls++;
        seen.add(Math.min(a, b) * n + Math.max(a, b));
      });
      expect([calls, seen.size]).toEqual([count, count]);
    }
  });

  it('looseness, after moves and removals, in a grown root', () => {
    const rnd = mulberry32(36);
    const tree = new PointQuadtree({
      bounds: { minX: 0, minY: 0, maxX: 100, maxY: 100 },
      maxItems: 12,
      minSize: 0.5,
      looseness: 2,
    });
    const xs = new Float64Array(3000);
    const ys = new Float64Array(3000);
    for (let id = 0; id < 3000; id++) {
      xs[id] = rnd() * 100;
      ys[id] = rnd() * 100;
      tree.insert(id, xs[id], ys[id]);
    }
    for (let round = 0; round < 3; round++) {
      for (let id = 0; id < 3000; id++) {
        // Small steps (most stay in their loose leaf), now and then far out of the root (it grows).
        const far = rnd() < 0.002;
        xs[id] = far ? rnd() * 400 - 150 : xs[id] + (rnd() - 0.5) * 3;
        ys[id] = far ? rnd() * 400 - 150 : ys[id] + (rnd() - 0.5) * 3;
        tree.move(id, xs[id], ys[id]);
      }
      for (const r of [1, 4]) expectSame({ xs, ys }, r, tree, 1 << 18);
    }
    // Removals leave ids out: the pairs of those left.
    for (let id = 0; id < 3000; id += 3) tree.remove(id);
    const outA = new Int32Array(1 << 18);
    const outB = new Int32Array(1 << 18);
    const { wasm, js } = bothKernels(tree, 4, 3000, 1 << 18);
    expect(wasm).toEqual(js);
    for (let k = 0; k < wasm.length; k++)
      expect(wasm[k] % 3 !== 0 && Math.floor(wasm[k] / 3000) % 3 !== 0).toBe(true);
    expect(tree.queryPairsInto(4, outA, outB)).toBe(js.length);
  });

  it.skipIf(instrumented)(
    'allocates nothing per call once warm (the same tree, outputs of both types)',
    () => {
      const p = clustered(37, 4000);
      const tree = build(p);
      const a = new Int32Array(1 << 18);
      const b = new Int32Array(1 << 18);
      const ua = new Uint32Array(1 << 18);
      const ub = new Uint32Array(1 << 18);
      const calls = (count: number, out: 'int' | 'uint') => {
        let pairs = 0;
        for (let k = 0; k < count; k++) {
          pairs += out === 'int' ? tree.queryPairsInto(10, a, b) : tree.queryPairsInto(10, ua, ub);
        }
        return pairs;
      };
      expect(separationKernel()).toBe('wasm-simd');
      calls(1000, 'int');
      calls(1000, 'uint');
      // The least of twelve rounds of 500 calls (test/helpers/allocation.ts). A few bytes per call remain
      // from the measurement itself (the JavaScript join on this tree shows ~1,700); a typed-array view or
      // subarray per call (~100 bytes) fails this.
      for (const out of ['int', 'uint'] as const) {
        calls(100, out);
        const least = leastBytesPerCall((count) => calls(count, out), 500);
        expect(least, `${out}: ${least} bytes per call`).toBeLessThan(48);
      }
    },
  );
});

describe("past the kernel's memory cap: that call on the JavaScript kernel, the module left working", () => {
  it('a radius past a tree of many empty leaves (leaves² / 2 leaf pairs): pairs and sums right, later calls in the kernel', () => {
    // 1,500 clustered points at maxItems 1: thousands of leaves, most empty; at r = 2,000 every pair of
    // leaves is within reach. Under a 4 MB cap the kernel cannot hold that list.
    const p = clustered(41, 1500);
    const tree = build(p, { maxItems: 1, minSize: 1e-6 });
    expect(treeStats(tree).leaves).toBeGreaterThan(3000);
    const kernel = separationWasm()!;
    const bytesBefore = kernel.memoryBytes();
    setKernelMemoryCap(Math.max(bytesBefore, 4 << 20));
    try {
      const n = p.xs.length;
      const all = (n * (n - 1)) / 2;
      const outA = new Int32Array(all);
      const outB = new Int32Array(all);
      expect(separationKernel()).toBe('wasm-simd');
      const found = tree.queryPairsInto(2000, outA, outB);
      expect(found).toBe(all);
      const keys = keysOf(outA, outB, found, n);
      for (let k = 1; k < keys.length; k++) expect(keys[k]).toBeGreaterThan(keys[k - 1]);
      const counts = new Int32Array(n);
      const sumX = new Float64Array(n);
      const sumY = new Float64Array(n);
      expect(tree.querySeparationInto(2000, counts, sumX, sumY, { precision: 'f32' })).toBe(all);
      expect(counts.every((c) => c === n - 1)).toBe(true);
      // Asked for f32, it ran on the JavaScript kernel (f64): what the tree says, as the scene's HUD shows it.
      expect(tree.lastSeparation).toEqual({ kernel: 'js', precision: 'f64' });
      // The module kept its layout (nothing grew past the cap), and answers the next trees itself (the cap
      // lifted: under it, a tree with more slots than this file's earlier trees would not fit either, its
      // regions growing by half again from where they are).
      expect(kernel.memoryBytes()).toBeLessThanOrEqual(Math.max(bytesBefore, 4 << 20));
      setKernelMemoryCap();
      const small = uniform(42, 3000, 100);
      const next = build(small);
      expect(expectSame(small, 3, next, 200_000)).toBeGreaterThan(0);
      const c2 = new Int32Array(3000);
      const x2 = new Float64Array(3000);
      const y2 = new Float64Array(3000);
      const pairs = next.querySeparationInto(3, c2, x2, y2);
      expect(next.lastSeparation).toEqual({ kernel: 'wasm-simd', precision: 'f64' });
      setSeparationKernel('js');
      const c3 = new Int32Array(3000);
      const x3 = new Float64Array(3000);
      const y3 = new Float64Array(3000);
      expect(next.querySeparationInto(3, c3, x3, y3)).toBe(pairs);
      expect(c2).toEqual(c3);
      for (let i = 0; i < 3000; i++) expect(Math.abs(x2[i] - x3[i])).toBeLessThan(1e-9);
    } finally {
      setKernelMemoryCap();
    }
  });
});
