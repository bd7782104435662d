// The crowd's tree (point-quadtree/crowd), on which these tests ran as PointQuadtree before the crowd became a subpath.
import { CrowdQuadtree as PointQuadtree } from 'point-quadtree/crowd';
import { PREP, RADIUS, TOUCH_SHIFT } from 'point-quadtree/internal/crowd/kernels/call';
import { separationWasm } from 'point-quadtree/internal/crowd/wasm';
import { cutByWork } from 'point-quadtree/internal/parallel/teamParts';
import { WIDE } from 'point-quadtree/internal/query/leafPairs';
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
  layout: { at: Record<'call' | 'sums' | 'temp' | 'prep' | 'touched', number> };
  listPairs: number;
  pairList(): Int32Array;
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
  return {
    found,
    sums: new Float64Array(k.x.memory.buffer, at.sums, 4 * slots).slice(),
    touched: new Uint8Array(k.x.memory.buffer, at.touched, (slots >> TOUCH_SHIFT) + 1).slice(),
  };
}

/** The slots whose records are not all 0 but whose block the range did not mark (a team would drop them). */
function unmarked(part: { sums: Float64Array; touched: Uint8Array }, slots: number): number[] {
  const out: number[] = [];
  for (let slot = 0; slot < slots; slot++) {
    const s = part.sums;
    const written = s[4 * slot] !== 0 || s[4 * slot + 1] !== 0 || s[4 * slot + 2] !== 0;
    if (written && part.touched[slot >> TOUCH_SHIFT] !== 1) out.push(slot);
  }
  return out;
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
          expect(unmarked(part, slots), `cuts ${cuts}`).toEqual([]);
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

describe("accumulate marks the blocks of slots it writes (TOUCHED: a team's caller adds only those)", () => {
  it('wide pairs, sparse pairs and coincident points: every record written is in a marked block', () => {
    // 3,000 points over 0..1000 in big leaves (maxItems 32) at r = 2: leaves far wider than 8 radii (wide
    // pairs), most of them sparse. A third at random, a third in pairs straddling the split lines x = 500
    // and y = 250 (within reach across two leaves: wide pairs that write), a third coincident with the
    // point before (the rare path).
    const rnd = mulberry32(65);
    const tree = new PointQuadtree({ bounds: { minX: 0, minY: 0, maxX: 1000, maxY: 1000 }, maxItems: 32 });
    let x = 0;
    let y = 0;
    for (let id = 0; id < 3000; id++) {
      if (id % 3 === 0) {
        x = rnd() * 1000;
        y = rnd() * 1000;
      } else if (id % 3 === 1) {
        const across = 2 * (id % 2) - 1;
        x = id % 4 < 2 ? 500 + across * 0.6 * rnd() : rnd() * 1000;
        y = id % 4 < 2 ? rnd() * 1000 : 250 + across * 0.6 * rnd();
      }
      tree.insert(id, x, y);
    }
    const n = 3000;
    const counts = new Int32Array(n);
    const pairs = tree.querySeparationInto(2, counts, new Float64Array(n), new Float64Array(n));
    expect(pairs).toBeGreaterThan(100);
    const k = separationWasm() as unknown as Internals;
    const list = k.pairList();
    let wide = 0;
    for (let p = 0; p < k.listPairs; p++) if ((list[2 * p] & WIDE) !== 0) wide++;
    expect(wide).toBeGreaterThan(0);
    const slots = tree.size;
    // One pair at a time: only its two leaves' blocks are marked.
    for (let p = 0; p < k.listPairs; p++) {
      const part = rangeSums(k, p, p + 1, slots, 2, true);
      expect(unmarked(part, slots), `pair ${p}`).toEqual([]);
    }
  });

  it("20,000 uniform points cut in two by work: each half marks about half of the blocks (the caller's adding halves)", () => {
    const rnd = mulberry32(66);
    const n = 20_000;
    const tree = new PointQuadtree({
      bounds: { minX: -100, minY: -100, maxX: 100, maxY: 100 },
      maxItems: 16,
      minSize: 1,
    });
    for (let id = 0; id < n; id++) tree.insert(id, rnd() * 200 - 100, rnd() * 200 - 100);
    tree.querySeparationInto(1.5, new Int32Array(n), new Float64Array(n), new Float64Array(n));
    const k = separationWasm() as unknown as Internals;
    const pairs = k.listPairs;
    const t = (tree as unknown as { t: { nodeCount: Int32Array } }).t;
    const cuts = new Int32Array(3);
    cutByWork(k.pairList(), pairs, t.nodeCount, 2, 1, cuts, new Float64Array(pairs + 1));
    const blocks = (n >> TOUCH_SHIFT) + 1;
    const union = new Uint8Array(blocks);
    for (let p = 0; p < 2; p++) {
      const part = rangeSums(k, cuts[p], cuts[p + 1], n, 1.5, true);
      expect(unmarked(part, n)).toEqual([]);
      const marked = part.touched.reduce((a, b) => a + b, 0);
      expect(marked / blocks, `range ${p}`).toBeGreaterThan(0.4);
      expect(marked / blocks, `range ${p}`).toBeLessThan(0.6);
      for (let b = 0; b < blocks; b++) union[b] |= part.touched[b];
    }
    // Every block holds items, each in some pair's leaf: the two halves mark them all between them.
    expect(union.every((b) => b === 1)).toBe(true);
  });
});
