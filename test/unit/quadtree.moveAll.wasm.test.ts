/**
 * moveAll's pass over the ids in the WebAssembly kernel (CrowdQuadtree: crowd/moveKernel.ts): which pass ran
 * (lastMove), the same tree as the JavaScript pass node for node and slot for slot, frame after frame, while
 * the tree's arrays grow, are replaced and move into the kernel's memory again, and the tree's arrays kept in
 * that memory between calls. (Every moveAll suite of the core also runs on this pass: the `unit-wasm` project
 * in vitest.config.ts.)
 */
import { PointQuadtree } from 'point-quadtree';
import { CrowdQuadtree, setSeparationKernel } from 'point-quadtree/crowd';
import { checkInvariants } from 'point-quadtree/debug';
import { setMoveKernelMinItems } from 'point-quadtree/internal/crowd/moveKernel';
import { setKernelMemoryCap } from 'point-quadtree/internal/crowd/wasmLayout';
import { INTERNALS } from 'point-quadtree/internal/PointQuadtree';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';
import { instrumented, leastBytesPerCall } from '../helpers/allocation';
import { bounds, dump, scatter, W } from '../helpers/slotDump';

beforeAll(() => setMoveKernelMinItems(0));
afterAll(() => setMoveKernelMinItems());
afterEach(() => {
  setSeparationKernel('auto');
  setKernelMemoryCap();
  setMoveKernelMinItems(0);
});

