// The kernels' copy of a tree: its items gathered leaf by leaf, depth first, dense (crowd/gather.ts), on
// trees whose pool a moving crowd has scattered (blocks of neighbouring leaves far apart, free blocks between).

import { CrowdQuadtree, setSeparationKernel } from 'point-quadtree/crowd';
import { checkInvariants, treeStats } from 'point-quadtree/debug';
import { NodeStack } from 'point-quadtree/internal/core/stack';
import { stateOf, type TreeState } from 'point-quadtree/internal/core/state';
import { separationWasm } from 'point-quadtree/internal/crowd/wasm';
import { emptyTreeArrays, treeArrays } from 'point-quadtree/internal/crowd/wasmLayout';
import { afterEach, describe, expect, it } from 'vitest';
import { gaussian, mulberry32 } from '../../src/sim/random';
import { gatherLeaves } from '../helpers/gatherOracle';
import { bruteSeparation } from '../helpers/separationOracle';

const W = 100;

/** A crowd of n that wandered `frames` frames (moveAll), some ids removed and inserted on the way. */
function wornCrowd(seed: number, n: number, frames: number, clustered: boolean) {
  const rnd = mulberry32(seed);
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    xs[i] = clustered ? Math.min(W, Math.max(0, 30 + (i % 3) * 20 + gaussian(rnd) * 6)) : rnd() * W;
    ys[i] = clustered ? Math.min(W, Math.max(0, 40 + gaussian(rnd) * 6)) : rnd() * W;
  }
  const ids = Int32Array.from({ length: n }, (_, i) => i);
  const tree = CrowdQuadtree.from(
    { bounds: { minX: 0, minY: 0, maxX: W, maxY: W }, maxItems: 6 },
    ids,
    xs,
    ys,
  );
  const present = new Uint8Array(n).fill(1);
  for (let f = 0; f < frames; f++) {
    for (let i = 0; i < n; i++) {
      xs[i] = Math.min(W, Math.max(0, xs[i] + (rnd() - 0.5) * 2));
      ys[i] = Math.min(W, Math.max(0, ys[i] + (rnd() - 0.5) * 2));
    }
    tree.moveAll(xs, ys);
    // A few leave and come back elsewhere: blocks freed and taken again.
    for (let k = 0; k < 5; k++) {
      const id = Math.floor(rnd() * n);
      if (present[id] === 1) tree.remove(id);
      else tree.insert(id, xs[id], ys[id]);
      present[id] ^= 1;
    }
  }
  return { tree, xs, ys, present };
}

/** An empty leaf-pair list to hand the kernel's load (it may then lay its memory out anew; no walk here). */
const NO_LIST = new Int32Array(0);

/** The kernel's internals the gather writes (read through a cast, as the ranges test reads them). */
interface KernelInternals {
  x: { memory: { buffer: ArrayBuffer } };
  layout: { at: { xy: number; ids: number; start: number } };
}

/**
 * The kernel's own gather of t (the one every call makes: SeparationWasm.loadTree, kernels/gather.ts): its
 * slots, and views of the gathered x, y, ids and nodes' first slots in the module's memory.
 */
function kernelGather(t: TreeState) {
  const kernel = separationWasm()!;
  const slots = kernel.loadTree(treeArrays(t, emptyTreeArrays()), NO_LIST, 1, false);
  const k = kernel as unknown as KernelInternals;
  const { buffer } = k.x.memory;
  const at = k.layout.at;
  return {
    slots,
    xy: new Float64Array(buffer, at.xy, 2 * slots),
    ids: new Int32Array(buffer, at.ids, slots),
    start: new Int32Array(buffer, at.start, t.nodeStart.length),
  };
}

/** Every node of t in depth-first order, children in their order. */
function nodesDepthFirst(t: TreeState): number[] {
  const out: number[] = [];
  const visit = (k: number): void => {
    out.push(k);
    const c = t.nodeChild[k];
    if (c >= 0) for (let q = 0; q < 4; q++) visit(c + q);
  };
  visit(0);
  return out;
}

