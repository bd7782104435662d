/**
 * moveAll's re-filing of the leavers in the WebAssembly kernel (CrowdQuadtree: crowd/kernels/refile.ts) and its
 * first check (every position inside the root, four at a time): the same tree and pool as the JavaScript
 * path's, slot for slot and free list for free list; JavaScript taking over where the pool must grow; the root
 * read after the kernel's `inside`, which may lay the memory out again; exact at root edges no float32 holds.
 */
import { PointQuadtree } from 'point-quadtree';
import { CrowdQuadtree } from 'point-quadtree/crowd';
import { checkInvariants } from 'point-quadtree/debug';
import { setMoveKernelMinItems } from 'point-quadtree/internal/crowd/moveKernel';
import { INTERNALS } from 'point-quadtree/internal/PointQuadtree';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';
import { bounds, dump, scatter, W } from '../helpers/slotDump';

// These trees are smaller than the 1,024 items a crowd tree needs to run the kernel's pass by default.
beforeAll(() => setMoveKernelMinItems(0));
afterAll(() => setMoveKernelMinItems());

/** Counts how often the tree's kernel re-filed every leaver `stay` listed, and how often it left some to JavaScript. */
function countFiling(tree: CrowdQuadtree): { all: number; some: number; filed: number; listed: number } {
  const kernel = tree[INTERNALS]().moveAll.kernel!;
  const file = kernel.file.bind(kernel);
  const counts = { all: 0, some: 0, filed: 0, listed: 0 };
  kernel.file = (n: number): number => {
    const k = file(n);
    if (k === n) counts.all++;
    else counts.some++;
    counts.filed += k;
    counts.listed += n;
    return k;
  };
  return counts;
}

/**
 * Moves all of a small tree's items inside `edges` but one, which goes to the float32 (or float64) nearest to an
 * edge on either side, or to NaN or an infinity, at an id in the kernel's blocks of four and at the last id (its
 * tail): the crowd tree and a PointQuadtree give the same error, root and tree, and the kernel's pass ran
 * exactly where the position was inside.
 */
function exactAtEdges(edges: { minX: number; minY: number; maxX: number; maxY: number }): void {
  const n = 23; // five blocks of four and a tail of three
  const below = (v: number) => {
    const f = Math.fround(v);
    return f < v ? f : Math.fround(f - Math.abs(f) * 2 ** -24);
  };
  const above = (v: number) => {
    const f = Math.fround(v);
    return f > v ? f : Math.fround(f + Math.abs(f) * 2 ** -24);
  };
  const cases: [string, 'x' | 'y', number][] = [];
  for (const [name, axis, edge] of [
    ['minX', 'x', edges.minX],
    ['minY', 'y', edges.minY],
    ['maxX', 'x', edges.maxX],
    ['maxY', 'y', edges.maxY],
  ] as const) {
    expect(below(edge)).toBeLessThan(edge);
    expect(above(edge)).toBeGreaterThan(edge);
    cases.push([`${name} - one float32`, axis, below(edge)], [`${name} + one float32`, axis, above(edge)]);
  }
  for (const v of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])
    cases.push([`${v} in x`, 'x', v], [`${v} in y`, 'y', v]);
  for (const Type of [Float32Array, Float64Array]) {
    for (const at of [5, n - 1]) {
      for (const [name, axis, value] of cases) {
        const where = `${Type.name}, id ${at}, ${name}`;
        const xs = new Type(n);
        const ys = new Type(n);
        for (let i = 0; i < n; i++) {
          xs[i] = 10 + 4 * i;
          ys[i] = 90 - 3.5 * i;
        }
        const ids = Int32Array.from({ length: n }, (_, i) => i);
        const options = { bounds: edges, maxItems: 4 };
        const wasm = CrowdQuadtree.from(options, ids, xs, ys);
        const js = PointQuadtree.from(options, ids, xs, ys);
        if (axis === 'x') xs[at] = value;
        else ys[at] = value;
        let wasmError = '';
        let jsError = '';
        try {
          wasm.moveAll(xs, ys);
        } catch (e) {
          wasmError = String(e);
        }
        try {
          js.moveAll(xs, ys);
        } catch (e) {
          jsError = String(e);
        }
        expect(wasmError, where).toBe(jsError);
        expect(wasm.bounds, where).toEqual(js.bounds);
        expect(dump(wasm), where).toBe(dump(js));
        const outside = !(
          Number.isFinite(value) &&
          value >= (axis === 'x' ? edges.minX : edges.minY) &&
          value <= (axis === 'x' ? edges.maxX : edges.maxY)
        );
        // Inside: the kernel's pass ran; outside (or not finite), moving one by one or an error, in JavaScript.
        expect(wasm.lastMove.kernel, where).toBe(outside ? 'js' : 'wasm');
      }
    }
  }
}

