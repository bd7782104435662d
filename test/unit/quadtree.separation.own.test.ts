/**
 * A crowd tree's fused join in its own instance of the kernel (crowd/moveKernel.ts's separation()): once
 * moveAll's pass has put the tree's pool, id tables and nodes in the memory of the tree's instance, the join
 * (querySeparationInto, queryPairsInto) runs in that same memory and reads them where they lie instead of
 * copying them in. Checked here: the answers are brute force's frame after frame, the copy is really gone
 * (only the node starts, which the gather rewrites, are copied), and the two users of one memory stay out of
 * each other's way when either grows: the join's regions growing the memory (the tree takes its arrays back
 * first), and the pass laying out again past the join's regions (the join moves after it).
 */
import { CrowdQuadtree, setSeparationKernel } from 'point-quadtree/crowd';
import { checkInvariants } from 'point-quadtree/debug';
import { CROWD } from 'point-quadtree/internal/crowd/CrowdQuadtree';
import { setMoveKernelMinItems } from 'point-quadtree/internal/crowd/moveKernel';
import type { SeparationWasm } from 'point-quadtree/internal/crowd/wasm';
import { separationWasm } from 'point-quadtree/internal/crowd/wasm';
import { INTERNALS } from 'point-quadtree/internal/PointQuadtree';
import { afterEach, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';
import { bruteSeparation } from '../helpers/separationOracle';
import { bounds, scatter, W } from '../helpers/slotDump';

afterEach(() => {
  setSeparationKernel('auto');
  setMoveKernelMinItems();
});

/** The tree's own join kernel (null until its moveAll pass has laid out). */
const own = (tree: CrowdQuadtree): SeparationWasm | null => tree[CROWD]().own?.separation() ?? null;

/**
 * Whether the tree's arrays that the join reads lie in its kernel's memory (views past the call's record),
 * not arrays of their own: its algorithms replace an array with a larger one of its own when it grows (the
 * pool in the first frames of a crowd, the nodes as it splits), and the next pass puts it back.
 */
function inMemory(tree: CrowdQuadtree): boolean {
  const t = tree[INTERNALS]();
  const arrays = [t.pool.xy, t.pool.ids, t.nodeLoose, t.nodeChild, t.nodeCount, t.groupParent];
  return arrays.every((a) => a.byteOffset > 0);
}

/** Frames of wandering until the tree's arrays all lie in the memory after its pass (at most 40). */
function settle(tree: CrowdQuadtree, rnd: () => number, xs: Float64Array, ys: Float64Array, n: number): void {
  for (let frame = 0; frame < 40 && !(frame > 0 && inMemory(tree)); frame++) {
    wander(rnd, xs, ys, n, 29);
    tree.moveAll(xs, ys);
    expectBrute(tree, xs, ys, n, 1.5);
  }
  expect(inMemory(tree)).toBe(true);
}

/** One frame's wandering: small steps, every `jump`-th item somewhere else (a leaver), all inside the bounds. */
function wander(rnd: () => number, xs: Float64Array, ys: Float64Array, n: number, jump: number): void {
  for (let i = 0; i < n; i++) {
    if (i % jump === 0) {
      xs[i] = rnd() * W;
      ys[i] = rnd() * W;
    } else {
      xs[i] = Math.min(W, Math.max(0, xs[i] + (rnd() - 0.5) * 2));
      ys[i] = Math.min(W, Math.max(0, ys[i] + (rnd() - 0.5) * 2));
    }
  }
}

/** The tree's join at `radius` against brute force: pairs, counts, sums (f32: within 1e-5 x the count). */
function expectBrute(
  tree: CrowdQuadtree,
  xs: Float64Array,
  ys: Float64Array,
  n: number,
  radius: number,
  f32 = false,
) {
  const counts = new Int32Array(n);
  const sx = new Float64Array(n);
  const sy = new Float64Array(n);
  const found = tree.querySeparationInto(radius, counts, sx, sy, { precision: f32 ? 'f32' : 'f64' });
  const want = bruteSeparation(xs.subarray(0, n), ys.subarray(0, n), radius);
  expect(tree.lastSeparation.kernel).toBe('wasm-simd');
  expect(found).toBe(want.pairs);
  expect(counts).toEqual(want.counts);
  for (let i = 0; i < n; i++) {
    const bound = f32 ? 1e-5 * want.counts[i] : 1e-9 * Math.max(1, want.counts[i]);
    if (!(Math.abs(sx[i] - want.sumX[i]) <= bound && Math.abs(sy[i] - want.sumY[i]) <= bound)) {
      expect.fail(
        `item ${i}: sums (${sx[i]}, ${sy[i]}) where brute force has (${want.sumX[i]}, ${want.sumY[i]})`,
      );
    }
  }
  const outA = new Int32Array(want.pairs + 1);
  const outB = new Int32Array(want.pairs + 1);
  expect(tree.queryPairsInto(radius, outA, outB)).toBe(want.pairs);
  const seen = new Int32Array(n);
  for (let k = 0; k < want.pairs; k++) {
    seen[outA[k]]++;
    seen[outB[k]]++;
  }
  expect(seen).toEqual(want.counts);
}

/** A crowd tree (maxItems 8) of ids 0..n-1 scattered by `rnd`, uniform or in four camps, and its positions. */
function crowdOf(rnd: () => number, n: number, camps: boolean) {
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  scatter(rnd, n, xs, ys, camps);
  const ids = Int32Array.from({ length: n }, (_, i) => i);
  return { xs, ys, ids, tree: CrowdQuadtree.from({ bounds, maxItems: 8 }, ids, xs, ys) };
}

describe("a crowd tree's join in the memory where its moveAll pass keeps the tree", () => {
  it('reads the pool and nodes where they lie (only the node starts copied), brute force frame after frame', () => {
    const rnd = mulberry32(41);
    const n = 3000;
    const { xs, ys, tree } = crowdOf(rnd, n, true);
    // Before any pass: no instance of its own; the module's shared one copies the tree in.
    expect(own(tree)).toBeNull();
    expectBrute(tree, xs, ys, n, 2);
    const t = tree[INTERNALS]();
    expect(separationWasm()!.copiedBytes).toBeGreaterThanOrEqual(
      t.pool.xy.byteLength + t.pool.ids.byteLength,
    );
    let inPlace = 0;
    for (let frame = 0; frame < 40; frame++) {
      wander(rnd, xs, ys, n, 37);
      tree.moveAll(xs, ys);
      expect(tree.lastMove.kernel).toBe('wasm');
      expectBrute(tree, xs, ys, n, frame % 5 === 4 ? 3.5 : 2, frame % 3 === 2);
      // Still there after the join: none of its calls grew the memory (which makes the tree take them back).
      const pinned = inMemory(tree);
      const kernel = own(tree);
      expect(kernel).not.toBeNull();
      expect(kernel).not.toBe(separationWasm());
      // queryPairsInto ran last (its own walk): nothing of the tree copied but the starts where the arrays
      // lay in the memory, more where one did not.
      if (pinned) {
        inPlace++;
        expect(kernel!.copiedBytes).toBe(t.nodeStart.byteLength);
      } else expect(kernel!.copiedBytes).toBeGreaterThan(t.nodeStart.byteLength);
      checkInvariants(tree);
    }
    // Arrays replaced as the crowd's pool and nodes grow, and the memory grown by the join's regions (the
    // tree takes its arrays back), in the first frames; after that they stay.
    expect(inPlace).toBeGreaterThanOrEqual(25);
  });

  it("the join's regions growing the memory: the tree takes its arrays back first and stays whole", () => {
    const rnd = mulberry32(42);
    const n = 2500;
    const { xs, ys, ids, tree } = crowdOf(rnd, n, false);
    settle(tree, rnd, xs, ys, n);
    const before = own(tree)!.memoryBytes();
    // A radius 20 times wider: a list of leaf pairs far longer than the room laid out for it.
    expectBrute(tree, xs, ys, n, 30);
    expect(own(tree)!.memoryBytes()).toBeGreaterThan(before);
    // The tree holds copies now (the views of the old memory would be detached), and is whole.
    expect(inMemory(tree)).toBe(false);
    checkInvariants(tree);
    expect(tree.queryCircle(100, 100, 10).sort((a, b) => a - b)).toEqual(
      Array.from(ids).filter((i) => (xs[i] - 100) ** 2 + (ys[i] - 100) ** 2 <= 100),
    );
    // The next pass puts them back (unless the tree replaces one as it grows); the join reads them there.
    settle(tree, rnd, xs, ys, n);
    expect(own(tree)!.copiedBytes).toBe(tree[INTERNALS]().nodeStart.byteLength);
    checkInvariants(tree);
  });

  it("the pass laying out again past the join's regions (the tree grown): the join moves after it", () => {
    const rnd = mulberry32(43);
    const cap = 9000;
    const xs = new Float64Array(cap);
    const ys = new Float64Array(cap);
    scatter(rnd, cap, xs, ys, true);
    let n = 1500;
    const tree = CrowdQuadtree.from(
      { bounds, maxItems: 8 },
      Int32Array.from({ length: n }, (_, i) => i),
      xs.subarray(0, n),
      ys.subarray(0, n),
    );
    let sizes = 0;
    for (let frame = 0; frame < 24; frame++) {
      // Every third frame the crowd grows by half: the pool, id tables and nodes outgrow the pass's room.
      if (frame % 3 === 1 && n < cap) {
        const to = Math.min(cap, Math.ceil(n * 1.5));
        for (let id = n; id < to; id++) tree.insert(id, xs[id], ys[id]);
        n = to;
        sizes++;
      }
      wander(rnd, xs, ys, n, 31);
      tree.moveAll(xs.subarray(0, n), ys.subarray(0, n));
      expect(tree.lastMove.kernel).toBe('wasm');
      expectBrute(tree, xs, ys, n, frame % 2 === 0 ? 2 : 4);
      checkInvariants(tree);
    }
    expect(sizes).toBeGreaterThanOrEqual(4);
    expect(n).toBe(cap);
  });

  it('a memory the engine will not grow: the tree copied out only when a new size is tried, not every frame; the JavaScript join answers', () => {
    const rnd = mulberry32(46);
    const n = 3000;
    const { xs, ys, tree } = crowdOf(rnd, n, false);
    settle(tree, rnd, xs, ys, n);
    const t = tree[INTERNALS]();
    // The tree's instance's memory (WasmMove's, private), made to refuse to grow, as on a device whose
    // address space is spent.
    const memory = (t.moveAll.kernel as unknown as { x: { memory: WebAssembly.Memory } }).x.memory;
    const grow = memory.grow;
    let tries = 0;
    memory.grow = () => {
      tries++;
      throw new RangeError('no more memory');
    };
    try {
      let copiedOut = 0;
      for (let frame = 0; frame < 10; frame++) {
        wander(rnd, xs, ys, n, 29);
        tree.moveAll(xs, ys);
        const xy = t.pool.xy;
        const before = tries;
        // A radius whose list needs more room than laid out: the join's layout would grow the memory.
        const counts = new Int32Array(n);
        const found = tree.querySeparationInto(12, counts, new Float64Array(n), new Float64Array(n));
        expect(tree.lastSeparation.kernel).toBe('js');
        const want = bruteSeparation(xs, ys, 12);
        expect(found).toBe(want.pairs);
        expect(counts).toEqual(want.counts);
        // The tree copied out only where the join tried to grow the memory (for sizes not tried before:
        // the crowd's pool still grows in these frames); the last five frames try nothing.
        if (t.pool.xy !== xy) {
          copiedOut++;
          expect(tries).toBeGreaterThan(before);
        }
        if (frame >= 5) expect(tries).toBe(before);
      }
      expect(copiedOut).toBeGreaterThanOrEqual(1);
      checkInvariants(tree);
    } finally {
      memory.grow = grow;
    }
    // Growing again: the join runs in the kernel at that radius.
    wander(rnd, xs, ys, n, 29);
    tree.moveAll(xs, ys);
    expectBrute(tree, xs, ys, n, 12);
  });

  it('two crowd trees, each with its own instance: lists and arrays never mixed', () => {
    const rnd = mulberry32(44);
    const n = 2000;
    const trees: CrowdQuadtree[] = [];
    const pos: [Float64Array, Float64Array][] = [];
    for (let k = 0; k < 2; k++) {
      const { xs, ys, tree } = crowdOf(rnd, n, k === 1);
      pos.push([xs, ys]);
      trees.push(tree);
    }
    for (let frame = 0; frame < 8; frame++) {
      for (let k = 0; k < 2; k++) {
        const [xs, ys] = pos[k];
        wander(rnd, xs, ys, n, 23);
        trees[k].moveAll(xs, ys);
      }
      for (let k = 0; k < 2; k++) expectBrute(trees[k], pos[k][0], pos[k][1], n, 2.5);
    }
    expect(own(trees[0])).not.toBe(own(trees[1]));
  });

  it('setSeparationKernel("js") still runs the JavaScript join on a tree with an instance of its own', () => {
    const rnd = mulberry32(45);
    const n = 2000;
    const { xs, ys, tree } = crowdOf(rnd, n, false);
    tree.moveAll(xs, ys);
    expect(own(tree)).not.toBeNull();
    setSeparationKernel('js');
    const counts = new Int32Array(n);
    const s = new Float64Array(n);
    const found = tree.querySeparationInto(2, counts, s, new Float64Array(n));
    expect(tree.lastSeparation.kernel).toBe('js');
    expect(found).toBe(bruteSeparation(xs, ys, 2).pairs);
  });
});
