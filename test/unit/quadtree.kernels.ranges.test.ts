// The crowd's tree (point-quadtree/crowd), on which these tests ran as PointQuadtree before the crowd became a subpath.
import { CrowdQuadtree as PointQuadtree } from 'point-quadtree/crowd';
import { PREP, RADIUS } from 'point-quadtree/internal/crowd/kernels/call';
import { separationWasm } from 'point-quadtree/internal/crowd/wasm';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';

/*
 * The WebAssembly kernel's accumulate export takes a contiguous range of the grouped leaf-pair list and
 * zeroes its per-slot sums first, so that sums over sub-ranges add up to the sums over the whole list:
 * what splitting the join across workers relies on. These tests call the export directly, on the memory
 * and the call's record (kernels/call.ts) the last querySeparationInto laid out and filled (the kernel's
 * internals, read through a cast).
 */

interface Exports {
  memory: { buffer: ArrayBuffer };
  accumulate(call: number, from: number, to: number): number;
  tempBytes(slots: number): number;
}
interface Internals {
  x: Exports;
  layout: { at: Record<'call' | 'sums' | 'temp' | 'prep', number> };
  listPairs: number;
}

/**
 * The per-slot records (sum x, sum y, count, unused) of accumulate over pairs [from, to) of the list, on the
 * rows prepared by the last call or (`prepared` false: PREP set to 0 for this call) converted by each row.
 */
function rangeSums(k: Internals, from: number, to: number, slots: number, r: number, prepared: boolean) {
  const at = k.layout.at;
  // The record holds the radius of the last call: this test's.
  expect(new Float64Array(k.x.memory.buffer, at.call, 1 + (RADIUS >> 3))[RADIUS >> 3]).toBe(r);
  const record = new Int32Array(k.x.memory.buffer, at.call, (PREP >> 2) + 1);
  record[PREP >> 2] = prepared ? at.prep : 0;
  const found = k.x.accumulate(at.call, from, to);
  record[PREP >> 2] = at.prep;
  return { found, sums: new Float64Array(k.x.memory.buffer, at.sums, 4 * slots).slice() };
}

function crowd(seed: number, n: number): PointQuadtree {
  const rnd = mulberry32(seed);
  const tree = new PointQuadtree({
    bounds: { minX: 0, minY: 0, maxX: 60, maxY: 60 },
    maxItems: 8,
    minSize: 0.5,
  });
  for (let id = 0; id < n; id++) {
    // Half uniform, half in a tight camp (leaves of every width; some coincident points).
    if (id % 2 === 0) tree.insert(id, rnd() * 60, rnd() * 60);
    else tree.insert(id, 30 + Math.round((rnd() - 0.5) * 40) / 8, 30 + Math.round((rnd() - 0.5) * 40) / 8);
  }
  return tree;
}

describe('accumulate over ranges of the leaf-pair list (the split a multi-threaded caller makes)', () => {
  for (const [seed, r] of [
    [61, 1.5],
    [62, 0.3],
    [63, 6],
  ] as const) {
    it(`seed ${seed}, r = ${r}: any split, prepared or not, adds up to the whole list's pairs, counts and sums`, () => {
      const tree = crowd(seed, 4000);
      const n = 4000;
      const whole = {
        counts: new Int32Array(n),
        x: new Float64Array(n),
        y: new Float64Array(n),
      };
      const pairs = tree.querySeparationInto(r, whole.counts, whole.x, whole.y);
      const k = separationWasm() as unknown as Internals;
      // The kernel's slots: the tree's items, gathered leaf by leaf (kernels/gather.ts); the pool itself,
      // built by inserts, has more (blocks with room to spare).
      const slots = tree.size;
      expect((tree as unknown as { t: { pool: { top: number } } }).t.pool.top).toBeGreaterThan(slots);
      const total = k.listPairs;
      const all = rangeSums(k, 0, total, slots, r, true);
      expect(all.found).toBe(pairs);
      const rnd = mulberry32(seed + 100);
      for (let trial = 0; trial < 6; trial++) {
        // Three cuts anywhere, also inside one leaf's run of pairs.
        const cuts = [0, ...[0, 1, 2].map(() => Math.floor(rnd() * total)).sort((a, b) => a - b), total];
        const prepared = trial % 2 === 0;
        const sum = new Float64Array(4 * slots);
        let found = 0;
        for (let c = 0; c + 1 < cuts.length; c++) {
          const part = rangeSums(k, cuts[c], cuts[c + 1], slots, r, prepared);
          found += part.found;
          for (let i = 0; i < sum.length; i++) sum[i] += part.sums[i];
        }
        expect(found, `cuts ${cuts}`).toBe(pairs);
        for (let slot = 0; slot < slots; slot++) {
          expect(sum[4 * slot + 2], `count of slot ${slot}, cuts ${cuts}`).toBe(all.sums[4 * slot + 2]);
          const scale = Math.max(1, all.sums[4 * slot + 2]);
          expect(Math.abs(sum[4 * slot] - all.sums[4 * slot])).toBeLessThanOrEqual(1e-9 * scale);
          expect(Math.abs(sum[4 * slot + 1] - all.sums[4 * slot + 1])).toBeLessThanOrEqual(1e-9 * scale);
        }
      }
    });
  }
});

describe('accumulate keeps to its scratch (tempBytes(slots) bytes at temp)', () => {
  it('seed 64: a crowd within one radius, whose rows list more candidates than they hold, writes nothing past it', () => {
    // 600 items in a unit square at r = 2: every item reaches every other, so a row's items list about
    // the whole row each, and the row's lists are made a few items at a time within the scratch.
    const rnd = mulberry32(64);
    const tree = new PointQuadtree({
      bounds: { minX: 0, minY: 0, maxX: 1, maxY: 1 },
      maxItems: 4,
      minSize: 0.01,
    });
    for (let id = 0; id < 600; id++) tree.insert(id, rnd(), rnd());
    const n = 600;
    const pairs = tree.querySeparationInto(2, new Int32Array(n), new Float64Array(n), new Float64Array(n));
    expect(pairs).toBe((n * (n - 1)) / 2);
    const k = separationWasm() as unknown as Internals;
    const slots = (tree as unknown as { t: { pool: { top: number } } }).t.pool.top;
    // The region laid out for temp has room for the pool's capacity: the bytes past tempBytes(slots) and
    // before the next region are unused, and stay as set here.
    const end = k.layout.at.temp + k.x.tempBytes(slots);
    const spare = k.layout.at.prep - end;
    expect(spare).toBeGreaterThanOrEqual(4096);
    new Uint8Array(k.x.memory.buffer, end, spare).fill(0xa5);
    for (const prepared of [true, false]) {
      expect(rangeSums(k, 0, k.listPairs, slots, 2, prepared).found).toBe(pairs);
      const after = new Uint8Array(k.x.memory.buffer, end, spare);
      expect(
        after.every((b) => b === 0xa5),
        `prepared ${prepared}`,
      ).toBe(true);
    }
  });
});
