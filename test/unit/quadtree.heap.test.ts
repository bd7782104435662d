import { NearestK, NodeQueue } from 'point-quadtree/internal/core/heap';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';

describe('NodeQueue (min-heap of nodes by distance)', () => {
  it('seed 1: pops 2,000 random entries in ascending distance, growing past its first size', () => {
    const rnd = mulberry32(1);
    const q = new NodeQueue();
    const dists: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const d = rnd() < 0.1 ? 0 : Math.floor(rnd() * 500); // ties and zeros
      dists.push(d);
      q.push(i, d);
    }
    expect(q.size).toBe(2000);
    const popped: number[] = [];
    const seen = new Set<number>();
    while (q.size > 0) {
      const node = q.topNode();
      expect(dists[node]).toBe(q.topDist());
      seen.add(node);
      popped.push(q.topDist());
      q.pop();
    }
    expect(popped).toEqual([...dists].sort((a, b) => a - b));
    expect(seen.size).toBe(2000);
  });

  it('interleaves pushes and pops (as nearest does) and clears', () => {
    const q = new NodeQueue();
    q.push(7, 5);
    q.push(8, 1);
    expect([q.topNode(), q.topDist()]).toEqual([8, 1]);
    q.pop();
    q.push(9, 3);
    expect(q.topNode()).toBe(9);
    q.pop();
    expect(q.topNode()).toBe(7);
    q.clear();
    expect(q.size).toBe(0);
  });
});

describe('NearestK (the best k of the items offered)', () => {
  for (const seed of [2, 3]) {
    it(`seed ${seed}: keeps the k smallest distances and drains them nearest first`, () => {
      const rnd = mulberry32(seed);
      const best = new NearestK();
      for (const k of [0, 1, 3, 16, 50]) {
        best.reset(k);
        const offered: number[] = [];
        for (let i = 0; i < 300; i++) {
          const d = Math.floor(rnd() * 100);
          offered.push(d);
          best.offer(i, d);
        }
        expect(best.size).toBe(Math.min(k, 300));
        expect(best.full()).toBe(k <= 300);
        const out = [-1]; // drainInto appends
        best.drainInto(out);
        expect(out[0]).toBe(-1);
        expect(out.slice(1).map((id) => offered[id])).toEqual([...offered].sort((a, b) => a - b).slice(0, k));
        expect(new Set(out).size).toBe(out.length);
        expect(best.size).toBe(0);
      }
    });
  }

  it('its worst() is the bound a search uses once it is full', () => {
    const best = new NearestK();
    best.reset(2);
    best.offer(0, 9);
    expect(best.full()).toBe(false);
    best.offer(1, 4);
    expect([best.full(), best.worst()]).toEqual([true, 9]);
    best.offer(2, 1);
    expect(best.worst()).toBe(4);
    best.offer(3, 4); // a tie with the worst: not nearer, not kept
    const out: number[] = [];
    best.drainInto(out);
    expect(out).toEqual([2, 1]);
  });
});