describe('CrowdQuadtree.moveAll: the pass over the ids in the WebAssembly kernel', () => {
  it('says which pass ran: the kernel for typed and plain arrays, JavaScript where it cannot or may not run', () => {
    const n = 50;
    const xs = new Float64Array(n);
    const ys = new Float64Array(n);
    scatter(mulberry32(3), n, xs, ys, false);
    const ids = Int32Array.from({ length: n }, (_, i) => i);
    const tree = CrowdQuadtree.from({ bounds, maxItems: 4 }, ids, xs, ys);
    expect(tree.lastMove.kernel).toBe('js'); // before any moveAll
    tree.moveAll(xs, ys);
    expect(tree.lastMove.kernel).toBe('wasm');
    tree.moveAll(Float32Array.from(xs), Float32Array.from(ys));
    expect(tree.lastMove.kernel).toBe('wasm');
    tree.moveAll(Array.from(xs), Array.from(ys)); // copied into the tree's Float64Array scratch first
    expect(tree.lastMove.kernel).toBe('wasm');
    // Integer inputs: the JavaScript pass reads them (the kernel takes f32 or f64).
    tree.moveAll(Int32Array.from(xs), Int32Array.from(ys));
    expect(tree.lastMove.kernel).toBe('js');
    setSeparationKernel('js');
    tree.moveAll(xs, ys);
    expect(tree.lastMove.kernel).toBe('js');
    setSeparationKernel('auto');
    // A point outside the root: the root grows, so moveAll moves one by one (no pass over the ids).
    const far = Float64Array.from(xs);
    far[7] = 3 * W;
    tree.moveAll(far, ys);
    expect(tree.lastMove.kernel).toBe('js');
    expect(tree.bounds.maxX).toBeGreaterThan(W);
    const empty = new CrowdQuadtree({ bounds });
    empty.moveAll(xs, ys);
    expect(empty.lastMove.kernel).toBe('js');
    checkInvariants(tree);
  });

  for (const [arrays, camps, seed, lines] of [
    ['Float32Array', false, 21, false],
    ['Float32Array', true, 22, false],
    ['Float64Array', true, 23, false],
    ['Float64Array', false, 24, true],
  ] as const) {
    const where = `${arrays}, ${camps ? 'four camps' : 'uniform'}${lines ? ' on split lines' : ''}, seed ${seed}`;
    it(`${where}: the same tree as the JavaScript pass, node for node and slot for slot, over 60 frames`, () => {
      const rnd = mulberry32(seed);
      const cap = 1400;
      const Type = arrays === 'Float32Array' ? Float32Array : Float64Array;
      const xs = new Type(cap);
      const ys = new Type(cap);
      let n = 600;
      scatter(rnd, cap, xs, ys, camps);
      const ids = Int32Array.from({ length: n }, (_, i) => i);
      const options = { bounds, maxItems: 8, minSize: 0.5 };
      const wasm = CrowdQuadtree.from(options, ids, xs.subarray(0, n), ys.subarray(0, n));
      const js = PointQuadtree.from(options, ids, xs.subarray(0, n), ys.subarray(0, n));
      let ran = 0;
      for (let frame = 0; frame < 60; frame++) {
        for (let i = 0; i < n; i++) {
          // Steps of up to 4 (over leaf edges often), now and then a jump across the world; inside the root.
          const jump = rnd() < 0.02;
          xs[i] = Math.min(W, Math.max(0, jump ? rnd() * W : xs[i] + (rnd() - 0.5) * 8));
          ys[i] = Math.min(W, Math.max(0, jump ? rnd() * W : ys[i] + (rnd() - 0.5) * 8));
          // On the split lines of leaves 6.25 wide (and their edges): where an edge keeps an item or not.
          if (lines) {
            xs[i] = Math.round(xs[i] / 6.25) * 6.25;
            ys[i] = Math.round(ys[i] / 6.25) * 6.25;
          }
        }
        wasm.moveAll(xs, ys);
        js.moveAll(xs, ys);
        if (wasm.lastMove.kernel === 'wasm') ran++;
        expect(dump(wasm), `frame ${frame}`).toBe(dump(js));
        if (frame % 10 === 9) {
          // Between frames: new ids past the id tables' end (they grow: new JavaScript arrays, which the
          // next pass moves into the kernel's memory again), and removals that empty blocks.
          for (let k = 0; k < 80 && n < cap; k++, n++) {
            wasm.insert(n, xs[n], ys[n]);
            js.insert(n, xs[n], ys[n]);
          }
          for (let k = 0; k < 30; k++) {
            const id = Math.floor(rnd() * n);
            expect(wasm.remove(id)).toBe(js.remove(id));
          }
          expect(dump(wasm), `frame ${frame}, after the inserts and removals`).toBe(dump(js));
        }
        checkInvariants(wasm);
      }
      expect(ran).toBe(60);
      expect(wasm.size).toBe(js.size);
    });
  }

  it("keeps the tree's positions and id tables in the kernel's memory between calls (nothing copied back)", () => {
    const n = 3000;
    const rnd = mulberry32(5);
    const xs = new Float32Array(n);
    const ys = new Float32Array(n);
    scatter(rnd, n, xs, ys, true);
    const tree = CrowdQuadtree.from(
      { bounds, maxItems: 16 },
      Int32Array.from({ length: n }, (_, i) => i),
      xs,
      ys,
    );
    const t = tree[INTERNALS]();
    const before = t.pool.xy;
    const step = () => {
      for (let i = 0; i < n; i++) {
        xs[i] = Math.min(W, Math.max(0, xs[i] + (rnd() - 0.5)));
        ys[i] = Math.min(W, Math.max(0, ys[i] + (rnd() - 0.5)));
      }
      tree.moveAll(xs, ys);
    };
    // The first frames grow the bulk build's exact-size blocks (new arrays, moved in again by the next pass).
    for (let frame = 0; frame < 200; frame++) step();
    // The pass moved the arrays into the kernel's memory: views of one buffer larger than each of them.
    expect(t.pool.xy).not.toBe(before);
    for (const a of [t.pool.xy, t.idSlot, t.idLeaf])
      expect(a.buffer.byteLength).toBeGreaterThan(a.byteLength);
    expect(t.idSlot.buffer).toBe(t.pool.xy.buffer);
    expect(t.idLeaf.buffer).toBe(t.pool.xy.buffer);
    // Steady: the same views, frame after frame (the pass writes the positions where the tree keeps them).
    const xy = t.pool.xy;
    const idSlot = t.idSlot;
    for (let frame = 0; frame < 30; frame++) step();
    expect(t.pool.xy).toBe(xy);
    expect(t.idSlot).toBe(idSlot);
    for (let i = 0; i < n; i += 97) {
      expect(tree.queryCircle(xs[i], ys[i], 0)).toContain(i);
    }
  });

  it("where the memory may not grow (past the cap), the JavaScript pass runs on the tree's own copies: nothing lost", () => {
    const n = 4000;
    const rnd = mulberry32(9);
    const xs = new Float32Array(n);
    const ys = new Float32Array(n);
    scatter(rnd, n, xs, ys, false);
    const ids = Int32Array.from({ length: n }, (_, i) => i);
    const options = { bounds, maxItems: 8 };
    const wasm = CrowdQuadtree.from(options, ids, xs, ys);
    const js = PointQuadtree.from(options, ids, xs, ys);
    const t = wasm[INTERNALS]();
    const frame = () => {
      for (let i = 0; i < n; i++) {
        xs[i] = Math.min(W, Math.max(0, xs[i] + (rnd() - 0.5) * 4));
        ys[i] = Math.min(W, Math.max(0, ys[i] + (rnd() - 0.5) * 4));
      }
      wasm.moveAll(xs, ys);
      js.moveAll(xs, ys);
      expect(dump(wasm)).toBe(dump(js));
    };
    frame();
    expect(wasm.lastMove.kernel).toBe('wasm');
    // More ids than the regions have room for, under a cap the new layout would pass: the pass hands the tree
    // copies of its arrays (the memory may not move under them) and the JavaScript pass runs.
    setKernelMemoryCap(t.pool.xy.buffer.byteLength);
    for (let id = n; id < 3 * n; id++) {
      wasm.insert(id, (id * 7) % W, (id * 13) % W);
      js.insert(id, (id * 7) % W, (id * 13) % W);
    }
    const wide = { xs: new Float32Array(3 * n), ys: new Float32Array(3 * n) };
    wide.xs.set(xs);
    wide.ys.set(ys);
    for (let id = n; id < 3 * n; id++) {
      wide.xs[id] = (id * 7) % W;
      wide.ys[id] = (id * 13) % W;
    }
    wasm.moveAll(wide.xs, wide.ys);
    js.moveAll(wide.xs, wide.ys);
    expect(wasm.lastMove.kernel).toBe('js');
    expect(dump(wasm)).toBe(dump(js));
    for (const a of [t.pool.xy, t.idSlot, t.idLeaf]) expect(a.buffer.byteLength).toBe(a.byteLength);
    checkInvariants(wasm);
    // The cap lifted: the kernel takes the arrays in again.
    setKernelMemoryCap();
    wasm.moveAll(wide.xs, wide.ys);
    expect(wasm.lastMove.kernel).toBe('wasm');
    expect(dump(wasm)).toBe(dump(js));
  });

  it('a tree of fewer than 1,024 items runs the JavaScript pass (each kernel pass holds an instance of its own)', () => {
    setMoveKernelMinItems();
    for (const [n, kernel] of [
      [1023, 'js'],
      [1024, 'wasm'],
    ] as const) {
      const xs = new Float64Array(n);
      const ys = new Float64Array(n);
      scatter(mulberry32(n), n, xs, ys, false);
      const tree = CrowdQuadtree.from(
        { bounds },
        Int32Array.from({ length: n }, (_, i) => i),
        xs,
        ys,
      );
      tree.moveAll(xs, ys);
      expect(tree.lastMove.kernel, `${n} items`).toBe(kernel);
    }
  });

  it.skipIf(instrumented)(
    'allocates no more per frame than the JavaScript pass: one pair of arrays, two in turn, the largest id coming and going',
    () => {
      // Each pattern on a crowd tree and on a PointQuadtree of the same items, in the same harness: the
      // kernel's path must add nothing (the harness's own bytes, and the JavaScript tree's, are the baseline).
      const n = 2000;
      const rnd = mulberry32(13);
      const make = () => {
        const xs = new Float32Array(n + 100);
        const ys = new Float32Array(n + 100);
        scatter(rnd, n + 100, xs, ys, false);
        return { xs, ys };
      };
      type Pair = { xs: Float32Array; ys: Float32Array };
      const a = make();
      const b = make();
      const ids = Int32Array.from({ length: n }, (_, i) => i);
      const options = { bounds, maxItems: 8 };
      const crowd = CrowdQuadtree.from(options, ids, a.xs.subarray(0, n), a.ys.subarray(0, n));
      const js = PointQuadtree.from(options, ids, a.xs.subarray(0, n), a.ys.subarray(0, n));
      const step = (tree: PointQuadtree, p: Pair) => {
        for (let i = 0; i < n; i += 7) p.xs[i] = Math.min(W, Math.max(0, p.xs[i] + (rnd() - 0.5)));
        tree.moveAll(p.xs, p.ys);
      };
      const patterns: [string, (tree: PointQuadtree) => (count: number) => number][] = [
        [
          'one pair of arrays',
          (tree) => (count) => {
            for (let k = 0; k < count; k++) step(tree, a);
            return tree.size;
          },
        ],
        [
          'two pairs in turn',
          (tree) => (count) => {
            for (let k = 0; k < count; k++) step(tree, k & 1 ? a : b);
            return tree.size;
          },
        ],
        [
          'the largest id removed and inserted again',
          (tree) => (count) => {
            for (let k = 0; k < count; k++) {
              if (k & 1) tree.insert(n - 1, a.xs[n - 1], a.ys[n - 1]);
              else tree.remove(n - 1);
              step(tree, a);
            }
            return tree.size;
          },
        ],
      ];
      for (const [name, pattern] of patterns) {
        const withKernel = pattern(crowd);
        const withoutKernel = pattern(js);
        withKernel(2000);
        withoutKernel(2000);
        expect(crowd.lastMove.kernel, name).toBe('wasm');
        // 12 rounds of 100 frames each (more only while the least is 64 bytes a frame or more: the JavaScript
        // tree's own bytes would keep the default's 8 from ever stopping early). The kernel's path gets up to
        // 60 more while it is over the bar: the engine optimises a function called once a frame only after
        // 1,000-2,500 calls, and boxes every double it computes until then (docs/crowd.md); a path that
        // allocates every frame stays over the bar however long it runs.
        const baseline = leastBytesPerCall(withoutKernel, 100, 12, 64);
        const bytes = leastBytesPerCall(withKernel, 100, 12, baseline + 8, 60);
        expect(bytes, `${name}: ${bytes} against ${baseline} bytes a frame`).toBeLessThan(baseline + 8);
      }
    },
  );
});
