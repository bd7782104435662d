import { classBelow, classCapacity, classFor, ItemPool } from 'point-quadtree/internal/core/ItemPool';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';

describe('ItemPool size classes', () => {
  it('capacities grow by about 1.5x: 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64', () => {
    expect(Array.from({ length: 12 }, (_, c) => classCapacity(c))).toEqual([
      1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64,
    ]);
  });

  it('classFor(n) is the smallest class holding n; classBelow(cap) the largest that fits in cap', () => {
    for (let n = 1; n <= 5000; n++) {
      const c = classFor(n);
      expect(classCapacity(c)).toBeGreaterThanOrEqual(n);
      if (c > 0) expect(classCapacity(c - 1)).toBeLessThan(n);
      const b = classBelow(n);
      expect(classCapacity(b)).toBeLessThanOrEqual(n);
      expect(classCapacity(b + 1)).toBeGreaterThan(n);
    }
    // at the documented end of the range
    expect(classCapacity(classFor(2 ** 25))).toBe(2 ** 25);
  });
});

describe('ItemPool blocks', () => {
  it('hands out blocks of the class size, reuses freed blocks of the same class, counts live slots', () => {
    const pool = new ItemPool(4);
    const a = pool.alloc(5); // class of 6
    expect(pool.blockCap).toBe(6);
    const b = pool.alloc(1);
    expect(pool.blockCap).toBe(1);
    expect([a, b]).toEqual([0, 6]);
    expect(pool.top).toBe(7);
    expect(pool.live).toBe(7);
    expect(pool.capacity).toBeGreaterThanOrEqual(7);
    pool.free(a, 6);
    expect(pool.live).toBe(1);
    expect(pool.alloc(6)).toBe(a); // from the free list
    expect(pool.top).toBe(7);
    expect(pool.live).toBe(7);
    pool.free(0, 0); // nothing
    expect(pool.live).toBe(7);
  });

  it('files an exact-size block (from a bulk build) under the class that fits in it', () => {
    const pool = new ItemPool();
    pool.resetTo(5); // one bulk-built block of 5 at slot 0
    expect([pool.top, pool.live]).toEqual([5, 5]);
    pool.free(0, 5); // class of 4
    expect(pool.live).toBe(0);
    expect(pool.alloc(4)).toBe(0);
    expect(pool.blockCap).toBe(4);
    expect(pool.alloc(1)).toBe(5); // the fifth slot idles until a compaction
  });

  it('keeps the slots of live blocks when it grows', () => {
    const pool = new ItemPool(2);
    const s = pool.alloc(2);
    pool.xy[2 * s] = 1.5;
    pool.xy[2 * s + 3] = -7;
    pool.ids[s + 1] = 42;
    for (let k = 0; k < 50; k++) pool.alloc(3);
    expect(pool.xy[2 * s]).toBe(1.5);
    expect(pool.xy[2 * s + 3]).toBe(-7);
    expect(pool.ids[s + 1]).toBe(42);
  });

  it('asks for compaction when it must grow while more than a quarter idles in free lists', () => {
    const pool = new ItemPool(16);
    const blocks = Array.from({ length: 8 }, () => pool.alloc(2));
    for (const b of blocks.slice(0, 4)) pool.free(b, 2);
    expect(pool.compactDue).toBe(false);
    pool.alloc(3); // no free block of class 3: grows, with 8 of 16 slots idle
    expect(pool.compactDue).toBe(true);
  });

  it("compact writes the owners' blocks back to back (keeping their capacity) and updates start and idSlot", () => {
    const pool = new ItemPool(8);
    const start = new Int32Array(3);
    const cap = new Int32Array(3);
    const count = new Int32Array([2, 0, 3]);
    const idSlot = new Int32Array(10).fill(-1);
    pool.alloc(1); // a block freed below: a hole
    start[0] = pool.alloc(2);
    cap[0] = pool.blockCap;
    start[2] = pool.alloc(4);
    cap[2] = pool.blockCap;
    pool.free(0, 1);
    const put = (s: number, id: number, x: number) => {
      pool.ids[s] = id;
      pool.xy[2 * s] = x;
      pool.xy[2 * s + 1] = -x;
      idSlot[id] = s;
    };
    put(start[0], 7, 0.5);
    put(start[0] + 1, 3, 1.5);
    put(start[2], 9, 2.5);
    put(start[2] + 1, 0, 3.5);
    put(start[2] + 2, 5, 4.5);
    pool.compact(new Int32Array([2, 0]), 2, start, cap, count, idSlot);
    // Blocks keep their capacity (4 and 2); only the freed hole is reclaimed.
    expect([start[2], cap[2], start[0], cap[0]]).toEqual([0, 4, 4, 2]);
    expect(pool.top).toBe(6);
    expect(pool.live).toBe(6);
    expect(pool.compactDue).toBe(false);
    expect([...pool.ids.subarray(0, 3)]).toEqual([9, 0, 5]);
    expect([...pool.ids.subarray(4, 6)]).toEqual([7, 3]);
    expect([...pool.xy.subarray(0, 6)]).toEqual([2.5, -2.5, 3.5, -3.5, 4.5, -4.5]);
    expect([...pool.xy.subarray(8, 12)]).toEqual([0.5, -0.5, 1.5, -1.5]);
    for (const id of [9, 0, 5, 7, 3]) expect(pool.ids[idSlot[id]]).toBe(id);
    expect(pool.freeLists.every((h) => h === -1)).toBe(true);
  });

  it('compact into new arrays copies every block, the one already at its place too', () => {
    const pool = new ItemPool(8);
    const start = new Int32Array(2);
    const cap = new Int32Array(2);
    const count = new Int32Array([2, 1]);
    const idSlot = new Int32Array(4).fill(-1);
    start[0] = pool.alloc(2); // slot 0: where compaction puts it again
    cap[0] = pool.blockCap;
    pool.alloc(1); // a hole, freed below
    start[1] = pool.alloc(1);
    cap[1] = pool.blockCap;
    pool.free(start[0] + 2, 1);
    const ids = [2, 0, 3];
    const slots = [start[0], start[0] + 1, start[1]];
    for (let k = 0; k < 3; k++) {
      pool.ids[slots[k]] = ids[k];
      pool.xy[2 * slots[k]] = k + 0.25;
      pool.xy[2 * slots[k] + 1] = -k;
      idSlot[ids[k]] = slots[k];
    }
    const before = pool.ids;
    pool.compact(new Int32Array([0, 1]), 2, start, cap, count, idSlot);
    // Too small to compact in place (an eighth and 64 slots to spare): new arrays.
    expect(pool.ids).not.toBe(before);
    expect([start[0], start[1]]).toEqual([0, 2]);
    for (let k = 0; k < 3; k++) {
      const s = idSlot[ids[k]];
      expect(pool.ids[s]).toBe(ids[k]);
      expect([pool.xy[2 * s], pool.xy[2 * s + 1]]).toEqual([k + 0.25, -k]);
    }
  });

  it('asks for compaction an eighth before it must grow when more than a quarter idles', () => {
    const pool = new ItemPool(64);
    const blocks = Array.from({ length: 19 }, () => pool.alloc(3)); // 57 of 64 slots
    for (const b of blocks.slice(0, 9)) pool.free(b, 3); // 27 of 57 idle
    expect(pool.compactDue).toBe(false);
    pool.alloc(1); // from the top: 58 > 64 - 8, with almost half idle
    expect(pool.compactDue).toBe(true);
    expect(pool.capacity).toBe(64); // not grown
  });

  it('seed 5: compact slides blocks down in place where the arrays have room (keeps them, order of starts)', () => {
    const rnd = mulberry32(5);
    const pool = new ItemPool(4096);
    const owners = 40;
    const start = new Int32Array(owners);
    const cap = new Int32Array(owners);
    const count = new Int32Array(owners);
    const idSlot = new Int32Array(owners * 16).fill(-1);
    let id = 0;
    for (let o = 0; o < owners; o++) {
      if (rnd() < 0.5) pool.free(pool.alloc(1 + Math.floor(rnd() * 12)), pool.blockCap); // holes
      start[o] = pool.alloc(1 + Math.floor(rnd() * 12));
      cap[o] = pool.blockCap;
      count[o] = 1 + Math.floor(rnd() * cap[o]);
      for (let i = 0; i < count[o]; i++, id++) {
        const s = start[o] + i;
        pool.ids[s] = id;
        pool.xy[2 * s] = id + 0.25;
        pool.xy[2 * s + 1] = -id;
        idSlot[id] = s;
      }
    }
    const xy = pool.xy;
    const ids = pool.ids;
    const before = Array.from(start);
    const byStart = Array.from({ length: owners }, (_, o) => o).sort((a, b) => before[a] - before[b]);
    // Owners in a shuffled order: the blocks keep their order in the pool anyway.
    const list = Int32Array.from(byStart).reverse();
    pool.compact(list, owners, start, cap, count, idSlot);
    expect(pool.xy).toBe(xy);
    expect(pool.ids).toBe(ids);
    let to = 0;
    for (const o of byStart) {
      expect(start[o], `owner ${o}`).toBe(to);
      to += cap[o];
    }
    expect([pool.top, pool.live, pool.compactDue]).toEqual([to, to, false]);
    expect(pool.freeLists.every((h) => h === -1)).toBe(true);
    for (let k = 0; k < id; k++) {
      const s = idSlot[k];
      expect([pool.ids[s], pool.xy[2 * s], pool.xy[2 * s + 1]], `id ${k}`).toEqual([k, k + 0.25, -k]);
    }
  });

  it('seed 3: 5,000 random allocs and frees never hand out a slot twice', () => {
    const rnd = mulberry32(3);
    const pool = new ItemPool();
    const owned = new Map<number, number>(); // start -> capacity
    const starts: number[] = [];
    for (let step = 0; step < 5000; step++) {
      if (owned.size > 0 && rnd() < 0.45) {
        const k = Math.floor(rnd() * starts.length);
        const s = starts[k];
        starts[k] = starts[starts.length - 1];
        starts.pop();
        pool.free(s, owned.get(s)!);
        owned.delete(s);
      } else {
        const s = pool.alloc(1 + Math.floor(rnd() ** 3 * 200));
        owned.set(s, pool.blockCap);
        starts.push(s);
      }
      if (step % 500 === 0 || step === 4999) {
        // Problems are collected and asserted once per check: an expect per slot made this test slow
        // enough to time out on a busy machine.
        const problems: string[] = [];
        const used = new Uint8Array(pool.top);
        let live = 0;
        for (const [s, c] of owned) {
          if (s + c > pool.top) problems.push(`block ${s}+${c} past the pool's top ${pool.top}`);
          for (let k = s; k < s + c; k++) {
            if (used[k] !== 0) problems.push(`slot ${k} handed out twice`);
            used[k] = 1;
          }
          live += c;
        }
        // Free blocks lie inside the pool and never overlap a live one.
        for (let c = 0; c < pool.freeLists.length; c++) {
          for (let s = pool.freeLists[c]; s >= 0; s = pool.ids[s]) {
            for (let k = s; k < s + classCapacity(c); k++) {
              if (used[k] !== 0) problems.push(`free slot ${k} also ${used[k] === 1 ? 'live' : 'free'}`);
              used[k] = 2;
            }
          }
        }
        expect(problems, `step ${step}`).toEqual([]);
        expect(pool.live, `step ${step}`).toBe(live);
      }
    }
  });
});