/** The leaves of t in depth-first order, children in their order (the order the gather promises). */
function leavesDepthFirst(t: TreeState): number[] {
  return nodesDepthFirst(t).filter((k) => t.nodeChild[k] < 0);
}

afterEach(() => setSeparationKernel('auto'));

describe('gatherLeaves: the items of every leaf, leaf after leaf depth first, dense', () => {
  it.each([
    [71, false],
    [72, true],
  ])(
    'seed %i (clustered %s): a scattered pool gathered: every leaf its own items in order, no gap',
    (seed, clustered) => {
      const { tree } = wornCrowd(seed, 3000, 40, clustered);
      checkInvariants(tree);
      const t = stateOf(tree);
      // The pool really is scattered: far more slots below its top than items.
      expect(t.pool.top).toBeGreaterThan(1.5 * tree.size);
      const xy = new Float64Array(t.pool.xy.length).fill(Number.NaN);
      const ids = new Int32Array(t.pool.ids.length).fill(-7);
      const start = new Int32Array(t.nodeStart.length).fill(-7);
      const walk = new NodeStack(4); // small: the walk must grow it
      expect(gatherLeaves(t, xy, ids, start, walk)).toBe(tree.size);
      let next = 0;
      for (const leaf of leavesDepthFirst(t)) {
        // Each leaf starts where the one before it ended, and holds its block's items in their order.
        expect(start[leaf]).toBe(next);
        const s = t.nodeStart[leaf];
        for (let i = 0; i < t.nodeCount[leaf]; i++) {
          expect(ids[next + i]).toBe(t.pool.ids[s + i]);
          expect(xy[2 * (next + i)]).toBe(t.pool.xy[2 * (s + i)]);
          expect(xy[2 * (next + i) + 1]).toBe(t.pool.xy[2 * (s + i) + 1]);
        }
        next += t.nodeCount[leaf];
      }
      expect(next).toBe(tree.size);
      // Nothing past the items is written; an inner node starts where its first leaf does.
      expect(ids[tree.size]).toBe(-7);
      expect(Number.isNaN(xy[2 * tree.size])).toBe(true);
      const firstLeaf = (k: number): number => (t.nodeChild[k] < 0 ? k : firstLeaf(t.nodeChild[k]));
      expect(start[0]).toBe(0);
      const c = t.nodeChild[0];
      for (let q = 0; q < 4; q++) expect(start[c + q]).toBe(start[firstLeaf(c + q)]);
      // Every present id exactly once.
      const seen = new Uint8Array(3000);
      for (let p = 0; p < tree.size; p++) seen[ids[p]]++;
      for (let id = 0; id < 3000; id++) expect(seen[id]).toBe(tree.has(id) ? 1 : 0);
      // The kernel's gather (kernels/gather.ts, the one the calls use) writes exactly what the oracle does.
      expectGatherAsOracle(t, tree.size);
    },
  );

  it('a tree that is one leaf, and an empty tree', () => {
    const one = CrowdQuadtree.from(
      { bounds: { minX: 0, minY: 0, maxX: 10, maxY: 10 } },
      [5, 3, 9],
      [1, 2, 3],
      [4, 5, 6],
    );
    const t = stateOf(one);
    const xy = new Float64Array(8);
    const ids = new Int32Array(4);
    const start = new Int32Array(4).fill(-1);
    expect(gatherLeaves(t, xy, ids, start, new NodeStack())).toBe(3);
    expect(Array.from(ids.subarray(0, 3))).toEqual(
      Array.from(t.pool.ids.subarray(t.nodeStart[0], t.nodeStart[0] + 3)),
    );
    expect(start[0]).toBe(0);
    expect(Array.from(kernelGather(t).ids)).toEqual(Array.from(ids.subarray(0, 3)));
    const empty = stateOf(new CrowdQuadtree({ bounds: { minX: 0, minY: 0, maxX: 1, maxY: 1 } }));
    expect(gatherLeaves(empty, xy, ids, start, new NodeStack())).toBe(0);
    expect(kernelGather(empty).slots).toBe(0);
  });
});