describe('CrowdQuadtree.moveAll: the leavers re-filed in the kernel, and its check of the root', () => {
  it('re-files the leavers in the kernel, and hands JavaScript the rest from the first that needs the pool to grow', () => {
    // Uniform points drawn to four camps: leaves fill and empty, blocks grow and go back to the free lists,
    // and (with larger leaves) the pool nears its end with much of it idle, where an alloc sets compactDue.
    const camps = [
      [40, 50],
      [150, 60],
      [90, 160],
      [170, 170],
    ];
    for (const [maxItems, looseness] of [
      [6, 0],
      [6, 1.5],
      [32, 0],
    ]) {
      const where = `maxItems ${maxItems}, looseness ${looseness}`;
      const rnd = mulberry32(31);
      const n = 2500;
      const xs = new Float64Array(n);
      const ys = new Float64Array(n);
      scatter(rnd, n, xs, ys, false);
      const ids = Int32Array.from({ length: n }, (_, i) => i);
      const options = { bounds, maxItems, minSize: 0.5, looseness };
      const wasm = CrowdQuadtree.from(options, ids, xs, ys);
      const js = PointQuadtree.from(options, ids, xs, ys);
      const counts = countFiling(wasm);
      for (let frame = 0; frame < 40; frame++) {
        for (let i = 0; i < n; i++) {
          const [cx, cy] = camps[i & 3];
          xs[i] = Math.min(W, Math.max(0, xs[i] + (cx - xs[i]) * 0.05 + (rnd() - 0.5) * 4));
          ys[i] = Math.min(W, Math.max(0, ys[i] + (cy - ys[i]) * 0.05 + (rnd() - 0.5) * 4));
        }
        wasm.moveAll(xs, ys);
        js.moveAll(xs, ys);
        expect(wasm.lastMove.kernel).toBe('wasm');
        expect(dump(wasm), `${where}, frame ${frame}`).toBe(dump(js));
      }
      checkInvariants(wasm);
      // A bulk build's blocks are exact and its pool full: the first frames' new blocks need the pool to grow,
      // which JavaScript does (the kernel stops there); most frames the kernel re-files every leaver itself.
      expect(counts.some, where).toBeGreaterThan(0);
      expect(counts.all, where).toBeGreaterThan(20);
      expect(counts.filed, where).toBeGreaterThan(0.8 * counts.listed);
    }
  });

  it('reads the root after `inside`, which may lay the memory out again (an absent id outside the root in that frame)', () => {
    // `inside` lays the regions out again here (the id tables grew), which hands the tree copies of the arrays
    // it held in the memory and detaches the old views: moveAll must read the root's rectangle afterwards.
    // Read before, from the detached view, every present id would look outside it and moveAll would move
    // them one by one, in JavaScript.
    const rnd = mulberry32(41);
    const n = 6000;
    const xs = new Float64Array(n);
    const ys = new Float64Array(n);
    scatter(rnd, n, xs, ys, false);
    const options = { bounds, maxItems: 64 };
    const wasm = new CrowdQuadtree(options);
    const js = new PointQuadtree(options);
    for (let i = 0; i < 200; i++) {
      wasm.insert(i, xs[i], ys[i]);
      js.insert(i, xs[i], ys[i]);
    }
    wasm.remove(100);
    js.remove(100);
    wasm.moveAll(xs.subarray(0, 200), ys.subarray(0, 200));
    js.moveAll(xs.subarray(0, 200), ys.subarray(0, 200));
    expect(wasm.lastMove.kernel).toBe('wasm');
    const t = wasm[INTERNALS]();
    const held = t.nodeBounds;
    expect(held.buffer.byteLength).toBeGreaterThan(held.byteLength); // a view of the memory
    wasm.insert(n - 1, xs[n - 1], ys[n - 1]);
    js.insert(n - 1, xs[n - 1], ys[n - 1]);
    expect(t.nodeBounds).toBe(held);
    for (let i = 0; i < n; i++) {
      xs[i] = Math.min(W, Math.max(0, xs[i] + (rnd() - 0.5) * 5));
      ys[i] = Math.min(W, Math.max(0, ys[i] + (rnd() - 0.5) * 5));
    }
    xs[100] = 5 * W; // absent: ignored, but it fails the first check of all entries
    wasm.moveAll(xs, ys);
    js.moveAll(xs, ys);
    expect(held.byteLength, 'the memory was laid out again: the old view is detached').toBe(0);
    expect(wasm.lastMove.kernel).toBe('wasm');
    expect(dump(wasm)).toBe(dump(js));
    checkInvariants(wasm);
  });

  it('checks every position against the root exactly, float32 against edges a float32 cannot hold, in blocks and in the tail', () => {
    // Root edges that no float32 equals: the kernel compares four float32 positions at a time with the
    // edges rounded outward to float32, which must keep and refuse exactly the values the float64 test does.
    // Each edge once where the nearest float32 lies above it and once where it lies below.
    for (const edges of [
      { minX: 0.1, minY: 0.3, maxX: 100.7, maxY: 99.9 },
      { minX: 0.7, minY: 0.9, maxX: 100.3, maxY: 99.7 },
    ]) {
      exactAtEdges(edges);
    }
  });
});