/** The kernel's gather of t against the oracle's: the same slots, ids, positions and nodes' first slots. */
function expectGatherAsOracle(t: TreeState, size: number): void {
  const xy = new Float64Array(t.pool.xy.length);
  const ids = new Int32Array(t.pool.ids.length);
  const start = new Int32Array(t.nodeStart.length);
  expect(gatherLeaves(t, xy, ids, start, new NodeStack())).toBe(size);
  const g = kernelGather(t);
  expect(g.slots).toBe(size);
  expect(Array.from(g.ids)).toEqual(Array.from(ids.subarray(0, size)));
  expect(Array.from(g.xy)).toEqual(Array.from(xy.subarray(0, 2 * size)));
  for (const k of nodesDepthFirst(t)) expect(g.start[k], `node ${k}`).toBe(start[k]);
}

describe("the kernel's gather on trees of every shape", () => {
  it('seed 76: a root grown far out and shrunk back, groups promoted and their parents rewritten', () => {
    const rnd = mulberry32(76);
    const n = 1500;
    const xs = Float64Array.from({ length: n }, () => rnd() * 100);
    const ys = Float64Array.from({ length: n }, () => rnd() * 100);
    const tree = CrowdQuadtree.from(
      { bounds: { minX: 0, minY: 0, maxX: 100, maxY: 100 }, maxItems: 4 },
      Int32Array.from({ length: n }, (_, i) => i),
      xs,
      ys,
    );
    const t = stateOf(tree);
    for (let round = 0; round < 6; round++) {
      // A few strays far out (the root doubles past them), then home again (it shrinks back).
      for (let id = round; id < n; id += 300) tree.move(id, 1e4 * (round + 1), -3e3 * round);
      expect(tree.bounds.maxX).toBeGreaterThan(1e4);
      expectGatherAsOracle(t, tree.size);
      for (let id = round; id < n; id += 300) tree.move(id, xs[id], ys[id]);
      expectGatherAsOracle(t, tree.size);
    }
    expect(tree.bounds).toEqual({ minX: 0, minY: 0, maxX: 100, maxY: 100 });
    checkInvariants(tree);
  });

  it('seed 77: a deep tree (coincident camps, tiny minSize): the walk needs no stack at any depth', () => {
    const rnd = mulberry32(77);
    const tree = new CrowdQuadtree({
      bounds: { minX: 0, minY: 0, maxX: 1, maxY: 1 },
      maxItems: 1,
      minSize: 1e-12,
    });
    let id = 0;
    // Pairs of points 2^-k apart down to 2^-36: a chain of splits some 36 levels deep, and coincident ones.
    for (let k = 1; k <= 36; k++) {
      const x = rnd();
      const y = rnd();
      tree.insert(id++, x, y);
      tree.insert(id++, Math.min(1, x + 2 ** -k), y);
      tree.insert(id++, x, y);
    }
    for (let i = 0; i < 500; i++) tree.insert(id++, rnd(), rnd());
    expect(treeStats(tree).depth).toBeGreaterThan(30);
    expectGatherAsOracle(stateOf(tree), tree.size);
    checkInvariants(tree);
  });

  it('a torn copy (children of one frame, parents of the next) is refused, and the kernel goes on', () => {
    const { tree } = wornCrowd(78, 800, 3, false);
    const t = stateOf(tree);
    const kernel = separationWasm()!;
    // A torn copy as a late helper could read it: the children of one frame, the parents of the next. Here
    // the group of an inner node a (not a first child) names a's elder sibling as its parent: climbing out
    // of that group lands before a, steps along into a, and down into the group again, for ever, had the
    // walk no bound. Every index stays in range: only the count of steps can tell.
    const arrays = treeArrays(t, emptyTreeArrays());
    const parent = Int32Array.from(t.groupParent);
    let a = -1;
    for (let k = 1; k < t.nodeTop && a < 0; k++) if (t.nodeChild[k] > 0 && ((k - 1) & 3) !== 0) a = k;
    expect(a).toBeGreaterThan(0);
    parent[(t.nodeChild[a] - 1) >> 2] = a - 1;
    arrays.parent = parent;
    expect(() => kernel.loadTree(arrays, NO_LIST, 1, false)).toThrow(/not a tree \(a torn copy\)/);
    // Children that point past the nodes copied in: refused too.
    const far = Int32Array.from(t.nodeChild);
    far[0] = t.nodeStart.length;
    arrays.child = far;
    arrays.parent = t.groupParent;
    expect(() => kernel.loadTree(arrays, NO_LIST, 1, false)).toThrow(/not a tree/);
    // The module answers the next call.
    expectGatherAsOracle(t, tree.size);
  });
});

describe('the kernels on a scattered pool: the same answers as brute force and the JavaScript kernel', () => {
  it.each([
    [73, false, 1.5],
    [74, true, 2.5],
    [75, true, 0],
  ])('seed %i (clustered %s), r = %d: querySeparationInto and queryPairsInto', (seed, clustered, r) => {
    const { tree, xs, ys, present } = wornCrowd(seed, 2500, 30, clustered);
    const t = stateOf(tree);
    expect(t.pool.top).toBeGreaterThan(1.4 * tree.size);
    const n = xs.length;
    const want = bruteSeparation(xs, ys, r, present);
    const run = () => {
      const got = { counts: new Int32Array(n), sumX: new Float64Array(n), sumY: new Float64Array(n) };
      const pairs = tree.querySeparationInto(r, got.counts, got.sumX, got.sumY);
      const outA = new Int32Array(want.pairs + 1);
      const outB = new Int32Array(want.pairs + 1);
      const found = tree.queryPairsInto(r, outA, outB);
      const keys = Array.from(
        { length: found },
        (_, k) => Math.min(outA[k], outB[k]) * n + Math.max(outA[k], outB[k]),
      );
      return { pairs, got, found, keys: keys.sort((a, b) => a - b) };
    };
    const wasm = run();
    expect(tree.lastSeparation.kernel).toBe('wasm-simd');
    setSeparationKernel('js');
    const js = run();
    expect(tree.lastSeparation.kernel).toBe('js');
    expect(wasm.pairs).toBe(want.pairs);
    expect(wasm.found).toBe(want.pairs);
    expect(wasm.keys).toEqual(js.keys);
    expect(new Set(wasm.keys).size).toBe(want.pairs);
    expect(Array.from(wasm.got.counts)).toEqual(Array.from(want.counts));
    expect(Array.from(js.got.counts)).toEqual(Array.from(want.counts));
    for (let id = 0; id < n; id++) {
      const scale = Math.max(1, want.counts[id]);
      expect(Math.abs(wasm.got.sumX[id] - want.sumX[id])).toBeLessThanOrEqual(1e-9 * scale);
      expect(Math.abs(wasm.got.sumY[id] - want.sumY[id])).toBeLessThanOrEqual(1e-9 * scale);
      expect(Math.abs(wasm.got.sumX[id] - js.got.sumX[id])).toBeLessThanOrEqual(1e-9 * scale);
    }
    // Each pair's two ids are both present and within r: the kernel handed out gathered slots' ids.
    for (const key of wasm.keys) {
      const a = Math.floor(key / n);
      const b = key % n;
      expect(present[a] === 1 && present[b] === 1).toBe(true);
      expect(Math.hypot(xs[a] - xs[b], ys[a] - ys[b])).toBeLessThanOrEqual(r + 1e-12);
    }
  });
});
